"""Time paddle.jit.save / paddle.jit.load of the model-zoo models (issue 19: seconds, not minutes).

Each model is saved in a fresh process (so the first save pays what a user's first save pays: torch.export's
imports), with its batch dim dynamic, then loaded and run once; the same script runs under real Paddle for the
comparison column (`--python /path/to/paddle/python` for that side; the zoo modules `import paddle`).

    python bench/jit_save.py [model ...]                        # the shim
    python bench/jit_save.py --python ~/oracle/bin/python       # + real Paddle, same models, same run
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_CHILD = r"""
import json, os, sys, time
t0 = time.perf_counter()
sys.path.insert(0, {root!r})
if {shim!r}:
    import paddle_on_torch
    paddle_on_torch.install()
import importlib
import numpy as np
import paddle
t_import = time.perf_counter() - t0
name, out = sys.argv[1], sys.argv[2]
mod = importlib.import_module("tests.model_zoo." + name)
model = mod.build()
model.set_state_dict(paddle.load(os.path.join({root!r}, "tests", "data", "model_zoo", name + ".pdparams")))
model.eval()
arrays = mod.inputs(np.random.default_rng(0))
specs = [paddle.static.InputSpec([None] + list(a.shape[1:]), str(a.dtype), "in%d" % i) for i, a in enumerate(arrays)]
t, c = time.perf_counter(), time.process_time()
paddle.jit.save(model, os.path.join(out, "model"), input_spec=specs)
t_save, c_save = time.perf_counter() - t, time.process_time() - c
t = time.perf_counter()
loaded = paddle.jit.load(os.path.join(out, "model"))
with paddle.no_grad():
    loaded(*[paddle.to_tensor(a) for a in arrays])
t_load = time.perf_counter() - t
print(json.dumps({{"import": t_import, "save": t_save, "save_cpu": c_save, "load_and_run": t_load}}))
"""


def run(python, shim, name):
    with tempfile.TemporaryDirectory() as out:
        code = _CHILD.format(root=ROOT, shim=shim)
        env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONPATH=ROOT)
        r = subprocess.run([python, "-c", code, name, out], capture_output=True, text=True, env=env, timeout=900)
    if r.returncode != 0:
        return {"error": r.stderr.strip().splitlines()[-1][:200] if r.stderr.strip() else f"exit {r.returncode}"}
    return json.loads(r.stdout.strip().splitlines()[-1])


def main():
    sys.path.insert(0, ROOT)
    from tests.model_zoo import MODELS

    ap = argparse.ArgumentParser()
    ap.add_argument("models", nargs="*", default=MODELS)
    ap.add_argument("--python", help="a Python with real Paddle installed, for the comparison column")
    args = ap.parse_args()
    # save CPU s: the save's own process CPU time, what its wall time is on an idle machine (the shared machine's
    # load inflates wall times several-fold)
    print(f"{'model':<14}{'shim save s':>12}{'save CPU s':>12}{'load+run s':>12}{'paddle save s':>15}")
    for name in args.models:
        shim = run(sys.executable, True, name)
        ref = run(args.python, False, name) if args.python else {}
        cell = lambda d, k: f"{d[k]:.2f}" if k in d else d.get("error", "-")[:40]  # noqa: E731
        print(f"{name:<14}{cell(shim, 'save'):>12}{cell(shim, 'save_cpu'):>12}{cell(shim, 'load_and_run'):>12}"
              f"{cell(ref, 'save'):>15}", flush=True)


if __name__ == "__main__":
    main()
