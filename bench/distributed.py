"""Distributed training on 4 gloo ranks: paddle_on_torch's auto-parallel vs the same job in plain torch.

  ~/oracle/bin/python bench/distributed.py [dp dataparallel tp pp sharding3] [--steps N] [--rounds N]
                                           [--profile DIR]
                                           [--torch-adamw default|foreach|fused]

For each mode, one torchrun job per side (4 processes, one thread each) trains the same MLP
(4 x Linear(1024, 1024) + GELU, AdamW, batch 64) and reports, per rank, the median step time
after warm-up, the bytes of parameters + optimizer state held by the rank, and the peak RSS:

  dp         shard_layer + shard_dataloader-style Shard(0) batch   vs  DistributedDataParallel
  dataparallel  paddle.DataParallel, each rank its slice of the batch  vs  DistributedDataParallel
  tp         dist.parallelize ColWise/RowWise on 'mp'               vs  parallelize_module Colwise/Rowwise
  pp         dist.parallelize pp_config (4 stages) + dist.to_static   vs  torch.distributed.pipelining Schedule1F1B
             with Strategy.pipeline 1F1B, 4 micro-batches
  sharding3  shard_optimizer(ShardingStage3)                        vs  FSDP2 fully_shard

Then the lines of code of the seed hybrid MLP (../shared/seed_examples/hybrid_mlp.py) against its
hand-written torch twin (bench/twins/hybrid_mlp_torch.py).  Compare ratios from one run; on a loaded
machine `--rounds N` alternates the two sides N times and keeps each rank's fastest round.
"""
import glob
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WIDTH, DEPTH, BATCH, MICRO, WORLD = 1024, 4, 64, 4, 4
MODES = ("dp", "dataparallel", "tp", "pp", "sharding3")


# ---------------------------------------------------------------- workers (run under torchrun)
def _data(step):
    import numpy as np

    rng = np.random.RandomState(step)
    return rng.randn(BATCH, WIDTH).astype("float32"), rng.randn(BATCH, WIDTH).astype("float32")


