"""silu(x) * y: the torch custom ops `paddle_on_torch::swiglu` / `swiglu_bwd`, behind
paddle.incubate.nn.functional.swiglu and fused_bias_act(act_method="swiglu").

    swiglu(x[..., N], y[..., N]) -> silu(x) * y    (x and y of one shape and dtype; the two halves of one tensor
                                                    are read in place)

Here: the schema and body (the reference composition `ref_swiglu`), the fake, the autograd formula (one call of
`swiglu_bwd`) and the CUDA kernel (kernels/swiglu_triton.py).  The CPU kernels and the C++ autograd formula (the
eager fast path) are ext/swiglu.cpp's, registered with TORCH_LIBRARY_IMPL (kernels/dispatch.py has the table).
"""
from typing import Tuple

import torch
from torch import Tensor

from . import dispatch
from .dispatch import acc as _acc

dispatch.load_cpp()  # registers the C++ kernels (ext/swiglu.cpp) before the first call


def ref_swiglu(x, y):
    return (torch.nn.functional.silu(_acc(x)) * _acc(y)).to(x.dtype)


def _rows(t):
    """View as [M, N] keeping the unit column stride (no copy for chunked halves)."""
    t2 = t.reshape(-1, t.shape[-1]) if t.dim() != 2 else t
    return t2 if t2.stride(-1) == 1 else t2.contiguous()


def _swiglu_reference(x, y):
    return ref_swiglu(x, y).contiguous()


@torch.library.custom_op("paddle_on_torch::swiglu", mutates_args=())
def swiglu(x: Tensor, y: Tensor) -> Tensor:
    return _swiglu_reference(x, y)


def _swiglu_cuda(x, y):
    tri = dispatch.triton_module("swiglu")
    if tri is None or not x.numel():
        return _swiglu_reference(x, y)
    return tri.swiglu_fwd(_rows(x), _rows(y)).reshape(x.shape)


dispatch.register(swiglu, _swiglu_reference, cuda=_swiglu_cuda)


@swiglu.register_fake
def _(x, y):
    return x.new_empty(x.shape)


def _swiglu_bwd_reference(g, x, y):
    xf, yf, gf = _acc(x), _acc(y), _acc(g)
    sg = torch.sigmoid(xf)
    return ((gf * yf * sg * (1 + xf * (1 - sg))).to(x.dtype).contiguous(), (gf * xf * sg).to(y.dtype).contiguous())


@torch.library.custom_op("paddle_on_torch::swiglu_bwd", mutates_args=())
def swiglu_bwd(g: Tensor, x: Tensor, y: Tensor) -> Tuple[Tensor, Tensor]:
    """The backward of swiglu: dx, dy (the formula of swiglu's autograd, Python here and C++ in ext/swiglu.cpp)."""
    return _swiglu_bwd_reference(g, x, y)


def _swiglu_bwd_cuda(g, x, y):
    tri = dispatch.triton_module("swiglu")
    if tri is None or not x.numel():
        return _swiglu_bwd_reference(g, x, y)
    dx, dy = tri.swiglu_bwd(_rows(g.contiguous()), _rows(x), _rows(y))
    return dx.reshape(x.shape), dy.reshape(x.shape)


dispatch.register(swiglu_bwd, _swiglu_bwd_reference, cuda=_swiglu_bwd_cuda)


@swiglu_bwd.register_fake
def _(g, x, y):
    return x.new_empty(x.shape), y.new_empty(y.shape)


def _swiglu_setup(ctx, inputs, output):
    ctx.save_for_backward(*inputs)


def _swiglu_backward(ctx, g):
    """The autograd formula: swiglu_bwd (ext/swiglu.cpp's SwigluFunction, the CPU formula, is the same in C++)."""
    x, y = ctx.saved_tensors
    return swiglu_bwd(g, x, y)


swiglu.register_autograd(_swiglu_backward, setup_context=_swiglu_setup)

_SWIGLU = swiglu._opoverload


def silu_mul(x, y):
    """swiglu: what the Paddle APIs call (the op, through the dispatcher)."""
    return _SWIGLU(x, y)


__all__ = ["silu_mul", "swiglu", "swiglu_bwd", "ref_swiglu"]
