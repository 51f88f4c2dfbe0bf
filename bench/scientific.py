"""Scientific-computing timing: one PINN training step, paddle_on_torch vs plain torch vs real Paddle.

    python bench/scientific.py            # every side, each in its own subprocess, one run
    python bench/scientific.py --wall     # wall-clock time instead of process CPU time

The step is examples/pinn_poisson.py's `train_step` (2-D Poisson PINN: a 3x32 tanh MLP on 256
interior + 256 boundary points; forward, u_xx and u_yy by paddle.grad(create_graph=True), backward
through them, one Adam update).  Sides:
- `shim`:   paddle_on_torch.install(), then the example's code as written (eager);
- `torch`:  a hand-written plain-torch twin of the same step (below), eager;
- `paddle`: real Paddle 3.3.1 running the example, when `import paddle` finds it.
Every side starts from the weights in tests/data/pinn/init.pdparams and first checks its first
losses against real Paddle's recorded curve (tests/data/pinn/losses.npz), then times the step.
One thread per side (OMP_NUM_THREADS=1, torch.set_num_threads(1)); the clock is process CPU time
(time spent descheduled on a loaded machine does not count), best over repeats.
Target (issue 5): shim eager within 1.1x of plain-torch eager.  The to_static (compiled) variant
of this benchmark is a later task (static graphs, issue 9) and is not measured here.
"""
import json
import os
import pickle
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "pinn")
REPEATS = 15
TARGET_S = 0.05
CHECK_STEPS = 5


def _time(step, wall):
    for _ in range(3):
        step()
    t = time.perf_counter()
    step()
    n = max(1, int(TARGET_S / max(time.perf_counter() - t, 1e-6)))
    clock = time.perf_counter if wall else time.process_time
    best = float("inf")
    for _ in range(REPEATS):
        c = clock()
        for _ in range(n):
            step()
        best = min(best, (clock() - c) / n)
    return best * 1e3


def _example():
    import importlib.util

    spec = importlib.util.spec_from_file_location("pinn_poisson", os.path.join(ROOT, "examples", "pinn_poisson.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _paddle_side(impl):
    """(first losses, step function) for the example under paddle_on_torch or real Paddle."""
    if impl == "shim":
        import paddle_on_torch

        paddle_on_torch.install()
    import paddle

    if impl == "paddle" and "paddle_on_torch" in paddle.__file__:
        raise ImportError("real Paddle is not installed")
    if impl == "shim":
        import torch

        torch.set_num_threads(1)
    else:
        paddle.set_device("cpu")
    pinn = _example()
    model = pinn.build_model()
    model.set_state_dict(paddle.load(os.path.join(DATA, "init.pdparams")))
    xy, f, boundary = pinn.make_batch()
    opt = paddle.optimizer.Adam(learning_rate=1e-3, parameters=model.parameters())
    losses = [float(pinn.train_step(model, opt, xy, f, boundary)) for _ in range(CHECK_STEPS)]
    return losses, lambda: pinn.train_step(model, opt, xy, f, boundary)


# ---------------------------------------------------------------- the plain-torch twin


def _torch_side():
    import numpy as np
    import torch

    torch.set_num_threads(1)
    pinn_np = _collocation()
    state = pickle.load(open(os.path.join(DATA, "init.pdparams"), "rb"))
    layers = []
    for k in range(4):
        w, b = state[f"{2 * k}.weight"], state[f"{2 * k}.bias"]
        lin = torch.nn.Linear(w.shape[0], w.shape[1])
        with torch.no_grad():
            lin.weight.copy_(torch.from_numpy(np.ascontiguousarray(w.T)))  # Paddle stores [in, out]
            lin.bias.copy_(torch.from_numpy(b))
        layers += [lin, torch.nn.Tanh()] if k < 3 else [lin]
    model = torch.nn.Sequential(*layers)
    inner, f, boundary = (torch.from_numpy(a) for a in pinn_np)
    xy = inner.clone().requires_grad_(True)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.999), eps=1e-8)

    def step():
        u = model(xy)
        (du,) = torch.autograd.grad(u.sum(), xy, create_graph=True)
        (d2x,) = torch.autograd.grad(du[:, 0].sum(), xy, create_graph=True)
        (d2y,) = torch.autograd.grad(du[:, 1].sum(), xy, create_graph=True)
        residual = d2x[:, 0:1] + d2y[:, 1:2] + f
        loss = torch.mean(residual * residual) + 10.0 * torch.mean(model(boundary) ** 2)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=False)  # Paddle's clear_grad zeroes in place
        return loss

    losses = [float(step()) for _ in range(CHECK_STEPS)]
    return losses, step


