"""Planner benchmark (issue 7): planning time for a 12-layer GPT at 8, 64 and 1024 simulated ranks
(fake process group, no processes), and the plan's estimated step time and communication against a
hand-written Megatron (column/row TP on the last mesh dim) + data-parallel plan of the same model.

    ~/oracle/bin/python -m paddle_on_torch bench/planner.py [--layers 12] [--hidden 768] [--ranks 8 64 1024]
"""
import argparse
import time

import paddle
import paddle.distributed as dist
import paddle.nn.functional as F
from paddle_on_torch import parallel


class Block(paddle.nn.Layer):
    def __init__(self, h, heads):
        super().__init__()
        self.h, self.heads = h, heads
        self.ln1 = paddle.nn.LayerNorm(h)
        self.q = paddle.nn.Linear(h, h)
        self.k = paddle.nn.Linear(h, h)
        self.v = paddle.nn.Linear(h, h)
        self.proj = paddle.nn.Linear(h, h)
        self.ln2 = paddle.nn.LayerNorm(h)
        self.fc1 = paddle.nn.Linear(h, 4 * h)
        self.fc2 = paddle.nn.Linear(4 * h, h)

    def forward(self, x):
        b, s, h = x.shape
        y = self.ln1(x)
        q, k, v = (t.reshape([b, s, self.heads, h // self.heads]).transpose([0, 2, 1, 3])
                   for t in (self.q(y), self.k(y), self.v(y)))
        att = F.softmax(paddle.matmul(q, k, transpose_y=True) / (h // self.heads) ** 0.5, axis=-1)
        y = paddle.matmul(att, v).transpose([0, 2, 1, 3]).reshape([b, s, h])
        x = x + self.proj(y)
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


class GPT(paddle.nn.Layer):
    def __init__(self, layers, h, heads):
        super().__init__()
        self.blocks = paddle.nn.LayerList([Block(h, heads) for _ in range(layers)])
        self.ln = paddle.nn.LayerNorm(h)

    def forward(self, x):
        for blk in self.blocks:
            x = blk(x)
        return self.ln(x)


MEGATRON = {"q.weight": 1, "q.bias": 0, "k.weight": 1, "k.bias": 0, "v.weight": 1, "v.bias": 0,
            "fc1.weight": 1, "fc1.bias": 0, "proj.weight": 0, "fc2.weight": 0}


def hand_marks(model, mesh):
    """Megatron TP on the last mesh dimension, everything replicated on the others."""
    marks = {}
    nd = len(mesh.shape)
    for name, p in model.named_parameters():
        pl = [dist.Replicate()] * nd
        for suffix, d in MEGATRON.items():
            if name.endswith(suffix):
                pl[-1] = dist.Shard(d)
        marks[name] = pl
    return marks


# this machine as the planner should see it for the --gloo measurement: 4 processes on 2 shared CPU
# cores (a few GFLOP/s each), gloo over loopback (about 1 GB/s, tens of microseconds per message);
# with the default (GPU cluster) Topology the plans would be optimised for another machine
CPU = parallel.Topology(ranks_per_node=4, intra_bandwidth=1e9, inter_bandwidth=1e9, intra_latency=5e-5,
                        inter_latency=5e-5, flops=5e9, memory_bandwidth=5e9)


def _gloo_job(layers, hidden, heads, seq, steps):
    """One rank of the --gloo measurement (run under torchrun with 4 processes)."""
    import statistics

    import numpy as np
    import torch.distributed as tdist

    dist.init_parallel_env()
    mesh = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["dp", "mp"])
    data = [dist.Shard(0), dist.Replicate()]
    x = paddle.to_tensor(np.random.RandomState(0).standard_normal([4, seq, hidden]).astype("float32"))
    runs = {}
    for name in ("planned", "hand"):
        paddle.seed(1)
        model = GPT(layers, hidden, heads)
        marks = {0: data} if name == "planned" else {0: data, **hand_marks(model, mesh)}
        plan = parallel.plan(model, [x], mesh, marks=marks, activations=name == "planned", topology=CPU)
        plan.apply(model)
        # a training step: forward, backward, AdamW (the optimizer the plan's memory assumes: 2 states)
        opt = dist.shard_optimizer(paddle.optimizer.AdamW(learning_rate=1e-4, parameters=model.parameters()))
        runs[name] = (model, opt, plan.shard_inputs(x), plan, [])
    # the two programs' steps alternate, so a change in the machine's load touches both alike
    for _ in range(steps + 2):
        for name, (model, opt, xs, plan, times) in runs.items():
            tdist.barrier()
            t = time.perf_counter()
            loss = paddle.mean(model(xs))
            loss.backward()
            opt.step()
            opt.clear_grad()
            tdist.barrier()
            times.append(time.perf_counter() - t)
    out = {name: (statistics.median(r[4][2:]), r[3].estimate["comm_s"], r[3].estimate["step_s"])
           for name, r in runs.items()}
    if dist.get_rank() == 0:
        for name, (t, c, e) in out.items():
            print(f"gloo 4 ranks, GPT {layers}x{hidden}, seq {seq}: {name:<8} measured step {t * 1e3:8.1f} ms "
                  f"(median of {steps}); estimated step {e * 1e3:.1f} ms, communication {c * 1e3:.3f} ms", flush=True)
    tdist.barrier()
    tdist.destroy_process_group()


def _gloo(a):
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=4", "-m",
           "paddle_on_torch", os.path.abspath(__file__), "--gloo-job", "--layers", "2", "--hidden", "256",
           "--heads", "4", "--seq", "128", "--steps", str(a.steps)]
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""), OMP_NUM_THREADS="1")
    subprocess.run(cmd, cwd=root, env=env, check=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gloo", action="store_true", help="measure planned vs hand-marked steps on 4 gloo ranks")
    ap.add_argument("--gloo-job", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--layers", type=int, default=12)
    ap.add_argument("--hidden", type=int, default=768)
    ap.add_argument("--heads", type=int, default=12)
    ap.add_argument("--seq", type=int, default=1024)
    ap.add_argument("--explain", action="store_true", help="print each plan's explain() table")
    ap.add_argument("--budget", type=float, default=45.0, help="plan()'s time_budget, seconds")
    ap.add_argument("--ranks", type=int, nargs="*", default=[8, 64, 1024], help="which of 8, 64, 1024 to run")
    a = ap.parse_args()
    if a.gloo_job:
        return _gloo_job(a.layers, a.hidden, a.heads, a.seq, a.steps)
    if a.gloo:
        return _gloo(a)
    with paddle.LazyGuard():
        model = GPT(a.layers, a.hidden, a.heads)
    cases = [([2, 4], ["dp", "mp"]), ([8, 8], ["dp", "mp"]), ([8, 16, 8], ["dp", "fsdp", "mp"])]
    cases = [c for c in cases if c[0][0] * c[0][-1] * (c[0][1] if len(c[0]) == 3 else 1) in a.ranks]
    print(f"GPT: {a.layers} layers, hidden {a.hidden}, seq {a.seq}; default Topology (8 ranks per node)")
    print(f"{'ranks':>6} {'mesh':<12} {'plan s':>7} {'cpu s':>6} {'evals':>6} {'planned step ms':>16} {'comm ms':>8} "
          f"{'hand step ms':>13} {'comm ms':>8} {'mem/rank MiB planned/hand':>26}")
    for shape, names in cases:
        n = 1
        for s in shape:
            n *= s
        mesh = dist.ProcessMesh(list(range(n)), dim_names=["x"]).mesh.reshape(shape).tolist()
        mesh = dist.ProcessMesh(mesh, dim_names=names)
        batch = n // shape[-1]  # one sequence per data-parallel rank
        x = paddle.zeros([batch, a.seq, a.hidden])
        # the batch is split over every mesh dimension but the last (the tensor-parallel one)
        data = [dist.Shard(0)] * (len(shape) - 1) + [dist.Replicate()]
        t, c = time.perf_counter(), time.process_time()
        p = parallel.plan(model, [x], mesh, marks={0: data}, time_budget=a.budget)
        secs, cpu = time.perf_counter() - t, time.process_time() - c
        # the hand plan as written: its activations follow DTensor (no planned reshards)
        hand = parallel.plan(model, [x], mesh, marks={0: data, **hand_marks(model, mesh)}, activations=False)
        pe, he = p.estimate, hand.estimate
        ph = p.solver["phases_s"]
        print(f"        phases (CPU s): capture {ph['capture']:.1f}, search {ph['search']:.1f}"
              + (f", DTensor polish {ph['polish']:.1f}" if "polish" in ph else "")
              + f", alternatives {ph['alternatives']:.1f}; converged: {p.solver['converged']}; "
              f"activation variables {p.solver['activation_variables']}, reshards chosen "
              f"{sum(r['placements'].strip('[]').replace('*', '').replace(',', '').strip() != '' for r in p.reshards)}",
              flush=True)
        print(f"{n:>6} {str(shape):<12} {secs:>7.1f} {cpu:>6.1f} {p.solver['evaluations']:>6} "
              f"{pe['step_s'] * 1e3:>16.2f} {pe['comm_s'] * 1e3:>8.2f} {he['step_s'] * 1e3:>13.2f} {he['comm_s'] * 1e3:>8.2f} "
              f"{pe['memory_per_rank'] / 2 ** 20:>12.0f} / {he['memory_per_rank'] / 2 ** 20:<11.0f}", flush=True)
        if a.explain:
            p.explain()


if __name__ == "__main__":
    main()
