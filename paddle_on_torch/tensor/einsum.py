"""paddle.einsum over torch.einsum.

Paddle runs einsum on float/complex kernels only and wants every operand to
have the same dtype; it raises ValueError for mismatched label sizes.
"""
import torch

from .._normalize import to_torch, wrap
from .._core import dtype as _dtypes

__all__ = ["einsum"]

_KERNEL_DTYPES = (torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64, torch.complex128)


def einsum(equation, *operands):
    """paddle.einsum(equation, *operands): Einstein summation over torch.einsum."""
    lhs = equation.replace(" ", "").split("->")[0]
    if len(lhs.split(",")) != len(operands):
        raise AssertionError(f"Invalid equation: the number of operands is {len(operands)}, but found "
                             f"{len(lhs.split(','))} segments in the label equation.")
    ts = [to_torch(o) for o in operands]
    if not ts:
        raise ValueError("At least one operand is expected.")
    for t in ts:
        if t.dtype != ts[0].dtype:
            raise ValueError(f"(InvalidArgument) The type of data we are trying to retrieve "
                             f"({_dtypes.dtype_name(ts[0].dtype)}) does not match the type of data "
                             f"({_dtypes.dtype_name(t.dtype)}) currently contained in the container.")
    if ts[0].dtype not in _KERNEL_DTYPES:
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), "
                           f"{_dtypes.dtype_name(ts[0].dtype)}) of kernel `einsum` is not registered.")
    try:
        return wrap(torch.einsum(equation.replace(" ", ""), *ts))
    except RuntimeError as e:
        raise ValueError(f"(InvalidArgument) {e}") from None
