"""Comparison, logical and bitwise ops (paddle.tensor.logic)."""
import torch

from .._normalize import TensorLike, op

__all__ = [
    "equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal", "less", "greater",
    "equal_all", "logical_and", "logical_or", "logical_xor", "logical_not", "bitwise_and", "bitwise_or",
    "bitwise_xor", "bitwise_not", "bitwise_invert", "is_empty", "is_tensor", "isin", "is_complex",
    "is_floating_point", "is_integer",
]


def _compare(name, torch_fn):
    def impl(x, y, name=None, *, out=None):
        return torch_fn(x, y)

    impl.__name__ = impl.__qualname__ = name
    impl.__module__ = __name__
    impl.__doc__ = f"paddle.{name}: elementwise comparison, a bool Tensor."
    return op(impl, binary=("x", "y"))


equal = _compare("equal", torch.eq)
not_equal = _compare("not_equal", torch.ne)
less_than = less = _compare("less_than", torch.lt)
less_equal = _compare("less_equal", torch.le)
greater_than = greater = _compare("greater_than", torch.gt)
greater_equal = _compare("greater_equal", torch.ge)
logical_and = _compare("logical_and", torch.logical_and)
logical_or = _compare("logical_or", torch.logical_or)
logical_xor = _compare("logical_xor", torch.logical_xor)
bitwise_and = _compare("bitwise_and", torch.bitwise_and)
bitwise_or = _compare("bitwise_or", torch.bitwise_or)
bitwise_xor = _compare("bitwise_xor", torch.bitwise_xor)


@op
def logical_not(x: TensorLike, out=None, name=None):
    return torch.logical_not(x)


@op
def bitwise_not(x: TensorLike, out=None, name=None):
    return torch.bitwise_not(x)


bitwise_invert = bitwise_not


@op
def equal_all(x: TensorLike, y: TensorLike, name=None):
    return torch.tensor(x.shape == y.shape and bool(torch.equal(x, y)))


@op
def is_empty(x: TensorLike, name=None):
    return torch.tensor(x.numel() == 0)


def is_tensor(x):
    from .tensor import Tensor

    return isinstance(x, Tensor)


@op
def isin(x: TensorLike, test_x: TensorLike, assume_unique=False, invert=False, name=None):
    return torch.isin(x, test_x, assume_unique=assume_unique, invert=invert)


def is_complex(x):
    return x._t.is_complex()


def is_floating_point(x):
    return x._t.is_floating_point()


def is_integer(x):
    t = x._t
    return not (t.is_floating_point() or t.is_complex() or t.dtype is torch.bool)
