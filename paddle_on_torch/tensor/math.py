"""Elementwise math, reductions of the math family, and matmul.

Elementwise binary ops share Paddle's promotion rule through
`@op(binary=("x", "y"))`; unary ops are one line each over their torch twin,
grouped by which input dtypes Paddle has no kernel for.  In-place variants
(`add_`, `exp_`, ...) are made from the same table by
`paddle_on_torch.tensor.inplace`.
"""
import builtins

import torch

from .._normalize import (AxisLike, DTypeLike, IntLike, ScalarLike, ScalarOrTensor, TensorLike, TensorSequence, int_arg,
                          is_tensor, op, to_torch)
from .._core import dtype as _dtypes
from . import _above

__all__ = [
    # binary elementwise
    "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "mod", "floor_mod", "pow",
    "maximum", "minimum", "fmax", "fmin", "atan2", "heaviside", "hypot", "copysign", "nextafter", "ldexp",
    "gcd", "lcm", "logaddexp", "bitwise_left_shift", "bitwise_right_shift", "true_divide", "div", "mul", "sub",
    # unary elementwise
    "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "exp", "expm1", "floor",
    "log", "log10", "log1p", "log2", "reciprocal", "round", "rsqrt", "sign", "sin", "sinh", "sqrt",
    "square", "tan", "tanh", "trunc", "frac", "neg", "negative", "positive", "erf", "erfinv", "lgamma",
    "digamma", "i0", "i0e", "i1", "i1e", "angle", "conj", "deg2rad", "rad2deg", "logit", "sgn", "signbit",
    "isfinite", "isinf", "isnan", "isneginf", "isposinf", "isreal", "nan_to_num", "frexp",
    "polygamma", "multigammaln", "gammaln", "sinc", "gammainc", "gammaincc",
    # reductions and scans
    "sum", "nansum", "prod", "cumsum", "cumprod", "cummax", "cummin", "logsumexp", "logcumsumexp",
    "max", "min", "amax", "amin", "count_nonzero", "all", "any",
    # misc
    "scale", "clip", "clamp", "lerp", "stanh", "addmm", "inner", "outer", "kron", "trace", "diagonal",
    "matmul", "mm", "bmm", "mv", "dot", "increment", "add_n", "diff", "cross", "renorm",
    "vander", "cartesian_prod", "baddbmm", "multiplex", "trapezoid",
    "cumulative_trapezoid", "combinations", "reduce_as", "take", "inverse", "broadcast_shapes", "sigmoid", "ger",
]

_INTS = frozenset({torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64})
_FLOATS = frozenset({torch.float16, torch.bfloat16, torch.float32, torch.float64})
_COMPLEX = frozenset({torch.complex64, torch.complex128})


def _no_kernel(op_name, t):
    """Paddle's error for a dtype an op has no kernel for (a RuntimeError, as in Paddle)."""
    return RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), "
                        f"{_dtypes.dtype_name(t.dtype)}) of kernel `{op_name}` is not registered.")


def _bad_dtype(op_name, t, allowed):
    return TypeError(f"The data type of input must be one of {allowed}, but got paddle.{_dtypes.dtype_name(t.dtype)} "
                     f"(in {op_name})")


def _to_float(t):
    """Integer / bool tensors become the default float dtype (Paddle's int -> float rule)."""
    return t if t.dtype in _FLOATS or t.dtype in _COMPLEX else t.to(_dtypes.default_float_torch())


def _strict(x, y):
    """Paddle's kernels that take two tensors of one dtype: no 0-D exemption from the promotion rule."""
    if (isinstance(y, torch.Tensor) and x.dtype is not y.dtype
            and not ((x.dtype in _FLOATS and y.dtype in _FLOATS) or x.is_complex() or y.is_complex())):
        raise TypeError("(InvalidType) Type promotion only support calculations between floating-point numbers "
                        "and between complex and real numbers. But got different data type x: "
                        f"{_dtypes.dtype_name(x.dtype)}, y: {_dtypes.dtype_name(y.dtype)}.")


def _tensors_only(api, x, y):
    """Paddle's C++ maximum / minimum / fmax / fmin / nextafter take two Tensors: a Python number is refused."""
    for v, arg, pos in ((x, "x", 0), (y, "y", 1)):
        if isinstance(v, (bool, int, float, complex)):
            raise ValueError(f"(InvalidArgument) {api}(): argument '{arg}' (position {pos}) must be Tensor, but got "
                             f"{type(v).__name__}")


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
def maximum(x, y, name=None, *, out=None):
    _tensors_only("maximum", x, y)
    _strict(x, y)
    return torch.maximum(x, y)


@op(binary=("x", "y"))
def minimum(x, y, name=None, *, out=None):
    _tensors_only("minimum", x, y)
    _strict(x, y)
    return torch.minimum(x, y)


@op(binary=("x", "y"))
def fmax(x, y, name=None, *, out=None):
    _tensors_only("fmax", x, y)
    _strict(x, y)
    return torch.fmax(x, y)


