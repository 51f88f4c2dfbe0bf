"""RMS and layer norm with residual, bias and residual_alpha: the torch custom ops `paddle_on_torch::norm_fwd` /
`norm_bwd`, behind paddle.nn.functional.rms_norm / layer_norm and paddle.incubate.nn.functional.fused_rms_norm /
fused_layer_norm (and the fused transformer blocks' norms).

    norm_fwd(x[..., N], residual?, bias?, weight?, norm_bias?, eps, alpha, rms, begin_norm_axis)
        -> out (x's shape), residual_out (x's shape, or [0]), mean[M] (or [0] for rms), rstd[M] (float32)
    rows: M = prod(x.shape[:begin_norm_axis]), N = prod(x.shape[begin_norm_axis:]); residual: x's shape;
    bias, weight, norm_bias: [N].  s = x + alpha * residual + bias (bias only with a residual, as Paddle),
    out = normalise(s) * weight + norm_bias, with float32 statistics (float64 for float64 input).

Here: the schema and body (the reference composition `ref_norm`: the default kernel and the tests' oracle), the
fake, the autograd formula (one call of `norm_bwd`, the whole backward, itself an op dispatched the same way) and
the CUDA kernel (kernels/norm_triton.py).  The CPU kernels and the C++ autograd formula (the eager fast path) are
ext/norm.cpp's, registered with TORCH_LIBRARY_IMPL (kernels/dispatch.py has the table).
"""
import math
from typing import Optional, Tuple

import torch
from torch import Tensor

from . import dispatch
from .dispatch import acc as _acc

dispatch.load_cpp()  # registers the C++ kernels (ext/norm.cpp) before the first call


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
    """The normalisation's gradients (ds, dweight, dnorm_bias) for dy, s of [M, N]."""
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


def _rows(shape, begin_norm_axis):
    return math.prod(shape[:begin_norm_axis]), math.prod(shape[begin_norm_axis:])


def _norm_fwd_reference(x, residual, bias, weight, norm_bias, eps, alpha, rms, begin_norm_axis):
    m, n = _rows(x.shape, begin_norm_axis)
    out, res_out, mean, rstd = ref_norm(x.reshape(m, n), None if residual is None else residual.reshape(m, n), bias,
                                        weight, norm_bias, eps, alpha, rms)
    res_out = res_out.reshape(x.shape).contiguous() if residual is not None else res_out
    return out.reshape(x.shape).contiguous(), res_out, mean.contiguous(), rstd.contiguous()


@torch.library.custom_op("paddle_on_torch::norm_fwd", mutates_args=())
def norm_fwd(x: Tensor, residual: Optional[Tensor], bias: Optional[Tensor], weight: Optional[Tensor],
             norm_bias: Optional[Tensor], eps: float, alpha: float, rms: bool,
             begin_norm_axis: int) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    return _norm_fwd_reference(x, residual, bias, weight, norm_bias, eps, alpha, rms, begin_norm_axis)


def _norm_fwd_cuda(x, residual, bias, weight, norm_bias, eps, alpha, rms, begin_norm_axis):
    tri = dispatch.triton_module("norm")
    if tri is None or not x.numel():
        return _norm_fwd_reference(x, residual, bias, weight, norm_bias, eps, alpha, rms, begin_norm_axis)
    m, n = _rows(x.shape, begin_norm_axis)
    out, res_out, mean, rstd = tri.norm_fwd(x.reshape(m, n), None if residual is None else residual.reshape(m, n),
                                            bias, weight, norm_bias, eps, alpha, rms)
    return out.view(x.shape), res_out.view(x.shape) if residual is not None else res_out, mean, rstd


dispatch.register(norm_fwd, _norm_fwd_reference, cuda=_norm_fwd_cuda)


