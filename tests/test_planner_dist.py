"""Plans applied on 4 gloo ranks compute what one process computes (loss and every gradient), and
run exactly the collectives the plan lists.

The job is this file run under torchrun (`python -m torch.distributed.run --nproc-per-node=4 -m
paddle_on_torch tests/test_planner_dist.py job`); the pytest test launches it and reads each rank's
report.  Every rank plans (rank 0's plan is broadcast), applies the plan, runs one training step
on the global batch, and compares with the same step of an unsharded copy of the layer.
"""
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.dist

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dist_job = pytest.mark.dist


def _job():
    import copy

    import numpy as np
    import paddle
    import paddle.distributed as dist
    import torch.distributed as tdist
    from paddle_on_torch import parallel

    dist.init_parallel_env()
    rank = dist.get_rank()

    class MLP(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.l1 = paddle.nn.Linear(64, 256)
            self.l2 = paddle.nn.Linear(256, 64)

        def forward(self, x):
            return self.l2(paddle.nn.functional.gelu(self.l1(x)))

    F = paddle.nn.functional

    class Net(paddle.nn.Layer):  # two residual MLPs with a LayerNorm between
        def __init__(self, h=64):
            super().__init__()
            self.l1, self.l2 = paddle.nn.Linear(h, 4 * h), paddle.nn.Linear(4 * h, h)
            self.ln = paddle.nn.LayerNorm(h)
            self.l3, self.l4 = paddle.nn.Linear(h, 4 * h), paddle.nn.Linear(4 * h, h)

        def forward(self, x):
            x = x + self.l2(F.gelu(self.l1(x)))
            return x + self.l4(F.gelu(self.l3(self.ln(x))))

    cases = [
        # 1-D mesh, memory too small for replicated parameters: Megatron column/row
        ("tp", dist.ProcessMesh([0, 1, 2, 3], dim_names=["x"]), [dist.Shard(0)], 0.5, 64),
        # a replicated input, tensor parallel under a memory limit, and an activation reshard (the
        # sequence-parallel style Shard(0) of l2's output): the forward hook and its backward run
        ("sp", dist.ProcessMesh([0, 1, 2, 3], dim_names=["x"]), [dist.Replicate()], 0.5, 256),
        # 1-D mesh, no limit, a batch large enough for the gradient all-reduce to be the cheapest: DP
        ("dp", dist.ProcessMesh([0, 1, 2, 3], dim_names=["x"]), [dist.Shard(0)], None, 1024),
        # 2-D mesh, batch on dp: dp + Megatron on mp
        ("dp_mp", dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["dp", "mp"]), [dist.Shard(0), dist.Replicate()],
         None, 4096),
    ]
    for name, mesh, mark, frac, batch in cases:
        paddle.seed(7)
        model = Net() if name == "sp" else MLP()
        ref = copy.deepcopy(model)
        x = paddle.to_tensor(np.random.RandomState(3).standard_normal([batch, 64]).astype("float32"))
        full_mem = 4 * sum(int(np.prod(p.shape)) * 4 for p in model.parameters())
        # the step run below must be the step planned (its loss too): the collectives are compared
        plan = parallel.plan(model, [x], mesh, marks={0: mark}, loss_fn=lambda out: paddle.mean(out),
                             memory_limit=None if frac is None else full_mem * frac)
        plan.apply(model)
        loss, ref_loss, ran, planned = _planned_step(paddle, model, ref, plan, x)
        err = abs(float(loss) - float(ref_loss))
        for (pn, p), (_, q) in zip(model.named_parameters(), ref.named_parameters()):
            g = p._t.grad.full_tensor() if hasattr(p._t.grad, "full_tensor") else p._t.grad
            err = max(err, float((g - q._t.grad).abs().max()))
        placements = ";".join(f"{k}={v}" for k, v in plan.parameter_placements.items())
        placements += "".join(f";{r['name']}:out={r['placements']}" for r in plan.reshards)
        print(f"CASE {name} rank={rank} err={err:.3e} {placements}", flush=True)
        print(f"COMMS {name} rank={rank} ran={ran} planned={planned}", flush=True)
    _gpt_case(paddle, dist, rank)
    _cnn_case(paddle, dist, rank)
    _to_static_case(paddle, dist, MLP, rank)
    _to_static_case(paddle, dist, MLP, rank, premarked=True)
    _parallelize_case(paddle, dist, MLP, rank)
    tdist.barrier()
    tdist.destroy_process_group()