def _report(times, state_bytes):
    import torch.distributed as tdist

    rec = {"rank": tdist.get_rank(), "ms": 1e3 * statistics.median(times), "state_mb": state_bytes / 2 ** 20,
           "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
    print("RESULT " + json.dumps(rec), flush=True)


def _timed(step_fn, steps):
    times = []
    prof_dir = os.environ.get("BENCH_DIST_PROFILE")
    prof = None
    for s in range(steps):
        if prof_dir and s == 2:  # profile the timed steps only
            import cProfile

            prof = cProfile.Profile()
            prof.enable()
        t = time.perf_counter()
        step_fn(s)
        times.append(time.perf_counter() - t)
    if prof is not None:
        import torch.distributed as tdist

        prof.disable()
        prof.dump_stats(os.path.join(prof_dir, f"{os.environ.get('BENCH_DIST_SIDE')}-rank{tdist.get_rank()}.prof"))
    return times[2:]


def shim_worker(mode, steps):
    import paddle
    import paddle.distributed as dist

    dist.init_parallel_env()
    rank = dist.get_rank()
    layers = []
    for _ in range(DEPTH):
        layers += [paddle.nn.Linear(WIDTH, WIDTH), paddle.nn.GELU()]
    net = paddle.nn.Sequential(*layers)
    opt = paddle.optimizer.AdamW(1e-3, parameters=net.parameters())
    if mode == "pp":
        mesh = dist.ProcessMesh(list(range(WORLD)), dim_names=["pp"])
        net, opt = dist.parallelize(net, opt, mesh, {"pp_config": {"split_spec": {
            str(2 * i + 1): dist.SplitPoint.END for i in range(WORLD - 1)}}})
        first, last = dist.ProcessMesh([0], dim_names=["d"]), dist.ProcessMesh([WORLD - 1], dim_names=["d"])
        strategy = dist.Strategy()  # Paddle's way to run a pipeline schedule: to_static with Strategy.pipeline
        strategy.pipeline.enable = True
        strategy.pipeline.schedule_mode = "1F1B"
        strategy.pipeline.accumulate_steps = MICRO
        strategy.pipeline.micro_batch_size = BATCH // MICRO
        dist_model = dist.to_static(net, None, paddle.nn.MSELoss(), opt, strategy=strategy)
    elif mode == "tp":
        mesh = dist.ProcessMesh(list(range(WORLD)), dim_names=["mp"])
        plan = {str(i): (dist.ColWiseParallel() if i % 4 == 0 else dist.RowWiseParallel()) for i in range(0, 2 * DEPTH, 2)}
        net, opt = dist.parallelize(net, opt, mesh, {"mp_config": {"parallelize_plan": plan}})
    elif mode == "dataparallel":  # the collective API: buckets all-reduced while the backward runs
        net = paddle.DataParallel(net)
    else:
        mesh = dist.ProcessMesh(list(range(WORLD)), dim_names=["dp"])
        dist.shard_layer(net, mesh)  # new (distributed) parameter objects: the optimizer is made after
        opt = paddle.optimizer.AdamW(1e-3, parameters=net.parameters())
        fn = dist.ShardingStage3("dp", mesh) if mode == "sharding3" else None
        opt = dist.shard_optimizer(opt, fn)

    def step(s):
        x, y = (paddle.to_tensor(v) for v in _data(s))
        if mode == "dataparallel":
            n = BATCH // WORLD
            paddle.nn.functional.mse_loss(net(x[rank * n:(rank + 1) * n]), y[rank * n:(rank + 1) * n]).backward()
            opt.step()
            opt.clear_grad()
            return
        if mode == "pp":  # the optimizer steps inside the DistModel
            dist_model(dist.shard_tensor(x, first, [dist.Replicate()]), dist.shard_tensor(y, last, [dist.Replicate()]))
            return
        pl = [dist.Replicate()] if mode == "tp" else [dist.Shard(0)]
        xd, yd = dist.shard_tensor(x, mesh, pl), dist.shard_tensor(y, mesh, pl)
        paddle.nn.functional.mse_loss(net(xd), yd).backward()
        opt.step()
        opt.clear_grad()

    times = _timed(step, steps)
    if mode == "dataparallel":
        held = sum(p._t.numel() * 4 for p in net.parameters())
        held += sum(v._t.numel() * v._t.element_size() for k, v in opt.state_dict().items()
                    if hasattr(v, "_t") and "moment" in k)
    else:
        held = sum(p._local_value()._t.numel() * 4 for p in net.parameters() if rank in p.process_mesh.process_ids)
        sd = opt.state_dict()
        held += sum(v._local_value()._t.numel() * v._t.element_size() for k, v in sd.items()
                    if hasattr(v, "_t") and "moment" in k)
    _report(times, held)
    dist.barrier()


def torch_worker(mode, steps):
    import torch
    import torch.distributed as tdist
    from torch import nn

    tdist.init_process_group("gloo")
    rank = tdist.get_rank()
    torch.manual_seed(0)

    def mlp(n=DEPTH):
        return nn.Sequential(*[m for _ in range(n) for m in (nn.Linear(WIDTH, WIDTH), nn.GELU())])

    loss_fn = nn.MSELoss()
    if mode == "pp":
        from torch.distributed.pipelining import PipelineStage, Schedule1F1B

        model = mlp(DEPTH // WORLD)  # this rank's stage
        stage = PipelineStage(model, rank, WORLD, torch.device("cpu"))
        sched = Schedule1F1B(stage, n_microbatches=MICRO, loss_fn=loss_fn)
    elif mode == "tp":
        from torch.distributed.device_mesh import init_device_mesh
        from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module

        model = mlp()
        mesh = init_device_mesh("cpu", (WORLD,))
        plan = {str(i): (ColwiseParallel() if i % 4 == 0 else RowwiseParallel()) for i in range(0, 2 * DEPTH, 2)}
        model = parallelize_module(model, mesh, plan)
    elif mode == "sharding3":
        from torch.distributed.device_mesh import init_device_mesh
        from torch.distributed.fsdp import fully_shard

        model = mlp()
        mesh = init_device_mesh("cpu", (WORLD,))
        for m in model:
            if isinstance(m, nn.Linear):
                fully_shard(m, mesh=mesh)
        fully_shard(model, mesh=mesh)
    else:
        model = nn.parallel.DistributedDataParallel(mlp())
    # torch's CPU default is the single-tensor loop; --torch-adamw foreach|fused picks its faster kernels
    kind = os.environ.get("BENCH_DIST_TORCH_ADAMW", "default")
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, **({} if kind == "default" else {kind: True}))

    def step(s):
        x, y = (torch.from_numpy(v) for v in _data(s))
        if mode == "pp":
            if rank == 0:
                sched.step(x)
            elif rank == WORLD - 1:
                sched.step(target=y)
            else:
                sched.step()
        else:
            if mode != "tp":
                n = BATCH // WORLD
                x, y = x[rank * n:(rank + 1) * n], y[rank * n:(rank + 1) * n]
            loss_fn(model(x), y).backward()
        opt.step()
        opt.zero_grad()

    times = _timed(step, steps)

    def local(t):
        return t.to_local() if hasattr(t, "to_local") else t

    held = sum(local(p).numel() * 4 for p in model.parameters())
    held += sum(local(v).numel() * 4 for st in opt.state.values() for k, v in st.items() if k.startswith("exp_avg"))
    _report(times, held)
    tdist.barrier()
    tdist.destroy_process_group()


# ---------------------------------------------------------------- driver
def _run(side, mode, steps):
    with tempfile.TemporaryDirectory() as logs:
        prog = ["-m", "paddle_on_torch"] if side == "shim" else []
        cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", f"--nproc-per-node={WORLD}",
               f"--log-dir={logs}", "--redirects=3", *prog, os.path.abspath(__file__), "--worker", side, mode,
               str(steps)]
        env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
                   BENCH_DIST_SIDE=f"{side}-{mode}")
        p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
        recs = [json.loads(line[7:]) for f in glob.glob(os.path.join(logs, "**", "stdout.log"), recursive=True)
                for line in open(f) if line.startswith("RESULT ")]
        if p.returncode != 0 or len(recs) != WORLD:
            err = "".join(open(f).read()[-1500:] for f in glob.glob(os.path.join(logs, "**", "stderr.log"),
                                                                     recursive=True))
            raise RuntimeError(f"{side} {mode} failed ({p.returncode}):\n{p.stderr[-1500:]}\n{err}")
    return sorted(recs, key=lambda r: r["rank"])


