"""Signature parity with real Paddle 3.3.1 (issue 28): every public callable Paddle has (tests/golden/signatures.json,
recorded by tools/record_signatures.py: signatures, the keyword aliases Paddle's decorators and C++ parsers take,
Layers' constructors and forward, Tensor methods) is here, takes every keyword and alias Paddle takes (and, where
it takes **kwargs and Paddle does not, refuses a keyword Paddle refuses), binds its
positional parameters in Paddle's order and has Paddle's defaults; tests/signature_allowlist.py lists, with a reason
each, what stays out.  `python -m tests.signature_parity` prints the report."""
import pytest

from tests import signature_parity
from tests.signature_allowlist import ALLOW

pytestmark = pytest.mark.slow  # (probes about 2,000 callables: ten seconds and more)


@pytest.fixture(scope="module")
def found():
    return signature_parity.gaps()


def test_no_gaps_beyond_the_allowlist(found):
    unexpected = [g for g in found if not signature_parity.allowed(g, ALLOW)]
    assert not unexpected, f"{len(unexpected)} signature gaps (python -m tests.signature_parity):\n" + \
        "\n".join(unexpected[:80])


def test_every_allowlist_entry_is_still_needed(found):
    stale = [p for p in ALLOW if not any(signature_parity.allowed(g, [p]) for g in found)]
    assert not stale, f"allow-list entries that match no gap any more (remove them): {stale}"


_TORCH_FACE_SCRIPT = """
import paddle
from paddle.nn.attention import SDPBackend, sdpa_kernel

x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
paddle.functional.split(x, 1, dim=0)
paddle.functional.unique_consecutive(paddle.to_tensor([1, 1, 2]), dim=0)
with sdpa_kernel(SDPBackend.MATH):
    pass
paddle.nn.parameter.Parameter
paddle.nn.modules.Module
paddle.nn.AdaptiveAvgPool2d(1)(paddle.ones([1, 1, 2, 2]))
paddle.nn.ZeroPad1d(1)(paddle.ones([1, 1, 2])), paddle.nn.ZeroPad3d(1)(paddle.ones([1, 1, 1, 1, 1]))
paddle.nn.UpsamplingNearest2d(scale_factor=2)(paddle.ones([1, 1, 2, 2]))
paddle.nn.HuberLoss()(x, target=x)
paddle.kaiser_window(4), paddle.blackman_window(4), paddle.hamming_window(4), paddle.hann_window(4)
paddle.set_default_device("cpu")
paddle.get_device_module("cpu")
paddle.asin_(paddle.to_tensor([0.5])), paddle.cosh_(paddle.to_tensor([0.5]))
paddle.int, paddle.short, paddle.Tensor(2, 3)
paddle.nn.CosineSimilarity(dim=1)(x, x), paddle.nn.GroupNorm(1, 2, eps=1e-5, affine=True)(paddle.ones([1, 2, 2]))
paddle.nn.LayerNorm(3, eps=1e-5)(x)
paddle.index_put(x, (paddle.to_tensor([0]),), values=paddle.to_tensor([9.0]))
paddle.index_add(x, paddle.to_tensor([0]), 0, source=paddle.ones([1, 3]))
paddle.concat(tensors=[x, x]), paddle.tensor_split(x, indices=[1], dim=1), paddle.tensor_split(x, sections=3, dim=1)
paddle.tile(x, dims=[1, 2]), paddle.diagonal(x, dim1=0, dim2=1), paddle.flatten(x, start_dim=0)
paddle.nn.functional.fold(paddle.ones([1, 4, 4]), output_size=[3, 3], kernel_sizes=2)
paddle.roll(x, 1, dims=0), paddle.unflatten(x, 1, sizes=[3, 1]), x.view(dtype=paddle.int32)
paddle.bucketize(x, boundaries=paddle.to_tensor([2.0])), paddle.ones([1, 3]).expand(size=[2, 3])
paddle.finfo(type=paddle.float32), paddle.outer(paddle.ones([2]), vec2=paddle.ones([3]))
paddle.bmm(x[None], mat2=x.T[None]), paddle.nn.functional.hardshrink(x, lambd=1.0)
paddle.nn.AdaptiveMaxPool2D(1, return_indices=True)(paddle.ones([1, 1, 2, 2]))
paddle.zeros([2, 3]).copy_(x, non_blocking=True)
paddle.logsumexp(x, dim=1, out=paddle.zeros([2])), paddle.tril(x, out=paddle.zeros([2, 3]))
paddle.clip(x, 2, 4, out=paddle.zeros([2, 3])), paddle.diff(x, out=paddle.zeros([2, 2]))
paddle.nn.Linear(3, 2)(input=x)
paddle.arange(3, dtype="float32", requires_grad=True), paddle.ones([2], requires_grad=True)
paddle.ldexp(x, paddle.to_tensor([1.5, 2.0, 0.0]))
"""


def test_report_is_silent_on_the_torch_face(tmp_path):
    """`python -m paddle_on_torch --report` on a script using Paddle 3.3's PyTorch-style names and keywords finds
    nothing unsupported (issue 28's yardstick)."""
    import os
    import subprocess
    import sys

    script = tmp_path / "torch_face.py"
    script.write_text(_TORCH_FACE_SCRIPT)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = subprocess.run([sys.executable, "-m", "paddle_on_torch", "--report", str(script)], capture_output=True,
                       text=True, env=dict(os.environ, PYTHONPATH=root), cwd=tmp_path, timeout=600)
    assert p.returncode == 0, p.stderr
    assert "every Paddle API this run used is supported" in p.stderr, p.stderr
