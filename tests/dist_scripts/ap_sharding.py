"""shard_optimizer with each sharding stage on 4 gloo ranks equals one process's training (run under torchrun)."""
import numpy as np
import paddle
import paddle.distributed as dist

dist.init_parallel_env()
rank = dist.get_rank()
STEPS = 3


def make(seed=7):
    paddle.seed(seed)
    return paddle.nn.Sequential(paddle.nn.Linear(8, 16), paddle.nn.GELU(), paddle.nn.Linear(16, 4))


def data(step):
    rng = np.random.RandomState(step)
    return rng.randn(8, 8).astype("float32"), rng.randn(8, 4).astype("float32")


def reference(opt_cls, clip=None):
    net = make()
    opt = opt_cls(net.parameters(), clip)
    losses = []
    for s in range(STEPS):
        x, y = data(s)
        loss = paddle.nn.functional.mse_loss(net(paddle.to_tensor(x)), paddle.to_tensor(y))
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return losses, [p.numpy() for p in net.parameters()]


def adamw(params, clip=None):
    return paddle.optimizer.AdamW(learning_rate=0.05, parameters=params, weight_decay=0.01, grad_clip=clip)


def sgd(params, clip=None):
    return paddle.optimizer.SGD(learning_rate=0.1, parameters=params, grad_clip=clip)


def run(mesh, stage, opt_cls, tp=False, clip=None, data_dim="dp"):
    net = make()
    if tp:  # column- then row-parallel on 'mp' (Paddle's [in, out] Linear layout)
        mp = mesh.dim_names.index("mp")
        pl = [dist.Replicate()] * mesh.ndim
        col, row, colb = list(pl), list(pl), list(pl)
        col[mp], colb[mp], row[mp] = dist.Shard(1), dist.Shard(0), dist.Shard(0)
        net[0].weight = dist.shard_tensor(net[0].weight, mesh, col)
        net[0].bias = dist.shard_tensor(net[0].bias, mesh, colb)
        net[2].weight = dist.shard_tensor(net[2].weight, mesh, row)
    dist.shard_layer(net, mesh)
    opt = opt_cls(net.parameters(), clip)
    fn = None if stage is None else getattr(dist, f"ShardingStage{stage}")(data_dim, mesh)
    opt = dist.shard_optimizer(opt, fn)
    dp = mesh.dim_names.index(data_dim)
    xpl = [dist.Replicate()] * mesh.ndim
    xpl[dp] = dist.Shard(0)
    losses = []
    for s in range(STEPS):
        x, y = data(s)
        out = net(dist.shard_tensor(paddle.to_tensor(x), mesh, xpl))
        loss = paddle.nn.functional.mse_loss(out, dist.shard_tensor(paddle.to_tensor(y), mesh, xpl))
        loss.backward()
        if stage in (2, 3) and s == 0:
            # stage 2/3: gradients are kept reduce-scattered over the sharding axis
            g = net[2].weight.grad
            assert g.is_dist() and g.placements[dp].is_shard(), g.placements
        opt.step()
        opt.clear_grad()
        losses.append(float(loss) if rank in mesh.process_ids else None)
    if stage == 3:
        assert net[0].weight.placements[dp] == dist.Shard(0), net[0].weight.placements
    if rank not in mesh.process_ids:
        return None
    sd = opt.state_dict()
    moments = [v for k, v in sd.items() if "moment1" in k]
    if stage is not None and moments:
        for v in moments:  # sharded over dp (a 1-D bias already sharded on mp has no dim left: as Paddle)
            assert v.is_dist() and v._local_value().size < v.size, (v.name, v.placements)
        assert sum(v.placements[dp].is_shard() for v in moments) >= 3, [v.placements for v in moments]
        betas = [v for k, v in sd.items() if "beta1_pow" in k]
        assert betas and all(b.placements == [dist.Replicate()] * mesh.ndim for b in betas)
    if rank not in mesh.process_ids:
        return None
    params = [dist.unshard_dtensor(p).numpy() for p in net.parameters()]
    return losses, params


def check(name, got, want):
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5, atol=1e-6, err_msg=name)
    for a, b in zip(got[1], want[1]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6, err_msg=name)
    print("OK", name, flush=True)


dp_mesh = dist.ProcessMesh([0, 1], dim_names=["dp"])  # two ranks only: 2 and 3 take no part in it
mesh2d = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["dp", "mp"])
ref_adamw, ref_sgd = reference(adamw), reference(sgd)
for stage in (None, 1, 2, 3):
    check(f"stage{stage}-2d-tp-adamw", run(mesh2d, stage, adamw, tp=True), ref_adamw)
check("stage1-2d-sgd", run(mesh2d, 1, sgd), ref_sgd)
check("stage3-2d-sgd", run(mesh2d, 3, sgd), ref_sgd)
clip = paddle.nn.ClipGradByGlobalNorm(0.05)
check("stage2-2d-tp-clip", run(mesh2d, 2, adamw, tp=True, clip=clip), reference(adamw, clip))
got = run(dp_mesh, 1, adamw)  # every rank runs it; ranks 2 and 3 hold no piece and leave it alone
if rank < 2:
    check("stage1-1d", got, ref_adamw)
dist.barrier()
print("ALL OK", flush=True)