@norm_fwd.register_fake
def _(x, residual, bias, weight, norm_bias, eps, alpha, rms, begin_norm_axis):
    m = math.prod(x.shape[:begin_norm_axis])
    f = x.new_empty
    return (f(x.shape), f(x.shape) if residual is not None else f(0), f(0 if rms else m, dtype=torch.float32),
            f(m, dtype=torch.float32))


def _norm_bwd_finish(s, ds, dw, db, g_res, alpha, has_res, want_dx, want_dbias, want_dw, want_db):
    """norm_bwd's outputs ([M, N] and [N]) from the normalisation's gradients (ds, dw, db): the residual's and the
    bias' gradients added, and an empty tensor for each one not wanted (shared by the reference and the Triton
    kernel; the C++ kernel, ext/norm.cpp: norm_bwd_cpu, does the same)."""
    empty = lambda dtype=torch.float32: s.new_empty(0, dtype=dtype)  # noqa: E731  (one storage each: no aliasing)
    dres = dbias = None
    if ds is not None and has_res:
        if g_res is not None:
            ds = ds + g_res.reshape(ds.shape)
        dres = ds * alpha if want_dx and alpha != 1.0 else None
        dbias = ds.float().sum(0) if want_dbias else None
    return (ds.contiguous() if want_dx else empty(s.dtype), empty(s.dtype) if dres is None else dres.contiguous(),
            empty() if dbias is None else dbias, dw.float() if want_dw else empty(), db.float() if want_db else empty())


def _in_shape(out, shape):
    """norm_bwd's dx / dres back in s's shape (empties stay)."""
    return tuple(t.view(shape) if i < 2 and t.numel() else t for i, t in enumerate(out))


def _norm_bwd_reference(g_out, g_res, s, mean, rstd, weight, alpha, rms, has_res, want_dx, want_dbias, want_dw,
                        want_db, begin_norm_axis):
    m, n = _rows(s.shape, begin_norm_axis)
    s2 = s.reshape(m, n)
    g = torch.zeros_like(s2) if g_out is None else g_out.reshape(m, n)
    want_ds = want_dx or (has_res and want_dbias)
    ds, dw, db = ref_norm_bwd(g, s2, mean, rstd, weight, rms, want_dw, want_db)
    return _in_shape(_norm_bwd_finish(s2, ds if want_ds else None, dw, db, g_res, alpha, has_res, want_dx,
                                      want_dbias, want_dw, want_db), s.shape)


@torch.library.custom_op("paddle_on_torch::norm_bwd", mutates_args=())
def norm_bwd(g_out: Optional[Tensor], g_res: Optional[Tensor], s: Tensor, mean: Tensor, rstd: Tensor,
             weight: Optional[Tensor], alpha: float, rms: bool, has_res: bool, want_dx: bool, want_dbias: bool,
             want_dw: bool, want_db: bool, begin_norm_axis: int) -> Tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
    """The backward of norm_fwd, whole (the formula of norm_fwd's autograd, Python here and C++ in ext/norm.cpp).
    s: x, or residual_out with a residual; g_out / g_res: the gradients of out / residual_out (None: zero).
    Returns dx (s's shape: x's gradient), dres (the residual's: alpha * dx; empty when alpha == 1, then it is dx),
    dbias, dweight, dnorm_bias (float32 [N]); each empty unless wanted (want_dx: x's or the residual's)."""
    return _norm_bwd_reference(g_out, g_res, s, mean, rstd, weight, alpha, rms, has_res, want_dx, want_dbias,
                               want_dw, want_db, begin_norm_axis)


def _norm_bwd_cuda(g_out, g_res, s, mean, rstd, weight, alpha, rms, has_res, want_dx, want_dbias, want_dw, want_db,
                   begin_norm_axis):
    tri = dispatch.triton_module("norm")
    if tri is None or not s.numel():
        return _norm_bwd_reference(g_out, g_res, s, mean, rstd, weight, alpha, rms, has_res, want_dx, want_dbias,
                                   want_dw, want_db, begin_norm_axis)
    m, n = _rows(s.shape, begin_norm_axis)
    s2 = s.reshape(m, n)
    g = torch.zeros_like(s2) if g_out is None else g_out.reshape(m, n)
    ds, dw, db = tri.norm_bwd(g, s2, mean, rstd, weight, rms, want_dw, want_db)
    return _in_shape(_norm_bwd_finish(s2, ds, dw, db, g_res, alpha, has_res, want_dx, want_dbias, want_dw, want_db),
                     s.shape)