@op(binary=("x", "y"))
def fmin(x, y, name=None, *, out=None):
    _tensors_only("fmin", x, y)
    _strict(x, y)
    return torch.fmin(x, y)


@op(binary=("x", "y"))
def atan2(x, y, name=None, *, out=None):
    _strict(x, y)
    if x.dtype in _INTS and y.dtype in _INTS:  # Paddle computes integer atan2 in float64
        return torch.atan2(x.double(), y.double())
    return torch.atan2(x, y)


@op
def heaviside(x: TensorLike, y: TensorLike, name=None, *, out=None):
    if x.dtype is not y.dtype:
        raise ValueError(f"(InvalidArgument) The type of data we are trying to retrieve "
                         f"({_dtypes.dtype_name(y.dtype)}) does not match the type of data "
                         f"({_dtypes.dtype_name(x.dtype)}) currently contained in the container.")
    return torch.heaviside(x, y)


@op(binary=("x", "y"))
def hypot(x, y, name=None, *, out=None):
    return torch.hypot(_to_float(x), _to_float(y))


@op(binary=("x", "y"))
def copysign(x, y, name=None, *, out=None):
    r = torch.copysign(x, y)
    # Paddle keeps an integer x's dtype against a Python number or another integer tensor
    if (x.dtype in _INTS or x.dtype is torch.bool) and (not isinstance(y, torch.Tensor) or y.dtype in _INTS
                                                          or y.dtype is torch.bool):
        return r.to(x.dtype)
    return r


@op(binary=("x", "y"))
def nextafter(x, y, name=None, *, out=None):
    _tensors_only("nextafter", x, y)
    _strict(x, y)
    if x.dtype not in (torch.float32, torch.float64):
        raise _no_kernel("nextafter", x)
    return torch.nextafter(x, y)


@op
def ldexp(x, y, name=None):
    for arg, v in (("x", x), ("y", y)):  # Paddle's Python check: Tensors only (no number, list or array)
        if not is_tensor(v):
            raise TypeError(f"{arg} must be tensor type, but got {type(v)}")
    x, y = x._t, y._t
    # Paddle's: both cast to float64 when either is, else to the default dtype (a float exponent too), x * 2 ** y
    dt = torch.float64 if torch.float64 in (x.dtype, y.dtype) else _dtypes.default_float_torch()
    x, y = x.to(dt), y.to(dt)
    return x * torch.pow(torch.tensor(2, dtype=dt, device=x.device), y)


@op(binary=("x", "y"))
def gcd(x, y, name=None):
    return torch.gcd(x, y)


@op(binary=("x", "y"))
def lcm(x, y, name=None):
    return torch.lcm(x, y)


@op(binary=("x", "y"))
def logaddexp(x, y, name=None, *, out=None):
    _tensors_only("maximum", x, y)  # Paddle's logaddexp calls maximum first
    _strict(x, y)
    return torch.logaddexp(_to_float(x), _to_float(y))


def _shift_operands(x, y, op_name):
    if x.dtype not in _INTS:
        raise _no_kernel(op_name, x)
    return x, y


@op(binary=("x", "y"))
def bitwise_left_shift(x, y, is_arithmetic=True, name=None, *, out=None):
    x, y = _shift_operands(x, y, "bitwise_left_shift")
    return torch.bitwise_left_shift(x, y)


@op(binary=("x", "y"))
def bitwise_right_shift(x, y, is_arithmetic=True, name=None, *, out=None):
    x, y = _shift_operands(x, y, "bitwise_right_shift")
    if is_arithmetic or x.dtype is torch.uint8:
        return torch.bitwise_right_shift(x, y)
    # logical shift: the bits of x as an unsigned number of the same width
    bits = torch.iinfo(x.dtype).bits
    yt = y if isinstance(y, torch.Tensor) else torch.tensor(y, dtype=x.dtype, device=x.device)
    mask = torch.bitwise_left_shift(torch.ones((), dtype=x.dtype, device=x.device), bits - yt) - 1
    shifted = torch.bitwise_right_shift(x, yt) & torch.where(yt > 0, mask, torch.full_like(mask, -1))
    return torch.where(yt >= bits, torch.zeros_like(shifted), shifted)


mod = floor_mod = remainder
true_divide = div = divide
mul = multiply
sub = subtract

# ------------------------------------------------------------------ unary


def _unary(name, torch_fn, reject=(torch.bool,)):
    """An elementwise op over `torch_fn`; dtypes in `reject` have no Paddle kernel."""
    bad = frozenset(reject)

    def impl(x: TensorLike, name=None, *, out=None):
        if x.dtype in bad:
            raise _no_kernel(impl.__name__, x)
        return torch_fn(x)

    impl.__name__ = impl.__qualname__ = name
    impl.__doc__ = f"paddle.{name}: elementwise, over torch.{getattr(torch_fn, '__name__', name)}."
    impl.__module__ = __name__
    return op(impl)


