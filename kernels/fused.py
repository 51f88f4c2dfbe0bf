"""torch custom ops (namespace `paddle_on_torch`) behind paddle.incubate.nn.functional's fused ops.

Each op is defined once, with torch.library (see kernels/dispatch.py for how a call reaches its kernel):
  * its body, the reference composition of torch ops (`ref_*`): the default kernel and the tests' oracle,
  * its CPU kernel, C++ (ext/fused.cpp), and its CUDA kernel, Triton (kernels/fused_triton.py), registered per
    device with `register_kernel`,
  * a fake (meta) implementation for torch.compile / export / make_fx,
  * its autograd formula (`register_autograd`), whose backward is itself a custom op dispatched the same way.
`fused_norm` / `fused_rope` / `fused_swiglu` (what the Paddle APIs call) take the one eager fast path where
`dispatch.fast_path` allows: the C++ kernel under its C++ autograd node (ext/fused_autograd.cpp, the same formula),
without the dispatcher; every other call goes through the op.

The ops work on canonical layouts; paddle_on_torch.incubate.nn.functional maps Paddle's arguments
onto them:
  norm_fwd(x[M, N], residual?, bias?, weight?, norm_bias?, eps, alpha, rms)
      -> out[M, N], residual_out[M, N] (or [0]), mean[M] (or [0] for rms), rstd[M] (float32)
  rope(x[A0, A1, H, D], cos[C0, C1, D], sin[C0, C1, D], neox) -> out   (cos/sin float32, C0 in {1, A0},
      C1 in {1, A1}; neox=True rotates adjacent pairs, False the two halves)
  swiglu(x[..., N], y[..., N]) -> silu(x) * y
"""
from typing import List, Optional, Tuple

import torch
from torch import Tensor

from . import dispatch
from .dispatch import backend_for, cpp_module as _cpp, fast_path, reload_env, set_backend  # noqa: F401


def _tri():
    """The Triton kernels (imported on the first CUDA call), or None without triton."""
    if not dispatch.triton_available():
        return None
    from . import fused_triton

    return fused_triton


def _acc(t):
    """fp32 for half types, fp64 stays fp64."""
    return t if t.dtype == torch.float64 else t.float()


# =============================================================== norms (rms / layer)


def ref_norm(x, residual, bias, weight, norm_bias, eps, alpha, rms):
    """Reference composition (differentiable with plain autograd); x is [M, N]."""
    xf = _acc(x)
    if residual is not None:
        s = xf + alpha * _acc(residual)
        if bias is not None:
            s = s + _acc(bias)
        residual_out = s.to(x.dtype)  # the kernels normalise the unrounded fp32 sum
    else:
        s = xf
        residual_out = x.new_empty(0)
    if rms:
        mean = s.new_empty(0)
        rstd = torch.rsqrt(s.pow(2).mean(-1) + eps)
        y = s * rstd[:, None]
    else:
        mean = s.mean(-1)
        rstd = torch.rsqrt((s - mean[:, None]).pow(2).mean(-1) + eps)
        y = (s - mean[:, None]) * rstd[:, None]
    if weight is not None:
        y = y * _acc(weight)
    if norm_bias is not None:
        y = y + _acc(norm_bias)
    return y.to(x.dtype), residual_out, mean.float(), rstd.float()  # statistics are float32 (Paddle)


def ref_norm_bwd(dy, s, mean, rstd, weight, rms, want_dw, want_db):
    dyf, sf = _acc(dy), _acc(s)
    xhat = (sf if rms else sf - mean[:, None]) * rstd[:, None]
    g = dyf * _acc(weight) if weight is not None else dyf
    n = sf.shape[-1]
    c_gx = (g * xhat).sum(-1, keepdim=True) / n
    ds = g - xhat * c_gx
    if not rms:
        ds = ds - g.sum(-1, keepdim=True) / n
    ds = (ds * rstd[:, None]).to(s.dtype)
    dw = (dyf * xhat).sum(0) if want_dw else None
    db = dyf.sum(0) if want_db else None
    return ds, dw, db


