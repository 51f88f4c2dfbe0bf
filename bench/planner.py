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


def _gloo(a, llama=False):
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=4", "-m",
           "paddle_on_torch", os.path.abspath(__file__), "--gloo-job", "--layers", "2", "--hidden", "256",
           "--heads", "4", "--seq", "128", "--steps", str(a.steps)]
    if llama:
        cmd = cmd[:cmd.index("--gloo-job")] + ["--llama-gloo-job", "--steps", str(a.steps)]
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""), OMP_NUM_THREADS="1")
    subprocess.run(cmd, cwd=root, env=env, check=True)


# ---------------------------------------------------------------- issue 22: LLaMA
class RMSNorm(paddle.nn.Layer):
    def __init__(self, h):
        super().__init__()
        self.weight = self.create_parameter([h], default_initializer=paddle.nn.initializer.Constant(1.0))

    def forward(self, x):
        return x * paddle.rsqrt((x * x).mean(-1, keepdim=True) + 1e-6) * self.weight


class LlamaBlock(paddle.nn.Layer):
    """A LLaMA decoder layer's shape (RMSNorm, q/k/v/o with grouped kv heads, causal flash attention, SwiGLU
    MLP) with PaddleNLP's sublayer names; rotary embedding left out (element-wise, no parameters)."""

    def __init__(self, h, heads, kv_heads, ffn):
        super().__init__()
        self.heads, self.kv, self.hd = heads, kv_heads, h // heads
        self.input_layernorm = RMSNorm(h)
        self.q_proj = paddle.nn.Linear(h, h, bias_attr=False)
        self.k_proj = paddle.nn.Linear(h, kv_heads * self.hd, bias_attr=False)
        self.v_proj = paddle.nn.Linear(h, kv_heads * self.hd, bias_attr=False)
        self.o_proj = paddle.nn.Linear(h, h, bias_attr=False)
        self.post_attention_layernorm = RMSNorm(h)
        self.gate_proj = paddle.nn.Linear(h, ffn, bias_attr=False)
        self.up_proj = paddle.nn.Linear(h, ffn, bias_attr=False)
        self.down_proj = paddle.nn.Linear(ffn, h, bias_attr=False)

    def forward(self, x):
        b, s, h = x.shape
        y = self.input_layernorm(x)
        q = self.q_proj(y).reshape([b, s, self.heads, self.hd])
        k = self.k_proj(y).reshape([b, s, self.kv, self.hd])
        v = self.v_proj(y).reshape([b, s, self.kv, self.hd])
        if self.kv != self.heads:
            k = paddle.repeat_interleave(k, self.heads // self.kv, axis=2)
            v = paddle.repeat_interleave(v, self.heads // self.kv, axis=2)
        o, _ = F.flash_attention.flash_attention(q, k, v, causal=True)
        x = x + self.o_proj(o.reshape([b, s, h]))
        y = self.post_attention_layernorm(x)
        return x + self.down_proj(F.silu(self.gate_proj(y)) * self.up_proj(y))


LLAMA_MEGATRON = {"q_proj": 1, "k_proj": 1, "v_proj": 1, "gate_proj": 1, "up_proj": 1, "o_proj": 0, "down_proj": 0}


def megatron_block_marks(block):
    """PaddleNLP's hand-written mp plan (auto_dist_config) for one decoder layer on a 1-D 'mp' mesh."""
    marks = {}
    for name, p in block.named_parameters():
        layer = name.split(".")[-2]
        marks[name] = [dist.Shard(LLAMA_MEGATRON[layer])] if layer in LLAMA_MEGATRON else [dist.Replicate()]
    return marks


# Llama 2's shapes (Touvron et al., 2023, "Llama 2: Open Foundation and Fine-Tuned Chat Models", Table 1 /
# the released configs); sequence 4096, global batch 2048 sequences as NVIDIA's published recipes below
LLAMA_SHAPES = {
    "LLaMA-7B": dict(layers=32, hidden=4096, heads=32, kv_heads=32, ffn=11008, vocab=32000),
    "LLaMA-70B": dict(layers=80, hidden=8192, heads=64, kv_heads=8, ffn=28672, vocab=32000),
}
SEQ, GLOBAL_BATCH, LIMIT = 4096, 2048, 80e9
# published layouts: NVIDIA NeMo-Framework-Launcher, launcher_scripts/conf/training/llama/llama2_7b.yaml
# (16 nodes x 8 GPUs, tensor 1, pipeline 1, micro-batch 1, global batch 2048, seq 4096, distributed_fused_adam)
# and llama2_70b.yaml (128 nodes x 8 GPUs, tensor 4, pipeline 4, virtual pipeline 20, sequence parallel,
# micro-batch 1, global batch 2048, seq 4096, distributed_fused_adam); the distributed optimizer shards the
# optimizer states over data parallel: ZeRO stage 1 here.  (name, ranks it was published for, tp, pp, stage)
PUBLISHED = {
    "LLaMA-7B": [("NeMo llama2_7b", 128, 1, 1, 1)],
    "LLaMA-70B": [("NeMo llama2_70b", 1024, 4, 4, 1)],
}


def _fmt_layout(lay):
    rc = "yes" if lay.detail.get("recompute") else "no"
    return (f"dp {lay.dp:>4} tp {lay.tp} pp {lay.pp:>2} stage {lay.stage} recompute {rc:<3} m {lay.micro_batches:>4}"
            f"  mem/rank {lay.memory_per_rank / 1e9:7.1f} GB  step {lay.step_s:8.2f} s (bubble {lay.bubble_s:6.2f},"
            f" comm {lay.comm_s:6.2f}){'' if lay.feasible else '  OVER LIMIT'}")


def llama_layouts(a):
    """The layout planner on Llama-2-7B / 70B shapes at 64, 256, 1024 ranks (fake process group), next to the
    published layouts priced by the same model."""
    from paddle_on_torch.parallel import layout

    for name, shp in LLAMA_SHAPES.items():
        if a.models and name not in a.models:
            continue
        with paddle.LazyGuard():
            blk = LlamaBlock(shp["hidden"], shp["heads"], shp["kv_heads"], shp["ffn"])
        x = paddle.zeros([1, SEQ, shp["hidden"]])
        t, c = time.perf_counter(), time.process_time()
        blocks = layout.plan_blocks(blk, [x], tps=(1, 2, 4, 8), time_budget=a.block_budget,
                                    starts=lambda tp: [megatron_block_marks(blk)])
        print(f"{name}: {shp['layers']} layers, hidden {shp['hidden']}, heads {shp['heads']} (kv {shp['kv_heads']}), "
              f"ffn {shp['ffn']}, seq {SEQ}, global batch {GLOBAL_BATCH}, limit {LIMIT / 1e9:.0f} GB/rank; "
              f"blocks planned in {time.perf_counter() - t:.0f} s ({time.process_time() - c:.0f} CPU s)", flush=True)
        for tp, b in blocks.items():
            w = {n: str(pl) for n, pl in b.plan.parameter_placements.items() if "proj" in n}
            print(f"  block tp {tp}: {b.step_s * 1e3:.1f} ms (comm {b.comm_s * 1e3:.1f}), "
                  f"{b.params_per_rank / 1e6:.0f} M params/rank, act {b.activation_bytes / 2 ** 30:.2f} GiB fp32; "
                  f"{' '.join(f'{k.split(chr(46))[0]}={v}' for k, v in w.items())}", flush=True)
        kw = dict(layers=shp["layers"], global_batch=GLOBAL_BATCH, hidden=shp["hidden"], vocab=shp["vocab"],
                  seq=SEQ, memory_limit=LIMIT)
        for ranks in a.layout_ranks:
            lays = layout.plan_layout(blocks, ranks, heads=shp["heads"], **kw)
            print(f"  {ranks:>5} ranks  planned   {_fmt_layout(lays[0])}", flush=True)
            for pname, pranks, tp, pp, stage in PUBLISHED[name]:
                dp = ranks // (tp * pp)
                pub = layout.price_layout(blocks[tp], ranks, dp, tp, pp, stage, **kw)
                pub.detail["recompute"] = False
                print(f"  {ranks:>5} ranks  {pname} ({pranks} GPUs) layout: {_fmt_layout(pub)}", flush=True)


C_DEG_MP_DP = {"tp": True, "dp": True}  # AutoTrainer's degrees: tensor parallel + data parallel
C_DEG_MP_PP = {"tp": True, "pp": True}  # tensor + pipeline parallel


def _llama_gloo_job(steps):
    """One rank of --llama-gloo (torchrun, 4 processes): PaddleNLP's tiny LlamaForCausalLMNet (the model of
    tests/llama_parallelize_cases.py, Paddle-saved weights) trained by four programs on the same 4 ranks, steps
    alternating: the hand-written plans of its auto_dist_config through dist.parallelize (mp on dp2 x mp2; mp +
    pp on pp2 x mp2) and the planner's plan from the data-parallel marks alone (on dp2 x mp2, and the layout
    planner's choice of degrees).  Each program's losses are checked against real Paddle's one process."""
    import os
    import statistics
    import sys

    import numpy as np
    import torch.distributed as tdist

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path.insert(0, root)
    import paddlenlp.data  # noqa: F401  (before paddlenlp.transformers: an import cycle)
    import paddlenlp.transformers  # noqa: F401

    from paddle_on_torch.parallel import layout
    from tests import llama_parallelize_cases as C

    weights = os.path.join(root, "tests", "data", "llama_parallelize", C.WEIGHTS + ".pdparams")
    want = np.load(os.path.join(root, "tests", "data", "llama_parallelize", "losses.npz"))["dynamic"]
    dist.init_parallel_env()
    rank = dist.get_rank()
    ids, labels = C.data()
    x, y = paddle.to_tensor(ids[:C.BATCH]), paddle.to_tensor(labels[:C.BATCH])
    data = [dist.Shard(0), dist.Replicate()]
    S0 = [dist.Shard(0)]

    def loss_fn(logits, lab):  # the criterion's value without its data-dependent masked_select (all > 0 here)
        logp = F.log_softmax(logits.astype("float32"), -1)
        return -paddle.take_along_axis(logp, lab.unsqueeze(-1), axis=-1).mean()

    def hand(n_pp, n_mp, deg):  # deg: C.degrees' keywords
        pp = n_pp
        dist.fleet.auto.create_mesh([("pp", n_pp), ("dp", 4 // (n_pp * n_mp)), ("mp", n_mp)])
        mesh = dist.fleet.auto.get_mesh()
        with paddle.utils.unique_name.guard():
            model, crit = C.build(paddle, mp=n_mp)
            config = model._generate_auto_dist_config(C.degrees(**deg))
            opt = C.optimizer(paddle, model)
            model, opt = dist.parallelize(model, opt, config=config)
            C.initialize(paddle, model, weights)
        first, last = mesh.get_mesh_with_dim("pp")[0], mesh.get_mesh_with_dim("pp")[pp - 1]
        pl = lambda m: [dist.Shard(0) if d == "dp" else dist.Replicate() for d in m.dim_names]  # noqa: E731
        return model, crit, opt, dist.shard_tensor(x, first, pl(first)), dist.shard_tensor(y, last, pl(last)), last

    def planned(mesh, marks, starts=()):
        with paddle.utils.unique_name.guard():
            model, crit = C.build(paddle, mp=1)
            C.initialize(paddle, model, weights)
        p = parallel.plan(model, [x], mesh, marks=marks, labels=[y], loss_fn=loss_fn, topology=CPU,
                          starts=starts, time_budget=30)
        p.apply(model)
        opt = dist.shard_optimizer(C.optimizer(paddle, model))
        xs = p.shard_inputs(x)
        ys = dist.shard_tensor(y, mesh, p.placements("label0"))
        return model, crit, opt, xs, ys, mesh, p

    runs = {}
    runs["hand mp (dp2 x mp2)"] = hand(1, 2, C_DEG_MP_DP)
    hand_marks = {n: list(p.placements) for n, p in runs["hand mp (dp2 x mp2)"][0].named_parameters()}
    m22 = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["dp", "mp"])
    marks = {0: data, "label0": data}
    *run, plan_a = planned(m22, marks, starts=[hand_marks])
    runs["planned (dp2 x mp2)"] = tuple(run)
    with paddle.utils.unique_name.guard():
        fresh, _ = C.build(paddle, mp=1)  # the hand plan priced by the same model, on a model not placed yet
    hand_a = parallel.plan(fresh, [x], m22, marks={**marks, **hand_marks}, labels=[y], loss_fn=loss_fn,
                           topology=CPU, activations=False)
    runs["hand mp + pp (pp2 x mp2)"] = hand(2, 2, C_DEG_MP_PP)
    # the layout planner: degrees for 4 ranks from one block planned per tp (the tiny LLaMA's shape)
    cfg = C.CONFIG
    with paddle.LazyGuard():
        blk = LlamaBlock(cfg["hidden_size"], cfg["num_attention_heads"], cfg["num_key_value_heads"],
                         cfg["intermediate_size"])
    blocks = layout.plan_blocks(blk, [paddle.zeros([1, C.SEQ, cfg["hidden_size"]])], tps=(1, 2, 4), topology=CPU,
                                time_budget=15, starts=lambda tp: [megatron_block_marks(blk)])
    lkw = dict(layers=cfg["num_hidden_layers"], global_batch=C.BATCH, hidden=cfg["hidden_size"], vocab=C.VOCAB,
               seq=C.SEQ, topology=CPU)
    lays = layout.plan_layout(blocks, 4, heads=cfg["num_attention_heads"], stages=(0,), recompute=(False,), **lkw)
    best = lays[0]
    hand_pp = layout.price_layout(blocks[2], 4, 1, 2, 2, 0, **lkw)
    if best.pp == 1:
        mesh = dist.ProcessMesh(np.arange(4).reshape(best.dp, best.tp).tolist(), dim_names=["dp", "mp"])
        *run, plan_b = planned(mesh, marks, starts=[hand_marks] if best.tp == 2 else [])
        runs[f"planned layout (dp{best.dp} x mp{best.tp})"] = tuple(run)
    losses = {k: [] for k in runs}
    times = {k: [] for k in runs}
    for step in range(steps + 2):
        for name, (model, crit, opt, xs, ys, last) in runs.items():
            tdist.barrier()
            t = time.perf_counter()
            loss = crit(model(xs), ys)
            loss.backward()
            opt.step()
            opt.clear_grad()
            tdist.barrier()
            times[name].append(time.perf_counter() - t)
            if step == 0 and rank in last.process_ids:  # every step trains on the first batch: step 1 is Paddle's
                losses[name].append(float(np.asarray(loss.numpy()).reshape(-1)[0]))
    if rank == 3:  # on every program's last stage
        print(f"tiny LLaMA (PaddleNLP LlamaForCausalLMNet, {cfg['num_hidden_layers']} layers, hidden "
              f"{cfg['hidden_size']}), 4 gloo ranks, batch {C.BATCH} x {C.SEQ}, AdamW; median of {steps} steps",
              flush=True)
        print(f"  modelled (fx planner, CPU topology) dp2 x mp2: planned {plan_a.estimate['step_s'] * 1e3:.3f} ms, "
              f"memory {plan_a.estimate['memory_per_rank'] / 1024:.1f} KiB/rank; hand mp "
              f"{hand_a.estimate['step_s'] * 1e3:.3f} ms, {hand_a.estimate['memory_per_rank'] / 1024:.1f} KiB/rank",
              flush=True)
        for what, lay in (("best", best), ("hand mp2 x pp2", hand_pp)):
            print(f"  modelled (layout planner): {what}: dp {lay.dp} tp {lay.tp} pp {lay.pp} stage {lay.stage}, step "
                  f"{lay.step_s * 1e3:.3f} ms (comm {lay.comm_s * 1e3:.3f}), {lay.memory_per_rank / 1024:.1f} KiB/rank",
                  flush=True)
        base = statistics.median(times["hand mp (dp2 x mp2)"][2:])
        for name in runs:
            t = statistics.median(times[name][2:])
            err = abs(losses[name][0] - want[0])
            print(f"  measured {name:<34} {t * 1e3:8.1f} ms  ({t / base:.2f} x hand mp); first loss vs Paddle's "
                  f"{err:.1e}", flush=True)
        print("  planned plan (dp2 x mp2):", {n: str(v) for n, v in plan_a.parameter_placements.items()
                                               if "layers.0." in n or "layers" not in n}, flush=True)
    tdist.barrier()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llama-gloo", action="store_true",
                    help="measure the planner against PaddleNLP's hand-written LLaMA plans on 4 gloo ranks")
    ap.add_argument("--llama-gloo-job", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--llama-layouts", action="store_true",
                    help="plan Llama-2-7B / 70B shaped models at --layout-ranks (issue 22)")
    ap.add_argument("--layout-ranks", type=int, nargs="*", default=[64, 256, 1024])
    ap.add_argument("--models", nargs="*", default=[])
    ap.add_argument("--block-budget", type=float, default=20.0, help="plan()'s time budget per block, CPU s")
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
    if a.llama_layouts:
        return llama_layouts(a)
    if a.llama_gloo_job:
        return _llama_gloo_job(a.steps)
    if a.llama_gloo:
        return _gloo(a, llama=True)
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
