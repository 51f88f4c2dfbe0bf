"""In-place Tensor methods (`x.add_(y)`, `x.exp_()`, ...), made from their out-of-place twins.

Each runs the out-of-place op and writes the result into the tensor's own
storage with `copy_`, so views and autograd see the update.  Paddle refuses
an in-place op on a leaf that needs a gradient; so does torch, and we give
Paddle's error.
"""
import torch

from .. import _normalize
from .._api import paddle_api


def _check(x):
    t = x._t
    if t.requires_grad and t.is_leaf and torch.is_grad_enabled():
        raise ValueError(f"(InvalidArgument) Leaf Tensor ({x.name}) that doesn't stop gradient can't use "
                         "inplace strategy.")


def make_inplace(fn, name):
    def method(x, *args, **kwargs):
        r = fn(x, *args, **kwargs)._t
        _check(x)
        t = x._t
        if r.shape == t.shape and r.dtype == t.dtype:
            t.copy_(r)
        else:  # shape- or dtype-changing in-place ops (reshape_, cast_, squeeze_) rebind the tensor
            _normalize.rebind(x, r)
        return x

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"In-place version of paddle.{name[:-1]}: writes into x and returns it."
    return method


def bind(Tensor):
    import paddle_on_torch as paddle

    api = paddle_api()
    for name in set(api["tensor_methods"]) | set(api["tensor_attributes"]):
        if not name.endswith("_") or name.startswith("_") or name in Tensor.__dict__:
            continue
        base = vars(paddle).get(name[:-1])  # not getattr: a miss here is not the user's
        if callable(base) and not isinstance(base, type):
            setattr(Tensor, name, make_inplace(base, name))
