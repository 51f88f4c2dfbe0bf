"""Comparison, logical and bitwise ops, equal_all / allclose / isclose (paddle.tensor.logic).

Settled against Paddle 3.3.1:
- comparisons and logical ops follow Paddle's binary promotion rule (an int
  tensor and a float tensor, neither 0-D, is a TypeError) and return bool;
- bitwise ops take integer or bool tensors only, and refuse a Python scalar
  operand (ValueError), as Paddle's do;
- allclose / isclose / equal_all do not broadcast: a dtype mismatch is a
  ValueError, a shape mismatch a RuntimeError for allclose / isclose and
  simply False for equal_all.
"""
import numbers

import numpy as np
import torch

from .._normalize import TensorLike, binary_operands, op
from .._normalize.wrapping import static_mode

__all__ = [
    "equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal", "less", "greater",
    "eq", "ne", "lt", "le", "gt", "ge", "equal_all", "allclose", "isclose", "logical_and", "logical_or",
    "logical_xor", "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "bitwise_invert",
    "is_empty", "is_tensor", "isin",
]


def _make(name, torch_fn, doc, out_first=False):
    if out_first:
        def impl(x, y, out=None, name=None):
            return torch_fn(x, y)
    else:
        def impl(x, y, name=None, *, out=None):
            return torch_fn(x, y)

    impl.__name__ = impl.__qualname__ = name
    impl.__module__ = __name__
    impl.__doc__ = f"paddle.{name}: {doc}"
    return op(impl, binary=("x", "y"))


# Comparisons.  A Python scalar operand is accepted (Paddle's functions other than `equal` refuse
# one, but its operators accept one and `x > 2` is routed here).
equal = eq = _make("equal", torch.eq, "elementwise x == y, a bool Tensor.")
not_equal = ne = _make("not_equal", torch.ne, "elementwise x != y, a bool Tensor.")
less_than = less = lt = _make("less_than", torch.lt, "elementwise x < y, a bool Tensor.")
less_equal = le = _make("less_equal", torch.le, "elementwise x <= y, a bool Tensor.")
greater_than = greater = gt = _make("greater_than", torch.gt, "elementwise x > y, a bool Tensor.")
greater_equal = ge = _make("greater_equal", torch.ge, "elementwise x >= y, a bool Tensor.")

logical_and = _make("logical_and", torch.logical_and, "elementwise logical AND (nonzero is True).", True)
logical_or = _make("logical_or", torch.logical_or, "elementwise logical OR (nonzero is True).", True)
logical_xor = _make("logical_xor", torch.logical_xor, "elementwise logical XOR (nonzero is True).", True)


@op
def logical_not(x: TensorLike, out=None, name=None):
    return torch.logical_not(x)


# ----------------------------------------------------------------- bitwise
_BITWISE_OK = (torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64)


def _bitwise_operand(v, api, arg, pos):
    if is_tensor(v):
        return v._t
    if isinstance(v, torch.Tensor):
        return v
    raise ValueError(f"(InvalidArgument) {api}(): argument '{arg}' (position {pos}) must be Tensor, but got "
                     f"{_type_name(v)}")


def _check_bitwise(t, api):
    if t.dtype not in _BITWISE_OK:
        raise RuntimeError(f"(NotFound) The kernel `{api}` for data type {str(t.dtype).replace('torch.', '')} "
                           "is not registered: bitwise ops take bool or integer tensors.")


def _bitwise(name, torch_fn):
    def impl(x, y, out=None, name=None):
        x = _bitwise_operand(x, impl.__name__, "x", 0)
        y = _bitwise_operand(y, impl.__name__, "y", 1)
        x, y = binary_operands(x, y)
        _check_bitwise(x, impl.__name__)
        _check_bitwise(y, impl.__name__)
        return torch_fn(x, y)

    impl.__name__ = impl.__qualname__ = name
    impl.__module__ = __name__
    impl.__doc__ = f"paddle.{name}: elementwise {name.split('_')[1].upper()} of bool or integer tensors."
    return op(impl)


