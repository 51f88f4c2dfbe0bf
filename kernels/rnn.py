"""Whole-sequence LSTM / GRU / SimpleRNN on the CPU: the custom op `paddle_on_torch::rnn` and its C++ kernel
(ext/rnn.cpp).

Defined like the fused ops (kernels/dispatch.py):
  * `rnn_op` (torch.library.custom_op): every layer and direction in one call; its body, the reference composition
    (`ref_rnn`: torch's own RNN ops), is the default kernel and the tests' oracle; a fake implementation for
    torch.compile / export; its autograd formula (`register_autograd`) calls `rnn_bwd_op`, the backward op, whose
    reference is autograd through `ref_rnn`;
  * ext/rnn.cpp registers (TORCH_LIBRARY_IMPL) the CPU kernels of both ops (float32 / float64; other dtypes run in
    float32) and the autograd kernel for the CPU: on plain tensors the eager fast path, the C++ node RNNFunction,
    which keeps the forward's activations for its backward (no Python on the way); elsewhere (fake tensors, a
    dispatch mode) the op's formula in C++.  The op's outputs are only y, h_n, c_n (its contract, which the fake
    and the reference can give), so rnn_bwd's CPU kernel recomputes the activations first (one more forward).
The backward is differentiable once (no double backward).  `usable(x)` says whether a layer should take this kernel
at all: plain eager CPU float32 / float64 tensors, no tracing, compiling, fake or functorch mode (the layers keep
torch's `_VF` RNN ops there, which torch understands natively), the kernel built, and PADDLE_ON_TORCH_KERNELS not
forcing the reference compositions.  Dropout between layers is not in the kernel: the caller keeps torch's path.
"""
from typing import List, Optional, Tuple

import torch
from torch import Tensor
from torch.nn.utils.rnn import PackedSequence, pack_padded_sequence, pad_packed_sequence

from .cpp import CPP as _CPP
from . import dispatch
from .eager import plain_eager

dispatch.load_cpp()  # registers the C++ kernels (ext/rnn.cpp) before the first call

MODES = {"LSTM": 0, "GRU": 1, "RNN_TANH": 2, "RNN_RELU": 3}
_DTYPES = (torch.float32, torch.float64)
_VF_OPS = {0: "lstm", 1: "gru", 2: "rnn_tanh", 3: "rnn_relu"}


def kernel():
    """The compiled kernels module (paddle_on_torch.kernels._C, see kernels/cpp.py), or None (with one warning)
    when it cannot be built here."""
    return _CPP.module or _CPP.load()


def usable(x):
    """True when an RNN over input `x` can run on the C++ kernel (see the module docstring)."""
    if type(x) is not torch.Tensor or not x.is_cpu or x.dtype not in _DTYPES:  # (is_cpu: no device object made)
        return False
    if dispatch.forced() == "reference":
        return False
    return plain_eager() and kernel() is not None


def _state_shape(mode, x, weights, num_layers, bidirectional, batch_first):
    return (num_layers * (2 if bidirectional else 1), x.shape[0 if batch_first else 1], weights[1].shape[1])


# =============================================================== the reference composition