def _norm_fwd_reference(x, residual, bias, weight, norm_bias, eps, alpha, rms):
    out = ref_norm(x, residual, bias, weight, norm_bias, eps, alpha, rms)
    return tuple(t.contiguous().clone() if t is x else t.contiguous() for t in out)


@torch.library.custom_op("paddle_on_torch::norm_fwd", mutates_args=())
def norm_fwd(x: Tensor, residual: Optional[Tensor], bias: Optional[Tensor], weight: Optional[Tensor],
             norm_bias: Optional[Tensor], eps: float, alpha: float, rms: bool) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    return _norm_fwd_reference(x, residual, bias, weight, norm_bias, eps, alpha, rms)


def _norm_fwd_cpu(x, residual, bias, weight, norm_bias, eps, alpha, rms):
    if not dispatch.cpu_kernel_usable(x):
        return _norm_fwd_reference(x, residual, bias, weight, norm_bias, eps, alpha, rms)
    return tuple(_cpp().norm_fwd(x.contiguous(), residual, bias, weight, norm_bias, eps, alpha, rms))


def _norm_fwd_cuda(x, residual, bias, weight, norm_bias, eps, alpha, rms):
    tri = _tri()
    if tri is None:
        return _norm_fwd_reference(x, residual, bias, weight, norm_bias, eps, alpha, rms)
    return tri.norm_fwd(x, residual, bias, weight, norm_bias, eps, alpha, rms)


dispatch.register(norm_fwd, _norm_fwd_reference, cpu=_norm_fwd_cpu, cuda=_norm_fwd_cuda)


@norm_fwd.register_fake
def _(x, residual, bias, weight, norm_bias, eps, alpha, rms):
    m, n = x.shape
    f = x.new_empty
    return (f(m, n), f(m, n) if residual is not None else f(0),
            f(0 if rms else m, dtype=torch.float32), f(m, dtype=torch.float32))


def _norm_bwd_reference(dy, s, mean, rstd, weight, rms, want_dw, want_db):
    ds, dw, db = ref_norm_bwd(dy, s, mean, rstd, weight, rms, want_dw, want_db)
    return _norm_bwd_outputs(s, ds.contiguous(), dw, db, want_dw, want_db)  # contiguous: as the fake says


def _norm_bwd_outputs(s, ds, dw, db, want_dw, want_db):
    empty = s.new_empty(0, dtype=torch.float32)
    return ds, dw if want_dw else empty, db if want_db else empty.clone()


@torch.library.custom_op("paddle_on_torch::norm_bwd", mutates_args=())
def norm_bwd(dy: Tensor, s: Tensor, mean: Tensor, rstd: Tensor, weight: Optional[Tensor], rms: bool,
             want_dw: bool, want_db: bool) -> Tuple[Tensor, Tensor, Tensor]:
    return _norm_bwd_reference(dy, s, mean, rstd, weight, rms, want_dw, want_db)


def _norm_bwd_cpu(dy, s, mean, rstd, weight, rms, want_dw, want_db):
    if not dispatch.cpu_kernel_usable(s):
        return _norm_bwd_reference(dy, s, mean, rstd, weight, rms, want_dw, want_db)
    ds, dw, db = _cpp().norm_bwd(dy.contiguous(), s.contiguous(), mean, rstd, weight, rms, want_dw, want_db)
    return _norm_bwd_outputs(s, ds, dw, db, want_dw, want_db)


def _norm_bwd_cuda(dy, s, mean, rstd, weight, rms, want_dw, want_db):
    tri = _tri()
    if tri is None:
        return _norm_bwd_reference(dy, s, mean, rstd, weight, rms, want_dw, want_db)
    ds, dw, db = tri.norm_bwd(dy, s, mean, rstd, weight, rms, want_dw, want_db)
    return _norm_bwd_outputs(s, ds, dw, db, want_dw, want_db)


dispatch.register(norm_bwd, _norm_bwd_reference, cpu=_norm_bwd_cpu, cuda=_norm_bwd_cuda)


