"""paddle.utils.dlpack: zero-copy exchange with any DLPack producer or consumer (torch, numpy, ...).

`from_dlpack` accepts a DLPack capsule or any object with `__dlpack__` (a torch tensor, a numpy
array, a CuPy/JAX array) and shares its memory; `to_dlpack` hands out a capsule over a Tensor's
memory.  Gradients do not cross: the result has stop_gradient=True.
"""
import torch

from .._normalize import is_tensor, wrap

__all__ = ["to_dlpack", "from_dlpack"]


def to_dlpack(x):
    if not is_tensor(x):
        raise TypeError(f"The type of 'x' in to_dlpack must be paddle.Tensor, but received {type(x)}.")
    return torch.utils.dlpack.to_dlpack(x._t.detach())


def from_dlpack(dlpack, device=None, copy=None):
    """`device` / `copy` (Paddle 3.3's, the array API's): the result on that device; copy=True a copy, never the
    producer's memory."""
    if is_tensor(dlpack):  # a paddle Tensor is also a DLPack producer
        t = dlpack._t.detach()
    elif not (hasattr(dlpack, "__dlpack__") or type(dlpack).__name__ == "PyCapsule"):
        raise ValueError(f"(InvalidArgument) The type of 'dlpack' in from_dlpack must be PyCapsule object or an object with "
                        f"__dlpack__, but received {type(dlpack)}.")
    else:
        t = torch.from_dlpack(dlpack)
    if device is not None:
        from .._core.place import to_torch_device

        t = t.to(to_torch_device(device))
    return wrap(t.clone() if copy else t)