def ref_rnn(mode, x, h0, c0, weights, num_layers, bidirectional, batch_first, lengths=None):
    """(y, h_n, c_n) with torch's RNN ops (c_n empty unless LSTM); absent states are zeros; with `lengths`, the
    steps past a sequence's length are zeros in y and leave its state alone (a length of 0 keeps the initial one)."""
    shape = _state_shape(mode, x, weights, num_layers, bidirectional, batch_first)
    h0 = x.new_zeros(shape) if h0 is None else h0
    c0 = (x.new_zeros(shape) if c0 is None else c0) if mode == 0 else None
    fn = getattr(torch._VF, _VF_OPS[mode])
    args = (list(weights), True, num_layers, 0.0, False, bidirectional)
    b_ax = 0 if batch_first else 1
    if lengths is None:
        res = fn(x, (h0, c0) if mode == 0 else h0, *args, batch_first)
    else:
        keep = (lengths > 0).nonzero().flatten()  # torch's packing takes no empty sequence
        packed = pack_padded_sequence(x.index_select(b_ax, keep), lengths[keep], batch_first=batch_first,
                                      enforce_sorted=False)
        order, back = packed.sorted_indices, packed.unsorted_indices
        sel = lambda t: t.index_select(1, keep).index_select(1, order)  # noqa: E731
        out = fn(packed.data, packed.batch_sizes, (sel(h0), sel(c0)) if mode == 0 else sel(h0), *args)
        y_kept, _ = pad_packed_sequence(PackedSequence(out[0], packed.batch_sizes, order, back),
                                        batch_first=batch_first, total_length=x.shape[1 - b_ax])
        y = x.new_zeros(x.shape[:2] + (y_kept.shape[-1],)).index_copy(b_ax, keep, y_kept)
        states = [s0.index_copy(1, keep, s.index_select(1, back)) for s0, s in zip((h0, c0), out[1:])]
        res = (y, *states)
    return res[0], res[1], res[2] if mode == 0 else x.new_empty(0)


# =============================================================== the op


@torch.library.custom_op("paddle_on_torch::rnn", mutates_args=())
def rnn_op(mode: int, x: Tensor, h0: Optional[Tensor], c0: Optional[Tensor], weights: List[Tensor],
           num_layers: int, bidirectional: bool, batch_first: bool,
           lengths: Optional[Tensor]) -> Tuple[Tensor, Tensor, Tensor]:
    """y, h_n, c_n (empty unless LSTM) of a `mode` RNN (MODES); see `rnn`."""
    return _rnn_reference(mode, x, h0, c0, weights, num_layers, bidirectional, batch_first, lengths)


def _rnn_reference(mode, x, h0, c0, weights, num_layers, bidirectional, batch_first, lengths):
    return tuple(t.contiguous() for t in ref_rnn(mode, x, h0, c0, weights, num_layers, bidirectional, batch_first,
                                                 lengths))


dispatch.register(rnn_op, _rnn_reference, cuda=_rnn_reference)  # no CUDA kernel: torch's ops