bitwise_and = _bitwise("bitwise_and", torch.bitwise_and)
bitwise_or = _bitwise("bitwise_or", torch.bitwise_or)
bitwise_xor = _bitwise("bitwise_xor", torch.bitwise_xor)


@op
def bitwise_not(x: TensorLike, out=None, name=None):
    _check_bitwise(x, "bitwise_not")
    return torch.bitwise_not(x)


@op
def bitwise_invert(x: TensorLike, out=None, name=None):
    _check_bitwise(x, "bitwise_invert")
    return torch.bitwise_not(x)


# ----------------------------------------------------------------- whole-tensor tests
def _same_dtype(x, y, api):
    if x.dtype is not y.dtype:
        raise ValueError(f"(InvalidArgument) {api}: x and y must have the same data type, but got "
                         f"{str(x.dtype).replace('torch.', '')} and {str(y.dtype).replace('torch.', '')}.")


def _same_shape(x, y):
    """Paddle's shape check of allclose / isclose (no broadcasting), in its words."""
    if x.dim() != y.dim():
        raise RuntimeError("(PreconditionNotMet) Input(Input) and Input(Other) must have the same dimension size.")
    for i, (a, b) in enumerate(zip(x.shape, y.shape)):
        if a != b:
            raise RuntimeError(f"(PreconditionNotMet) The value at dim {i} of Input(Input) is not equal to the "
                               f"Input(Other): {a} != {b}.")


@op
def equal_all(x: TensorLike, y: TensorLike, name=None):
    """True when x and y have the same shape and all elements are equal (a 0-D bool Tensor)."""
    _same_dtype(x, y, "equal_all")
    return torch.tensor(x.shape == y.shape and bool(torch.equal(x, y)), device=x.device)


def _tolerance(v, api, pos):
    """(value, Paddle's dtype name of it) for rtol / atol: a Python or numpy number, or a 1-element Tensor (kept a
    tensor, so that static programs record it)."""
    if is_tensor(v) or isinstance(v, torch.Tensor):
        t = v._t if is_tensor(v) else v
        if t.numel() != 1:
            raise ValueError("(InvalidArgument) The Scalar only supports Tensor with 1 element, but now Tensor has "
                             f"`{t.numel()}` elements")
        return t.reshape([]), str(t.dtype).replace("torch.", "")
    if v is None:
        raise TypeError(f"(InvalidType) {api}(): argument (position {pos}) must be int, float, bool or Tensor, "
                        "but got NoneType")
    if isinstance(v, (bool, np.bool_)):
        return float(v), "bool"
    if isinstance(v, (np.integer, np.floating)):
        return float(v), str(v.dtype)
    if isinstance(v, numbers.Integral):
        return float(v), "int64"
    return float(v), "float64"


_ALLCLOSE_STATIC_DTYPES = ['bool', 'int32', 'int64', 'float16', 'float32', 'float64']


def _static_allclose_args(x, y, rtol, atol, equal_nan):
    """The checks Paddle's allclose makes in Python while a static Program is built (TypeErrors)."""
    for v in (x, y):
        if not is_tensor(v):
            raise TypeError("The type of 'input' in allclose must be (<class 'paddle.base.libpaddle.pir.Value'>, "
                            f"<class 'paddle.pir.core.ParameterMeta'>), but received {type(v)}.")
        kind = str(v._t.dtype).replace("torch.", "")
        if kind not in _ALLCLOSE_STATIC_DTYPES:
            raise TypeError(f"The data type of 'input' in allclose must be {_ALLCLOSE_STATIC_DTYPES}, but received "
                            f"{kind}.")
    for which, v in (("rtol", rtol), ("atol", atol)):
        if not isinstance(v, float) and not is_tensor(v):
            raise TypeError(f"Type of input {which} must be float, but received type {type(v)}")
    if not isinstance(equal_nan, bool):
        raise TypeError(f"The type of 'equal_nan' in allclose must be <class 'bool'>, but received "
                        f"{type(equal_nan)}.")