_BOOL = (torch.bool,)
_BOOL_COMPLEX = (torch.bool, torch.complex64, torch.complex128)
# Integer inputs compute in the default float dtype (torch's rule and Paddle's); bool has no kernel.
_UNARY = {
    "acos": torch.acos, "acosh": torch.acosh, "asin": torch.asin, "asinh": torch.asinh, "atan": torch.atan,
    "atanh": torch.atanh, "cos": torch.cos, "cosh": torch.cosh, "exp": torch.exp, "expm1": torch.expm1,
    "log": torch.log, "log10": torch.log10, "log1p": torch.log1p, "log2": torch.log2,
    "reciprocal": torch.reciprocal, "sigmoid": torch.sigmoid, "sin": torch.sin, "sinh": torch.sinh,
    "sqrt": torch.sqrt, "tan": torch.tan, "tanh": torch.tanh,
    # integer-preserving
    "abs": torch.abs, "conj": torch.conj_physical,
    # predicates
    "isfinite": torch.isfinite, "isinf": torch.isinf, "isnan": torch.isnan,
}
_UNARY_REAL = {  # no complex kernel either
    "rsqrt": torch.rsqrt, "erf": torch.erf, "erfinv": torch.erfinv, "lgamma": torch.lgamma,
    "digamma": torch.digamma, "i0": torch.i0, "i0e": torch.special.i0e, "i1": torch.special.i1,
    "i1e": torch.special.i1e, "ceil": torch.ceil, "floor": torch.floor, "trunc": torch.trunc,
    "signbit": torch.signbit, "isneginf": torch.isneginf, "isposinf": torch.isposinf,
}
for _name, _fn in _UNARY.items():
    globals()[_name] = _unary(_name, _fn)
for _name, _fn in _UNARY_REAL.items():
    globals()[_name] = _unary(_name, _fn, _BOOL_COMPLEX)
gammaln = _unary("gammaln", torch.lgamma, _BOOL_COMPLEX + tuple(_INTS))
isreal = _unary("isreal", torch.isreal, ())


@op
def square(x: TensorLike, name=None, *, out=None):
    if x.dtype is torch.bool:
        raise _no_kernel("square", x)
    return x * x


@op
def neg(x: TensorLike, name=None, *, out=None):
    return x.clone() if x.dtype is torch.bool else torch.neg(x)  # Paddle leaves a bool tensor as it is


@op
def negative(x: TensorLike, name=None, *, out=None):
    if x.dtype is torch.bool:
        raise TypeError("The `-` operator, on a bool tensor is not supported.")
    return torch.neg(x)


@op
def positive(x: TensorLike, name=None):
    if x.dtype is torch.bool:
        raise TypeError("The `+` operator, on a bool tensor is not supported.")
    return x.clone()


@op
def sign(x: TensorLike, name=None):
    if x.dtype is torch.bool:
        raise _no_kernel("sign", x)
    if x.is_complex():
        return torch.sgn(x)
    r = torch.sign(x)
    return torch.where(torch.isnan(x), x, r) if x.dtype in _FLOATS else r  # Paddle keeps NaN


@op
def sgn(x: TensorLike, name=None):
    if x.dtype in _INTS or x.dtype is torch.bool:
        raise _bad_dtype("sgn", x, ["float16", "float32", "float64", "complex64", "complex128"])
    return torch.sgn(x)


@op
def frac(x: TensorLike, name=None, *, out=None):
    if x.dtype is torch.bool or x.dtype in _COMPLEX:
        raise _bad_dtype("frac", x, ["int32", "int64", "float32", "float64", "float16"])
    if x.dtype in _INTS:
        return torch.zeros_like(x)
    return torch.frac(x)


@op
def round(x: TensorLike, decimals=0, name=None, *, out=None):
    if x.dtype is torch.bool:
        raise _no_kernel("round", x)
    if x.dtype in _INTS:
        return x.clone()
    if x.is_complex():
        return torch.complex(torch.round(x.real, decimals=decimals), torch.round(x.imag, decimals=decimals))
    return torch.round(x, decimals=decimals)


@op
def sinc(x: TensorLike, name=None, *, out=None):
    if x.dtype is torch.bool:
        raise _no_kernel("sinc", x)
    if x.dtype in _INTS:
        raise TypeError("(InvalidType) Type promotion only support calculations between floating-point numbers "
                        f"and between complex and real numbers. But got different data type x: "
                        f"{_dtypes.dtype_name(x.dtype)}, y: float32.")
    return torch.sinc(x)


@op
def angle(x: TensorLike, name=None):
    if x.dtype in _INTS or x.dtype is torch.bool:
        raise _no_kernel("angle", x)
    return torch.angle(x)


_DEG = 3.141592653589793 / 180.0


