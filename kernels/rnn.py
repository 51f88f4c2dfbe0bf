"""Whole-sequence LSTM / GRU / SimpleRNN on the CPU: the C++ kernel of ext/rnn.cpp.

`rnn(mode, x, states, weights, ...)` runs every layer and direction in one kernel call and, when
gradients are needed, one autograd node (written in C++: no Python on the way) whose backward is one
more kernel call; it has no double backward.  `usable(x)` says
whether a call can take this path: plain eager CPU float32 / float64 tensors, no tracing, compiling,
fake or functorch mode (those keep torch's own `_VF` RNN ops, which they understand), the kernel
built, and PADDLE_ON_TORCH_KERNELS not forcing the reference compositions.  Dropout between layers is
not in the kernel: the caller keeps torch's path for it.
"""
import torch

from .cpp import CPP as _CPP
from . import dispatch
from .eager import plain_eager

MODES = {"LSTM": 0, "GRU": 1, "RNN_TANH": 2, "RNN_RELU": 3}
_DTYPES = (torch.float32, torch.float64)


def kernel():
    """The compiled rnn_cpu module, or None (with one warning) when it cannot be built here.  Built like
    the fused kernels (paddle_on_torch._C, see kernels/cpp.py)."""
    return _CPP.module or _CPP.load()


def usable(x):
    """True when an RNN over input `x` can run on the C++ kernel (see the module docstring)."""
    if type(x) is not torch.Tensor or x.device.type != "cpu" or x.dtype not in _DTYPES:
        return False
    if dispatch.forced() == "reference":
        return False
    return plain_eager() and kernel() is not None


def rnn(mode, x, h0, c0, weights, num_layers, bidirectional, batch_first, lengths=None):
    """(y, h_n[, c_n]) of a `mode` RNN (MODES) over x ([B, T, I] when batch_first, else [T, B, I]);
    h0 / c0 / h_n / c_n are [num_layers * directions, B, H] (h0 / c0 None: zeros); `weights` per layer and direction
    (w_ih, w_hh, b_ih, b_hh) in Paddle's (and torch's) layout; `lengths` an int64 [B] CPU tensor or None.
    Call only where usable(x)."""
    if torch.is_grad_enabled() and (x.requires_grad or (h0 is not None and h0.requires_grad) or
                                    (c0 is not None and c0.requires_grad) or any(w.requires_grad for w in weights)):
        return tuple(_CPP.module.rnn_autograd(mode, num_layers, bidirectional, batch_first, lengths, x, h0, c0, weights))
    res = _CPP.module.rnn_fwd(mode, x, h0, c0, weights, num_layers, bidirectional, batch_first, lengths, False)
    return (res[0], res[1], res[2]) if mode == 0 else (res[0], res[1])


__all__ = ["MODES", "kernel", "usable", "rnn"]