def _type_name(v):
    """A type's name as Paddle's argument parser writes it (numpy.ndarray, float)."""
    t = type(v)
    return t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__name__}"


def _close_args(api, x, y, rtol, atol, equal_nan):
    """allclose / isclose's arguments checked in Paddle's order: the tensors and equal_nan as its argument parser
    does, the shapes, then the tolerances' types (the kernel's check), then y's dtype.  In a static Program
    Paddle's Python checks come first and the kernel's tolerance check is not made (isclose converts them)."""
    static = static_mode()
    if static and api == "allclose":
        _static_allclose_args(x, y, rtol, atol, equal_nan)
    x, y = _bitwise_operand(x, api, "x", 0), _bitwise_operand(y, api, "y", 1)
    rtol, rtol_type = _tolerance(rtol, api, 3)
    atol, atol_type = _tolerance(atol, api, 4)
    if type(equal_nan) is not bool:
        raise TypeError(f"(InvalidType) {api}(): argument (position 5) must be bool, but got {_type_name(equal_nan)}")
    _same_shape(x, y)
    if static:
        pass
    elif api == "allclose":  # its kernel takes float or double tolerances, rtol checked first
        for which, kind in (("Rtol", rtol_type), ("Atol", atol_type)):
            if kind not in ("float32", "float64"):
                raise ValueError(f"(InvalidArgument) Input ({which}) type must be double or float, but get {kind}.")
    else:  # isclose's takes double only, atol checked first
        for which, kind in (("Atol", atol_type), ("Rtol", rtol_type)):
            if kind != "float64":
                raise ValueError(f"(InvalidArgument) Input({which}) type must be double")
    if x.dtype is not y.dtype:
        raise ValueError(f"(InvalidArgument) The type of data we are trying to retrieve "
                         f"({str(x.dtype).replace('torch.', '')}) does not match the type of data "
                         f"({str(y.dtype).replace('torch.', '')}) currently contained in the container.")
    return x, y, rtol, atol


def _close(x, y, rtol, atol, equal_nan):
    """Paddle's elementwise test: |x - y| <= atol + rtol * |y| (the bound formed in double and stored in x's dtype,
    no finiteness test: -inf is close to inf), or x == y, or the two sides within 1e-15; a NaN is close only to a
    NaN, under equal_nan.  Tensor ops only (no host read): static programs and to_static record it."""
    if x.dtype is torch.bool:
        x, y = x.to(torch.int64), y.to(torch.int64)
    if x.is_complex():
        left, right = (x - y).abs(), atol + rtol * y.abs()
    else:
        left = (x - y).abs()
        right = (atol + rtol * y.abs().to(torch.float64)).to(x.dtype)
    close = (x == y) | (left <= right) | ((left - right).abs() <= 1e-15)
    if x.is_floating_point() or x.is_complex():
        nx, ny = torch.isnan(x), torch.isnan(y)
        close = torch.where(nx | ny, (nx & ny) if equal_nan else torch.zeros_like(close), close)
    return close


@op
def allclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    """|x - y| <= atol + rtol * |y| everywhere (a 0-D bool Tensor)."""
    x, y, rtol, atol = _close_args("allclose", x, y, rtol, atol, equal_nan)
    return _close(x, y, rtol, atol, equal_nan).all()


@op
def isclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    """Elementwise |x - y| <= atol + rtol * |y| (a bool Tensor)."""
    x, y, rtol, atol = _close_args("isclose", x, y, rtol, atol, equal_nan)
    return _close(x, y, rtol, atol, equal_nan)


@op
def is_empty(x: TensorLike, name=None):
    return torch.tensor(x.numel() == 0, device=x.device)


def is_tensor(x):
    """True for a paddle Tensor."""
    from .tensor import Tensor

    return isinstance(x, Tensor)


@op
def isin(x: TensorLike, test_x: TensorLike, assume_unique=False, invert=False, name=None):
    return torch.isin(x, test_x, assume_unique=assume_unique, invert=invert)
