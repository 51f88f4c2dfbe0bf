"""PaddleScience (ppsci 1.4.0) training iterations on the shim vs real Paddle, eager and with to_static, one thread.

    python bench/paddlescience.py                                           # shim only (no Paddle here): what it can
    python bench/paddlescience.py --paddle-python ~/oracle/bin/python       # Paddle's side in the oracle interpreter
    python bench/paddlescience.py --scale test laplace2d euler_beam         # the tests' small sizes, these cases
    python bench/paddlescience.py --rounds 3 --wall                         # more turns; wall clock instead of CPU time

Workloads: the four cases of tests/ppsci_cases.py (the setups of PaddleScience's laplace2d, ldc2d_steady,
euler_beam and gPINN poisson_1d examples) at the examples' own model and point-set sizes (`--scale example`,
the default) or the tests' (`--scale test`).  A row is one training iteration as ppsci runs it
(ppsci.solver.train.train_epoch_func with iters_per_epoch=1: the batch from the dataloader, model and PDE
residuals through paddle.grad, losses, backward, Adam step), in four columns: the shim eager, the shim with
the Solver's to_static=True, real Paddle eager, real Paddle to_static (real Paddle 3.3.1's to_static fails on
these programs inside ppsci: the error is printed instead).  Every (side, mode, case) runs in its own process at
one thread (OMP_NUM_THREADS=1, Paddle's default); the weights come from one seeded NumPy draw on every side,
and each run's first loss must equal the shim eager one (1e-4) before its time counts.  Each cell is the best
over repeats and rounds.  Ratios: shim / Paddle eager for each shim mode, and the geometric mean of the better
shim mode over Paddle's better mode per case (issue 17: at most 0.8).
"""
import json
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
CASES = ("laplace2d", "ldc2d_steady", "euler_beam", "gpinn_poisson_1d")
RUNS = (("shim", "eager"), ("shim", "to_static"), ("paddle", "eager"), ("paddle", "to_static"))


def _weights(paddle, model):
    """The same initial weights on every side: Glorot-scaled normals from one seeded NumPy draw."""
    import numpy as np

    rng = np.random.RandomState(0)
    for _, p in sorted(model.named_parameters()):
        shape = list(p.shape)
        scale = math.sqrt(2.0 / sum(shape)) if len(shape) == 2 else 0.0
        p.set_value(rng.normal(0.0, 1.0, shape).astype("float32") * np.float32(scale))


def worker(side, mode, name, scale, wall):
    """One case in one mode on one side: prints RESULT {"loss": first loss, "ms": ms per iteration}."""
    import warnings

    warnings.filterwarnings("ignore")
    from bench.libraries import _import_paddle, _time

    paddle = _import_paddle(side)
    import ppsci
    from ppsci.solver import printer

    from tests import ppsci_cases

    ppsci.utils.logger.init_logger("ppsci", None, "error")  # no per-step log lines
    losses = []
    original = printer.update_train_loss

    def record(solver, loss_dict, batch_size):
        losses.append(float(loss_dict["loss"]))
        return original(solver, loss_dict, batch_size)

    printer.update_train_loss = record
    result = {}
    with tempfile.TemporaryDirectory() as out:
        try:
            size = ppsci_cases.SIZES[name][scale]
            solver = ppsci_cases.CASES[name](ppsci, paddle, out, mode == "to_static",
                                            lambda model: _weights(paddle, model), size)
            solver.global_step, solver.max_steps = 0, 10 ** 9
            epoch = [0]

            def step():
                epoch[0] += 1
                solver.train_epoch_func(solver, epoch[0], 10 ** 9)
                solver.train_output_info.clear()

            step()
            result["loss"] = losses[0]
            result["ms"] = _time(step, wall)
        except Exception as e:  # noqa: BLE001 - the table says which run failed and how
            msg = str(e).strip().splitlines()
            result = {"error": f"{type(e).__name__}: {msg[-1].strip()[:160] if msg else ''}"}
    print("RESULT " + json.dumps(result), flush=True)


def _run(python, side, mode, name, scale, wall):
    cmd = [python, os.path.abspath(__file__), "--worker", side, mode, name, scale] + (["--wall"] if wall else [])
    env = dict(os.environ, OMP_NUM_THREADS="1", GLOG_minloglevel="3", PYTHONPATH=ROOT)
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    for line in p.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    tail = (p.stderr.strip().splitlines() or ["no output"])[-1]
    if side == "paddle" and "No module named 'paddle'" in tail:
        tail = f"no real Paddle in {python} (--paddle-python)"
    return {"error": f"worker failed: {tail[:160]}"}


def _geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main(argv):
    wall = "--wall" in argv
    argv = [a for a in argv if a != "--wall"]
    if argv[:1] == ["--worker"]:
        return worker(*argv[1:5], wall)
    rounds, scale, python = 1, "example", sys.executable
    while argv[:1] and argv[0].startswith("--"):
        opt, value, argv = argv[0], argv[1], argv[2:]
        if opt == "--rounds":
            rounds = int(value)
        elif opt == "--scale":
            scale = value
        elif opt == "--paddle-python":
            python = os.path.expanduser(value)
        else:
            sys.exit(f"unknown option {opt}")
    names = argv or list(CASES)
    best = {}
    for _ in range(rounds):
        for name in names:
            for side, mode in RUNS:
                r = _run(sys.executable if side == "shim" else python, side, mode, name, scale, wall)
                cell = best.setdefault((name, side, mode), r)
                if "ms" in r and "ms" in cell:
                    cell["ms"] = min(cell["ms"], r["ms"])
    clock = "wall" if wall else "CPU"
    print(f"ppsci 1.4.0 cases at the {scale} sizes, ms per training iteration ({clock} time, one thread)")
    head = ["shim eager", "shim static", "paddle eager", "paddle static", "eager/eager", "static/eager", "best/best"]
    print(f"{'case':18s}" + "".join(f"{h:>14s}" for h in head))
    errors, ratios = [], []
    for name in names:
        cells = {run: best[(name, *run)] for run in RUNS}
        ref = cells[("shim", "eager")].get("loss")
        for run, c in cells.items():
            if "loss" in c and ref is not None and abs(c["loss"] - ref) > 1e-4 * max(1.0, abs(ref)):
                c.clear()
                c["error"] = f"first loss {c.get('loss')} != shim eager {ref}"
        ms = {run: c.get("ms") for run, c in cells.items()}
        pe, se, ss = ms[("paddle", "eager")], ms[("shim", "eager")], ms[("shim", "to_static")]
        shim_best = min([t for t in (se, ss) if t], default=None)
        paddle_best = min([t for t in (pe, ms[("paddle", "to_static")]) if t], default=None)
        row = [ms[run] for run in RUNS] + [se / pe if se and pe else None, ss / pe if ss and pe else None,
                                           shim_best / paddle_best if shim_best and paddle_best else None]
        if row[-1]:
            ratios.append(row[-1])
        print(f"{name:18s}" + "".join(f"{'-' if v is None else f'{v:.3f}' if i < 4 else f'{v:.2f}':>14s}"
                                      for i, v in enumerate(row)))
        errors += [f"  {name} {side} {mode}: {c['error']}" for (side, mode), c in cells.items() if "error" in c]
    if ratios:
        print(f"geometric mean shim/paddle (best mode each): {_geomean(ratios):.2f} (target <= 0.8)")
    if errors:
        print("runs without a time:")
        print("\n".join(errors))


if __name__ == "__main__":
    main(sys.argv[1:])
