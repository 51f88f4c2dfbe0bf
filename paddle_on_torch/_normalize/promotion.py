"""Paddle's type-promotion rule for the two operands of an elementwise op."""
import torch

from .._core import dtype as _dtypes
from .converters import _scalar_or_tensor

Tensor = None  # the paddle Tensor class, set by the package's register_tensor

def _promotable(a, b):
    return (a.is_floating_point and b.is_floating_point) or a.is_complex or b.is_complex


def binary_operands(x, y):
    """Paddle's rule for two tensor operands of an elementwise op.

    torch's promotion agrees with Paddle's except that Paddle refuses to mix
    an integer or bool tensor with a tensor of another dtype when neither is
    0-D (it promotes only between floating-point types, and complex with
    real).  Python scalars follow torch's (and Paddle's) scalar rules.
    """
    if isinstance(x, Tensor):
        x = x._t
    elif not isinstance(x, torch.Tensor):
        x = _scalar_or_tensor(x)
    if isinstance(y, Tensor):
        y = y._t
    elif not isinstance(y, torch.Tensor):
        y = _scalar_or_tensor(y)
    if (isinstance(x, torch.Tensor) and isinstance(y, torch.Tensor) and x.dtype is not y.dtype
            and x.dim() and y.dim() and not _promotable(x.dtype, y.dtype)):
        raise TypeError("(InvalidType) Type promotion only support calculations between floating-point numbers "
                        "and between complex and real numbers. But got different data type x: "
                        f"{_dtypes.dtype_name(x.dtype)}, y: {_dtypes.dtype_name(y.dtype)}.")
    return x, y
