"""Model-zoo timings: paddle_on_torch vs real Paddle vs plain-torch twins, measured in one run.

    python bench/models.py                      # every model, each side in its own subprocess
    python bench/models.py resnet gpt           # just these models
    python bench/models.py --rounds 5 vit       # 5 turns per side and cell instead of 3
    python bench/models.py --wall               # wall-clock time instead of process CPU time
    python bench/models.py --profile resnet     # where the shim's time goes on one model (see below)

For each model of tests/model_zoo (the same code, weights and inputs as tests/test_model_zoo.py):
- fwd:     eval mode, no_grad, one forward on the recorded inputs;
- fwd+bwd: train mode, clear_gradients, forward, the model's loss, backward (models with a loss).
Sides: `shim` (paddle_on_torch.install(), then the model code as written), `paddle` (real Paddle
3.3.1 when `import paddle` finds it, CPU defaults), `torch` (hand-written torch.nn twins in
bench/twins/, only for the models that have one; before timing, each twin is checked against the
outputs, loss, gradients and BatchNorm statistics real Paddle recorded, see bench/twins/__init__.py).
The shim and Paddle sides also check their eval outputs against the recording before timing.
Every side runs with one thread (OMP_NUM_THREADS=1, torch.set_num_threads(1)) in its own worker
process; the sides take turns on each (model, step) cell, `rounds` times, so that load from other
processes hits them alike, and each cell is the best over all repeats of a batch of calls.  The
clock is the process's CPU time (time.process_time: with one thread it equals wall time on an idle
machine, and it leaves out time the process spends descheduled on a loaded one); --wall uses
time.perf_counter instead.  Targets (issue 3): shim <= 1.1x torch, and faster
than real Paddle.

--profile NAME runs the shim side of one model under cProfile and under a torch dispatch counter
and prints: Python function calls per forward (and per fwd+bwd), the paddle_on_torch functions with
the most own time, and the aten ops per forward of the shim next to the twin's (when there is one).
"""
import importlib
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import best_per_call  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "model_zoo")
REPEATS = 15         # best of
CLOCK = 1 if os.environ.get("BENCH_CLOCK") == "wall" else 0  # index into _time's answer
TARGET_S = 0.01      # each repeat runs the step enough times to last about this long (short: fits a quiet slice)


def _time(fn):
    return best_per_call(fn, REPEATS, TARGET_S)


def _recorded(name):
    import numpy as np

    rec = dict(np.load(os.path.join(DATA, f"{name}.npz")))
    arrays = [rec[f"input{i}"] for i in range(sum(k.startswith("input") for k in rec))]
    return arrays, rec


def _import_paddle(impl):
    if impl == "shim":
        import paddle_on_torch

        paddle_on_torch.install()
    import paddle

    if impl == "paddle" and "paddle_on_torch" in paddle.__file__:
        raise ImportError("real Paddle is not installed")
    return paddle


def paddle_steps(paddle, name):
    """(eval_step, train_step or None) for one model under `paddle` (shim or real)."""
    import numpy as np

    from tests.model_zoo import harness

    mod = importlib.import_module(f"tests.model_zoo.{name}")
    arrays, rec = _recorded(name)
    model = mod.build()
    model.set_state_dict(paddle.load(os.path.join(DATA, f"{name}.pdparams")))
    got = harness.eval_forward(model, arrays)  # the side computes what Paddle recorded
    for k, v in got.items():
        np.testing.assert_allclose(v, rec[k], rtol=1e-4, atol=1e-5, err_msg=f"{name} {k}")
    xs = harness.to_tensors(arrays)

    def eval_step():
        with paddle.no_grad():
            return model(*xs)

    def train_step():
        model.clear_gradients()
        out = model(*xs)
        mod.loss(out, arrays).backward()

    if not hasattr(mod, "loss"):
        return model, eval_step, None
    return model, eval_step, train_step


