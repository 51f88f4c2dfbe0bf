"""Elementwise math, reductions of the math family, and matmul.

Elementwise binary ops share Paddle's promotion rule through
`@op(binary=("x", "y"))`; unary ops are one line each over their torch twin.
In-place variants (`add_`, `exp_`, ...) are made from the same table by
`paddle_on_torch.tensor.inplace`.
"""
import builtins

import torch

from .._normalize import AxisLike, DTypeLike, ScalarOrTensor, TensorLike, TensorSequence, op
from ..framework import dtype as _dtypes

__all__ = [
    # binary elementwise
    "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "mod", "floor_mod", "pow",
    "maximum", "minimum", "fmax", "fmin", "atan2", "heaviside", "hypot", "copysign", "nextafter", "ldexp",
    "gcd", "lcm", "logaddexp", "bitwise_left_shift", "bitwise_right_shift", "true_divide", "div", "mul",
    "sub", "float_power",
    # unary elementwise
    "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "exp", "expm1", "floor",
    "log", "log10", "log1p", "log2", "reciprocal", "round", "rsqrt", "sigmoid", "sign", "sin", "sinh", "sqrt",
    "square", "tan", "tanh", "trunc", "frac", "neg", "negative", "positive", "erf", "erfinv", "lgamma",
    "digamma", "i0", "i0e", "i1", "i1e", "angle", "conj", "deg2rad", "rad2deg", "logit", "sgn", "signbit",
    "isfinite", "isinf", "isnan", "isneginf", "isposinf", "isreal", "nan_to_num", "exp2", "fix",
    "polygamma", "multigammaln", "gammaln", "sinc", "gammainc", "gammaincc",
    # reductions and scans
    "sum", "nansum", "prod", "cumsum", "cumprod", "cummax", "cummin", "logsumexp", "logcumsumexp",
    "max", "min", "amax", "amin", "count_nonzero", "all", "any",
    # misc
    "scale", "clip", "clamp", "lerp", "stanh", "addmm", "inner", "outer", "kron", "trace", "diagonal",
    "matmul", "mm", "bmm", "mv", "dot", "increment", "add_n", "diff", "cross", "renorm", "logaddexp",
    "isclose", "allclose", "vander", "cartesian_prod", "baddbmm", "multiplex", "trapezoid",
    "cumulative_trapezoid", "combinations", "reduce_as", "log_normal",
]

_builtin_sum = builtins.sum
_builtin_all = builtins.all

# ------------------------------------------------------------------ binary


@op(binary=("x", "y"))
def add(x, y, name=None, *, alpha=1, out=None):
    return torch.add(x, y, alpha=alpha) if alpha != 1 else torch.add(x, y)


@op(binary=("x", "y"))
def subtract(x, y, name=None, *, alpha=1, out=None):
    return torch.sub(x, y, alpha=alpha) if alpha != 1 else torch.sub(x, y)


@op(binary=("x", "y"))
def multiply(x, y, name=None, *, out=None):
    return torch.mul(x, y)


@op(binary=("x", "y"))
def divide(x, y, name=None, *, rounding_mode=None, out=None):
    return torch.div(x, y, rounding_mode=rounding_mode)


@op(binary=("x", "y"))
def floor_divide(x, y, name=None, *, out=None):
    return torch.floor_divide(x, y)


@op(binary=("x", "y"))
def remainder(x, y, name=None, *, out=None):
    return torch.remainder(x, y)


@op(binary=("x", "y"))
def pow(x, y, name=None, *, out=None):
    return torch.pow(x, y)


@op(binary=("x", "y"))
def float_power(x, y, name=None, *, out=None):
    return torch.float_power(x, y)


@op(binary=("x", "y"))
def maximum(x, y, name=None, *, out=None):
    return torch.maximum(x, y)


@op(binary=("x", "y"))
def minimum(x, y, name=None, *, out=None):
    return torch.minimum(x, y)


@op(binary=("x", "y"))
def fmax(x, y, name=None, *, out=None):
    return torch.fmax(x, y)


@op(binary=("x", "y"))
def fmin(x, y, name=None, *, out=None):
    return torch.fmin(x, y)


@op(binary=("x", "y"))
def atan2(x, y, name=None, *, out=None):
    return torch.atan2(x, y)


@op(binary=("x", "y"))
def heaviside(x, y, name=None, *, out=None):
    return torch.heaviside(x, y)


@op(binary=("x", "y"))
def hypot(x, y, name=None, *, out=None):
    return torch.hypot(x, y)


@op(binary=("x", "y"))
def copysign(x, y, name=None, *, out=None):
    return torch.copysign(x, y)


@op(binary=("x", "y"))
def nextafter(x, y, name=None, *, out=None):
    return torch.nextafter(x, y)