@norm_bwd.register_fake
def _(dy, s, mean, rstd, weight, rms, want_dw, want_db):
    n = s.shape[1]
    return (s.new_empty(s.shape), s.new_empty(n if want_dw else 0, dtype=torch.float32),
            s.new_empty(n if want_db else 0, dtype=torch.float32))


def _norm_setup(ctx, inputs, output):
    x, residual, bias, weight, norm_bias, eps, alpha, rms = inputs
    out, residual_out, mean, rstd = output
    s = residual_out if residual is not None else x
    ctx.save_for_backward(s, mean, rstd, weight)
    ctx.meta = (residual is not None, bias is not None, norm_bias is not None, alpha, rms,
                weight.dtype if weight is not None else None, bias.dtype if bias is not None else None,
                norm_bias.dtype if norm_bias is not None else None)


def _norm_backward(ctx, g_out, g_res, g_mean, g_rstd):
    """The autograd formula (ext/fused_autograd.cpp's NormNode is its C++ transcription, for the fast path)."""
    s, mean, rstd, weight = ctx.saved_tensors
    has_res, has_bias, has_nb, alpha, rms, w_dt, b_dt, nb_dt = ctx.meta
    want_dw = weight is not None and ctx.needs_input_grad[3]
    want_db = has_nb and ctx.needs_input_grad[4]
    if g_out is None:
        g_out = torch.zeros_like(s)
    ds, dw, db = norm_bwd(g_out.contiguous(), s, mean, rstd, weight, rms, want_dw, want_db)
    if has_res and g_res is not None:
        ds = ds + g_res
    dx = ds
    dres = (ds * alpha if alpha != 1.0 else ds) if has_res else None
    dbias = ds.float().sum(0).to(b_dt) if (has_res and has_bias and ctx.needs_input_grad[2]) else None
    return (dx, dres, dbias, dw.to(w_dt) if want_dw else None, db.to(nb_dt) if want_db else None,
            None, None, None)


norm_fwd.register_autograd(_norm_backward, setup_context=_norm_setup)


def fused_norm(x, residual, bias, weight, norm_bias, eps, alpha, rms, n=None):
    """norm_fwd over rows of `n` elements (default x.shape[-1]) of x of any shape; out and residual_out come back
    in x's shape.  The eager fast path (dispatch.fast_path) runs the C++ kernel under its C++ autograd node, which
    also does the reshapes (no view nodes in the graph); every other call goes through the op."""
    n = x.shape[-1] if n is None else n
    if fast_path(x, residual, bias, weight, norm_bias):
        return tuple(_cpp().norm_node(x, residual, bias, weight, norm_bias, eps, alpha, rms, n))
    x2 = x.reshape(-1, n)
    vec = lambda t: None if t is None else t.reshape(-1) if t.numel() == n else t.reshape(-1, n)  # noqa: E731
    out, res_out, mean, rstd = norm_fwd(x2, None if residual is None else residual.reshape(x2.shape), vec(bias),
                                        vec(weight), vec(norm_bias), eps, alpha, rms)
    return out.reshape(x.shape), res_out.reshape(x.shape) if residual is not None else res_out, mean, rstd


# =============================================================== rotary position embedding


def ref_rope(x, cos, sin, neox):
    """Reference composition; x [A0, A1, H, D], cos/sin [C0, C1, D] float32."""
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


def _rope_cpu(x, cos, sin, neox):
    if not dispatch.cpu_kernel_usable(x):
        return _rope_reference(x, cos, sin, neox)
    return _cpp().rope_fwd(x.contiguous(), cos, sin, neox)


def _rope_cuda(x, cos, sin, neox):
    tri = _tri()
    return _rope_reference(x, cos, sin, neox) if tri is None else tri.rope_fwd(x, cos, sin, neox)


dispatch.register(rope, _rope_reference, cpu=_rope_cpu, cuda=_rope_cuda)


@rope.register_fake
def _(x, cos, sin, neox):
    return x.new_empty(x.shape)


def _rope_setup(ctx, inputs, output):
    x, cos, sin, neox = inputs
    ctx.save_for_backward(cos, sin)
    ctx.neox = neox


