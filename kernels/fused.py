"""torch custom ops (namespace `paddle_on_torch`) behind paddle.incubate.nn.functional's fused ops.

Each op is defined once, with torch.library (see kernels/dispatch.py for how a call reaches its kernel):
  * its body, the reference composition of torch ops (`ref_*`): the default kernel and the tests' oracle,
  * its CPU kernel, C++ (ext/fused.cpp), and its CUDA kernel, Triton (kernels/fused_triton.py), registered per
    device with `register_kernel`,
  * a fake (meta) implementation for torch.compile / export / make_fx,
  * its autograd formula (`register_autograd`): one call of its backward op (norm_bwd / rope_bwd / swiglu_bwd), a
    custom op dispatched the same way that computes every input's gradient.
`fused_norm` / `fused_rope` / `fused_swiglu` (what the Paddle APIs call) take the one eager fast path where
`dispatch.fast_path` allows: the C++ kernel under its C++ autograd node (ext/fused_autograd.cpp), without the
dispatcher, whose backward calls the backward op's CPU kernel itself (the backward is written once); every other
call goes through the op.

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


def _norm_bwd_finish(s, ds, dw, db, g_res, alpha, has_res, want_dx, want_dbias, want_dw, want_db):
    """norm_bwd's outputs from the normalisation's gradients (ds, dw, db): the residual's and the bias' gradients
    added, and an empty tensor for each one not wanted (shared by the reference and the Triton kernel; the C++
    kernel, ext/fused_autograd.cpp: norm_bwd, does the same)."""
    empty = lambda dtype=torch.float32: s.new_empty(0, dtype=dtype)  # noqa: E731  (one storage each: no aliasing)
    dres = dbias = None
    if ds is not None and has_res:
        if g_res is not None:
            ds = ds + g_res.reshape(ds.shape)
        dres = ds * alpha if want_dx and alpha != 1.0 else None
        dbias = ds.float().sum(0) if want_dbias else None
    return (ds.contiguous() if want_dx else empty(s.dtype), empty(s.dtype) if dres is None else dres.contiguous(),
            empty() if dbias is None else dbias, dw.float() if want_dw else empty(), db.float() if want_db else empty())


def _norm_bwd_reference(g_out, g_res, s, mean, rstd, weight, alpha, rms, has_res, want_dx, want_dbias, want_dw,
                        want_db):
    g = torch.zeros_like(s) if g_out is None else g_out.reshape(s.shape)
    want_ds = want_dx or (has_res and want_dbias)
    ds, dw, db = ref_norm_bwd(g, s, mean, rstd, weight, rms, want_dw, want_db)
    return _norm_bwd_finish(s, ds if want_ds else None, dw, db, g_res, alpha, has_res, want_dx, want_dbias, want_dw,
                            want_db)


@torch.library.custom_op("paddle_on_torch::norm_bwd", mutates_args=())
def norm_bwd(g_out: Optional[Tensor], g_res: Optional[Tensor], s: Tensor, mean: Tensor, rstd: Tensor,
             weight: Optional[Tensor], alpha: float, rms: bool, has_res: bool, want_dx: bool, want_dbias: bool,
             want_dw: bool, want_db: bool) -> Tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
    """The backward of norm_fwd, whole (the formula of norm_fwd's autograd, and of the fast path's C++ node).
    s: x [M, N], or residual_out with a residual; g_out / g_res: the gradients of out / residual_out (None: zero).
    Returns dx [M, N] (x's gradient), dres (the residual's: alpha * dx; empty when alpha == 1, then it is dx),
    dbias, dweight, dnorm_bias (float32 [N]); each empty unless wanted (want_dx: x's or the residual's)."""
    return _norm_bwd_reference(g_out, g_res, s, mean, rstd, weight, alpha, rms, has_res, want_dx, want_dbias,
                               want_dw, want_db)


def _norm_bwd_cpu(g_out, g_res, s, mean, rstd, weight, alpha, rms, has_res, want_dx, want_dbias, want_dw, want_db):
    if not dispatch.cpu_kernel_usable(s):
        return _norm_bwd_reference(g_out, g_res, s, mean, rstd, weight, alpha, rms, has_res, want_dx, want_dbias,
                                   want_dw, want_db)
    out = _cpp().norm_bwd(g_out, g_res, s, mean, rstd, weight, alpha, rms, has_res, want_dx, want_dbias, want_dw,
                          want_db)
    return tuple(s.new_empty(0, dtype=s.dtype if i < 2 else torch.float32) if t is None else t
                 for i, t in enumerate(out))


def _norm_bwd_cuda(g_out, g_res, s, mean, rstd, weight, alpha, rms, has_res, want_dx, want_dbias, want_dw, want_db):
    tri = _tri()
    if tri is None:
        return _norm_bwd_reference(g_out, g_res, s, mean, rstd, weight, alpha, rms, has_res, want_dx, want_dbias,
                                   want_dw, want_db)
    g = torch.zeros_like(s) if g_out is None else g_out.reshape(s.shape)
    ds, dw, db = tri.norm_bwd(g, s, mean, rstd, weight, rms, want_dw, want_db)
    return _norm_bwd_finish(s, ds, dw, db, g_res, alpha, has_res, want_dx, want_dbias, want_dw, want_db)


dispatch.register(norm_bwd, _norm_bwd_reference, cpu=_norm_bwd_cpu, cuda=_norm_bwd_cuda)


@norm_bwd.register_fake
def _(g_out, g_res, s, mean, rstd, weight, alpha, rms, has_res, want_dx, want_dbias, want_dw, want_db):
    m, n = s.shape
    f32 = torch.float32
    dres = (m, n) if has_res and want_dx and alpha != 1.0 else (0,)
    return (s.new_empty((m, n) if want_dx else (0,)), s.new_empty(dres),
            s.new_empty(n if has_res and want_dbias else 0, dtype=f32), s.new_empty(n if want_dw else 0, dtype=f32),
            s.new_empty(n if want_db else 0, dtype=f32))


def _norm_setup(ctx, inputs, output):
    x, residual, bias, weight, norm_bias, eps, alpha, rms = inputs
    out, residual_out, mean, rstd = output
    s = residual_out if residual is not None else x
    ctx.save_for_backward(s, mean, rstd, weight)
    ctx.meta = (residual is not None, bias is not None, norm_bias is not None, alpha, rms,
                weight.dtype if weight is not None else None, bias.dtype if bias is not None else None,
                norm_bias.dtype if norm_bias is not None else None)


def _norm_backward(ctx, g_out, g_res, g_mean, g_rstd):
    """The autograd formula: norm_bwd does the arithmetic (ext/fused_autograd.cpp's NormNode, the fast path's node,
    calls the same backward); here only which gradients are wanted and their inputs' dtypes."""
    s, mean, rstd, weight = ctx.saved_tensors
    has_res, has_bias, has_nb, alpha, rms, w_dt, b_dt, nb_dt = ctx.meta
    need = ctx.needs_input_grad
    want_dx = need[0] or (has_res and need[1])
    want_dbias = has_res and has_bias and need[2]
    want_dw = weight is not None and need[3]
    want_db = has_nb and need[4]
    dx, dres, dbias, dw, db = norm_bwd(g_out, g_res if has_res else None, s, mean, rstd, weight, alpha, rms, has_res,
                                       want_dx, want_dbias, want_dw, want_db)
    dres = (dres if dres.numel() else dx) if has_res and want_dx else None
    return (dx if want_dx else None, dres, dbias.to(b_dt) if want_dbias else None,
            dw.to(w_dt) if want_dw else None, db.to(nb_dt) if want_db else None, None, None, None)


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


