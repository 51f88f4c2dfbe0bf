"""Moving tensors between Paddle code and torch code, without copies.

    from paddle_on_torch.interop import to_torch, from_torch

    t = to_torch(x)        # the torch.Tensor behind a paddle Tensor: same storage, same autograd graph
    x = from_torch(t)      # a paddle Tensor over a torch tensor: same storage, same autograd graph

Gradients flow across both ways (a loss computed in torch from `to_torch(x)` backpropagates into
`x.grad`).  The DLPack route (`paddle.from_dlpack`, `torch.from_dlpack(x)`) also shares memory but,
as in Paddle, detaches from autograd.  `paddle.to_tensor(t)` copies, as it does for any data.
This module is paddle_on_torch's own, not part of Paddle's API.
"""
import torch

from ._normalize import wrap
from .tensor.tensor import Tensor

__all__ = ["to_torch", "from_torch"]


def to_torch(x):
    if not isinstance(x, Tensor):
        raise TypeError(f"to_torch expects a paddle Tensor, got {type(x).__name__}")
    return x._t


def from_torch(t):
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"from_torch expects a torch.Tensor, got {type(t).__name__}")
    return wrap(t)
