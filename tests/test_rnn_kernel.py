"""The whole-sequence C++ RNN kernel (paddle_on_torch.kernels.rnn, ext/rnn.cpp).

Outputs, final states and every gradient are checked against torch's own RNN ops (`_VF.lstm` / `gru` /
`rnn_tanh` / `rnn_relu`, on packed sequences when lengths are given: the path the layers took before, and
the one that matched Paddle's goldens), in float64 for LSTM / GRU / SimpleRNN(tanh, relu), one and two
layers, both directions, batch-first and time-major, with and without sequence lengths; through the BLAS
called directly and through ATen's mm
and the kernel's own loop for tiny GEMMs.  gradcheck covers a small bidirectional two-layer net with lengths.
The Paddle goldens themselves run through the layers in tests/test_golden.py (-k rnn) and the model zoo.
"""
import itertools
import os
import tempfile

import numpy as np
import pytest
import torch
from torch.nn.utils.rnn import PackedSequence, pack_padded_sequence, pad_packed_sequence

os.environ.setdefault("PADDLE_ON_TORCH_EXT_CACHE", os.path.join(tempfile.gettempdir(), "paddle_on_torch_ext"))

import paddle_on_torch as paddle  # noqa: E402
from paddle_on_torch.kernels import dispatch  # noqa: E402
from paddle_on_torch.kernels import rnn as R  # noqa: E402

pytestmark = pytest.mark.skipif(R.kernel() is None, reason="no C++ build")
VF = {0: torch._VF.lstm, 1: torch._VF.gru, 2: torch._VF.rnn_tanh, 3: torch._VF.rnn_relu}
GATES = {0: 4, 1: 3, 2: 1, 3: 1}


def torch_rnn(mode, x, h0, c0, ws, layers, bidir, batch_first, lengths):
    fn, hx = VF[mode], ((h0, c0) if mode == 0 else h0)
    args = (ws, True, layers, 0.0, False, bidir)
    if lengths is None:
        return fn(x, hx, *args, batch_first)
    packed = pack_padded_sequence(x, lengths, batch_first=batch_first, enforce_sorted=False)
    order, back = packed.sorted_indices, packed.unsorted_indices
    hx = tuple(h.index_select(1, order) for h in hx) if mode == 0 else hx.index_select(1, order)
    res = fn(packed.data, packed.batch_sizes, hx, *args)
    out, _ = pad_packed_sequence(PackedSequence(res[0], packed.batch_sizes, order, back), batch_first=batch_first,
                                 total_length=x.shape[1 if batch_first else 0])
    return (out,) + tuple(h.index_select(1, back) for h in res[1:])


def make(mode, B, T, I, H, layers, bidir, batch_first, dtype=torch.float64, seed=0):
    g = torch.Generator().manual_seed(seed)
    D = 2 if bidir else 1

    def r(*shape, scale=1.0):
        return (torch.randn(*shape, generator=g, dtype=dtype) * scale).requires_grad_()

    x = r(*((B, T, I) if batch_first else (T, B, I)))
    h0 = r(layers * D, B, H)
    c0 = r(layers * D, B, H) if mode == 0 else None
    ws = []
    for layer in range(layers):
        n_in = I if layer == 0 else D * H
        for _ in range(D):
            G = GATES[mode] * H
            ws += [r(G, n_in, scale=0.5), r(G, H, scale=0.5), r(G, scale=0.5), r(G, scale=0.5)]
    return x, h0, c0, ws


CASES = list(itertools.product([0, 1, 2, 3], [False, True], [False, True], [1, 2], [None, [5, 2, 7], [0, 7, 3]]))


# the shapes here are small enough for the kernel's own GEMM loop; the BLAS and ATen's mm (libtorch
# without a BLAS symbol to call) are forced on a few cases
OTHER_GEMM_CASES = [(path, mode, True, bf, 2, [5, 2, 7]) for path in ("blas", "aten") for mode in (0, 1, 2)
                    for bf in (False, True)]


