"""Tensor attributes as functions: shape, rank, real, imag, is_complex, ... (paddle.tensor.attribute)."""
import torch

from .._normalize import TensorLike, is_tensor, op

__all__ = ["shape", "rank", "real", "imag", "is_complex", "is_floating_point", "is_integer"]

_INTEGER = (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.uint16, torch.uint32, torch.uint64)


@op
def shape(input: TensorLike):
    """paddle.shape: the shape as a 1-D int64 Tensor."""
    return torch.tensor(list(input.shape), dtype=torch.int64, device=input.device)


@op
def rank(input: TensorLike):
    """paddle.rank: the number of dimensions as a 0-D int32 Tensor."""
    return torch.tensor(input.dim(), dtype=torch.int32, device=input.device)


def _complex_only(x, api):
    if not x.is_complex():
        raise RuntimeError(f"(NotFound) The kernel `{api}` for data type {str(x.dtype).replace('torch.', '')} is "
                           "not registered: paddle.{api} takes a complex64 or complex128 Tensor.")


@op
def real(x: TensorLike, name=None):
    """paddle.real: the real part of a complex Tensor (a new Tensor, not a view)."""
    _complex_only(x, "real")
    return torch.real(x).clone()


@op
def imag(x: TensorLike, name=None):
    """paddle.imag: the imaginary part of a complex Tensor (a new Tensor, not a view)."""
    _complex_only(x, "imag")
    return torch.imag(x).clone()


def is_complex(x):
    """True when x's dtype is complex64 or complex128."""
    _check_tensor(x, "is_complex")
    return x._t.is_complex()


def is_floating_point(x):
    """True when x's dtype is a floating-point type."""
    _check_tensor(x, "is_floating_point")
    return x._t.is_floating_point()


def is_integer(x):
    """True when x's dtype is an integer type (bool is not)."""
    _check_tensor(x, "is_integer")
    return x._t.dtype in _INTEGER


def _check_tensor(x, api):
    if not is_tensor(x):
        raise TypeError(f"Expected Tensor, but received type of x: {type(x)}")