@rnn_op.register_fake
def _(mode, x, h0, c0, weights, num_layers, bidirectional, batch_first, lengths):
    shape = _state_shape(mode, x, weights, num_layers, bidirectional, batch_first)
    y = x.new_empty(x.shape[:2] + (shape[0] // num_layers * shape[2],))
    return y, x.new_empty(shape), x.new_empty(shape if mode == 0 else (0,))


# =============================================================== the backward op and the autograd formula


def _autograd_inside_a_kernel():
    """Autograd back on inside an op's kernel, where the dispatcher runs below autograd (its keys excluded): the
    reference backward is autograd through the reference composition."""
    K = torch._C.DispatchKey
    exclude = torch._C._dispatch_tls_local_exclude_set()
    for key in (K.AutogradFunctionality, K.AutogradOther, K.AutogradNestedTensor, K.ADInplaceOrView):
        exclude = exclude.remove(key)
    return torch._C._ForceDispatchKeyGuard(torch._C._dispatch_tls_local_include_set(), exclude)


def _rnn_bwd_reference(mode, x, h0, c0, weights, num_layers, bidirectional, batch_first, lengths, dy, dh, dc):
    with _autograd_inside_a_kernel(), torch.enable_grad():
        leaves = [t.detach().requires_grad_() for t in (x, h0, c0) if t is not None]
        ws = [w.detach().requires_grad_() for w in weights]
        x_, h_ = leaves[0], leaves[1] if h0 is not None else None
        c_ = leaves[-1] if c0 is not None else None
        outs = ref_rnn(mode, x_, h_, c_, ws, num_layers, bidirectional, batch_first, lengths)
        pairs = [(o, g) for o, g in zip(outs, (dy, dh, dc)) if g is not None and g.numel()]
        grads = torch.autograd.grad([o for o, _ in pairs], leaves + ws, [g for _, g in pairs],
                                    allow_unused=True) if pairs else [None] * (len(leaves) + len(ws))
    grads = [torch.zeros_like(t) if g is None else g for g, t in zip(grads, leaves + ws)]
    shape = _state_shape(mode, x, weights, num_layers, bidirectional, batch_first)
    dx, rest = grads[0], grads[1:len(leaves)]
    dh0 = rest.pop(0) if h0 is not None else x.new_zeros(shape)
    dc0 = (rest.pop(0) if c0 is not None else x.new_zeros(shape)) if mode == 0 else x.new_empty(0)
    return [dx.contiguous(), dh0.contiguous(), dc0.contiguous()] + [g.contiguous() for g in grads[len(leaves):]]


@torch.library.custom_op("paddle_on_torch::rnn_bwd", mutates_args=())
def rnn_bwd_op(mode: int, x: Tensor, h0: Optional[Tensor], c0: Optional[Tensor], weights: List[Tensor],
               num_layers: int, bidirectional: bool, batch_first: bool, lengths: Optional[Tensor],
               dy: Optional[Tensor], dh: Optional[Tensor], dc: Optional[Tensor]) -> List[Tensor]:
    """The backward of rnn_op for the gradients dy, dh, dc of y, h_n, c_n (None: zero): [dx, dh0, dc0 (empty
    unless LSTM), then one gradient per weight] (dh0 / dc0 of zero states when h0 / c0 are None)."""
    return _rnn_bwd_reference(mode, x, h0, c0, weights, num_layers, bidirectional, batch_first, lengths, dy, dh, dc)


dispatch.register(rnn_bwd_op, _rnn_bwd_reference, cuda=_rnn_bwd_reference)


@rnn_bwd_op.register_fake
def _(mode, x, h0, c0, weights, num_layers, bidirectional, batch_first, lengths, dy, dh, dc):
    shape = _state_shape(mode, x, weights, num_layers, bidirectional, batch_first)
    return ([x.new_empty(x.shape), x.new_empty(shape), x.new_empty(shape if mode == 0 else (0,))] +
            [w.new_empty(w.shape) for w in weights])


def _rnn_setup(ctx, inputs, output):
    mode, x, h0, c0, weights, num_layers, bidirectional, batch_first, lengths = inputs
    ctx.save_for_backward(x, h0, c0, lengths, *weights)
    ctx.meta = (mode, num_layers, bidirectional, batch_first)


def _rnn_backward(ctx, dy, dh, dc):
    """The autograd formula: rnn_bwd_op (other devices than the CPU: ext/rnn.cpp has the CPU's)."""
    x, h0, c0, lengths, *weights = ctx.saved_tensors
    mode, num_layers, bidirectional, batch_first = ctx.meta
    g = rnn_bwd_op(mode, x, h0, c0, weights, num_layers, bidirectional, batch_first, lengths, dy, dh,
                   dc if mode == 0 else None)
    return (None, g[0], g[1] if h0 is not None else None, g[2] if c0 is not None else None, list(g[3:]),
            None, None, None, None)


rnn_op.register_autograd(_rnn_backward, setup_context=_rnn_setup)
_RNN = rnn_op._opoverload


# =============================================================== what the layers call


def rnn(mode, x, h0, c0, weights, num_layers, bidirectional, batch_first, lengths=None):
    """(y, h_n[, c_n]) of a `mode` RNN (MODES) over x ([B, T, I] when batch_first, else [T, B, I]);
    h0 / c0 / h_n / c_n are [num_layers * directions, B, H] (h0 / c0 None: zeros); `weights` per layer and direction
    (w_ih, w_hh, b_ih, b_hh) in Paddle's (and torch's) layout; `lengths` an int64 [B] CPU tensor or None.
    The op, through the dispatcher: plain eager CPU calls reach the C++ node (ext/rnn.cpp's autograd kernel)."""
    res = _RNN(mode, x, h0, None if mode != 0 else c0, list(weights), num_layers, bidirectional, batch_first, lengths)
    return res if mode == 0 else res[:2]


__all__ = ["MODES", "kernel", "usable", "rnn", "rnn_op", "rnn_bwd_op", "ref_rnn"]