def _gpt_case(paddle, dist, rank):
    """A GPT block on a 2x2 mesh, batch on dp, the hand Megatron weights marked and the activations
    planned (the plan redistributes proj's, fc1's and fc2's outputs; attention runs with batch and
    heads split on the two mesh dims): same loss and gradients as one process, the planned
    collectives."""
    import copy

    import numpy as np
    from paddle_on_torch import parallel

    sys.path.insert(0, os.path.join(ROOT, "bench"))
    from planner import Block, hand_marks

    paddle.seed(7)
    model = Block(64, 4)
    ref = copy.deepcopy(model)
    mesh = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["dp", "mp"])
    x = paddle.to_tensor(np.random.RandomState(3).standard_normal([4, 64, 64]).astype("float32"))
    plan = parallel.plan(model, [x], mesh, marks={0: [dist.Shard(0), dist.Replicate()], **hand_marks(model, mesh)},
                         loss_fn=lambda out: paddle.mean(out))
    plan.apply(model)
    loss, ref_loss, ran, planned = _planned_step(paddle, model, ref, plan, x)
    err = abs(float(loss) - float(ref_loss))
    for (_, p), (_, q) in zip(model.named_parameters(), ref.named_parameters()):
        err = max(err, float((p._t.grad.full_tensor() - q._t.grad).abs().max()))
    placements = ";".join(f"{r['name']}:out={r['placements']}" for r in plan.reshards)
    print(f"CASE gpt rank={rank} err={err:.3e} {placements.replace(' ', '')}", flush=True)
    print(f"COMMS gpt rank={rank} ran={ran} planned={planned}", flush=True)


def _cnn_case(paddle, dist, rank):
    """A conv net with BatchNorm on 2x2, batch on dp: the running statistics are planned where DTensor
    runs the op (it splits BatchNorm over channels on mp), so after the step they equal one process's;
    loss, gradients and collectives as planned."""
    import copy

    import numpy as np
    from paddle_on_torch import parallel

    sys.path.insert(0, ROOT)
    from tests.planner_models import cnn

    paddle.seed(5)
    model = cnn(paddle)
    ref = copy.deepcopy(model)
    mesh = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["dp", "mp"])
    x = paddle.to_tensor(np.random.RandomState(3).standard_normal([8, 3, 8, 8]).astype("float32"))
    plan = parallel.plan(model, [x], mesh, marks={0: [dist.Shard(0), dist.Replicate()]},
                         loss_fn=lambda out: paddle.mean(out))
    plan.apply(model)
    loss, ref_loss, ran, planned = _planned_step(paddle, model, ref, plan, x)
    err = abs(float(loss) - float(ref_loss))
    for (_, p), (_, q) in zip(model.named_parameters(), ref.named_parameters()):
        err = max(err, float((p._t.full_tensor() - q._t).abs().max()))  # the running statistics too
        if q._t.grad is not None:
            err = max(err, float((p._t.grad.full_tensor() - q._t.grad).abs().max()))
    placements = ";".join(f"{lf['name']}={lf['placements']}" for lf in plan.leaves if lf["kind"] == "state")
    print(f"CASE cnn rank={rank} err={err:.3e} {placements.replace(' ', '')}", flush=True)
    print(f"COMMS cnn rank={rank} ran={ran} planned={planned}", flush=True)


def _parallelize_case(paddle, dist, MLP, rank):
    """dist.parallelize with config {"auto_plan": {example_inputs, marks, memory_limit}}: the planner
    places the parameters; losses over 3 SGD steps equal one process's."""
    import copy

    import numpy as np

    paddle.seed(13)
    model = MLP()
    ref = copy.deepcopy(model)
    mesh = dist.ProcessMesh([0, 1, 2, 3], dim_names=["dp"])
    x = paddle.to_tensor(np.random.RandomState(9).standard_normal([64, 64]).astype("float32"))
    full_mem = 4 * sum(int(np.prod(p.shape)) * 4 for p in model.parameters())
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    model, opt = dist.parallelize(model, opt, mesh, {"auto_plan": {
        "example_inputs": [x], "marks": {0: [dist.Shard(0)]}, "memory_limit": full_mem * 0.5}})
    ref_opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=ref.parameters())
    xs = dist.shard_tensor(x, mesh, [dist.Shard(0)])
    err = 0.0
    for _ in range(3):
        loss = paddle.mean(model(xs))
        loss.backward()
        opt.step()
        opt.clear_grad()
        ref_loss = paddle.mean(ref(x))
        ref_loss.backward()
        ref_opt.step()
        ref_opt.clear_grad()
        err = max(err, abs(float(loss) - float(ref_loss)))
    placements = ";".join(f"{n}={p.placements}" for n, p in model.named_parameters())
    print(f"CASE parallelize rank={rank} err={err:.3e} {placements}", flush=True)


