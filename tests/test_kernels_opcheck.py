"""torch.library.opcheck for every fused custom op of paddle_on_torch (norm_fwd / norm_bwd, rope / rope_bwd,
swiglu / swiglu_bwd, softmax_ce / softmax_ce_bwd; the optimizer steps adam_step / momentum_step / sgd_step) in every
backend, and the C++ autograd nodes of the eager fast path.

opcheck runs each op through its schema, its fake (meta) implementation, its autograd registration and
aot_autograd with dynamic shapes, comparing against the real kernel.  Cases: float32 and bfloat16, odd sizes
(rows of 123, the (5, 123, 123) of the issue on CPU; under TRITON_INTERPRET=1 the Triton kernels take (3, 5, 123):
the interpreter needs ~15 s for one call at (5, 123, 123)), contiguous and non-contiguous inputs.
"""
import importlib.util
import os
import tempfile

import pytest
import torch

os.environ.setdefault("PADDLE_ON_TORCH_EXT_CACHE", os.path.join(tempfile.gettempdir(), "paddle_on_torch_ext"))
if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")  # must be set before triton.jit runs

import paddle_on_torch as paddle  # noqa: E402,F401  (registers the custom ops)
from paddle_on_torch.kernels import cpp as ext  # noqa: E402
from paddle_on_torch.kernels import cross_entropy  # noqa: E402,F401  (registers softmax_ce)
from paddle_on_torch.kernels import norm, rope, swiglu  # noqa: E402

HAS_TRITON = importlib.util.find_spec("triton") is not None
CPP = pytest.mark.skipif(ext.load() is None, reason="C++ kernels could not be built here")
BACKENDS = [
    "reference",
    pytest.param("cpp", marks=CPP),
    pytest.param("triton", marks=pytest.mark.skipif(not HAS_TRITON, reason="triton is not installed")),
]
OPS = torch.ops.paddle_on_torch
CHECKS = ("test_schema", "test_autograd_registration", "test_faketensor", "test_aot_dispatch_dynamic")
# both dtypes and both layouts, not every pair (each opcheck compiles with aot_autograd: seconds)
LAYOUTS = [(torch.float32, True), (torch.float32, False), (torch.bfloat16, False)]


def _interpreted(backend):
    return backend == "triton" and not torch.cuda.is_available()


def _t(shape, dtype, contiguous=True, grad=False):
    """A random tensor of `shape`; non-contiguous: the transpose of a contiguous tensor of the reversed shape."""
    t = torch.randn(shape) if contiguous else torch.randn(shape[::-1]).permute(*reversed(range(len(shape))))
    t = t.to(dtype)
    return t.requires_grad_(grad) if grad else t


def _opcheck(op, args):
    torch.library.opcheck(op, args, test_utils=CHECKS)


# ------------------------------------------------------------------ opcheck, every op, every backend


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the Triton interpreter evaluates masked-off lanes
@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
@pytest.mark.parametrize("dtype, contiguous", LAYOUTS)
def test_opcheck_norm(backend, dtype, contiguous):
    torch.manual_seed(0)
    m, n = (15, 123) if _interpreted(backend) else (5 * 123, 123)
    x, r = _t((m, n), dtype, contiguous, True), _t((m, n), dtype, contiguous, True)
    w, b, nb = (torch.randn(n).requires_grad_() for _ in range(3))
    _opcheck(OPS.norm_fwd.default, (x, r, b, w, nb, 1e-5, 0.5, False, 1))  # layer norm, residual, bias
    _opcheck(OPS.norm_fwd.default, (x, None, None, w, None, 1e-5, 1.0, True, 1))  # rms norm
    _opcheck(OPS.norm_fwd.default, (x, None, None, None, None, 1e-5, 1.0, False, 1))  # no affine
    xd = x.detach()
    out, _, mean, rstd = OPS.norm_fwd.default(xd, None, None, w.detach(), nb.detach(), 1e-5, 1.0, False, 1)
    dy = _t((m, n), dtype, contiguous)
    # norm_bwd(g_out, g_res, s, mean, rstd, weight, alpha, rms, has_res, want_dx, want_dbias, want_dw, want_db)
    _opcheck(OPS.norm_bwd.default, (dy, None, xd, mean, rstd, w.detach(), 1.0, False, False, True, False, True, True,
                                    1))
    _, s, mean, rstd = OPS.norm_fwd.default(xd, r.detach(), b.detach(), None, None, 1e-5, 0.5, False, 1)
    _opcheck(OPS.norm_bwd.default, (dy, _t((m, n), dtype, contiguous), s, mean, rstd, None, 0.5, False, True, True,
                                    True, False, False, 1))  # residual, its gradient, alpha != 1, the bias' gradient
    _, _, mean, rstd = OPS.norm_fwd.default(xd, None, None, None, None, 1e-5, 1.0, True, 1)
    _opcheck(OPS.norm_bwd.default, (None, None, xd, mean, rstd, None, 1.0, True, False, True, False, False, False,
                                    1))
    # rows of a 3-D x (begin_norm_axis 2): out in x's shape
    _opcheck(OPS.norm_fwd.default, (x.reshape(-1, 5, n), None, None, w, None, 1e-5, 1.0, True, 2))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
