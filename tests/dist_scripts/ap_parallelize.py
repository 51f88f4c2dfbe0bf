"""dist.parallelize with dp / mp (incl. sequence parallel) / pp configs on 4 gloo ranks equals one process; the
auto-parallel MoE sub-mesh views (api.moe_global_mesh_tensor / moe_sub_mesh_tensors) share the launch."""
import sys

import numpy as np
import paddle
import paddle.distributed as dist

dist.init_parallel_env()
rank = dist.get_rank()
STEPS = 3


class Block(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.norm = paddle.nn.LayerNorm(8)
        self.up = paddle.nn.Linear(8, 16)
        self.down = paddle.nn.Linear(16, 8)

    def forward(self, x):
        return x + self.down(paddle.nn.functional.gelu(self.up(self.norm(x))))


class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.pre = paddle.nn.Linear(8, 8)
        self.layers = paddle.nn.LayerList([Block(), Block()])
        self.head = paddle.nn.Linear(8, 4)

    def forward(self, x):
        x = self.pre(x)
        for layer in self.layers:
            x = layer(x)
        return self.head(x)


def data(step):
    rng = np.random.RandomState(step)
    return rng.randn(4, 6, 8).astype("float32"), rng.randn(4, 6, 4).astype("float32")


def train(net, opt, place_x=None, place_y=None):
    losses = []
    for s in range(STEPS):
        x, y = (paddle.to_tensor(v) for v in data(s))
        if place_x is not None:
            x, y = place_x(x), place_y(y)
        loss = paddle.nn.functional.mse_loss(net(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss) if not loss.is_dist() or rank in loss.process_mesh.process_ids else None)
    return losses


def make():
    paddle.seed(11)
    net = Net()
    return net, paddle.optimizer.AdamW(learning_rate=0.01, parameters=net.parameters(), weight_decay=0.01)


def reference():
    net, opt = make()
    losses = train(net, opt)
    return losses, {n: p.numpy() for n, p in net.named_parameters()}


def placer(mesh, stage):
    m = mesh.get_mesh_with_dim("pp", stage) if "pp" in mesh.dim_names else mesh
    pl = [dist.Replicate()] * m.ndim
    if "dp" in m.dim_names:
        pl[m.dim_names.index("dp")] = dist.Shard(0)
    return lambda t: dist.shard_tensor(t, m, pl)


def check(name, mesh, config, last_stage, want):
    net, opt = make()
    net, opt = dist.parallelize(net, opt, mesh, config)
    assert all(p.is_dist() for p in net.parameters())
    losses = train(net, opt, placer(mesh, 0), placer(mesh, last_stage))
    if losses[0] is not None:
        np.testing.assert_allclose(losses, want[0], rtol=1e-5, atol=1e-6, err_msg=name)
    for n, p in net.named_parameters():
        if rank in p.process_mesh.process_ids:
            np.testing.assert_allclose(dist.unshard_dtensor(p).numpy(), want[1][n], rtol=1e-5, atol=1e-6,
                                       err_msg=f"{name} {n}")
    print("OK", name, "loss" if losses[0] is not None else "no-loss", flush=True)
    return net, opt


want = reference()
tp_plan = {"layers.\\d+.up": dist.ColWiseParallel(), "layers.\\d+.down": dist.RowWiseParallel()}
sp_plan = dict(tp_plan, **{"pre": dist.SequenceParallelBegin(need_transpose=False),
                           "layers.\\d+": dist.SequenceParallelDisable(need_transpose=False),
                           "head": dist.SequenceParallelEnd(need_transpose=False)})
dpmp = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["dp", "mp"])
net, _ = check("dp-mp-sp-stage1", dpmp, {"dp_config": {"sharding_level": 1}, "mp_config": {"parallelize_plan": sp_plan}},
               0, want)
w = net.layers[0].up.weight
assert w.placements == [dist.Replicate(), dist.Shard(1)] and w._local_value().shape == [8, 8], (w.placements,)
assert net.layers[0].down.weight.placements == [dist.Replicate(), dist.Shard(0)]
assert net.layers[0].up.bias.placements == [dist.Replicate(), dist.Shard(0)]
check("dp-mp-stage3", dpmp, {"dp_config": {"sharding_level": 3}, "mp_config": {"parallelize_plan": tp_plan}}, 0, want)
ppdp = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["pp", "dp"])
net, _ = check("pp-dp-stage2", ppdp, {"dp_config": {"sharding_level": 2}, "pp_config": {"split_spec": "layers"}}, 1,
               want)
assert net.layers[0].up.weight.process_mesh.process_ids == [0, 1]
assert net.head.weight.process_mesh.process_ids == [2, 3]
ppmp = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["pp", "mp"])
check("pp-mp-splitpoint", ppmp, {"mp_config": {"parallelize_plan": tp_plan},
                                 "pp_config": {"split_spec": {"layers.0": dist.SplitPoint.END}}}, 1, want)


def moe_views():
    """api.moe_global_mesh_tensor / moe_sub_mesh_tensors on a 2 x 2 mesh split along 'ep' (one expert's weight
    per sub-mesh): the global tensor is the experts' weights stacked, each process keeps its piece, the gradients
    come back to the pieces; values known in closed form."""
    from paddle.distributed.auto_parallel.api import moe_global_mesh_tensor, moe_sub_mesh_tensors, split_mesh

    mesh = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["ep", "mp"])
    subs = split_mesh(mesh, 0)
    mine = rank // 2  # this process's sub-mesh
    experts = []
    for i, sub in enumerate(subs):
        e = dist.shard_tensor(paddle.arange(6, dtype="float32").reshape([2, 3]) * (i + 1), sub,
                              [dist.Replicate(), dist.Replicate()])
        e.stop_gradient = False
        experts.append(e)
    g = moe_global_mesh_tensor(experts, mesh, [dist.Shard(0), dist.Replicate()], local_mesh_dim=0)
    full = np.concatenate([np.arange(6, dtype="float32").reshape(2, 3) * (i + 1) for i in range(2)])
    assert g.shape == [4, 3] and g.placements == [dist.Shard(0), dist.Replicate()], (g.shape, g.placements)
    np.testing.assert_array_equal(dist.unshard_dtensor(g).numpy(), full)
    (g * g).sum().backward()
    np.testing.assert_array_equal(experts[mine].grad._local_value().numpy(), 2 * full[2 * mine:2 * mine + 2])
    w = dist.shard_tensor(paddle.to_tensor(full), mesh, [dist.Shard(0), dist.Replicate()])
    w.stop_gradient = False
    outs = moe_sub_mesh_tensors(w, mesh, 0, [dist.Shard(0), dist.Replicate()])
    assert [o.shape for o in outs] == [[2, 3], [2, 3]] and outs[mine].process_mesh == subs[mine]
    np.testing.assert_array_equal(outs[mine]._local_value().numpy(), full[2 * mine:2 * mine + 2])
    (outs[mine] * (mine + 1)).sum().backward()
    np.testing.assert_array_equal(dist.unshard_dtensor(w.grad).numpy(), np.repeat([[1.0], [2.0]], 6).reshape(4, 3))
    back = moe_global_mesh_tensor(outs, mesh, [dist.Shard(0), dist.Replicate()], local_mesh_dim=0)
    np.testing.assert_array_equal(dist.unshard_dtensor(back).numpy(), full)
    print("OK moe-views", flush=True)


moe_views()
dist.barrier()
print("ALL OK", flush=True)