def _loc(path):
    n = 0
    for line in open(path):
        s = line.strip()
        if s and not s.startswith("#"):
            n += 1
    return n


def main(argv):
    steps = 12
    if "--torch-adamw" in argv:  # default (single-tensor on CPU), foreach or fused
        i = argv.index("--torch-adamw")
        os.environ["BENCH_DIST_TORCH_ADAMW"] = argv[i + 1]
        del argv[i:i + 2]
    if "--profile" in argv:  # cProfile of every rank's timed steps, into DIR/<side>-<mode>-rank<r>.prof
        i = argv.index("--profile")
        os.environ["BENCH_DIST_PROFILE"] = os.path.abspath(argv[i + 1])
        os.makedirs(argv[i + 1], exist_ok=True)
        del argv[i:i + 2]
    if "--steps" in argv:
        i = argv.index("--steps")
        steps = int(argv[i + 1])
        del argv[i:i + 2]
    rounds = 1
    if "--rounds" in argv:  # alternate the sides N times; per rank the fastest round's median
        i = argv.index("--rounds")
        rounds = int(argv[i + 1])
        del argv[i:i + 2]
    modes = [m for m in argv if m in MODES] or list(MODES)
    single = DEPTH * (WIDTH * WIDTH + WIDTH) * 4 * 3 / 2 ** 20  # params + Adam moments, one process
    print(f"MLP {DEPTH} x Linear({WIDTH}, {WIDTH}), AdamW (torch side: "
          f"{os.environ.get('BENCH_DIST_TORCH_ADAMW', 'default')}), batch {BATCH}, {WORLD} gloo ranks, {steps} steps "
          f"(median after 2 warm-up, best of {rounds} alternating round(s)); params + Adam moments in one process: "
          f"{single:.1f} MiB")
    print(f"{'mode':10} {'rank':>4} {'shim ms':>9} {'torch ms':>9} {'ratio':>6} {'shim state MiB':>15} "
          f"{'torch state MiB':>16} {'shim RSS':>9} {'torch RSS':>10}")
    for mode in modes:
        runs = {"shim": [], "torch": []}
        for _ in range(rounds):  # on a loaded machine the load drifts: alternate, keep each rank's best
            for side in runs:
                runs[side].append(_run(side, mode, steps))
        shim, ref = ([min(recs, key=lambda r: r["ms"]) for recs in zip(*runs[side])] for side in ("shim", "torch"))
        for a, b in zip(shim, ref):
            print(f"{mode:10} {a['rank']:>4} {a['ms']:>9.2f} {b['ms']:>9.2f} {a['ms'] / b['ms']:>6.2f} "
                  f"{a['state_mb']:>15.1f} {b['state_mb']:>16.1f} {a['rss_mb']:>9.0f} {b['rss_mb']:>10.0f}")
    seed = os.path.join(os.path.dirname(ROOT), "shared", "seed_examples", "hybrid_mlp.py")
    twin = os.path.join(ROOT, "bench", "twins", "hybrid_mlp_torch.py")
    if os.path.exists(seed):
        a, b = _loc(seed), _loc(twin)
        print(f"lines of code (no blanks/comments): seed hybrid_mlp.py {a}, torch twin {b}: "
              f"{100 * (1 - a / b):.0f}% less with Paddle's API")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        side, mode, steps = sys.argv[2], sys.argv[3], int(sys.argv[4])
        (shim_worker if side == "shim" else torch_worker)(mode, steps)
    else:
        main(sys.argv[1:])