@pytest.mark.parametrize("dtype, contiguous", LAYOUTS)
def test_opcheck_rope(backend, dtype, contiguous):
    torch.manual_seed(0)
    a0, a1, h, d = (3, 5, 2, 62) if _interpreted(backend) else (5, 123, 3, 62)
    q = _t((a0, a1, h, d), dtype, contiguous, True)
    for c0, neox in ((1, True), (a0, False)):  # tables shared over the batch or one per batch row; both styles
        cos, sin = torch.randn(c0, a1, d), torch.randn(c0, a1, d)
        _opcheck(OPS.rope.default, (q, cos, sin, neox))
        _opcheck(OPS.rope_bwd.default, (_t((a0, a1, h, d), dtype, contiguous), cos, sin, neox))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
@pytest.mark.parametrize("dtype, contiguous", LAYOUTS)
def test_opcheck_swiglu(backend, dtype, contiguous):
    torch.manual_seed(0)
    shape = (3, 5, 123) if _interpreted(backend) else (5, 123, 123)
    x, y = _t(shape, dtype, contiguous, True), _t(shape, dtype, contiguous, True)
    _opcheck(OPS.swiglu.default, (x, y))
    halves = _t(shape[:-1] + (2 * shape[-1],), dtype, contiguous, True).chunk(2, -1)  # row stride 2n, no copy
    _opcheck(OPS.swiglu.default, halves)
    g = _t(shape, dtype, contiguous)
    _opcheck(OPS.swiglu_bwd.default, (g, x.detach(), y.detach()))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
@pytest.mark.parametrize("dtype, contiguous", LAYOUTS)
def test_opcheck_softmax_ce(backend, dtype, contiguous):
    torch.manual_seed(0)
    m, v = (15, 123) if _interpreted(backend) else (5 * 123, 123)
    logits = _t((m, v), dtype, contiguous, True)
    labels = torch.randint(0, v, (m,))
    labels[3] = -100
    _opcheck(OPS.softmax_ce.default, (logits, labels, -100))
    loss, lse = OPS.softmax_ce.default(logits.detach(), labels, -100)
    _opcheck(OPS.softmax_ce_bwd.default, (logits.detach(), labels, lse, torch.randn(m), -100))


def _step_args(kind, contiguous):
    """Operands of an optimizer-step op (kernels/optim.py): three parameters, the 2-D ones possibly transposed."""
    shapes = [(5, 123), (123,), (3, 7)]

    def ts(fn=torch.randn):
        return [_t(s, torch.float32, contiguous or len(s) == 1) if fn is torch.randn else fn(s) for s in shapes]

    lrs, coeffs = [1e-3, 2e-3, 0.5], [1 - 1e-5, 1.0, 0.5]
    if kind == "adam_step":
        pows = [[torch.tensor([b ** 2]) for _ in shapes] for b in (0.9, 0.999)]
        return (ts(), ts(), ts(), ts(torch.rand), ts(torch.rand), pows[0], pows[1], lrs, coeffs, 0.9, 0.999, 0.1,
                1 - 0.999, 1e-8)
    if kind == "momentum_step":
        return (ts(), ts(), ts(), lrs, [0.0, 0.2, 1e-3], 0.9, True)
    return (ts(), ts(), lrs)


@pytest.mark.parametrize("backend", ["reference", pytest.param("cpp", marks=CPP)], indirect=True)
@pytest.mark.parametrize("contiguous", [True, False])
@pytest.mark.parametrize("kind", ["adam_step", "momentum_step", "sgd_step"])
def test_opcheck_optimizer_steps(backend, kind, contiguous):
    """The optimizer steps: tensor lists updated in place (Tensor(a!)[]), no gradient, a fake that allocates
    nothing; the CPU kernel (boxed, ext/optim.cpp) and the reference composition."""
    from paddle_on_torch.kernels import optim  # noqa: F401  (defines the ops)

    torch.manual_seed(0)
    _opcheck(getattr(OPS, kind).default, _step_args(kind, contiguous))


# ------------------------------------------------------------------ the C++ autograd nodes (eager fast path)


def _close(got, want, dtype, what):
    got, want = got.detach().float(), want.detach().float()
    assert got.shape == want.shape, what
    if not want.numel():
        return
    if dtype == torch.bfloat16:
        tol = 2e-2 * (want.abs().max().item() + 1e-6)
        assert (got - want).abs().max().item() <= tol, what
    else:
        torch.testing.assert_close(got, want, rtol=2e-5, atol=2e-5, msg=what)