@op
def deg2rad(x: TensorLike, name=None):
    if x.dtype is torch.bool:
        return x.clone()
    return x * _DEG if x.is_complex() else torch.deg2rad(_to_float(x))


@op
def rad2deg(x: TensorLike, name=None):
    if x.dtype is torch.bool:
        return x.clone()
    return x / _DEG if x.is_complex() else torch.rad2deg(_to_float(x))


@op
def logit(x: TensorLike, eps=None, name=None):
    if x.dtype is torch.bool or x.dtype in _COMPLEX:
        raise _no_kernel("logit", x)
    return torch.logit(x, eps)


@op
def nan_to_num(x: TensorLike, nan=0.0, posinf=None, neginf=None, name=None):
    if x.dtype not in _FLOATS:
        raise AssertionError(f"nan_to_num supports float tensors only, got {_dtypes.dtype_name(x.dtype)}")
    return torch.nan_to_num(x, nan, posinf, neginf)


@op
def frexp(x: TensorLike, name=None):
    if x.dtype not in (torch.float32, torch.float64):
        raise _bad_dtype("frexp", x, ["float32", "float64"])
    m, e = torch.frexp(x)
    return m, e.to(x.dtype)  # Paddle's exponent has x's dtype


@op
def polygamma(x: TensorLike, n, name=None):
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"The input of n must be int type, but received: {type(n).__name__}")
    if n < 0:
        raise ValueError(f"The input of n must be greater than or equal to 0. But received n = {n}.")
    return torch.polygamma(n, _to_float(x))


@op
def multigammaln(x: TensorLike, p, name=None):
    if p < 1:
        raise ValueError(f"The p must be greater than or equal to 1, But received p is {p}.")
    return torch.special.multigammaln(x, p)


def _float_only(x, y, op_name):
    for t in (x, y):
        if t.dtype not in _FLOATS:
            raise _no_kernel(op_name, t)


@op
def gammainc(x: TensorLike, y: TensorLike, name=None):
    _float_only(x, y, "gammainc")
    return torch.special.gammainc(x, y)


@op
def gammaincc(x: TensorLike, y: TensorLike, name=None):
    _float_only(x, y, "gammaincc")
    return torch.special.gammaincc(x, y)


# ------------------------------------------------------------------ reductions


def _dims(x, axis):
    """Paddle's reduce axis (None or [] means every axis) as a torch dim tuple; checks range and repeats."""
    if axis is None or axis == ():
        return ()
    nd = x.dim()
    if type(axis) is int:
        if not (-nd <= axis < nd if nd else axis in (0, -1)):
            raise ValueError(f"(InvalidArgument) The reduce dim index {axis} should be in the range "
                             f"[-{builtins.max(nd, 1)}, {builtins.max(nd, 1)}).")
        return axis if nd else ()
    lo = builtins.max(nd, 1)
    for a in axis:
        if not -lo <= a < lo:
            raise ValueError(f"(InvalidArgument) The reduce dim index {a} should be in the range [-{lo}, {lo}).")
    if not nd:
        return ()
    if len(set(a % nd for a in axis)) != len(axis):
        raise ValueError(f"(InvalidArgument) Axis contains duplicate dimensions: {list(axis)}.")
    return axis


def _reduce_dtype_check(x, op_name):
    if x.dtype is torch.bool:
        raise _no_kernel(op_name, x)


def _sum_dtype(x, dtype):
    """Paddle sums bool and int32 to int64; other dtypes keep theirs."""
    if dtype is None and (x.dtype is torch.bool or x.dtype is torch.int32):
        return torch.int64
    if dtype is None and x.dtype in _INTS:
        return x.dtype
    return dtype


@op
def sum(x: TensorLike, axis: AxisLike = None, dtype: DTypeLike = None, keepdim=False, name=None, *, out=None):
    if dtype is None and x.is_floating_point():
        if axis is None and not keepdim:
            return torch.sum(x)  # the common full reduction (a loss), without keyword parsing
        if type(axis) is int and x.dim():
            try:
                return torch.sum(x, axis, keepdim)  # one axis, positionally
            except IndexError:
                pass  # out of range: Paddle's error from _dims below
    return torch.sum(x, dim=_dims(x, axis), keepdim=keepdim, dtype=_sum_dtype(x, dtype))


@op
def nansum(x: TensorLike, axis: AxisLike = None, dtype: DTypeLike = None, keepdim=False, name=None):
    _reduce_dtype_check(x, "nansum")
    if x.dtype in _INTS:
        return torch.sum(x, dim=_dims(x, axis), keepdim=keepdim, dtype=_sum_dtype(x, dtype))
    return torch.nansum(x, dim=_dims(x, axis), keepdim=keepdim, dtype=dtype)


