"""paddle.jit.to_static vs eager vs plain torch.compile of the torch twin (bench/twins/).

    ~/oracle/bin/python bench/to_static.py [--repeats N]

Two workloads from the model zoo (recorded weights and inputs): a GPT training step (clear grads,
forward, loss, backward) and a ResNet eval forward under no_grad.  Sides, each in its own subprocess
with one thread: the shim eager, the shim with paddle.jit.to_static (default backend: inductor), the
torch twin eager, the twin under torch.compile (inductor).  Compiled sides report the first call
(compile) separately from the steady-state step (best of N timed loops).  Target: to_static within
1.05x of the twin's torch.compile.
"""
import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CHILD = r"""
import json, os, sys, time
sys.path.insert(0, ROOT)
import numpy as np
import torch
torch.set_num_threads(1)
side, work, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3])
DATA = os.path.join(ROOT, "tests", "data", "model_zoo")
rec = dict(np.load(os.path.join(DATA, f"{work}.npz")))
arrays = [rec[f"input{i}"] for i in range(sum(k.startswith("input") for k in rec))]
if side.startswith("shim"):
    import paddle_on_torch
    paddle_on_torch.install()
    import paddle, importlib
    mod = importlib.import_module(f"tests.model_zoo.{work}")
    model = mod.build()
    model.set_state_dict(paddle.load(os.path.join(DATA, f"{work}.pdparams")))
    if side == "shim_to_static":
        paddle.jit.to_static(model)
    xs = [paddle.to_tensor(a) for a in arrays]
    if work == "gpt":
        model.train()
        def step():
            model.clear_gradients()
            loss = mod.loss(model(*xs), arrays)
            loss.backward()
            return loss
    else:
        model.eval()
        def step():
            with paddle.no_grad():
                return model(*xs)
else:
    from bench import twins
    tmod, model = twins.load(work)
    if side == "torch_compile":
        cmodel = torch.compile(model)
    else:
        cmodel = model
    xs = [torch.from_numpy(a) for a in arrays]
    if work == "gpt":
        model.train()
        def step():
            model.zero_grad(set_to_none=False)
            loss = tmod.loss(cmodel(*xs), arrays)
            loss.backward()
            return loss
    else:
        model.eval()
        def step():
            with torch.no_grad():
                return cmodel(*xs)
t0 = time.perf_counter()
step()
first = time.perf_counter() - t0
for _ in range(3):
    step()
n = 20 if work == "gpt" else 5
best = float("inf")
for _ in range(repeats):
    t0 = time.perf_counter()
    for _ in range(n):
        step()
    best = min(best, (time.perf_counter() - t0) / n)
print(json.dumps({"first_s": first, "step_ms": best * 1e3}))
"""


def run(side, work, repeats):
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONPATH=ROOT)
    r = subprocess.run([sys.executable, "-c", f"ROOT = {ROOT!r}\n" + CHILD, side, work, str(repeats)],
                       capture_output=True, text=True, env=env, cwd=ROOT)
    if r.returncode:
        return {"error": r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"rc {r.returncode}"}
    return json.loads(r.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("work", nargs="*", default=["gpt", "resnet"])
    a = ap.parse_args()
    sides = ["shim_eager", "shim_to_static", "torch_eager", "torch_compile"]
    for work in a.work:
        res = {s: run(s, work, a.repeats) for s in sides}
        what = "train step (clear grads, forward, loss, backward)" if work == "gpt" else "eval forward (no_grad)"
        print(f"\n{work}: {what}, ms per step (best of {a.repeats}); compile = first call minus one step")
        for s in sides:
            r = res[s]
            if "error" in r:
                print(f"  {s:16s} error: {r['error']}")
                continue
            extra = f"   compile {r['first_s'] - r['step_ms'] / 1e3:7.2f} s" if s in ("shim_to_static", "torch_compile") \
                else ""
            print(f"  {s:16s} {r['step_ms']:9.3f} ms{extra}")
        ok = all("error" not in res[s] for s in sides)
        if ok:
            st, tc = res["shim_to_static"]["step_ms"], res["torch_compile"]["step_ms"]
            print(f"  to_static / torch.compile twin: {st / tc:.3f}x (target <= 1.05x)")
            print(f"  to_static / shim eager:        {st / res['shim_eager']['step_ms']:.3f}x")
            print(f"  torch.compile / torch eager:   {tc / res['torch_eager']['step_ms']:.3f}x")
            print(f"  compile time to_static / torch.compile: "
                  f"{res['shim_to_static']['first_s'] / res['torch_compile']['first_s']:.2f}x")


if __name__ == "__main__":
    main()