@pytest.mark.parametrize("path,mode,bidir,batch_first,layers,lens", OTHER_GEMM_CASES)
def test_matches_torch_rnn_other_gemms(path, mode, bidir, batch_first, layers, lens):
    mod = R.kernel()
    before = mod.get_gemm_path()
    mod.set_gemm_path(path)
    try:
        test_matches_torch_rnn(mode, bidir, batch_first, layers, lens)
    finally:
        mod.set_gemm_path(before)


@pytest.mark.parametrize("mode,bidir,batch_first,layers,lens", CASES)
def test_matches_torch_rnn(mode, bidir, batch_first, layers, lens):
    x, h0, c0, ws = make(mode, 3, 7, 5, 6, layers, bidir, batch_first)
    lengths = None if lens is None else torch.tensor(lens)
    inputs = [x, h0] + ([c0] if c0 is not None else []) + ws
    got = R.rnn(mode, x, h0, c0, ws, layers, bidir, batch_first, lengths)
    if lens is not None and 0 in lens:  # torch cannot pack an empty sequence: compare the others, and row 0
        keep = torch.tensor([b for b, n in enumerate(lens) if n > 0])
        sel = (lambda t: t.index_select(0 if batch_first else 1, keep))
        ref = torch_rnn(mode, sel(x), h0.index_select(1, keep), None if c0 is None else c0.index_select(1, keep),
                        ws, layers, bidir, batch_first, lengths[keep])
        got_kept = (sel(got[0]),) + tuple(h.index_select(1, keep) for h in got[1:])
        for a, b in zip(got_kept, ref):
            torch.testing.assert_close(a, b, rtol=1e-10, atol=1e-10)
        # an empty sequence: zero outputs, final states = initial states, gradients pass straight through
        assert float(got[0].detach().select(0 if batch_first else 1, 0).abs().max()) == 0
        torch.testing.assert_close(got[1][:, 0], h0[:, 0], rtol=0, atol=0)
        return
    ref = torch_rnn(mode, x, h0, c0, ws, layers, bidir, batch_first, lengths)
    for a, b in zip(got, ref):
        torch.testing.assert_close(a, b, rtol=1e-10, atol=1e-10)
    grads = [torch.randn_like(o) for o in got]
    g_got = torch.autograd.grad(got, inputs, grads, allow_unused=True)
    g_ref = torch.autograd.grad(ref, inputs, grads, allow_unused=True)
    for i, (a, b) in enumerate(zip(g_got, g_ref)):
        torch.testing.assert_close(a, torch.zeros_like(inputs[i]) if b is None else b, rtol=1e-9, atol=1e-9,
                                   msg=lambda m: f"input {i}: {m}")


@pytest.mark.parametrize("mode", [0, 1, 2, 3])
def test_gradcheck(mode):
    x, h0, c0, ws = make(mode, 2, 3, 2, 3, 2, True, True, seed=mode)
    lengths = torch.tensor([3, 2])
    inputs = [x, h0] + ([c0] if c0 is not None else []) + ws

    def f(*a):
        c = a[2] if mode == 0 else None
        return R.rnn(mode, a[0], a[1], c, list(a[3 if mode == 0 else 2:]), 2, True, True, lengths)

    assert torch.autograd.gradcheck(f, inputs)


def test_only_some_outputs_used():
    """Outputs without a gradient (the bigru model uses only SimpleRNN's final state) count as zero."""
    x, h0, c0, ws = make(0, 2, 4, 3, 5, 2, False, False)
    y, h, c = R.rnn(0, x, h0, c0, ws, 2, False, False)
    ry, rh, rc = torch_rnn(0, x, h0, c0, ws, 2, False, False, None)
    for used, ref_used in ((h, rh), (y, ry), (c, rc)):
        got = torch.autograd.grad(used.sum(), [x] + ws, retain_graph=True)
        want = torch.autograd.grad(ref_used.sum(), [x] + ws, retain_graph=True, allow_unused=True)
        for a, b in zip(got, want):
            torch.testing.assert_close(a, torch.zeros_like(a) if b is None else b, rtol=1e-10, atol=1e-10)