@op
def prod(x: TensorLike, axis: AxisLike = None, keepdim=False, dtype: DTypeLike = None, name=None):
    _reduce_dtype_check(x, "prod")
    axis = _dims(x, axis)
    if dtype is None and x.dtype in _INTS:
        dtype = x.dtype  # torch would widen to int64; Paddle keeps the input's dtype
    if axis == ():
        r = torch.prod(x, dtype=dtype)
        return r.reshape([1] * x.dim()) if keepdim else r
    if isinstance(axis, int):
        return torch.prod(x, axis, keepdim=keepdim, dtype=dtype)
    r = x if dtype is None else x.to(dtype)
    for a in sorted((a % x.dim() for a in axis), reverse=True):
        r = torch.prod(r, a, keepdim=keepdim)
    return r


def _scan_input(x, axis, dtype, op_name, err=IndexError):
    if x.dtype is torch.bool:
        raise _no_kernel(op_name, x)
    if dtype is not None:
        x = x.to(dtype)
    if axis is None:
        return x.reshape(-1), 0
    axis = int_arg(axis, api=op_name) if err is ValueError else int(axis)  # (Paddle's cumsum reads 1.5 as 1)
    if x.dim() == 0 and axis not in (0, -1):
        raise ValueError(f"(InvalidArgument) The axis must be -1 or 0 in 0D Tensor, but the value given is {axis}.")
    nd = builtins.max(x.dim(), 1)
    if not -nd <= axis < nd:
        tag = "OutOfRange" if err is IndexError else "InvalidArgument"
        raise err(f"({tag}) axis is out of range (expected to be in range of [-{nd}, {nd}), but got {axis}).")
    return x, axis


@op
def cumsum(x: TensorLike, axis=None, dtype: DTypeLike = None, name=None):
    x, axis = _scan_input(x, axis, dtype, "cumsum")
    return torch.cumsum(x, axis)


@op
def cumprod(x: TensorLike, dim=None, dtype: DTypeLike = None, name=None):
    x, dim = _scan_input(x, dim, dtype, "cumprod", ValueError)
    return torch.cumprod(x, dim, dtype=x.dtype)  # ints keep their dtype


def _cum_extreme(fn, x, axis, dtype, op_name):
    if dtype not in (torch.int32, torch.int64):
        raise ValueError("(InvalidArgument) dtype of indices must be DataType::INT32 or DataType::INT64")
    x, axis = _scan_input(x, axis, None, op_name)
    v, i = fn(x, axis)
    return v, i.to(dtype)


@op
def cummax(x: TensorLike, axis=None, dtype: DTypeLike = "int64", name=None):
    return _cum_extreme(torch.cummax, x, axis, dtype, "cummax")


@op
def cummin(x: TensorLike, axis=None, dtype: DTypeLike = "int64", name=None):
    return _cum_extreme(torch.cummin, x, axis, dtype, "cummin")


@op
def logcumsumexp(x: TensorLike, axis=None, dtype: DTypeLike = None, name=None):
    x, axis = _scan_input(x, axis, dtype, "logcumsumexp")
    return torch.logcumsumexp(_to_float(x), axis)


@op
def logsumexp(x: TensorLike, axis: AxisLike = None, keepdim=False, name=None):
    _reduce_dtype_check(x, "logsumexp")
    axis = _dims(x, axis)
    return torch.logsumexp(_to_float(x), dim=axis if axis != () else tuple(range(x.dim())), keepdim=keepdim)


@op
def max(x: TensorLike, axis: AxisLike = None, keepdim=False, name=None, *, out=None):
    _reduce_dtype_check(x, "max")
    return torch.amax(x, dim=_dims(x, axis), keepdim=keepdim)


@op
def min(x: TensorLike, axis: AxisLike = None, keepdim=False, name=None, *, out=None):
    _reduce_dtype_check(x, "min")
    return torch.amin(x, dim=_dims(x, axis), keepdim=keepdim)


@op
def amax(x: TensorLike, axis: AxisLike = None, keepdim=False, name=None):
    _reduce_dtype_check(x, "amax")
    return torch.amax(x, dim=_dims(x, axis), keepdim=keepdim)


@op
def amin(x: TensorLike, axis: AxisLike = None, keepdim=False, name=None):
    _reduce_dtype_check(x, "amin")
    return torch.amin(x, dim=_dims(x, axis), keepdim=keepdim)


@op
def count_nonzero(x: TensorLike, axis: AxisLike = None, keepdim=False, name=None):
    axis = _dims(x, axis)
    if axis == ():
        axis = tuple(range(x.dim()))
    r = torch.count_nonzero(x, dim=axis)
    if keepdim:
        for a in sorted(a % x.dim() for a in ((axis,) if isinstance(axis, int) else axis)):
            r = r.unsqueeze(a)
    return r


@op
def all(x: TensorLike, axis: AxisLike = None, keepdim=False, name=None, *, out=None):
    axis = _dims(x, axis)
    if axis == ():
        r = torch.all(x)
        return r.reshape([1] * x.dim()) if keepdim else r
    return torch.all(x, dim=axis, keepdim=keepdim)


