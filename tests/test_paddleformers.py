"""PaddleFormers 1.2.0, unchanged, on the shim: tiny models against real Paddle's recorded results.

tools/record_paddleformers.py built each case of tests/paddleformers_cases.py under real Paddle 3.3.1, saved its
weights with paddle.save (tests/data/paddleformers/<weights>.pdparams) and stored the eval logits and four AdamW
losses (<case>.npz), or the error Paddle raised on the CPU.  Here the same code runs under paddle_on_torch, in a
process of its own whose PYTHONPATH puts PaddleFormers' lane first (its HF transformers 5 / hub 1 cannot share an
environment with PaddleNLP's).

Skipped when the lane is not installed:
    pip install --no-deps --target tests/.lanes/paddleformers -r tests/requirements-paddleformers.txt
"""
import os
import subprocess
import sys

import numpy as np
import pytest

from tests import paddleformers_cases as F
from tests.paddlenlp_cases import TOL
from tests.paddlenlp_cases import load_results as _load

if not os.path.isdir(os.path.join(F.LANE, "paddleformers")):  # (never imported here: the lane's hub is not ours)
    pytest.skip("the PaddleFormers lane is not installed (tests/requirements-paddleformers.txt)",
                allow_module_level=True)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "paddleformers")


@pytest.fixture(scope="module")
def shim(tmp_path_factory):
    out = tmp_path_factory.mktemp("paddleformers")
    cmd = [sys.executable, "-m", "paddle_on_torch", os.path.join(ROOT, "tests", "paddleformers_cases.py"), str(out)]
    path = os.pathsep.join([F.LANE, ROOT] + [p for p in [os.environ.get("PYTHONPATH")] if p])
    env = dict(os.environ, PYTHONPATH=path, OMP_NUM_THREADS="1")
    p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-4000:]
    return str(out)


@pytest.mark.parametrize("name", list(F.CASES))
def test_model(name, shim):
    case = F.CASES[name]
    want = _load(DATA, case.reference or name)
    got = _load(shim, name)
    if "error_type" in want:  # real Paddle fails here, and so does the shim, with the same error type
        assert str(got.get("error_type")) == str(want["error_type"]), got.get("error", got)
        assert str(got["error"]).strip().splitlines()[-1].endswith(str(want["error"]).splitlines()[0][-60:])
        return
    if case.reference:  # Paddle fails on the CPU; the shim computes what the plain path does
        assert "error_type" in _load(DATA, name)
    assert "error_type" not in got, str(got["error"])
    logits = got["logits"]
    assert logits.shape == want["logits"].shape and logits.dtype == want["logits"].dtype
    np.testing.assert_allclose(logits, want["logits"], rtol=TOL, atol=TOL, err_msg=f"{name} logits")
    np.testing.assert_allclose(got["losses"], want["losses"], rtol=TOL, atol=TOL, err_msg=f"{name} AdamW losses")
