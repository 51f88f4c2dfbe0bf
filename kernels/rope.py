"""Rotary position embedding, both rotary styles: the torch custom ops `paddle_on_torch::rope` / `rope_bwd`, behind
paddle.incubate.nn.functional.fused_rotary_position_embedding.

    rope(x[A0, A1, H, D], cos[C0, C1, D], sin[C0, C1, D], neox) -> out (x's shape and dtype)
    cos / sin float32 (float64 for float64 x), C0 in {1, A0}, C1 in {1, A1}; neox=True rotates adjacent pairs
    (x[2i], x[2i+1]), False the front half against the back half.

Here: the schema and body (the reference composition `ref_rope`), the fake, the autograd formula (one call of
`rope_bwd`: the backward of a rotation is the transposed rotation, the same kernel with a transposed sine) and the
CUDA kernel (kernels/rope_triton.py).  The CPU kernels and the C++ autograd formula (the eager fast path) are
ext/rope.cpp's, registered with TORCH_LIBRARY_IMPL (kernels/dispatch.py has the table).
"""
import torch
from torch import Tensor

from . import dispatch
from .dispatch import acc as _acc

dispatch.load_cpp()  # registers the C++ kernels (ext/rope.cpp) before the first call


def ref_rope(x, cos, sin, neox):
    """Reference composition; x [A0, A1, H, D], cos/sin [C0, C1, D]."""
    c, s = cos[:, :, None, :], sin[:, :, None, :]
    xf = _acc(x)
    if neox:
        x0, x1 = xf[..., 0::2], xf[..., 1::2]
        rot = torch.stack((-x1, x0), dim=-1).flatten(-2)
    else:
        h = x.shape[-1] // 2
        rot = torch.cat((-xf[..., h:], xf[..., :h]), dim=-1)
    return (xf * c + rot * s).to(x.dtype)


def rope_transpose_sin(sin, neox):
    """sin' such that rope(., cos, sin') is the transpose (the backward) of rope(., cos, sin)."""
    if neox:
        return -torch.stack((sin[..., 1::2], sin[..., 0::2]), dim=-1).flatten(-2)
    h = sin.shape[-1] // 2
    return -torch.cat((sin[..., h:], sin[..., :h]), dim=-1)


def _rope_reference(x, cos, sin, neox):
    return ref_rope(x, cos, sin, neox).contiguous()


@torch.library.custom_op("paddle_on_torch::rope", mutates_args=())
def rope(x: Tensor, cos: Tensor, sin: Tensor, neox: bool) -> Tensor:
    return _rope_reference(x, cos, sin, neox)


def _rope_cuda(x, cos, sin, neox):
    tri = dispatch.triton_module("rope")
    return _rope_reference(x, cos, sin, neox) if tri is None or not x.numel() else tri.rope_fwd(x, cos, sin, neox)


dispatch.register(rope, _rope_reference, cuda=_rope_cuda)


@rope.register_fake
def _(x, cos, sin, neox):
    return x.new_empty(x.shape)


def _rope_bwd_reference(g, cos, sin, neox):
    return ref_rope(g, cos, rope_transpose_sin(sin, neox), neox).contiguous()


@torch.library.custom_op("paddle_on_torch::rope_bwd", mutates_args=())
def rope_bwd(g: Tensor, cos: Tensor, sin: Tensor, neox: bool) -> Tensor:
    """The backward of rope: the transposed rotation of g (the formula of rope's autograd, Python here and C++ in
    ext/rope.cpp)."""
    return _rope_bwd_reference(g, cos, sin, neox)


def _rope_bwd_cuda(g, cos, sin, neox):
    tri = dispatch.triton_module("rope")
    if tri is None or not g.numel():
        return _rope_bwd_reference(g, cos, sin, neox)
    return tri.rope_fwd(g, cos, sin, neox, transpose=True)


dispatch.register(rope_bwd, _rope_bwd_reference, cuda=_rope_bwd_cuda)


@rope_bwd.register_fake
def _(g, cos, sin, neox):
    return g.new_empty(g.shape)


def _rope_setup(ctx, inputs, output):
    x, cos, sin, neox = inputs
    ctx.save_for_backward(cos, sin)
    ctx.neox = neox


def _rope_backward(ctx, g):
    """The autograd formula: rope_bwd (ext/rope.cpp's RopeFunction, the CPU formula, is the same in C++)."""
    cos, sin = ctx.saved_tensors
    return rope_bwd(g, cos, sin, ctx.neox), None, None, None


rope.register_autograd(_rope_backward, setup_context=_rope_setup)

_ROPE = rope._opoverload


def rotary(x, cos, sin, neox):
    """rope: what the Paddle API calls (the op, through the dispatcher)."""
    return _ROPE(x, cos, sin, neox)


__all__ = ["rotary", "rope", "rope_bwd", "ref_rope", "rope_transpose_sin"]
