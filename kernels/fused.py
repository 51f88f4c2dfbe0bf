"""torch custom ops (namespace `paddle_on_torch`) behind paddle.incubate.nn.functional's fused ops.

Each op has
  * a reference composition of torch ops (`ref_*`, always available, also the test oracle),
  * a C++ CPU kernel (ext/fused.cpp, loaded by kernels/cpp.py),
  * a Triton kernel for CUDA (kernels/fused_triton.py),
  * a fake (meta) implementation and an autograd formula (its backward is itself a custom op),
so the ops work in eager mode, under torch.compile and in fx / make_fx graphs.

Backend choice, per call: `PADDLE_ON_TORCH_KERNELS=reference|cpp|triton` (or `set_backend`)
forces one; otherwise CUDA tensors use Triton when it is installed, CPU tensors use the C++ kernel
when it builds, and everything else uses the reference composition.

The ops work on canonical layouts; paddle_on_torch.incubate.nn.functional maps Paddle's arguments
onto them:
  norm_fwd(x[M, N], residual?, bias?, weight?, norm_bias?, eps, alpha, rms)
      -> out[M, N], residual_out[M, N] (or [0]), mean[M] (or [0] for rms), rstd[M] (float32)
  rope(x[A0, A1, H, D], cos[C0, C1, D], sin[C0, C1, D], neox) -> out   (cos/sin float32, C0 in {1, A0},
      C1 in {1, A1}; neox=True rotates adjacent pairs, False the two halves)
  swiglu(x[..., N], y[..., N]) -> silu(x) * y
"""
import os
from typing import List, Optional, Tuple

import torch
from torch import Tensor

from .cpp import CPP as _CPP
from .eager import plain_eager

_BACKENDS = ("reference", "cpp", "triton")
_forced = None
_CPP_DTYPES = (torch.float32, torch.bfloat16, torch.float16)


def set_backend(name):
    """Force a backend for this process (None: automatic / the environment variable)."""
    global _forced
    if name is not None and name not in _BACKENDS:
        raise ValueError(f"backend must be one of {_BACKENDS}, got {name!r}")
    _forced = name


def reload_env():
    """Re-read PADDLE_ON_TORCH_KERNELS (it is read once, at import)."""
    global _env
    _env = os.environ.get("PADDLE_ON_TORCH_KERNELS") or None
    if _env is not None and _env not in _BACKENDS:
        raise ValueError(f"PADDLE_ON_TORCH_KERNELS must be one of {_BACKENDS}, got {_env!r}")


_env = None
reload_env()
_has_triton = None


def _triton_available():
    global _has_triton
    if _has_triton is None:
        try:
            import triton  # noqa: F401
            _has_triton = True
        except Exception:
            _has_triton = False
    return _has_triton


def backend_for(t):
    """The backend a call with tensor `t` will use."""
    forced = _forced or _env
    if forced == "reference":
        return "reference"
    if forced == "triton" or (forced is None and t.is_cuda):
        if forced == "triton" or _triton_available():
            return "triton"
        return "reference"
    if t.dtype in _CPP_DTYPES and t.device.type == "cpu" and _cpp() is not None:
        return "cpp"
    return "reference"


def _cpp():
    return _CPP.module or _CPP.load()


def _tri():
    from . import fused_triton

    return fused_triton


def _eager_cpp(*ts):
    """True when a call can skip the torch.library dispatcher and run the C++ kernel under its C++
    autograd node: plain CPU tensors, no tracing / compiling / fake or functorch mode active.
    (The dispatcher and the custom-op autograd wrapper cost ~20-60 us a call, as much as the whole
    kernel at small sizes.)"""
    x = ts[0]  # the tests of backend_for(x) == "cpp", inlined (this runs on every eager call)
    if (_forced or _env) not in (None, "cpp") or not x.is_cpu or x.dtype not in _CPP_DTYPES:
        return False
    return plain_eager(*ts) and _cpp() is not None


def _eager_triton(*ts):
    """The CUDA twin of `_eager_cpp`: plain CUDA tensors in eager mode run the Triton launchers under a
    torch.autograd.Function (below).  The dispatcher and the custom-op autograd wrapper cost more CPU time than
    a norm over 16k rows takes on an H100, so through them the GPU waited on Python."""
    x = ts[0]
    if (_forced or _env) not in (None, "triton") or not x.is_cuda:
        return False
    return plain_eager(*ts) and _triton_available()


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


@torch.library.custom_op("paddle_on_torch::norm_fwd", mutates_args=())
def norm_fwd(x: Tensor, residual: Optional[Tensor], bias: Optional[Tensor], weight: Optional[Tensor],
             norm_bias: Optional[Tensor], eps: float, alpha: float, rms: bool) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    be = backend_for(x)
    if be == "cpp":
        return tuple(_cpp().norm_fwd(x.contiguous(), residual, bias, weight, norm_bias, eps, alpha, rms))
    if be == "triton":
        return _tri().norm_fwd(x, residual, bias, weight, norm_bias, eps, alpha, rms)
    out = ref_norm(x, residual, bias, weight, norm_bias, eps, alpha, rms)
    return tuple(t.contiguous().clone() if t is x else t.contiguous() for t in out)


