"""The whole-sequence RNN as a torch.library op (paddle_on_torch::rnn / rnn_bwd, kernels/rnn.py): opcheck in the
reference and C++ backends, the op against the eager fast path (the C++ node), the op without a C++ build, and
under torch.compile.  The oracle is the reference composition (torch's own RNN ops); tests/test_rnn_kernel.py
checks the kernel itself against them case by case, and the layers' goldens run in tests/test_golden.py."""
import os
import tempfile

import pytest
import torch

os.environ.setdefault("PADDLE_ON_TORCH_EXT_CACHE", os.path.join(tempfile.gettempdir(), "paddle_on_torch_ext"))

from paddle_on_torch.kernels import cpp as ext  # noqa: E402
from paddle_on_torch.kernels import rnn as R  # noqa: E402

CPP = pytest.mark.skipif(ext.load() is None, reason="C++ kernels could not be built here")
BACKENDS = ["reference", pytest.param("cpp", marks=CPP)]
OPS = torch.ops.paddle_on_torch
GATES = {0: 4, 1: 3, 2: 1, 3: 1}


def make(mode, B=2, T=4, I=3, H=5, layers=2, bidir=True, batch_first=False, dtype=torch.float64, seed=0):
    g = torch.Generator().manual_seed(seed)
    D = 2 if bidir else 1

    def r(*shape):
        return (torch.randn(*shape, generator=g, dtype=dtype) * 0.5).requires_grad_()

    x = r(*((B, T, I) if batch_first else (T, B, I)))
    h0 = r(layers * D, B, H)
    c0 = r(layers * D, B, H) if mode == 0 else None
    ws = [r(GATES[mode] * H, I if layer == 0 else D * H) if k == 0 else r(GATES[mode] * H, H) if k == 1 else
          r(GATES[mode] * H) for layer in range(layers) for _ in range(D) for k in range(4)]
    return x, h0, c0, ws


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
@pytest.mark.parametrize("mode, lengths", [(0, [4, 0, 2]), (1, None), (2, [1, 3, 4])])
def test_opcheck(backend, mode, lengths):
    B = 3 if lengths else 2
    x, h0, c0, ws = make(mode, B=B, batch_first=mode == 1)
    lens = None if lengths is None else torch.tensor(lengths)
    checks = ("test_schema", "test_autograd_registration", "test_faketensor", "test_aot_dispatch_dynamic")
    args = (mode, x, h0, c0, ws, 2, True, mode == 1, lens)
    torch.library.opcheck(OPS.rnn.default, args, test_utils=checks)
    torch.library.opcheck(OPS.rnn.default, (mode, x, None, None) + args[4:], test_utils=checks)  # zero states
    y, h, c = OPS.rnn.default(*args)
    d = [torch.randn_like(t) if t.numel() else None for t in (y, h, c)]
    detached = (mode, x.detach(), h0.detach(), None if c0 is None else c0.detach(), [w.detach() for w in ws], 2, True,
                mode == 1, lens, *d)
    torch.library.opcheck(OPS.rnn_bwd.default, detached, test_utils=checks[:3])


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
@pytest.mark.parametrize("mode", [0, 1, 3])
def test_op_matches_reference_composition(backend, mode):
    """The op (its CPU kernel in this backend) and its backward op against autograd through torch's RNN ops."""
    x, h0, c0, ws = make(mode, batch_first=True, seed=mode)
    lens = torch.tensor([4, 2])
    got = R.rnn_op(mode, x, h0, c0, ws, 2, True, True, lens)
    want = R.ref_rnn(mode, x, h0, c0, ws, 2, True, True, lens)
    leaves = [x, h0] + ([c0] if c0 is not None else []) + ws
    outs = [(a, b) for a, b in zip(got, want) if b.numel()]
    gs = [torch.randn_like(b) for _, b in outs]
    for a, b in outs:
        torch.testing.assert_close(a, b, rtol=1e-10, atol=1e-10)
    g1 = torch.autograd.grad([a for a, _ in outs], leaves, gs)
    g2 = torch.autograd.grad([b for _, b in outs], leaves, gs)
    for a, b in zip(g1, g2):
        torch.testing.assert_close(a, b, rtol=1e-9, atol=1e-9)


@CPP
@pytest.mark.parametrize("mode", [0, 1, 2])
def test_fast_path_and_op_agree(mode):
    """The op on plain CPU tensors takes ext/rnn.cpp's autograd kernel, the C++ node keeping the activations (the
    fast path); the Python formula (register_autograd, what other devices get) calls rnn_bwd, whose CPU kernel
    recomputes them: the same gradients, unused outputs included."""
    from torch._library.autograd import make_autograd_impl

    x, h0, c0, ws = make(mode, dtype=torch.float32)
    fast = R.rnn(mode, x, h0, c0, ws, 2, True, False)
    assert "RNNFunction" in fast[0].grad_fn.name()
    keys = torch._C.DispatchKeySet(torch._C.DispatchKey.CPU) | torch._C.DispatchKeySet(torch._C.DispatchKey.AutogradCPU)
    op = make_autograd_impl(R.rnn_op._opoverload, R.rnn_op)(keys, mode, x, h0, c0, ws, 2, True, False, None)
    assert "CppNode" not in op[0].grad_fn.name()
    leaves = [x, h0] + ([c0] if c0 is not None else []) + ws
    for used in ((0,), (1,), (0, 1)):
        g1 = torch.autograd.grad([fast[i].sum() for i in used], leaves, allow_unused=True, retain_graph=True)
        g2 = torch.autograd.grad([op[i].sum() for i in used], leaves, allow_unused=True, retain_graph=True)
        for a, b in zip(g1, g2):
            torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-6)


def test_op_without_a_cpp_build(broken_compiler):
    """No compiler: usable() is False (the layers keep torch's RNN ops) and the op runs its reference composition."""
    broken_compiler(R._CPP)
    with pytest.warns(RuntimeWarning, match="unavailable"):
        assert R.kernel() is None
    x, h0, c0, ws = make(0)
    assert not R.usable(x)
    y, h, c = R.rnn(0, x, h0, c0, ws, 2, True, False)
    ry, rh, rc = R.ref_rnn(0, x, h0, c0, ws, 2, True, False)
    torch.testing.assert_close(y, ry)
    gx = torch.autograd.grad((y.sum() + c.sum()), x)[0]
    torch.testing.assert_close(gx, torch.autograd.grad(ry.sum() + rc.sum(), x)[0])


def test_op_compiles_to_one_graph():
    x, h0, c0, ws = make(1)

    def f(x, h0, *ws):
        y, h, _ = R.rnn_op(1, x, h0, None, list(ws), 2, True, False, None)
        return y.sum() + h.sum()

    cf = torch.compile(f, backend="aot_eager", fullgraph=True)
    loss = cf(x, h0, *ws)
    got = torch.autograd.grad(loss, [x, h0] + ws)
    want = torch.autograd.grad(f(x, h0, *ws), [x, h0] + ws)
    for a, b in zip(got, want):
        torch.testing.assert_close(a, b)