def _spy(monkeypatch):
    calls = []
    real = R.rnn
    monkeypatch.setattr(R, "rnn", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    return calls


@pytest.mark.parametrize("cls,direction", [("LSTM", "forward"), ("GRU", "bidirect"), ("SimpleRNN", "forward")])
def test_layers_take_the_kernel_and_match_torch_path(monkeypatch, cls, direction):
    """paddle.nn.LSTM / GRU / SimpleRNN run the kernel in eager CPU float32, and agree with torch's RNN ops
    (PADDLE_ON_TORCH_KERNELS=reference keeps those), sequence_length included, forward and gradients."""
    paddle.seed(3)
    net = getattr(paddle.nn, cls)(4, 6, num_layers=2, direction=direction)
    x = paddle.to_tensor(np.random.default_rng(0).standard_normal([3, 5, 4]).astype("float32"))
    x.stop_gradient = False
    lengths = paddle.to_tensor([5, 3, 1])
    results = []
    for backend in (None, "reference"):
        dispatch.set_backend(backend)
        try:
            calls = _spy(monkeypatch)
            out, states = net(x, sequence_length=lengths)
            assert bool(calls) == (backend is None)
            states = states if isinstance(states, tuple) else (states,)
            loss = out.sum() + sum((s * s).sum() for s in states)
            net.clear_gradients()
            x.clear_gradient()
            loss.backward()
            results.append([out.numpy(), *(s.numpy() for s in states), x.grad.numpy(),
                            *(p.grad.numpy() for p in net.parameters())])
        finally:
            dispatch.set_backend(None)
            monkeypatch.undo()
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=2e-6)


def test_dropout_in_training_keeps_torch_path(monkeypatch):
    # (torch's op one layer at a time, Paddle's dropout mask between: tests/cases/random_streams.py)
    net = paddle.nn.LSTM(4, 6, num_layers=2, dropout=0.5)
    x = paddle.randn([2, 3, 4])
    calls = _spy(monkeypatch)
    net.train()
    net(x)
    assert not calls
    net.eval()
    net(x)
    assert calls


def test_sequence_length_out_of_range():
    net = paddle.nn.GRU(4, 5)
    with pytest.raises(ValueError, match="out of the range"):
        net(paddle.randn([2, 3, 4]), sequence_length=paddle.to_tensor([4, 2]))


@pytest.mark.parametrize("mode", [0, 1])
def test_absent_initial_states_are_zeros(mode):
    x, h0, c0, ws = make(mode, 2, 4, 3, 5, 2, True, False)
    zeros_h = torch.zeros_like(h0)
    zeros_c = None if c0 is None else torch.zeros_like(c0)
    got = R.rnn(mode, x, None, None, ws, 2, True, False)
    ref = R.rnn(mode, x, zeros_h, zeros_c, ws, 2, True, False)
    for a, b in zip(got, ref):
        torch.testing.assert_close(a, b, rtol=0, atol=0)
    ga = torch.autograd.grad(sum(o.sum() for o in got), [x] + ws)
    gb = torch.autograd.grad(sum(o.sum() for o in ref), [x] + ws)
    for a, b in zip(ga, gb):
        torch.testing.assert_close(a, b, rtol=0, atol=0)


def test_states_of_another_kind_raise():
    x, h0, c0, ws = make(0, 2, 4, 3, 5, 1, False, False)
    with pytest.raises(RuntimeError, match="dtype"):
        R.rnn(0, x, h0.float(), c0, ws, 1, False, False)
    with pytest.raises(RuntimeError, match="must be"):
        R.rnn(0, x, h0[:, :1], c0, ws, 1, False, False)
    with pytest.raises(RuntimeError, match="shapes"):
        R.rnn(0, x, h0, c0, [ws[0], ws[1], ws[2][:-1], ws[3]], 1, False, False)


def test_no_double_backward():
    x, h0, c0, ws = make(1, 2, 3, 2, 3, 1, False, False)
    y, h = R.rnn(1, x, h0, None, ws, 1, False, False)
    with pytest.raises(RuntimeError, match="double backward"):
        torch.autograd.grad(y.sum(), [x], create_graph=True)