@norm_fwd.register_fake
def _(x, residual, bias, weight, norm_bias, eps, alpha, rms):
    m, n = x.shape
    f = x.new_empty
    return (f(m, n), f(m, n) if residual is not None else f(0),
            f(0 if rms else m, dtype=torch.float32), f(m, dtype=torch.float32))


@torch.library.custom_op("paddle_on_torch::norm_bwd", mutates_args=())
def norm_bwd(dy: Tensor, s: Tensor, mean: Tensor, rstd: Tensor, weight: Optional[Tensor], rms: bool,
             want_dw: bool, want_db: bool) -> Tuple[Tensor, Tensor, Tensor]:
    be = backend_for(s)
    if be == "cpp":
        ds, dw, db = _cpp().norm_bwd(dy.contiguous(), s.contiguous(), mean, rstd, weight, rms, want_dw, want_db)
    elif be == "triton":
        ds, dw, db = _tri().norm_bwd(dy, s, mean, rstd, weight, rms, want_dw, want_db)
    else:
        ds, dw, db = ref_norm_bwd(dy, s, mean, rstd, weight, rms, want_dw, want_db)
        ds = ds.contiguous()  # as the fake says (dy's / s's strides otherwise)
    empty = s.new_empty(0, dtype=torch.float32)
    return ds, dw if want_dw else empty, db if want_db else empty.clone()


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
    s, mean, rstd, weight = ctx.saved_tensors
    has_res, has_bias, has_nb, alpha, rms, w_dt, b_dt, nb_dt = ctx.meta
    want_dw = weight is not None and ctx.needs_input_grad[3]
    want_db = has_nb and ctx.needs_input_grad[4]
    if g_out is None:
        g_out = torch.zeros_like(s)
    if _eager_cpp(g_out, s, weight):
        ds, dw, db = _cpp().norm_bwd(g_out.contiguous(), s.contiguous(), mean, rstd, weight, rms, want_dw, want_db)
    elif _eager_triton(g_out, s, weight):
        ds, dw, db = _tri().norm_bwd(g_out, s, mean, rstd, weight, rms, want_dw, want_db)
    else:
        ds, dw, db = norm_bwd(g_out.contiguous(), s, mean, rstd, weight, rms, want_dw, want_db)
    if has_res and g_res is not None:
        ds = ds + g_res
    dx = ds
    dres = (ds * alpha if alpha != 1.0 else ds) if has_res else None
    dbias = ds.float().sum(0).to(b_dt) if (has_res and has_bias and ctx.needs_input_grad[2]) else None
    return (dx, dres, dbias, dw.to(w_dt) if want_dw else None, db.to(nb_dt) if want_db else None,
            None, None, None)


norm_fwd.register_autograd(_norm_backward, setup_context=_norm_setup)


class _TritonNorm(torch.autograd.Function):
    """norm_fwd's Triton kernel and autograd formula without the dispatcher (see _eager_triton)."""

    @staticmethod
    def forward(ctx, *inputs):
        out = _tri().norm_fwd(*inputs)
        _norm_setup(ctx, inputs, out)
        ctx.mark_non_differentiable(out[2], out[3])
        ctx.set_materialize_grads(False)
        return out

    backward = staticmethod(_norm_backward)