def _rope_bwd_reference(g, cos, sin, neox):
    return ref_rope(g, cos, rope_transpose_sin(sin, neox), neox).contiguous()


@torch.library.custom_op("paddle_on_torch::rope_bwd", mutates_args=())
def rope_bwd(g: Tensor, cos: Tensor, sin: Tensor, neox: bool) -> Tensor:
    """The backward of rope: the transposed rotation of g (the formula of rope's autograd and of the fast path's
    C++ node)."""
    return _rope_bwd_reference(g, cos, sin, neox)


def _rope_bwd_cpu(g, cos, sin, neox):
    if not dispatch.cpu_kernel_usable(g):
        return _rope_bwd_reference(g, cos, sin, neox)
    return _cpp().rope_bwd(g, cos, sin, neox)


def _rope_bwd_cuda(g, cos, sin, neox):
    tri = _tri()
    return _rope_bwd_reference(g, cos, sin, neox) if tri is None else tri.rope_fwd(g, cos, sin, neox, transpose=True)


dispatch.register(rope_bwd, _rope_bwd_reference, cpu=_rope_bwd_cpu, cuda=_rope_bwd_cuda)


@rope_bwd.register_fake
def _(g, cos, sin, neox):
    return g.new_empty(g.shape)


def _rope_backward(ctx, g):
    """The autograd formula: rope_bwd (ext/fused_autograd.cpp's RopeNode calls the same backward)."""
    cos, sin = ctx.saved_tensors
    return rope_bwd(g, cos, sin, ctx.neox), None, None, None


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
    """The backward of swiglu: dx, dy (the formula of swiglu's autograd and of the fast path's C++ node)."""
    return _swiglu_bwd_reference(g, x, y)


def _swiglu_bwd_cpu(g, x, y):
    if not dispatch.cpu_kernel_usable(x):
        return _swiglu_bwd_reference(g, x, y)
    return tuple(_cpp().swiglu_bwd(g, x, y))


def _swiglu_bwd_cuda(g, x, y):
    tri = _tri()
    if tri is None or not x.numel():
        return _swiglu_bwd_reference(g, x, y)
    dx, dy = tri.swiglu_bwd(_rows(g.contiguous()), _rows(x), _rows(y))
    return dx.reshape(x.shape), dy.reshape(x.shape)


dispatch.register(swiglu_bwd, _swiglu_bwd_reference, cpu=_swiglu_bwd_cpu, cuda=_swiglu_bwd_cuda)


@swiglu_bwd.register_fake
def _(g, x, y):
    return x.new_empty(x.shape), y.new_empty(y.shape)


def _swiglu_setup(ctx, inputs, output):
    ctx.save_for_backward(*inputs)


def _swiglu_backward(ctx, g):
    """The autograd formula: swiglu_bwd (ext/fused_autograd.cpp's SwigluNode calls the same backward)."""
    x, y = ctx.saved_tensors
    return swiglu_bwd(g, x, y)


swiglu.register_autograd(_swiglu_backward, setup_context=_swiglu_setup)


def fused_swiglu(x, y):
    """swiglu: on the eager fast path the C++ kernel under its C++ autograd node, else the op."""
    if x.shape == y.shape and fast_path(x, y):
        return _cpp().swiglu_node(x, y)
    return swiglu(x, y)


__all__: List[str] = ["fused_norm", "fused_rope", "fused_swiglu", "norm_fwd", "norm_bwd", "rope", "rope_bwd", "swiglu",
                      "swiglu_bwd", "ref_norm", "ref_norm_bwd", "ref_rope", "ref_swiglu", "rope_transpose_sin",
                      "set_backend", "reload_env", "backend_for"]