def _rope_backward(ctx, g):
    """The backward of a rotation is the transposed rotation: rope with sin' (ext/fused_autograd.cpp's RopeNode is
    the C++ transcription, for the fast path)."""
    cos, sin = ctx.saved_tensors
    return rope(g, cos, rope_transpose_sin(sin, ctx.neox).contiguous(), ctx.neox), None, None, None


rope.register_autograd(_rope_backward, setup_context=_rope_setup)


def fused_rope(x, cos, sin, neox):
    """rope: on the eager fast path the C++ kernel under its C++ autograd node, else the op."""
    if fast_path(x, cos, sin):
        return _cpp().rope_node(x, cos, sin, neox)
    return rope(x, cos, sin, neox)


# =============================================================== swiglu


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


def _swiglu_cpu(x, y):
    if not dispatch.cpu_kernel_usable(x):
        return _swiglu_reference(x, y)
    return _cpp().swiglu_fwd(_rows(x), _rows(y)).reshape(x.shape)


def _swiglu_cuda(x, y):
    tri = _tri()
    if tri is None or not x.numel():
        return _swiglu_reference(x, y)
    return tri.swiglu_fwd(_rows(x), _rows(y)).reshape(x.shape)


dispatch.register(swiglu, _swiglu_reference, cpu=_swiglu_cpu, cuda=_swiglu_cuda)


@swiglu.register_fake
def _(x, y):
    return x.new_empty(x.shape)


def _swiglu_bwd_reference(g, x, y):
    xf, yf, gf = x.float(), y.float(), g.float()
    sg = torch.sigmoid(xf)
    return ((gf * yf * sg * (1 + xf * (1 - sg))).to(x.dtype).contiguous(), (gf * xf * sg).to(y.dtype).contiguous())


@torch.library.custom_op("paddle_on_torch::swiglu_bwd", mutates_args=())
def swiglu_bwd(g: Tensor, x: Tensor, y: Tensor) -> Tuple[Tensor, Tensor]:
    return _swiglu_bwd_reference(g, x, y)


def _swiglu_bwd_with(kernels, g, x, y):
    dx, dy = kernels.swiglu_bwd(_rows(g.contiguous()), _rows(x), _rows(y))
    return dx.reshape(x.shape), dy.reshape(x.shape)


def _swiglu_bwd_cpu(g, x, y):
    if not dispatch.cpu_kernel_usable(x):
        return _swiglu_bwd_reference(g, x, y)
    return _swiglu_bwd_with(_cpp(), g, x, y)


def _swiglu_bwd_cuda(g, x, y):
    tri = _tri()
    if tri is None or not x.numel():
        return _swiglu_bwd_reference(g, x, y)
    return _swiglu_bwd_with(tri, g, x, y)


dispatch.register(swiglu_bwd, _swiglu_bwd_reference, cpu=_swiglu_bwd_cpu, cuda=_swiglu_bwd_cuda)


@swiglu_bwd.register_fake
def _(g, x, y):
    return x.new_empty(x.shape), y.new_empty(y.shape)


def _swiglu_setup(ctx, inputs, output):
    ctx.save_for_backward(*inputs)


def _swiglu_backward(ctx, g):
    """(ext/fused_autograd.cpp's SwigluNode is the C++ transcription, for the fast path.)"""
    x, y = ctx.saved_tensors
    return swiglu_bwd(g, x, y)


swiglu.register_autograd(_swiglu_backward, setup_context=_swiglu_setup)


def fused_swiglu(x, y):
    """swiglu: on the eager fast path the C++ kernel under its C++ autograd node, else the op."""
    if x.shape == y.shape and fast_path(x, y):
        return _cpp().swiglu_node(x, y)
    return swiglu(x, y)


__all__: List[str] = ["fused_norm", "fused_rope", "fused_swiglu", "norm_fwd", "norm_bwd", "rope", "swiglu", "swiglu_bwd", "ref_norm", "ref_norm_bwd",
                      "ref_rope", "ref_swiglu", "rope_transpose_sin", "set_backend", "reload_env", "backend_for"]
