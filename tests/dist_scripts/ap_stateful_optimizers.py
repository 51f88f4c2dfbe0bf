"""Stateful optimizers on shard_tensor'd parameters without shard_optimizer, on 2 gloo ranks, equal one
process's training; their accumulators are dist tensors with the parameter's mesh and placements, as in
Paddle's auto-parallel dygraph, also after resuming from a dense state dict (run under torchrun)."""
import numpy as np
import paddle
import paddle.distributed as dist

dist.init_parallel_env()
rank = dist.get_rank()
STEPS = 3
RESUME_AT = 2
O = paddle.optimizer
OPTIMIZERS = {
    "adam": lambda ps: O.Adam(0.05, parameters=ps),
    "adamw_amsgrad": lambda ps: O.AdamW(0.05, parameters=ps, weight_decay=0.01, amsgrad=True),
    "momentum": lambda ps: O.Momentum(0.1, momentum=0.9, parameters=ps),
    "momentum_nesterov_l2": lambda ps: O.Momentum(0.1, momentum=0.8, parameters=ps, use_nesterov=True,
                                                  weight_decay=0.01),
    "sgd_l2": lambda ps: O.SGD(0.1, parameters=ps, weight_decay=0.01),
}


def make():
    paddle.seed(7)
    return paddle.nn.Sequential(paddle.nn.Linear(8, 16), paddle.nn.GELU(), paddle.nn.Linear(16, 4))


def data(step):
    rng = np.random.RandomState(step)
    return rng.randn(8, 8).astype("float32"), rng.randn(8, 4).astype("float32")


def train(make_opt, mesh=None, data_parallel=False):
    """data_parallel: every parameter replicated and the batch split over the mesh (Partial gradients);
    else column- then row-parallel layers (Paddle's [in, out] Linear layout), the last bias replicated."""
    net = make()
    if data_parallel:
        for layer in (net[0], net[2]):
            layer.weight = dist.shard_tensor(layer.weight, mesh, [dist.Replicate()])
            layer.bias = dist.shard_tensor(layer.bias, mesh, [dist.Replicate()])
    elif mesh is not None:
        net[0].weight = dist.shard_tensor(net[0].weight, mesh, [dist.Shard(1)])
        net[0].bias = dist.shard_tensor(net[0].bias, mesh, [dist.Shard(0)])
        net[2].weight = dist.shard_tensor(net[2].weight, mesh, [dist.Shard(0)])
        net[2].bias = dist.shard_tensor(net[2].bias, mesh, [dist.Replicate()])
    opt = make_opt(net.parameters())
    losses = []
    for s in range(STEPS):
        if s == RESUME_AT and mesh is not None:
            # load a checkpoint written by one process: dense values into the dist accumulators (a fresh
            # optimizer in this process would name its accumulators _1, as Paddle's does)
            dense = {k: paddle.to_tensor(dist.unshard_dtensor(v).numpy()) if hasattr(v, "is_dist") and v.is_dist()
                     else v for k, v in opt.state_dict().items()}
            opt.set_state_dict(dense)
        x, y = (paddle.to_tensor(a) for a in data(s))
        if mesh is not None:
            batch = [dist.Shard(0) if data_parallel else dist.Replicate()]
            x, y = (dist.shard_tensor(a, mesh, batch) for a in (x, y))
        loss = paddle.nn.functional.mse_loss(net(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    if mesh is not None:
        by_name = {p.name: p for p in net.parameters()}
        for accs in opt._accumulators.values():
            for pname, acc in accs.items():
                p = by_name[pname]
                assert acc.is_dist() and acc.process_mesh == mesh, (pname, acc)
                if acc.shape == p.shape:  # moments and velocities: the parameter's placements
                    assert acc.placements == p.placements, (pname, acc.placements, p.placements)
                else:  # the [1] beta powers: replicated
                    assert acc.placements == [dist.Replicate()], (pname, acc.placements)
        params = [dist.unshard_dtensor(p).numpy() for p in net.parameters()]
    else:
        params = [p.numpy() for p in net.parameters()]
    return losses, params


mesh = dist.ProcessMesh([0, 1], dim_names=["x"])
for name, make_opt in OPTIMIZERS.items():
    ref_losses, ref_params = train(make_opt)
    for data_parallel in (False, True):
        losses, params = train(make_opt, mesh, data_parallel)
        np.testing.assert_allclose(losses, ref_losses, rtol=1e-5, atol=1e-6)
        for a, b in zip(params, ref_params, strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    print("OK", name, flush=True)
print("ALL OK", flush=True)