dispatch.register(norm_bwd, _norm_bwd_reference, cuda=_norm_bwd_cuda)


@norm_bwd.register_fake
def _(g_out, g_res, s, mean, rstd, weight, alpha, rms, has_res, want_dx, want_dbias, want_dw, want_db,
      begin_norm_axis):
    n = math.prod(s.shape[begin_norm_axis:])
    f32 = torch.float32
    dres = s.shape if has_res and want_dx and alpha != 1.0 else (0,)
    return (s.new_empty(s.shape if want_dx else (0,)), s.new_empty(dres),
            s.new_empty(n if has_res and want_dbias else 0, dtype=f32), s.new_empty(n if want_dw else 0, dtype=f32),
            s.new_empty(n if want_db else 0, dtype=f32))


def _norm_setup(ctx, inputs, output):
    x, residual, bias, weight, norm_bias, eps, alpha, rms, begin_norm_axis = inputs
    out, residual_out, mean, rstd = output
    s = residual_out if residual is not None else x
    ctx.save_for_backward(s, mean, rstd, weight)
    ctx.meta = (residual is not None, bias is not None, norm_bias is not None, alpha, rms, begin_norm_axis,
                weight.dtype if weight is not None else None, bias.dtype if bias is not None else None,
                norm_bias.dtype if norm_bias is not None else None)


def _norm_backward(ctx, g_out, g_res, g_mean, g_rstd):
    """The autograd formula: norm_bwd does the arithmetic; here only which gradients are wanted and their inputs'
    dtypes (ext/norm.cpp's NormFunction, the CPU formula, is the same in C++)."""
    s, mean, rstd, weight = ctx.saved_tensors
    has_res, has_bias, has_nb, alpha, rms, axis, w_dt, b_dt, nb_dt = ctx.meta
    need = ctx.needs_input_grad
    want_dx = need[0] or (has_res and need[1])
    want_dbias = has_res and has_bias and need[2]
    want_dw = weight is not None and need[3]
    want_db = has_nb and need[4]
    dx, dres, dbias, dw, db = norm_bwd(g_out, g_res if has_res else None, s, mean, rstd, weight, alpha, rms, has_res,
                                       want_dx, want_dbias, want_dw, want_db, axis)
    dres = (dres if dres.numel() else dx) if has_res and want_dx else None
    return (dx if want_dx else None, dres, dbias.to(b_dt) if want_dbias else None,
            dw.to(w_dt) if want_dw else None, db.to(nb_dt) if want_db else None, None, None, None, None)


norm_fwd.register_autograd(_norm_backward, setup_context=_norm_setup)
_NORM = norm_fwd._opoverload


def _vec(t):
    """A weight or bias as the op takes it, [N] (no view node for one that already is 1-D)."""
    return t if t is None or t.dim() == 1 else t.reshape(-1)


def norm(x, residual, bias, weight, norm_bias, eps, alpha, rms, begin_norm_axis):
    """norm_fwd over rows of x of any shape (begin_norm_axis >= 0); what the Paddle APIs call.  Returns (out,
    residual_out, mean, rstd)."""
    if residual is not None and residual.shape != x.shape:
        residual = residual.reshape(x.shape)
    return _NORM(x, residual, _vec(bias), _vec(weight), _vec(norm_bias), eps, alpha, rms, begin_norm_axis)


__all__ = ["norm", "norm_fwd", "norm_bwd", "ref_norm", "ref_norm_bwd"]