@op(binary=("x", "y"))
def ldexp(x, y, name=None, *, out=None):
    return torch.ldexp(x, y)


@op(binary=("x", "y"))
def gcd(x, y, name=None):
    return torch.gcd(x, y)


@op(binary=("x", "y"))
def lcm(x, y, name=None):
    return torch.lcm(x, y)


@op(binary=("x", "y"))
def logaddexp(x, y, name=None, *, out=None):
    return torch.logaddexp(x, y)


@op(binary=("x", "y"))
def bitwise_left_shift(x, y, is_arithmetic=True, name=None, *, out=None):
    return torch.bitwise_left_shift(x, y)


@op(binary=("x", "y"))
def bitwise_right_shift(x, y, is_arithmetic=True, name=None, *, out=None):
    if not is_arithmetic:  # logical shift: reinterpret as unsigned of the same width
        bits = torch.iinfo(x.dtype).bits
        return torch.where(x >= 0, x >> y, (x >> y) & ((1 << (bits - y)) - 1) if isinstance(y, int) else x >> y)
    return torch.bitwise_right_shift(x, y)


mod = floor_mod = remainder
true_divide = div = divide
mul = multiply
sub = subtract

# ------------------------------------------------------------------ unary


def _unary(name, torch_fn, doc=None):
    def impl(x: TensorLike, name=None, *, out=None):
        return torch_fn(x)

    impl.__name__ = impl.__qualname__ = name
    impl.__doc__ = doc or f"paddle.{name}: elementwise, over torch.{getattr(torch_fn, '__name__', name)}."
    impl.__module__ = __name__
    return op(impl)


_UNARY = {
    "abs": torch.abs, "acos": torch.acos, "acosh": torch.acosh, "asin": torch.asin, "asinh": torch.asinh,
    "atan": torch.atan, "atanh": torch.atanh, "ceil": torch.ceil, "cos": torch.cos, "cosh": torch.cosh,
    "exp": torch.exp, "expm1": torch.expm1, "floor": torch.floor, "log": torch.log, "log10": torch.log10,
    "log1p": torch.log1p, "log2": torch.log2, "reciprocal": torch.reciprocal, "rsqrt": torch.rsqrt,
    "sigmoid": torch.sigmoid, "sin": torch.sin, "sinh": torch.sinh, "sqrt": torch.sqrt,
    "square": torch.square, "tan": torch.tan, "tanh": torch.tanh, "trunc": torch.trunc, "frac": torch.frac,
    "neg": torch.neg, "negative": torch.neg, "positive": torch.positive, "erf": torch.erf,
    "erfinv": torch.erfinv, "lgamma": torch.lgamma, "gammaln": torch.lgamma, "digamma": torch.digamma,
    "i0": torch.i0, "i0e": torch.special.i0e, "i1": torch.special.i1, "i1e": torch.special.i1e,
    "angle": torch.angle, "conj": torch.conj_physical, "deg2rad": torch.deg2rad, "rad2deg": torch.rad2deg,
    "sgn": torch.sgn, "signbit": torch.signbit, "isfinite": torch.isfinite, "isinf": torch.isinf,
    "isnan": torch.isnan, "isneginf": torch.isneginf, "isposinf": torch.isposinf, "isreal": torch.isreal,
    "exp2": torch.exp2, "fix": torch.trunc, "sinc": torch.sinc,
}
for _name, _fn in _UNARY.items():
    globals()[_name] = _unary(_name, _fn)


@op
def sign(x: TensorLike, name=None):
    return torch.sgn(x) if x.is_complex() else torch.sign(x)


@op
def round(x: TensorLike, decimals=0, name=None, *, out=None):
    return torch.round(x, decimals=decimals)


@op
def logit(x: TensorLike, eps=None, name=None):
    return torch.logit(x, eps)


@op
def nan_to_num(x: TensorLike, nan=0.0, posinf=None, neginf=None, name=None):
    return torch.nan_to_num(x, nan, posinf, neginf)


@op
def polygamma(x: TensorLike, n, name=None):
    return torch.polygamma(n, x)


@op
def multigammaln(x: TensorLike, p, name=None):
    return torch.special.multigammaln(x, p)


@op(binary=("x", "y"))
def gammainc(x, y, name=None):
    return torch.special.gammainc(x, y)


@op(binary=("x", "y"))
def gammaincc(x, y, name=None):
    return torch.special.gammaincc(x, y)


# ------------------------------------------------------------------ reductions


def _int_sum_dtype(x, dtype):
    """Paddle sums bool and int32 (and smaller) to int64, as numpy does."""
    if dtype is None and (x.dtype is torch.bool or (not x.dtype.is_floating_point and not x.dtype.is_complex)):
        return torch.int64
    return dtype