def torch_steps(torch, name):
    from bench import twins

    twins.check(name)  # a twin that computes something else is not a twin
    mod, model = twins.load(name)
    arrays, _ = _recorded(name)
    xs = [torch.from_numpy(a) for a in arrays]

    def eval_step():
        with torch.no_grad():
            return model(*xs)

    def train_step():
        model.zero_grad(set_to_none=False)  # Paddle's clear_gradients zeroes the gradients
        out = model(*xs)
        mod.loss(out, arrays).backward()

    return model, eval_step, train_step


def worker(impl):
    """Serve timing requests on stdin ("<model> fwd|train" per line) with one JSON answer per line."""
    sys.path.insert(0, ROOT)
    try:
        if impl == "paddle":
            paddle = _import_paddle(impl)
        else:
            import torch

            torch.set_num_threads(1)
            paddle = _import_paddle(impl) if impl == "shim" else None
        print(json.dumps({"ready": True}), flush=True)
    except Exception as e:  # noqa: BLE001 - the side is reported as n/a
        print(json.dumps({"error": f"{type(e).__name__}: {e}"}), flush=True)
        return
    from bench import twins

    built = {}
    for line in sys.stdin:
        name, key = line.split()
        try:
            if name not in built:
                if impl == "torch":
                    built[name] = torch_steps(torch, name) if name in twins.TWINS else None
                else:
                    built[name] = paddle_steps(paddle, name)
            if built[name] is None or (key == "train" and built[name][2] is None):
                answer = None
            else:
                model, ev, tr = built[name]
                if key == "fwd":
                    model.eval()
                    answer = _time(ev)[CLOCK]
                else:
                    model.train()
                    answer = _time(tr)[CLOCK]
                    model.eval()
            print(json.dumps({"ms": answer}), flush=True)
        except Exception as e:  # noqa: BLE001
            print(json.dumps({"error": f"{name}: {type(e).__name__}: {e}"}), flush=True)


# ----------------------------------------------------------------------------------- profiling

