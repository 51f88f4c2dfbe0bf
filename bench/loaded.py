"""The training and model-zoo workloads on a busy machine: paddle_on_torch vs real Paddle, each at its defaults.

    python bench/loaded.py                      # 4 busy processes, every workload
    python bench/loaded.py --load 8             # 8 busy processes
    python bench/loaded.py lenet gpt resnet     # just these (bench/train.py's workloads, model-zoo names)
    python bench/loaded.py --rounds 3           # turns per side and cell (default 3)
    python bench/loaded.py --all-cores          # add a side: the shim with torch at one thread per core

A load generator keeps the cores busy (`--load N` processes spinning in Python, default 4) while the
workloads of bench/train.py (one training step of issue 4's examples) and bench/models.py (the model
zoo: eval forward, and forward+backward where the model has a loss) run under the shim and under real
Paddle.  Unlike those two benchmarks, no side is told how many threads to use: OMP_NUM_THREADS and
MKL_NUM_THREADS are removed from the workers' environment, so each side runs at its own default (real
Paddle's import sets one thread; so does paddle_on_torch's, see README "Speed").  `--all-cores` adds the
shim with torch's own default (one thread per core), the behaviour before the shim followed Paddle, to
show what the default is worth.  The sides take turns on each cell, `rounds` times; a cell is the best
wall-clock time per step over its repeats (wall clock: on a busy machine the time a program waits for a
core is part of what its user sees).  Before timing, every side checks its first loss (train.py) or its
eval outputs (models.py) against real Paddle's recording.  The load average is printed at the start and
the end.  Target (issue 18): shim/Paddle at most 1.0 on every row.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import warnings

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, BENCH)
from timing import best_per_call  # noqa: E402

REPEATS = 25
TARGET_S = 0.002  # short batches: one fits between two preemptions more often on a busy machine
SPIN = "while True: pass"


def _cells(names):
    """[(bench, name, key)]: bench/train.py's workloads ("example") and the model zoo's ("zoo"); a name that is
    in both (resnet, gpt) selects both."""
    import train

    sys.path.insert(0, ROOT)
    from tests.model_zoo import MODELS

    names = names or train.WORKLOADS + MODELS
    cells = [("example", n, "step") for n in train.WORKLOADS if n in names]
    cells += [("zoo", n, k) for n in MODELS if n in names for k in ("fwd", "train")]
    unknown = set(names) - set(train.WORKLOADS) - set(MODELS)
    if unknown:
        raise SystemExit(f"unknown workloads {sorted(unknown)}: choose from {train.WORKLOADS + MODELS}")
    return cells


# ------------------------------------------------------------------------------------------ worker

def worker(side):
    """Serve "<bench> <name> <key>" lines on stdin with one JSON answer ({"ms": ...} or {"error": ...}) each."""
    sys.path.insert(0, ROOT)
    warnings.simplefilter("ignore")  # Paddle: "amp_guard can only be enabled on CUDAPlace" on CPU
    import models
    import train

    try:
        paddle = train._import_paddle("paddle" if side == "paddle" else "shim")
        if side == "shim-all-cores":
            import torch

            torch.set_num_threads(os.cpu_count())
        import torch

        threads = torch.get_num_threads() if side != "paddle" else int(os.environ.get("OMP_NUM_THREADS", "0"))
        print(json.dumps({"ready": True, "threads": threads}), flush=True)
    except Exception as e:  # noqa: BLE001 - the side is reported as n/a
        print(json.dumps({"error": f"{type(e).__name__}: {e}"}), flush=True)
        return
    built = {}
    with tempfile.TemporaryDirectory() as tmp:
        for line in sys.stdin:
            bench, name, key = line.split()
            try:
                if (bench, name) not in built:
                    built[bench, name] = (train.paddle_step(paddle, name, tmp) if bench == "example"
                                          else models.paddle_steps(paddle, name))
                got = built[bench, name]
                if bench == "example":
                    fn, steps = got
                elif key == "train" and got[2] is None:
                    print(json.dumps({"ms": None}), flush=True)
                    continue
                else:
                    model, ev, tr = got
                    (model.eval if key == "fwd" else model.train)()
                    fn, steps = (ev if key == "fwd" else tr), 1
                cpu, wall = best_per_call(fn, REPEATS, TARGET_S)
                print(json.dumps({"ms": [wall / steps, cpu / steps]}), flush=True)
            except Exception as e:  # noqa: BLE001
                print(json.dumps({"error": f"{name} {key}: {type(e).__name__}: {e}"}), flush=True)


# -------------------------------------------------------------------------------------------- main

def main(argv):
    load, rounds, sides = 4, 3, ["shim", "paddle"]
    while argv[:1] in (["--load"], ["--rounds"], ["--all-cores"]):
        if argv[0] == "--all-cores":
            sides.append("shim-all-cores")
            argv = argv[1:]
        else:
            load, rounds = (int(argv[1]), rounds) if argv[0] == "--load" else (load, int(argv[1]))
            argv = argv[2:]
    cells = _cells(argv)
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    env.update(GLOG_minloglevel="3", PYTHONWARNINGS="ignore", PYTHONPATH=ROOT)
    spinners = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(load)]
    try:
        time.sleep(2)  # let the load average see them
        loads = [os.getloadavg()]
        workers, threads, errors = {}, {}, {}
        for side in sides:
            w = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker", side], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=ROOT)
            hello = json.loads(w.stdout.readline() or '{"error": "worker died"}')
            if "error" in hello:
                errors[side] = hello["error"]
                w.stdin.close()
                w.wait()
            else:
                workers[side], threads[side] = w, hello["threads"]
        best = {}
        for cell in cells:
            for _ in range(rounds):
                for side, w in workers.items():
                    w.stdin.write(" ".join(cell) + "\n")
                    w.stdin.flush()
                    ans = json.loads(w.stdout.readline() or '{"error": "worker died"}')
                    if "error" in ans:
                        errors[f"{side} {cell[1]} {cell[2]}"] = ans["error"]
                    elif ans["ms"] is not None:
                        old = best.get((cell, side), [float("inf")] * 2)
                        best[cell, side] = [min(a, b) for a, b in zip(old, ans["ms"])]
        for w in workers.values():
            w.stdin.close()
            w.wait()
        loads.append(os.getloadavg())
    finally:
        for p in spinners:
            p.kill()
            p.wait()
    print(f"# {load} busy processes on {os.cpu_count()} CPUs; load average (1/5/15 min) at the start "
          f"{' '.join(f'{x:.2f}' for x in loads[0])}, at the end {' '.join(f'{x:.2f}' for x in loads[1])}")
    print(f"# threads at each side's default: {', '.join(f'{s} {n}' for s, n in threads.items())} "
          f"(paddle: OMP_NUM_THREADS after its import); {rounds} rounds, best of {REPEATS} repeats; ms per step, "
          f"wall clock; the ratios by wall clock and by process CPU time (all threads)")
    for what, msg in errors.items():
        print(f"# {what}: {msg}")
    ratios = [(s, c) for s in sides if s != "paddle" for c in ("wall", "cpu")]
    print(f"{'workload':<24}" + "".join(f"{s + ' ms':>18}" for s in sides)
          + "".join(f"{s + '/paddle ' + c:>26}" for s, c in ratios))

    def f(v, width, spec):
        return f"{v:{width}{spec}}" if v is not None else f"{'n/a':>{width}}"

    for cell in cells:
        label = f"{cell[1]} (example)" if cell[0] == "example" else f"{cell[1]} {cell[2]}"
        v = {s: best.get((cell, s)) for s in sides}
        row = f"{label:<24}" + "".join(f(v[s][0] if v[s] else None, 18, ".3f") for s in sides)
        for s, c in ratios:
            i = 0 if c == "wall" else 1
            row += f(v[s][i] / v["paddle"][i] if v[s] and v["paddle"] else None, 26, ".2f")
        print(row)
    print("Target (issue 18): shim/paddle <= 1.0 on every row.")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        worker(sys.argv[2])
    else:
        main(sys.argv[1:])