def _dims(axis):
    return () if axis is None else axis


@op
def sum(x: TensorLike, axis: AxisLike = None, dtype: DTypeLike = None, keepdim=False, name=None, *, out=None):
    return torch.sum(x, dim=_dims(axis), keepdim=keepdim, dtype=_int_sum_dtype(x, dtype))


@op
def nansum(x: TensorLike, axis: AxisLike = None, dtype: DTypeLike = None, keepdim=False, name=None):
    return torch.nansum(x, dim=_dims(axis), keepdim=keepdim, dtype=_int_sum_dtype(x, dtype))


@op
def prod(x: TensorLike, axis: AxisLike = None, keepdim=False, dtype: DTypeLike = None, name=None):
    if axis is None or axis == ():
        r = torch.prod(x, dtype=dtype)
        return r.reshape([1] * x.dim()) if keepdim else r
    if isinstance(axis, int):
        return torch.prod(x, axis, keepdim=keepdim, dtype=dtype)
    r = x if dtype is None else x.to(dtype)
    for a in sorted((a % x.dim() for a in axis), reverse=True):
        r = torch.prod(r, a, keepdim=keepdim)
    return r


def _scan_input(x, axis, dtype):
    if dtype is not None:
        x = x.to(dtype)
    if axis is None:
        return x.reshape(-1), 0
    return x, axis


@op
def cumsum(x: TensorLike, axis=None, dtype: DTypeLike = None, name=None):
    x, axis = _scan_input(x, axis, dtype)
    return torch.cumsum(x, axis)


@op
def cumprod(x: TensorLike, dim=None, dtype: DTypeLike = None, name=None):
    x, dim = _scan_input(x, dim, dtype)
    return torch.cumprod(x, dim)


@op
def cummax(x: TensorLike, axis=None, dtype: DTypeLike = "int64", name=None):
    x, axis = _scan_input(x, axis, None)
    v, i = torch.cummax(x, axis)
    return v, i.to(dtype)


@op
def cummin(x: TensorLike, axis=None, dtype: DTypeLike = "int64", name=None):
    x, axis = _scan_input(x, axis, None)
    v, i = torch.cummin(x, axis)
    return v, i.to(dtype)


@op
def logcumsumexp(x: TensorLike, axis=None, dtype: DTypeLike = None, name=None):
    x, axis = _scan_input(x, axis, dtype)
    return torch.logcumsumexp(x, axis)


@op
def logsumexp(x: TensorLike, axis: AxisLike = None, keepdim=False, name=None):
    return torch.logsumexp(x, dim=_all_dims(x, axis), keepdim=keepdim)


def _all_dims(x, axis):
    if axis is None or axis == () or axis == []:
        return tuple(range(x.dim()))
    return axis


@op
def max(x: TensorLike, axis: AxisLike = None, keepdim=False, name=None):
    return torch.amax(x, dim=_dims(axis), keepdim=keepdim)


@op
def min(x: TensorLike, axis: AxisLike = None, keepdim=False, name=None):
    return torch.amin(x, dim=_dims(axis), keepdim=keepdim)


amax, amin = max, min


@op
def count_nonzero(x: TensorLike, axis: AxisLike = None, keepdim=False, name=None):
    r = torch.count_nonzero(x, dim=axis)
    if keepdim:
        for a in sorted(a % x.dim() for a in ((axis,) if isinstance(axis, int) else axis or range(x.dim()))):
            r = r.unsqueeze(a)
    return r


@op
def all(x: TensorLike, axis: AxisLike = None, keepdim=False, name=None, *, out=None):
    return torch.all(x, dim=_dims(axis), keepdim=keepdim)


@op
def any(x: TensorLike, axis: AxisLike = None, keepdim=False, name=None, *, out=None):
    return torch.any(x, dim=_dims(axis), keepdim=keepdim)


# ------------------------------------------------------------------ misc