def _aten_counts(fn):
    import collections

    from torch.utils._python_dispatch import TorchDispatchMode

    counts = collections.Counter()

    class Count(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            counts[str(func.overloadpacket.__name__)] += 1
            return func(*args, **(kwargs or {}))

    with Count():
        fn()
    return counts


def profile(name, top=25):
    import cProfile
    import pstats

    import torch

    sys.path.insert(0, ROOT)
    torch.set_num_threads(1)
    paddle = _import_paddle("shim")
    model, ev, tr = paddle_steps(paddle, name)
    for label, fn, mode in (("forward (eval)", ev, "eval"), ("fwd+bwd (train)", tr, "train")):
        if fn is None:
            continue
        getattr(model, mode)()
        for _ in range(3):
            fn()
        n = 20
        pr = cProfile.Profile()
        pr.enable()
        for _ in range(n):
            fn()
        pr.disable()
        st = pstats.Stats(pr)
        total_calls = sum(v[1] for v in st.stats.values())
        ours = {k: v for k, v in st.stats.items() if "paddle_on_torch" in k[0]}
        our_calls = sum(v[1] for v in ours.values())
        our_tt = sum(v[2] for v in ours.values())
        print(f"\n== {name} {label}: {total_calls / n:.0f} Python calls per step, {our_calls / n:.0f} of them "
              f"into paddle_on_torch ({our_tt / n * 1e3:.3f} ms own time per step, profiled)")
        print(f"{'calls/step':>10} {'own ms/step':>12} {'cum ms/step':>12}  function")
        rows = sorted(ours.items(), key=lambda kv: -kv[1][2])[:top]
        for (fname, line, func), (cc, nc, tt, ct, _) in rows:
            short = fname[fname.index("paddle_on_torch"):]
            print(f"{nc / n:10.1f} {tt / n * 1e3:12.4f} {ct / n * 1e3:12.4f}  {short}:{line} {func}")
    model.eval()
    shim_ops = _aten_counts(ev)
    twin_ops = None
    from bench import twins

    if name in twins.TWINS:
        _, tmodel = twins.load(name)
        tmodel.eval()
        arrays, _ = _recorded(name)
        xs = [torch.from_numpy(a) for a in arrays]

        def tev():
            with torch.no_grad():
                return tmodel(*xs)
        twin_ops = _aten_counts(tev)
        pr = cProfile.Profile()
        pr.enable()
        for _ in range(20):
            tev()
        pr.disable()
        calls = sum(v[1] for v in pstats.Stats(pr).stats.values()) / 20
        print(f"\n== {name}: the torch twin makes {calls:.0f} Python calls per eval forward")
    print(f"\n== {name}: aten ops per eval forward: shim {sum(shim_ops.values())}"
          + (f", torch twin {sum(twin_ops.values())}" if twin_ops is not None else ""))
    keys = sorted(set(shim_ops) | set(twin_ops or {}), key=lambda k: -shim_ops.get(k, 0))
    for k in keys:
        t = twin_ops.get(k, 0) if twin_ops is not None else ""
        if twin_ops is None or shim_ops.get(k, 0) != t:
            print(f"  {k:<28}{shim_ops.get(k, 0):6}{t:>8}")


# ----------------------------------------------------------------------------------------- main

def main(argv):
    from tests.model_zoo import MODELS

    if argv[:1] == ["--worker"]:
        worker(argv[1])
        return
    if argv[:1] == ["--profile"]:
        for name in argv[1:]:
            profile(name)
        return
    rounds, clock = 3, "cpu"
    while argv[:1] in (["--rounds"], ["--wall"]):
        if argv[0] == "--wall":
            clock, argv = "wall", argv[1:]
        else:
            rounds, argv = int(argv[1]), argv[2:]
    names = argv or MODELS
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", GLOG_minloglevel="3",
               PYTHONWARNINGS="ignore", BENCH_CLOCK=clock)
    workers, errors = {}, {}
    load0 = os.getloadavg()[0]
    for impl in ("torch", "shim", "paddle"):
        w = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker", impl], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=ROOT)
        hello = json.loads(w.stdout.readline() or '{"error": "worker died"}')
        if "error" in hello:
            errors[impl] = hello["error"]
            w.wait()
        else:
            workers[impl] = w
    results = {impl: {} for impl in ("torch", "shim", "paddle")}
    # interleaved: for each model and step, the sides take turns, `rounds` times; each cell keeps its best
    for name in names:
        for key in ("fwd", "train"):
            for _ in range(rounds):
                for impl, w in workers.items():
                    w.stdin.write(f"{name} {key}\n")
                    w.stdin.flush()
                    answer = json.loads(w.stdout.readline() or '{"error": "worker died"}')
                    if "error" in answer:
                        errors[f"{impl} {name}"] = answer["error"]
                    elif answer["ms"] is not None:
                        cell = results[impl].setdefault(name, {})
                        cell[key] = min(cell.get(key, float("inf")), answer["ms"])
    for w in workers.values():
        w.stdin.close()
        w.wait()
    print(f"# load average (1 min) at the start {load0:.2f}, at the end {os.getloadavg()[0]:.2f} "
          f"on {os.cpu_count()} CPUs; {rounds} rounds; {clock} time")
    for impl, msg in errors.items():
        print(f"# {impl}: {msg}")

    def f(v):
        return f"{v:9.3f}" if v is not None else f"{'n/a':>9}"

    def ratio(a, b):
        return f"{a / b:9.2f}x" if a is not None and b is not None else f"{'n/a':>10}"

    for key, title in (("fwd", "forward, eval (ms)"), ("train", "forward+backward, train (ms)")):
        print(f"\n{title}")
        print(f"{'model':<13}{'shim':>9}{'paddle':>9}{'torch':>9}{'shim/torch':>11}{'shim/paddle':>12}")
        for name in names:
            s, p, t = (results[i].get(name, {}).get(key) for i in ("shim", "paddle", "torch"))
            if s is None and p is None:
                continue
            print(f"{name:<13}{f(s)}{f(p)}{f(t)}{ratio(s, t):>11}{ratio(s, p):>12}")


if __name__ == "__main__":
    sys.path.insert(0, ROOT)
    main(sys.argv[1:])