def _planned_step(paddle, model, ref, plan, x):
    """One training step of the planned model (its collectives recorded: forward + backward, then each
    gradient to its parameter's layout, what an optimizer step does first) and of the unsharded copy."""
    from torch.distributed.tensor.debug import CommDebugMode

    with CommDebugMode() as fwd_bwd:
        loss = paddle.mean(model(plan.shard_inputs(x)))
        loss.backward()
    with CommDebugMode() as sync:
        for p in model.parameters():
            if p._t.grad is not None:
                p._t.grad.redistribute(p._t.device_mesh, p._t.placements)
    ref_loss = paddle.mean(ref(x))
    ref_loss.backward()
    ran = _counts(fwd_bwd) + "|" + _counts(sync)
    planned = _planned(plan, False) + "|" + _planned(plan, True)
    return loss, ref_loss, ran, planned


def _counts(mode):
    kinds = {"all_gather_into_tensor": "all_gather", "reduce_scatter_tensor": "reduce_scatter",
             "all_reduce": "all_reduce", "all_to_all_single": "all_to_all"}
    got = {}
    for op, n in mode.get_comm_counts().items():
        k = kinds.get(str(op).split(".")[-1], str(op))
        got[k] = got.get(k, 0) + n
    return ",".join(f"{k}:{got[k]}" for k in sorted(got))


def _planned(plan, gradient):
    got = {}
    for c in plan.collectives:
        if (c["why"] == "gradient") == gradient:
            # gloo has no all_to_all: DTensor runs a Shard(a) -> Shard(b) there as one all_gather
            kind = "all_gather" if c["kind"] == "all_to_all" else c["kind"]
            got[kind] = got.get(kind, 0) + 1
    return ",".join(f"{k}:{got[k]}" for k in sorted(got))


def _to_static_case(paddle, dist, MLP, rank, premarked=False):
    """dist.to_static with only the inputs marked (a shard_dataloader) and Strategy auto_plan: the
    planner places the parameters; losses over 3 SGD steps equal one process's on the global batch.
    `premarked`: the user placed l2.weight (Shard(0)) with shard_tensor first: it is kept, a mark,
    and the other parameters are planned around it; AdamW, whose moments must be split as their
    parameters are."""
    import copy

    import numpy as np

    class Data(paddle.io.Dataset):
        def __init__(self):
            rs = np.random.RandomState(5)
            self.x = rs.standard_normal([256, 64]).astype("float32")
            self.y = rs.standard_normal([256, 64]).astype("float32")

        def __getitem__(self, i):
            return self.x[i], self.y[i]

        def __len__(self):
            return 256

    paddle.seed(11)
    model = MLP()
    ref = copy.deepcopy(model)
    mesh = dist.ProcessMesh([0, 1, 2, 3], dim_names=["x"])
    if premarked:
        model.l2.weight = dist.shard_tensor(model.l2.weight, mesh, [dist.Shard(0)])
    loader = paddle.io.DataLoader(Data(), batch_sampler=paddle.io.BatchSampler(Data(), batch_size=64))
    loader = dist.shard_dataloader(loader, meshes=mesh, shard_dims="x")
    make_opt = (lambda ps: paddle.optimizer.AdamW(learning_rate=0.01, parameters=ps, weight_decay=0.01)) \
        if premarked else (lambda ps: paddle.optimizer.SGD(learning_rate=0.1, parameters=ps))
    opt = make_opt(model.parameters())
    full_mem = 4 * sum(int(np.prod(p.shape)) * 4 for p in model.parameters())
    strategy = dist.Strategy({"auto_plan": {"memory_limit": full_mem * 0.5}})
    dm = dist.to_static(model, loader, paddle.nn.MSELoss(), opt, strategy)
    dm.train()
    ref_opt = make_opt(ref.parameters())
    err = 0.0
    for step, (x, y) in enumerate(loader):
        if step == 3:
            break
        loss = dm(x, y)
        ref_loss = paddle.nn.functional.mse_loss(ref(dist.unshard_dtensor(x)), dist.unshard_dtensor(y))
        ref_loss.backward()
        ref_opt.step()
        ref_opt.clear_grad()
        err = max(err, abs(float(loss) - float(ref_loss)))
    placements = ";".join(f"{n}={p.placements}" for n, p in model.named_parameters())
    if premarked:  # each Adam moment holds this process's piece of its parameter
        moments = [(opt._accumulators[k][p.name]._t.shape, p._t.to_local().shape) for p in model.parameters()
                   for k in opt._accumulators if "moment" in k]
        placements += f";moments_split_as_parameters={len(moments) == 8 and all(a == b for a, b in moments)}"
    print(f"CASE to_static{'_premarked' if premarked else ''} rank={rank} err={err:.3e} {placements}", flush=True)