def _node_name(t):
    return t.grad_fn.name() if t.grad_fn is not None else None


@CPP
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize("rms", [True, False])
@pytest.mark.parametrize("loss_kind", ["sum", "weighted", "residual_out_only"])
def test_norm_node_any_rank_and_gradient_layouts(dtype, rms, loss_kind):
    """norm.norm on x of rank 3 (rows of n, non-contiguous), residual of another shape, a [1, n] weight, through
    the C++ autograd kernel; gradients of a sum() (broadcast, read as one row), of a weighted sum, and of residual_out alone
    (no gradient for out) equal the reference composition's."""
    torch.manual_seed(0)
    n = 123
    x = _t((5, 123, n), dtype, contiguous=False, grad=True)
    res = torch.randn(5 * 123, n).to(dtype).requires_grad_()
    bias, nb = torch.randn(n).requires_grad_(), torch.randn(n).requires_grad_()
    w = torch.nn.Parameter(torch.randn(1, n) + 1)  # a Parameter takes the fast path too
    got = norm.norm(x, res, bias, w, nb, 1e-5, 0.5, rms, x.dim() - 1)
    assert "NormFunction" in _node_name(got[0]) and got[0].shape == x.shape and got[1].shape == x.shape
    want = norm.ref_norm(x.reshape(-1, n), res, bias, w.reshape(-1), nb, 1e-5, 0.5, rms)
    for g, r, name in zip(got, want, ["out", "residual_out", "mean", "rstd"]):
        _close(g.reshape(r.shape), r, dtype, name)
    assert not got[2].requires_grad and not got[3].requires_grad  # the statistics are not differentiable
    weights = torch.randn(x.shape)

    def loss(out, res_out):
        if loss_kind == "sum":
            return out.float().sum()
        if loss_kind == "weighted":
            return (out.float() * weights.reshape(out.shape)).sum() + res_out.float().sum() * 0.3
        return (res_out.float() * weights.reshape(res_out.shape)).sum()

    leaves = [x, res, bias, w, nb]
    g1 = torch.autograd.grad(loss(got[0], got[1]), leaves, allow_unused=True)
    g2 = torch.autograd.grad(loss(want[0], want[1]), leaves, allow_unused=True)
    for a, b, name in zip(g1, g2, ["x", "residual", "bias", "weight", "norm_bias"]):
        if b is None or (loss_kind == "residual_out_only" and name in ("weight", "norm_bias")):
            assert a is None or not a.abs().sum(), name  # out took no gradient: none for its parameters
            continue
        assert a.shape == b.shape and a.dtype == b.dtype, name
        _close(a, b, dtype, name)


@CPP
def test_norm_node_input_without_gradient_and_inplace_output():
    """The seed layer's case (x needs no gradient: the node skips ds), and an in-place op on the output (allowed:
    the node's outputs are not views)."""
    torch.manual_seed(0)
    x = torch.randn(2, 16, 768)
    w = torch.nn.Parameter(torch.randn(768))
    out = norm.norm(x, None, None, w, None, 1e-6, 1.0, True, x.dim() - 1)[0]
    assert "NormFunction" in _node_name(out)
    out.mul_(2.0)
    out.sum().backward()
    ws = w.detach().requires_grad_()
    (norm.ref_norm(x.reshape(-1, 768), None, None, ws, None, 1e-6, 1.0, True)[0] * 2).sum().backward()
    torch.testing.assert_close(w.grad, ws.grad, rtol=1e-4, atol=1e-4)


@CPP
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_rope_and_swiglu_nodes(dtype):
    torch.manual_seed(0)
    q = _t((5, 123, 3, 62), dtype, contiguous=False, grad=True)
    cos, sin = torch.randn(1, 123, 62), torch.randn(1, 123, 62)
    for neox in (True, False):
        got, want = rope.rotary(q, cos, sin, neox), rope.ref_rope(q, cos, sin, neox)
        assert "RopeFunction" in _node_name(got)
        _close(got, want, dtype, "rope")
        _close(torch.autograd.grad(got.float().sum(), q)[0], torch.autograd.grad(want.float().sum(), q)[0], dtype,
               "rope grad")
    xy = _t((5, 123, 2 * 123), dtype, contiguous=False, grad=True)
    x, y = xy.chunk(2, -1)
    got, want = swiglu.silu_mul(x, y), swiglu.ref_swiglu(x, y)
    assert "SwigluFunction" in _node_name(got) and got._base is None  # not a view: in-place ops on it are allowed
    _close(got, want, dtype, "swiglu")
    _close(torch.autograd.grad(got.float().sum(), xy)[0], torch.autograd.grad(want.float().sum(), xy)[0], dtype,
           "swiglu grad")