@op
def scale(x: TensorLike, scale: ScalarOrTensor = 1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    r = x * scale + bias if bias_after_scale else (x + bias) * scale
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        r = r.to(x.dtype)
    return r


@op
def clip(x: TensorLike, min: ScalarOrTensor = None, max: ScalarOrTensor = None, name=None):
    return torch.clamp(x, min, max)


clamp = clip


@op
def lerp(x: TensorLike, y: TensorLike, weight: ScalarOrTensor, name=None):
    return torch.lerp(x, y, weight)


@op
def stanh(x: TensorLike, scale_a=0.67, scale_b=1.7159, name=None):
    return scale_b * torch.tanh(scale_a * x)


@op
def addmm(input: TensorLike, x: TensorLike, y: TensorLike, beta=1.0, alpha=1.0, name=None):
    return torch.addmm(input, x, y, beta=beta, alpha=alpha)


@op
def baddbmm(input: TensorLike, x: TensorLike, y: TensorLike, beta=1.0, alpha=1.0, name=None):
    return torch.baddbmm(input, x, y, beta=beta, alpha=alpha)


@op
def inner(x: TensorLike, y: TensorLike, name=None):
    return torch.inner(x, y)


@op
def outer(x: TensorLike, y: TensorLike, name=None):
    return torch.outer(x.reshape(-1), y.reshape(-1))


@op
def kron(x: TensorLike, y: TensorLike, name=None):
    return torch.kron(x, y)


@op
def trace(x: TensorLike, offset=0, axis1=0, axis2=1, name=None):
    return torch.diagonal(x, offset, axis1, axis2).sum(-1)


@op
def diagonal(x: TensorLike, offset=0, axis1=0, axis2=1, name=None):
    return torch.diagonal(x, offset, axis1, axis2)


@op
def matmul(x: TensorLike, y: TensorLike, transpose_x=False, transpose_y=False, name=None, *, out=None):
    if transpose_x:
        x = x.transpose(-2, -1) if x.dim() > 1 else x
    if transpose_y:
        y = y.transpose(-2, -1) if y.dim() > 1 else y
    return torch.matmul(x, y)


@op
def mm(input: TensorLike, mat2: TensorLike, name=None):
    return torch.matmul(input, mat2)


@op
def bmm(x: TensorLike, y: TensorLike, name=None):
    return torch.bmm(x, y)


@op
def mv(x: TensorLike, vec: TensorLike, name=None):
    return torch.mv(x, vec)


@op
def dot(x: TensorLike, y: TensorLike, name=None):
    return (x * y).sum(-1)


@op
def increment(x: TensorLike, value=1.0, name=None):
    with torch.no_grad():
        x.add_(value)
    return x


@op
def add_n(inputs: TensorSequence, name=None):
    r = inputs[0]
    for t in inputs[1:]:
        r = r + t
    return r


@op
def diff(x: TensorLike, n=1, axis=-1, prepend: TensorLike = None, append: TensorLike = None, name=None):
    return torch.diff(x, n, axis, prepend, append)


@op
def cross(x: TensorLike, y: TensorLike, axis=9, name=None):
    if axis == 9:  # Paddle's "first axis of size 3"
        axis = next(i for i, s in enumerate(x.shape) if s == 3)
    return torch.linalg.cross(x, y, dim=axis)


@op
def renorm(x: TensorLike, p, axis, max_norm):
    return torch.renorm(x, p, axis, max_norm)


@op
def isclose(x: TensorLike, y: TensorLike, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    return torch.isclose(x, y, rtol, atol, equal_nan)


@op
def allclose(x: TensorLike, y: TensorLike, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    return torch.tensor(torch.allclose(x, y, rtol, atol, equal_nan))


@op
def vander(x: TensorLike, n=None, increasing=False, name=None):
    return torch.linalg.vander(x, N=n) if increasing else torch.linalg.vander(x, N=n).flip(-1)


@op
def cartesian_prod(x: TensorSequence, name=None):
    return torch.cartesian_prod(*x)


@op
def combinations(x: TensorLike, r=2, with_replacement=False, name=None):
    return torch.combinations(x, r, with_replacement)


@op
def multiplex(inputs: TensorSequence, index: TensorLike, name=None):
    stacked = torch.stack(inputs)
    rows = torch.arange(index.shape[0], device=index.device)
    return stacked[index.reshape(-1).long(), rows]


@op
def trapezoid(y: TensorLike, x: TensorLike = None, dx=None, axis=-1, name=None):
    if x is not None:
        return torch.trapezoid(y, x, dim=axis)
    return torch.trapezoid(y, dx=1.0 if dx is None else dx, dim=axis)


@op
def cumulative_trapezoid(y: TensorLike, x: TensorLike = None, dx=None, axis=-1, name=None):
    if x is not None:
        return torch.cumulative_trapezoid(y, x, dim=axis)
    return torch.cumulative_trapezoid(y, dx=1.0 if dx is None else dx, dim=axis)


@op
def reduce_as(x: TensorLike, target: TensorLike, name=None):
    lead = x.dim() - target.dim()
    dims = list(range(lead)) + [lead + i for i, s in enumerate(target.shape) if s == 1 and x.shape[lead + i] != 1]
    return x.sum(dim=dims).reshape(target.shape) if dims else x


@op
def log_normal(mean=1.0, std=2.0, shape=None, dtype: DTypeLike = None, name=None):
    return torch.empty(shape, dtype=dtype or _dtypes.default_float_torch()).log_normal_(mean, std)
