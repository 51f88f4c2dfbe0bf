import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import paddle_on_torch  # noqa: E402

paddle_on_torch.install()


@pytest.fixture
def paddle():
    """The `paddle` module as a script sees it under paddle_on_torch (fresh defaults per test)."""
    import paddle as p

    p.set_default_dtype("float32")
    p.seed(2024)
    p.set_printoptions(precision=8, threshold=1000, edgeitems=3, sci_mode=False, linewidth=80)
    return p
