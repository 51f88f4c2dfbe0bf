"""paddle.special: the special functions Paddle 3.3.1 lists there.

`expm1` and `logsumexp` are the paddle.* functions; `softmax` is the torch-style one
(`input`, `dim`, implicit dim when None).
"""
import torch

from . import _report
from ._normalize import DTypeLike, TensorLike, op
from ._core import dtype as _dtypes
from .tensor.math import expm1, logsumexp

__all__ = ["expm1", "logsumexp", "softmax"]


@op
def softmax(input: TensorLike, dim=None, dtype: DTypeLike = None, *, out=None):
    if dtype is not None:
        input = input.to(dtype)
    if input.dtype not in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), "
                           f"{_dtypes.dtype_name(input.dtype)}) of kernel `softmax` is not registered.")
    if dim is None:  # torch's legacy implicit dim, which Paddle follows here
        dim = 0 if input.dim() in (0, 1, 3) else 1
    return torch.softmax(input, dim)


__getattr__ = _report.module_getattr("paddle.special")
