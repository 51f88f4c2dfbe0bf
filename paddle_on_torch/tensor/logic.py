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
import torch

from .._normalize import ScalarLike, TensorLike, binary_operands, op

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
                     f"{type(v).__name__}")


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


def _same_shape(x, y, api):
    if x.shape != y.shape:
        # (worded so that the @op wrapper's error translation leaves it a RuntimeError, as Paddle's is)
        raise RuntimeError(f"(PreconditionNotMet) {api}: x and y differ in extent ({list(x.shape)} and "
                           f"{list(y.shape)}); {api} does not broadcast.")


@op
def equal_all(x: TensorLike, y: TensorLike, name=None):
    """True when x and y have the same shape and all elements are equal (a 0-D bool Tensor)."""
    _same_dtype(x, y, "equal_all")
    return torch.tensor(x.shape == y.shape and bool(torch.equal(x, y)), device=x.device)


@op
def allclose(x: TensorLike, y: TensorLike, rtol: ScalarLike = 1e-05, atol: ScalarLike = 1e-08, equal_nan=False,
             name=None):
    """|x - y| <= atol + rtol * |y| everywhere (a 0-D bool Tensor)."""
    _same_dtype(x, y, "allclose")
    _same_shape(x, y, "allclose")
    # one tensor op, not torch.allclose's Python bool: static programs and to_static record it (no host read)
    return torch.isclose(x, y, rtol=float(rtol), atol=float(atol), equal_nan=equal_nan).all()


@op
def isclose(x: TensorLike, y: TensorLike, rtol: ScalarLike = 1e-05, atol: ScalarLike = 1e-08, equal_nan=False,
            name=None):
    """Elementwise |x - y| <= atol + rtol * |y| (a bool Tensor)."""
    _same_dtype(x, y, "isclose")
    _same_shape(x, y, "isclose")
    return torch.isclose(x, y, rtol=float(rtol), atol=float(atol), equal_nan=equal_nan)


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