def _collocation(n_interior=256, n_boundary=64, seed=0):
    """The example's training points (its `collocation`, restated without paddle; the loss check
    against the recording confirms they agree)."""
    import math

    import numpy as np

    rng = np.random.default_rng(seed)
    inner = rng.uniform(0.0, 1.0, size=(n_interior, 2)).astype("float32")
    t = rng.uniform(0.0, 1.0, size=(n_boundary,)).astype("float32")
    zeros, ones = np.zeros_like(t), np.ones_like(t)
    boundary = np.concatenate([np.stack(p, 1) for p in ((t, zeros), (t, ones), (zeros, t), (ones, t))], 0)
    f = (2 * math.pi ** 2 * np.sin(math.pi * inner[:, :1]) * np.sin(math.pi * inner[:, 1:])).astype("float32")
    return inner, f, boundary.astype("float32")


def worker(side, wall):
    import numpy as np

    try:
        losses, step = _torch_side() if side == "torch" else _paddle_side(side)
    except ImportError as e:
        return {"side": side, "skipped": str(e)}
    want = np.load(os.path.join(DATA, "losses.npz"))["losses"][:CHECK_STEPS]
    err = float(np.max(np.abs(np.asarray(losses) - want) / want))
    return {"side": side, "ms": _time(step, wall), "loss_rel_err": err}


def main(argv):
    wall = "--wall" in argv
    if "--worker" in argv:
        print(json.dumps(worker(argv[argv.index("--worker") + 1], wall)))
        return
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", GLOG_minloglevel="3", PYTHONPATH=ROOT)
    results = {}
    for side in ("shim", "torch", "paddle"):
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", side] + (["--wall"] if wall else [])
        p = subprocess.run(cmd, env=env, capture_output=True, text=True)
        lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
        if p.returncode != 0 or not lines:
            results[side] = {"side": side, "skipped": (p.stderr.strip().splitlines() or ["failed"])[-1]}
        else:
            results[side] = json.loads(lines[-1])
    clock = "wall" if wall else "process CPU"
    print(f"PINN step (2-D Poisson, 3x32 tanh MLP, 512 points, 2nd derivatives + backward + Adam), "
          f"one thread, {clock} time, best of {REPEATS}:")
    for side in ("shim", "torch", "paddle"):
        r = results[side]
        if "skipped" in r:
            print(f"  {side:7s} skipped: {r['skipped']}")
        else:
            ok = "ok" if r["loss_rel_err"] < 1e-4 else "MISMATCH"
            print(f"  {side:7s} {r['ms']:8.3f} ms/step   first {CHECK_STEPS} losses vs real Paddle's recording: "
                  f"max rel err {r['loss_rel_err']:.1e} ({ok})")
    s, t, p = (results[k].get("ms") for k in ("shim", "torch", "paddle"))
    if s and t:
        print(f"  shim / torch  = {s / t:.3f}x   (target <= 1.1x)")
    if s and p:
        print(f"  shim / paddle = {s / p:.3f}x")
    print("  to_static: not measured yet (static graphs are a later task, issue 9)")


if __name__ == "__main__":
    main(sys.argv[1:])