@op
def any(x: TensorLike, axis: AxisLike = None, keepdim=False, name=None, *, out=None):
    axis = _dims(x, axis)
    if axis == ():
        r = torch.any(x)
        return r.reshape([1] * x.dim()) if keepdim else r
    return torch.any(x, dim=axis, keepdim=keepdim)


# ------------------------------------------------------------------ misc


@op
def scale(x: TensorLike, scale: ScalarOrTensor = 1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    if x.dtype in _INTS:  # Paddle's integer kernel takes scale and bias as integers
        scale = int(scale.item()) if isinstance(scale, torch.Tensor) else int(scale)
        bias = int(bias)
    r = x * scale + bias if bias_after_scale else (x + bias) * scale
    return r.to(x.dtype) if r.dtype is not x.dtype else r


@op
def clip(x: TensorLike, min: ScalarOrTensor = None, max: ScalarOrTensor = None, name=None):
    if isinstance(min, torch.Tensor) or isinstance(max, torch.Tensor):
        return _clip_by_tensors(x, min, max)
    if type(min) is float or type(max) is float:
        if min is not None and max is not None and min > max:
            raise ValueError("(InvalidArgument) max should be greater than or equal to min. But received "
                             f"min = {min:f}, max = {max:f}")
        if x.dtype in _INTS:  # Paddle computes an integer tensor with float bounds in float32
            x = x.to(_dtypes.default_float_torch())
    elif type(min) is int and type(max) is int and min > max:
        raise ValueError("(InvalidArgument) max should be greater than or equal to min. But received "
                         f"min = {min:f}, max = {max:f}")
    if min is None and max is None:
        return x.clone()
    return torch.clamp(x, min, max)


def _clip_by_tensors(x, lo, hi):
    """clip with a bound given as a Tensor: Paddle reads it as a number (its one element, no gradient to it; an
    integer x meeting a float bound is computed in float32); kept a tensor here so static Programs record it."""
    bounds = []
    for b in (lo, hi):
        if isinstance(b, torch.Tensor):
            if b.numel() != 1:
                raise ValueError("(InvalidArgument) The Scalar only supports Tensor with 1 element, but now Tensor has "
                                 f"`{b.numel()}` elements")
            b = b.detach().reshape(())
        bounds.append(b)
    if x.dtype in _INTS and builtins.any(isinstance(b, float) or isinstance(b, torch.Tensor) and b.is_floating_point()
                                         for b in bounds):
        x = x.to(torch.float32)
    lo, hi = [None if b is None else b.to(x.dtype) if isinstance(b, torch.Tensor)
              else torch.tensor(b, dtype=x.dtype, device=x.device) for b in bounds]
    return torch.clamp(x, lo, hi)


clamp = clip


@op
def lerp(x: TensorLike, y: TensorLike, weight: ScalarOrTensor, name=None):
    return torch.lerp(x, y, weight)


@op
def stanh(x: TensorLike, scale_a: ScalarLike = 0.67, scale_b: ScalarLike = 1.7159, name=None):
    return scale_b * torch.tanh(scale_a * x)


@op
def addmm(input: TensorLike, x: TensorLike, y: TensorLike, beta: ScalarLike = 1.0, alpha: ScalarLike = 1.0, name=None):
    return torch.addmm(input, x, y, beta=beta, alpha=alpha)


def _size(t):
    return f"paddle.Size({list(t.shape)})"


def _baddbmm_input(input, x, y):
    """Paddle's shape rules for baddbmm, in its words: x and y are batches of matrices; input is 3-D (each dimension
    equal to the result's or 1) or 2-D [batch, n] (one row per batch, broadcast down the m rows of its matrix)."""
    if not x.dim() == y.dim() == 3:
        raise ValueError(f"The dimension of x, y should be 3 but receive x's shape: {_size(x)}, y's shape: {_size(y)}")
    if x.shape[2] != y.shape[1]:
        raise ValueError("The input Variable x's width must be equal with Variable y's height. But received "
                         f"x's shape = {_size(x)}, y's shape = {_size(y)}.")
    want = (x.shape[0], x.shape[1], y.shape[2])
    if input.dim() == 2:
        if input.shape[0] != want[0]:
            raise ValueError("The batch size of input must be equal to the batch size of x. But received input's "
                             f"batch size = {input.shape[0]}, x's batch size = {want[0]}")
        if input.shape[1] not in (want[2], 1):
            raise ValueError(f"The input's shape: {_size(input)} is not broadcastable with [x.shape[0], x.shape[1], "
                             f"y.shape[2]]: [{want[0]},{want[1]},{want[2]}]")
        return input.unsqueeze(1)
    if input.dim() != 3:
        raise ValueError(f"The dimension of input should be 3 or 2 but received input's shape: {_size(input)}")
    fits = [input.shape[d] in (want[d], 1) for d in range(3)]
    for d, (of, owner) in enumerate(((want[0], "x"), (want[1], "x"), (want[2], "y"))):
        if input.shape[d] == of:
            continue
        if input.shape[d] != 1:
            raise ValueError(f"If input's dimension[{d}] is not equal to {owner}'s dimension[{d}], input's "
                             f"dimension[{d}] must be 1. But received input's dimension[{d}] = {input.shape[d]}, "
                             f"{owner}'s dimension[{d}] = {of}")
        if d < 2 and not (fits[1 - d] and fits[2]):  # a 1 here: the other two must fit as well, Paddle says
            other = ("dimension[1]", "x's dimension[1]") if d == 0 else ("dimension[0]", "x's dimension[0]")
            raise ValueError(f"If input's dimension[{d}] is 1, input's {other[0]} and dimension[2] must be equal to "
                             f"{other[1]} and y's dimension[2] respectively, or they must be 1. But received input's "
                             f"shape = {_size(input)}, x's shape = {_size(x)}, y's shape = {_size(y)}")
    return input


@op
def baddbmm(input: TensorLike, x: TensorLike, y: TensorLike, beta=1.0, alpha=1.0, name=None):
    return torch.baddbmm(_baddbmm_input(input, x, y), x, y, beta=beta, alpha=alpha)


@op
def inner(x: TensorLike, y: TensorLike, name=None):
    return torch.inner(x, y)


@op
def outer(x: TensorLike, y: TensorLike, name=None):
    _strict(x, y)
    return torch.outer(x.reshape(-1), y.reshape(-1))


@op
def kron(x: TensorLike, y: TensorLike, name=None):
    if x.dtype is not y.dtype:
        raise ValueError(f"(InvalidArgument) kron: x is {_dtypes.dtype_name(x.dtype)} and y is "
                         f"{_dtypes.dtype_name(y.dtype)}; the operands must have one dtype.")
    return torch.kron(x, y)


@op
def trace(x: TensorLike, offset=0, axis1=0, axis2=1, name=None):
    d = torch.diagonal(x, offset, axis1, axis2)
    return d.sum(-1, dtype=x.dtype) if x.dtype in _INTS else d.sum(-1)


@op
def diagonal(x: TensorLike, offset: IntLike = 0, axis1=0, axis2=1, name=None):
    return torch.diagonal(x, offset, axis1, axis2)


def mixed_matmul(fn, x, y, api):
    """`fn(x, y)` for operands of two dtypes, as Paddle's matmul family takes them: a float32 x multiplies an
    int32 / int64 y (bmm: no kernel, NotFound); any other pair is Paddle's ValueError.  Called only after torch
    refused the pair, so same-dtype calls pay nothing."""
    if x.dtype is torch.float32 and y.dtype in (torch.int32, torch.int64):
        if api == "bmm":
            raise RuntimeError(f"(NotFound) The kernel of bmm for a {_dtypes.dtype_name(y.dtype)} y is not "
                               f"registered: bmm takes float32 or float64 operands of one dtype.")
        return fn(x, y.to(x.dtype))
    raise ValueError(f"(InvalidArgument) {api}: x is {_dtypes.dtype_name(x.dtype)} and y is "
                     f"{_dtypes.dtype_name(y.dtype)}; the operands must have one dtype (or be a float32 x and an "
                     f"int32 / int64 y).")


def _matmul(fn, x, y, api):
    if type(x).__name__ == "DTensor" and type(y).__name__ == "DTensor" and fn is torch.matmul:
        out = _above.distributed_ops().local_matmul(x, y)  # batched, on local pieces
        if out is not None:
            return out
    try:
        return fn(x, y)
    except RuntimeError:
        if x.dtype is y.dtype:
            raise
        return mixed_matmul(fn, x, y, api)


@op
def matmul(x: TensorLike, y: TensorLike, transpose_x=False, transpose_y=False, name=None, *, out=None):
    if transpose_x:
        x = x.transpose(-2, -1) if x.dim() > 1 else x
    if transpose_y:
        y = y.transpose(-2, -1) if y.dim() > 1 else y
    return _matmul(torch.matmul, x, y, "matmul")


@op
def mm(input: TensorLike, mat2: TensorLike, name=None):
    return _matmul(torch.matmul, input, mat2, "mm")


@op
def bmm(x: TensorLike, y: TensorLike, name=None):
    return _matmul(torch.bmm, x, y, "bmm")


def matmul_operator(self, other):
    """`x @ y`: Paddle's operator casts y to x's dtype (its function refuses most mixed pairs)."""
    if isinstance(other, type(self)) and other._t.dtype is not self._t.dtype:
        other = other._t.to(self._t.dtype)
    return matmul(self, other)


@op
def mv(x: TensorLike, vec: TensorLike, name=None):
    return torch.mv(x, vec)


@op
def dot(x: TensorLike, y: TensorLike, name=None):
    if x.shape != y.shape or not 1 <= x.dim() <= 2:  # Paddle's ShapeError is a RuntimeError
        raise RuntimeError(f"(PreconditionNotMet) ShapeError: dot takes two 1-D or 2-D tensors of one shape, but "
                           f"received x: {list(x.shape)}, y: {list(y.shape)}")
    return (x * y).sum(-1)


@op
def increment(x: TensorLike, value=1.0, name=None):
    if x.numel() != 1:
        raise ValueError("(InvalidArgument) The number of elements in Input(X) should be 1."
                         f"Now the number is {x.numel()}.")
    with torch.no_grad():
        x.add_(int(value) if x.dtype in _INTS else value)
    return x


@op
def add_n(inputs, name=None):
    if is_tensor(inputs):  # a single tensor is its own sum
        return inputs._t
    inputs = [to_torch(t) for t in inputs]
    r = inputs[0]
    for t in inputs[1:]:
        r = r + t
    return r


@op
def diff(x: TensorLike, n=1, axis=-1, prepend: TensorLike = None, append: TensorLike = None, name=None):
    return torch.diff(x, n, axis, prepend, append)


@op
def cross(x: TensorLike, y: TensorLike, axis=9, name=None):
    _strict(x, y)
    if x.shape != y.shape:
        raise ValueError(f"(InvalidArgument) The 'shape' of Input(X) should be equal to the 'shape' of Input(Y). But "
                         f"received Input(X).dimensions = {list(x.shape)}, Input(Y).dimensions = {list(y.shape)}")
    if axis == 9:  # Paddle's "first axis of size 3"
        axis = next((i for i, s in enumerate(x.shape) if s == 3), None)
        if axis is None:
            raise ValueError(f"(InvalidArgument) cross: no axis of size 3 in a tensor of shape {list(x.shape)}")
    if x.dtype is torch.bool:
        raise _no_kernel("cross", x)
    return torch.linalg.cross(x, y, dim=axis)


@op
def renorm(x: TensorLike, p, axis, max_norm: ScalarLike):
    return torch.renorm(x, p, axis, max_norm)


@op
def vander(x: TensorLike, n=None, increasing=False, name=None):
    if n == 0:
        return x.new_empty((x.shape[0], 0))
    return torch.linalg.vander(x, N=n) if increasing else torch.linalg.vander(x, N=n).flip(-1)


@op
def cartesian_prod(x: TensorSequence, name=None):
    return torch.cartesian_prod(*x)


@op
def combinations(x: TensorLike, r=2, with_replacement=False, name=None):
    return torch.combinations(x, r, with_replacement)


@op
def multiplex(inputs: TensorSequence, index: TensorLike, name=None):
    if index.dtype is not torch.int32:
        raise ValueError("(InvalidArgument) The type of data we are trying to retrieve (int32) does not match the "
                         f"type of data ({_dtypes.dtype_name(index.dtype)}) currently contained in the container.")
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
def take(x: TensorLike, index: TensorLike, mode="raise", name=None):
    if index.dtype not in (torch.int32, torch.int64):
        raise TypeError(f"The data type of 'index' must be one of ['int32', 'int64'], but got "
                        f"{_dtypes.dtype_name(index.dtype)}")
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"'mode' in 'take' should be 'raise', 'wrap', 'clip', but received {mode}.")
    flat = x.reshape(-1)
    n = flat.shape[0]
    idx = index.long()
    if mode == "wrap":
        idx = torch.remainder(idx, n)
    elif mode == "clip":
        idx = idx.clamp(0, n - 1)
    elif idx.numel() and (bool((idx < -n).any()) or bool((idx >= n).any())):
        bad = idx[(idx < -n) | (idx >= n)].reshape(-1)[0].item()
        raise ValueError(f"(InvalidArgument) Variable value (index) of OP(index_select) expected >= -{n} and < {n}, "
                         f"but got {bad}. Please check input value.")
    return flat[idx]


@op
def inverse(x: TensorLike, name=None):
    if x.dtype not in (torch.float32, torch.float64, torch.complex64, torch.complex128):
        raise _no_kernel("inverse", x)
    if x.dim() < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError("(InvalidArgument) The last two dimensions are expected to be equal. But received: "
                         f"{list(x.shape[-2:])}; Input(Input)'s shape = {list(x.shape)}.")
    r, info = torch.linalg.inv_ex(x)
    if bool((info != 0).any()):
        raise ValueError("(InvalidArgument) Input is not invertible.")
    return r


def broadcast_shapes(*shapes):
    """The shape all `shapes` broadcast to (a list of ints); ValueError if they do not."""
    out = []
    for s in shapes:
        s = list(s)
        if len(s) > len(out):
            out = [1] * (len(s) - len(out)) + out
        for i, d in enumerate(s, len(out) - len(s)):
            if out[i] == 1 or out[i] == d:
                out[i] = d
            elif d != 1:
                raise ValueError("(InvalidArgument) Broadcast dimension mismatch. Operands could not be broadcast "
                                 f"together with the shape of X = {out} and the shape of Y = {s}.")
    return out


ger = outer  # torch-style alias