def fused_norm(x, residual, bias, weight, norm_bias, eps, alpha, rms, n=None):
    """norm_fwd over rows of `n` elements (default x.shape[-1]) of x of any shape; out and residual_out come back
    in x's shape.  Plain eager CPU calls run the C++ kernel under its C++ autograd node (ext/fused_autograd.cpp),
    which also does the reshapes (no view nodes in the graph); others go through the custom op."""
    n = x.shape[-1] if n is None else n
    if x.numel() and _eager_cpp(x, residual, bias, weight, norm_bias):
        return tuple(_cpp().norm_node(x, residual, bias, weight, norm_bias, eps, alpha, rms, n))
    x2 = x.reshape(-1, n)
    vec = lambda t: None if t is None else t.reshape(-1) if t.numel() == n else t.reshape(-1, n)  # noqa: E731
    op = _TritonNorm.apply if _eager_triton(x, residual, bias, weight, norm_bias) else norm_fwd
    out, res_out, mean, rstd = op(x2, None if residual is None else residual.reshape(x2.shape), vec(bias),
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


@torch.library.custom_op("paddle_on_torch::rope", mutates_args=())
def rope(x: Tensor, cos: Tensor, sin: Tensor, neox: bool) -> Tensor:
    be = backend_for(x)
    if be == "cpp":
        return _cpp().rope_fwd(x.contiguous(), cos, sin, neox)
    if be == "triton":
        return _tri().rope_fwd(x, cos, sin, neox)
    return ref_rope(x, cos, sin, neox).contiguous()


@rope.register_fake
def _(x, cos, sin, neox):
    return x.new_empty(x.shape)


def _rope_setup(ctx, inputs, output):
    x, cos, sin, neox = inputs
    ctx.save_for_backward(cos, sin)
    ctx.neox = neox


def _rope_backward(ctx, g):
    cos, sin = ctx.saved_tensors
    if _eager_triton(g, cos, sin):
        return _tri().rope_fwd(g, cos, sin, ctx.neox, transpose=True), None, None, None
    sin_t = rope_transpose_sin(sin, ctx.neox).contiguous()
    if _eager_cpp(g, cos, sin_t):
        return _cpp().rope_fwd(g.contiguous(), cos, sin_t, ctx.neox), None, None, None
    return rope(g, cos, sin_t, ctx.neox), None, None, None


rope.register_autograd(_rope_backward, setup_context=_rope_setup)


class _TritonRope(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, cos, sin, neox):
        _rope_setup(ctx, (x, cos, sin, neox), None)
        return _tri().rope_fwd(x, cos, sin, neox)

    backward = staticmethod(_rope_backward)


def fused_rope(x, cos, sin, neox):
    """rope: in plain eager CPU calls the C++ kernel under its C++ autograd node, else the custom op."""
    if _eager_cpp(x, cos, sin):
        return _cpp().rope_node(x, cos, sin, neox)
    if _eager_triton(x, cos, sin):
        return _TritonRope.apply(x, cos, sin, neox)
    return rope(x, cos, sin, neox)


# =============================================================== swiglu


def ref_swiglu(x, y):
    return (torch.nn.functional.silu(_acc(x)) * _acc(y)).to(x.dtype)


def _rows(t):
    """View as [M, N] keeping the unit column stride (no copy for chunked halves)."""
    t2 = t.reshape(-1, t.shape[-1]) if t.dim() != 2 else t
    return t2 if t2.stride(-1) == 1 else t2.contiguous()


@torch.library.custom_op("paddle_on_torch::swiglu", mutates_args=())
def swiglu(x: Tensor, y: Tensor) -> Tensor:
    be = backend_for(x)
    if be in ("cpp", "triton") and x.numel():
        fn = _cpp().swiglu_fwd if be == "cpp" else _tri().swiglu_fwd
        return fn(_rows(x), _rows(y)).reshape(x.shape)
    return ref_swiglu(x, y).contiguous()


@swiglu.register_fake
def _(x, y):
    return x.new_empty(x.shape)


@torch.library.custom_op("paddle_on_torch::swiglu_bwd", mutates_args=())
def swiglu_bwd(g: Tensor, x: Tensor, y: Tensor) -> Tuple[Tensor, Tensor]:
    be = backend_for(x)
    if be in ("cpp", "triton") and x.numel():
        fn = _cpp().swiglu_bwd if be == "cpp" else _tri().swiglu_bwd
        dx, dy = fn(_rows(g.contiguous()), _rows(x), _rows(y))
        return dx.reshape(x.shape), dy.reshape(x.shape)
    xf, yf, gf = x.float(), y.float(), g.float()
    sg = torch.sigmoid(xf)
    return ((gf * yf * sg * (1 + xf * (1 - sg))).to(x.dtype).contiguous(), (gf * xf * sg).to(y.dtype).contiguous())


@swiglu_bwd.register_fake
def _(g, x, y):
    return x.new_empty(x.shape), y.new_empty(y.shape)


def _swiglu_setup(ctx, inputs, output):
    ctx.save_for_backward(*inputs)


def _swiglu_backward(ctx, g):
    x, y = ctx.saved_tensors
    eager = x.numel() and (_cpp().swiglu_bwd if _eager_cpp(g, x, y) else
                           _tri().swiglu_bwd if _eager_triton(g, x, y) else None)
    if eager:
        dx, dy = eager(_rows(g.contiguous()), _rows(x), _rows(y))
        return dx.reshape(x.shape), dy.reshape(y.shape)
    return swiglu_bwd(g, x, y)


swiglu.register_autograd(_swiglu_backward, setup_context=_swiglu_setup)


class _TritonSwiglu(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        _swiglu_setup(ctx, (x, y), None)
        return _tri().swiglu_fwd(_rows(x), _rows(y)).reshape(x.shape)

    backward = staticmethod(_swiglu_backward)


def fused_swiglu(x, y):
    """swiglu: in plain eager CPU calls the C++ kernel under its C++ autograd node, else the custom op."""
    if x.numel() and x.shape == y.shape and _eager_cpp(x, y):
        return _cpp().swiglu_node(x, y)
    if x.numel() and x.shape == y.shape and _eager_triton(x, y):
        return _TritonSwiglu.apply(x, y)
    return swiglu(x, y)

__all__: List[str] = ["fused_norm", "fused_rope", "fused_swiglu", "norm_fwd", "norm_bwd", "rope", "swiglu", "swiglu_bwd", "ref_norm", "ref_norm_bwd",
                      "ref_rope", "ref_swiglu", "rope_transpose_sin", "set_backend", "backend_for"]
