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

import pytest

pytestmark = pytest.mark.lib

from tests import paddleformers_cases as F
from tests import paddlenlp_cases as C

if not os.path.isdir(os.path.join(F.LANE, "paddleformers")):  # (never imported here: the lane's hub is not ours)
    pytest.skip("the PaddleFormers lane is not installed (tests/requirements-paddleformers.txt)",
                allow_module_level=True)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "paddleformers")


@pytest.fixture(scope="module")
def shim(tmp_path_factory):
    out = tmp_path_factory.mktemp("paddleformers")
    C.run_shim_worker(os.path.join(ROOT, "tests", "paddleformers_cases.py"), out, lane=F.LANE)
    return str(out)


@pytest.mark.parametrize("name", list(F.CASES))
def test_model(name, shim):
    C.check_case(F.CASES[name], name, DATA, shim, same_message=True)