@dist_job
def test_planned_programs_match_one_process():
    import glob
    import tempfile

    with tempfile.TemporaryDirectory() as logs:
        cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=4",
               f"--log-dir={logs}", "--redirects=3", "-m", "paddle_on_torch", os.path.abspath(__file__), "job"]
        env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""), OMP_NUM_THREADS="1")
        p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        outs = "".join(open(f).read() for f in glob.glob(os.path.join(logs, "**", "stdout.log"), recursive=True))
        errs = "".join(open(f).read()[-2000:] for f in glob.glob(os.path.join(logs, "**", "stderr.log"),
                                                                 recursive=True))
    assert p.returncode == 0, f"torchrun failed:\n{p.stderr[-2000:]}\n{errs}"
    lines = [ln for ln in outs.splitlines() if ln.startswith("CASE ")]
    assert len(lines) == 36, outs
    plans = {}
    for ln in lines:
        _, name, _, err, placements = ln.split(" ", 4)
        assert float(err.split("=")[1]) < 1e-5, ln
        plans.setdefault(name, set()).add(placements)
    assert all(len(v) == 1 for v in plans.values()), plans  # every rank ran the same plan
    # the collectives DTensor ran (forward+backward | gradients to their parameters' layouts) are the
    # plan's, kind by kind and count by count
    comms = [ln for ln in outs.splitlines() if ln.startswith("COMMS ")]
    assert len(comms) == 24, outs
    for ln in comms:
        _, name, _, ran, planned = ln.split(" ")
        assert ran[len("ran="):] == planned[len("planned="):], ln
    tp, dp, dp_mp = (next(iter(plans[k])) for k in ("tp", "dp", "dp_mp"))
    assert "l1.weight=[Shard(dim=1)]" in tp and "l2.weight=[Shard(dim=0)]" in tp
    assert "l1.weight=[Replicate()]" in dp and "l2.weight=[Replicate()]" in dp
    assert "l1.weight=[Replicate(), Shard(dim=1)]" in dp_mp and "l2.weight=[Replicate(), Shard(dim=0)]" in dp_mp
    assert "l2:out=[S(0)]" in next(iter(plans["sp"]))  # an activation the plan redistributes
    assert "l1:out=[*]" in next(iter(plans["sp"]))
    assert any(not r.endswith("=[*,*]") for r in next(iter(plans["gpt"])).split(";"))  # reshards chosen
    assert "l1.weight=[Shard(dim=1)]" in next(iter(plans["to_static"]))  # planned: Megatron under the limit
    assert "l1.weight=[Shard(dim=1)]" in next(iter(plans["parallelize"]))
    premarked = next(iter(plans["to_static_premarked"]))
    assert "l2.weight=[Shard(dim=0)]" in premarked and "l1.weight=[Shard(dim=1)]" in premarked
    assert "moments_split_as_parameters=True" in premarked
    assert "bn._mean=[R,S(0)]" in next(iter(plans["cnn"]))  # where DTensor runs BatchNorm


if __name__ == "__main__" and sys.argv[-1] == "job":
    _job()
