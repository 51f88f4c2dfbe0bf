"""`torchrun --nproc-per-node=4 -m paddle_on_torch ap_pipeline.py CASE...`: dist.to_static with
Strategy.pipeline on torch.distributed.pipelining, against the same layers trained in this process
without any distribution (the batch cut into accumulate_steps micro-batches, mean loss, one step).

Cases (4 ranks):
  dp2_<mode>      two stages, meshes [0,1] and [2,3], each data-parallel over 2 (the seed's layout)
  pp4_<mode>_<k>  four stages of one rank made by dist.parallelize(pp_config), k micro-batches
  vpp             two meshes visited twice each (mesh0, mesh1, mesh0, mesh1): 4 stages, 2 per rank
Prints `OK CASE rank=R loss=[...]` when the losses (on the last stage) and the parameters (on the
ranks that hold them) after 3 steps equal the reference to 1e-5; raises otherwise."""
import sys

import numpy as np
import paddle
import paddle.distributed as dist

STEPS, BATCH, WIDTH = 3, 8, 16


def data(step):
    rng = np.random.RandomState(100 + step)
    return rng.randn(BATCH, WIDTH).astype("float32"), rng.randn(BATCH, WIDTH).astype("float32")


def layers(n):
    paddle.seed(7)
    return [paddle.nn.Linear(WIDTH, WIDTH) for _ in range(n)]


def reference(n, acc, lr=0.05):
    net = layers(n)
    params = [p for layer in net for p in layer.parameters()]
    opt = paddle.optimizer.AdamW(lr, parameters=params)
    losses = []
    for s in range(STEPS):
        x, y = (paddle.to_tensor(v) for v in data(s))
        total = 0.0
        for xs, ys in zip(paddle.split(x, acc), paddle.split(y, acc)):
            h = xs
            for layer in net:
                h = paddle.nn.functional.gelu(layer(h))
            loss = paddle.nn.functional.mse_loss(h, ys)
            (loss / acc).backward()
            total += float(loss) / acc
        opt.step()
        opt.clear_grad()
        losses.append(total)
    return losses, [p.numpy() for p in params]


class Chain(paddle.nn.Layer):
    """Layer i lives on meshes[i]; the forward reshards to the next layer's mesh where it changes."""

    def __init__(self, meshes, dp):
        super().__init__()
        self.meshes = meshes
        self.fcs = paddle.nn.LayerList(layers(len(meshes)))
        for fc, m in zip(self.fcs, meshes):
            fc.weight = dist.shard_tensor(fc.weight, m, [dist.Replicate()])
            fc.bias = dist.shard_tensor(fc.bias, m, [dist.Replicate()])
        self.place = [dist.Shard(0)] if dp else [dist.Replicate()]

    def forward(self, x):
        for i, fc in enumerate(self.fcs):
            if i and self.meshes[i] != self.meshes[i - 1]:
                x = dist.reshard(x, self.meshes[i], self.place)
            x = paddle.nn.functional.gelu(fc(x))
        return x


class Seq(paddle.nn.Layer):
    def __init__(self, n):
        super().__init__()
        self.fcs = paddle.nn.LayerList(layers(n))

    def forward(self, x):
        for fc in self.fcs:
            x = paddle.nn.functional.gelu(fc(x))
        return x


def run(case):
    parts = case.split("_")
    kind, mode = parts[0], parts[1] if len(parts) > 1 else "VPP"
    acc = int(parts[2]) if len(parts) > 2 else 4
    strategy = dist.Strategy()
    strategy.pipeline.enable = True
    strategy.pipeline.schedule_mode = mode
    strategy.pipeline.accumulate_steps = acc
    strategy.pipeline.micro_batch_size = BATCH // acc
    m0, m1 = dist.ProcessMesh([0, 1], dim_names=["dp"]), dist.ProcessMesh([2, 3], dim_names=["dp"])
    if kind == "dp2":
        model, first, last, place = Chain([m0, m1], dp=True), m0, m1, [dist.Shard(0)]
        opt = paddle.optimizer.AdamW(0.05, parameters=model.parameters())
    elif kind == "vpp":
        strategy.pipeline.vpp_degree = 2
        model, first, last, place = Chain([m0, m1, m0, m1], dp=True), m0, m1, [dist.Shard(0)]
        opt = paddle.optimizer.AdamW(0.05, parameters=model.parameters())
    else:
        mesh = dist.ProcessMesh([0, 1, 2, 3], dim_names=["pp"])
        model = Seq(4)
        opt = paddle.optimizer.AdamW(0.05, parameters=model.parameters())
        model, opt = dist.parallelize(model, opt, mesh, {"pp_config": {"split_spec": "fcs"}})
        first, last = dist.ProcessMesh([0], dim_names=["pp"]), dist.ProcessMesh([3], dim_names=["pp"])
        place = [dist.Replicate()]
    n = len(model.fcs)
    want_loss, want_params = reference(n, acc)
    dm = dist.to_static(model, None, paddle.nn.MSELoss(), opt, strategy=strategy)
    got = []
    for s in range(STEPS):
        x, y = data(s)
        got.append(dm(dist.shard_tensor(x, first, place), dist.shard_tensor(y, last, place)))
    rank = dist.get_rank()
    if rank in last.process_ids:
        np.testing.assert_allclose([float(v) for v in got], want_loss, rtol=1e-5, atol=1e-6, err_msg=case)
    else:
        assert all(v is None for v in got), (case, got)
    params = model.parameters()
    for p, w in zip(params, want_params):
        if rank in p.process_mesh.process_ids:
            # (weights after AdamW: its m / sqrt(v) step turns the micro-batches' float32 summation order into
            # ~1e-5 on single elements, as in vpp's interleaved accumulation)
            np.testing.assert_allclose(p._local_value().numpy(), w, rtol=1e-5, atol=2e-5, err_msg=f"{case} {p.name}")
    print(f"OK {case} rank={rank} loss={[None if v is None else round(float(v), 6) for v in got]}", flush=True)


dist.init_parallel_env()
for case in sys.argv[1:]:
    run(case)
dist.barrier()
