"""The static-graph examples (examples/static_*.py) match the outputs real Paddle 3.3.1 gave.

Each example's run() returns a dict of numpy arrays (losses, fetched outputs, batch-norm
statistics).  They were recorded under real Paddle, each in its own process (the scripts pick
Paddle's IR through an environment flag read at import):

    ~/oracle/bin/python tests/test_static_examples.py --record

Here the same code runs under paddle_on_torch and must match to 1e-5.
"""
import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "static")
EXAMPLES = ["static_mnist_fc", "static_conv_bn", "static_control_flow"]


def _example(name):
    spec = importlib.util.spec_from_file_location(f"example_{name}", os.path.join(ROOT, "examples", f"{name}.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_matches_real_paddle(name, paddle):
    want = dict(np.load(os.path.join(DATA, f"{name}.npz")))
    got = _example(name).run()
    assert sorted(got) == sorted(want)
    for key, value in want.items():
        g = np.asarray(got[key])
        assert g.dtype == value.dtype and g.shape == value.shape, key
        np.testing.assert_allclose(g, value, rtol=1e-5, atol=1e-6, err_msg=f"{name}: {key}")


@pytest.mark.slow
@pytest.mark.parametrize("name", EXAMPLES)
def test_script_runs_under_the_runner(name, tmp_path):
    env = dict(os.environ, PYTHONPATH=ROOT, OMP_NUM_THREADS="1")
    proc = subprocess.run([sys.executable, "-m", "paddle_on_torch", os.path.join(ROOT, "examples", f"{name}.py")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip()


_RECORD = """
import sys, numpy as np, importlib.util
spec = importlib.util.spec_from_file_location("ex", sys.argv[1])
mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
import paddle
assert not hasattr(paddle, "__shim_version__"), "record under real Paddle"
np.savez(sys.argv[2], **{k: np.asarray(v) for k, v in mod.run().items()})
"""


def record():
    os.makedirs(DATA, exist_ok=True)
    for name in EXAMPLES:
        out = os.path.join(DATA, f"{name}.npz")
        subprocess.run([sys.executable, "-c", _RECORD, os.path.join(ROOT, "examples", f"{name}.py"), out],
                       check=True, cwd=ROOT)
        print(f"{name} -> {os.path.relpath(out, ROOT)}")


if __name__ == "__main__" and "--record" in sys.argv:
    record()
