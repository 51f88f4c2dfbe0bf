"""paddle.special: the special functions Paddle 3.3.1 lists there.

`expm1` and `logsumexp` are the paddle.* functions; `softmax` is the torch-style one
(`input`, `dim`, implicit dim when None).
"""
import functools

import torch

from . import _report
from ._normalize import DTypeLike, TensorLike, op
from ._core import dtype as _dtypes
from .tensor.math import expm1, logsumexp

__all__ = ["expm1", "logsumexp", "softmax"]


def _refuse_paddle_keywords(fn):
    """Paddle's TypeError for its own keywords (x, axis, name) in the torch-style softmax, which is
    paddle.compat.nn.functional.softmax in Paddle (compat's forbid_keywords; the compat package imports nn, which
    imports this module)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        found = sorted(k for k in ("x", "axis", "name") if k in kwargs)
        if found:
            raise TypeError(f"paddle.compat.nn.functional.softmax() received unexpected keyword argument"
                            f"{'s' if len(found) > 1 else ''} {', '.join(repr(k) for k in found)}. \nDid you mean "
                            f"to use paddle.nn.functional.softmax() instead?")
        return fn(*args, **kwargs)

    return wrapper


@_refuse_paddle_keywords
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
