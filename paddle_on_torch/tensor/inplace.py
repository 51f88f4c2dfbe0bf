"""In-place Tensor methods (`x.add_(y)`, `x.exp_()`, ...), made from their out-of-place twins.

Where Paddle's result is what torch's in-place kernel computes (operands of x's dtype, a result of x's
shape, dynamic mode without auto_cast) the method calls that kernel (`torch.Tensor.add_`): no temporary, no
copy, torch's own version counter and autograd.  Otherwise it runs the out-of-place op and writes the result
into the tensor's own storage with `copy_`, so views and autograd see the update; a result of another dtype
(Paddle promotes float32 += float64 to float64, an integer exp_ gives float32) rebinds the tensor.

Paddle's rules kept on both paths: an in-place op on a leaf that needs a gradient is Paddle's ValueError, and
the binary ops refuse a broadcast that would change x's shape (Paddle's ValueError, before anything runs).
"""
import torch

from .. import _normalize
from .._api import paddle_api

# Paddle's in-place binary ops that check `broadcast_shape(x.shape, y.shape) == x.shape` first
_SHAPE_CHECKED = frozenset({
    "add_", "subtract_", "multiply_", "divide_", "floor_divide_", "remainder_", "gcd_", "copysign_",
    "logical_and_", "logical_or_", "logical_xor_", "equal_", "not_equal_", "greater_equal_", "greater_than_",
    "less_equal_", "less_than_", "bitwise_and_", "bitwise_or_", "bitwise_xor_"})
# ... of which the ones that first make a Python number y a tensor of x's dtype (Paddle's copysign_)
_NUMBER_AS_TENSOR = frozenset({"copysign_"})
# In-place ops whose torch kernel gives Paddle's result when every operand has x's (floating) dtype
_TORCH_BINARY = {"add_": torch.Tensor.add_, "subtract_": torch.Tensor.sub_, "multiply_": torch.Tensor.mul_,
                 "divide_": torch.Tensor.div_}
_TORCH_UNARY = {name + "_": getattr(torch.Tensor, name + "_") for name in (
    "exp", "sqrt", "rsqrt", "tanh", "sin", "cos", "log", "reciprocal", "ceil", "floor", "trunc", "sigmoid")}
_FLOATS = frozenset({torch.float32, torch.float64, torch.float16, torch.bfloat16})
# torch tensor types the kernels run on as they are (a DTensor / sparse / static-mode Variable takes the
# general path)
_PLAIN = (torch.Tensor, torch.nn.Parameter)
_plain_mode = _normalize.plain_mode  # neither static mode nor auto_cast on (both act through the wrappers)


def _check(x):
    t = x._t
    if t.requires_grad and t.is_leaf and torch.is_grad_enabled():
        raise ValueError(f"(InvalidArgument) Leaf Tensor ({x.name}) that doesn't stop gradient can't use "
                         "inplace strategy.")


def _check_broadcast(x, y):
    """Paddle's check before a binary in-place op: y (a Tensor: Paddle reads `y.shape`, so a Python number is
    its AttributeError) must broadcast to x's own shape."""
    ys = y._t.shape if isinstance(y, _normalize.Tensor) else y.shape
    xs = x._t.shape
    if ys == xs:
        return
    from .math import broadcast_shapes  # (Paddle's error for shapes that do not broadcast)

    out = broadcast_shapes(xs, ys)
    if out != list(xs):
        raise ValueError(f"The shape of broadcast output {out} is different from that of inplace tensor "
                         f"{x.shape} in the Inplace operation.")


def make_inplace(fn, name):
    def method(x, *args, **kwargs):
        if _normalize.wrapping.static_mode():
            # in a static Program Paddle's in-place op gives a new value and x keeps naming the old one
            return fn(x, *args, **kwargs)
        r = fn(x, *args, **kwargs)._t
        _check(x)
        t = x._t
        if r.shape == t.shape and r.dtype == t.dtype:
            t.copy_(r)
        else:  # shape- or dtype-changing in-place ops (reshape_, cast_, squeeze_) rebind the tensor
            _normalize.rebind(x, r)
        return x

    if name in _TORCH_BINARY:
        method = _binary_kernel(name, method, _TORCH_BINARY[name])
    elif name in _SHAPE_CHECKED:
        method = _shape_checked(method, name in _NUMBER_AS_TENSOR)
    elif name in _TORCH_UNARY:
        method = _unary_kernel(method, _TORCH_UNARY[name])
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"In-place version of paddle.{name[:-1]}: writes into x and returns it."
    return method


def _shape_checked(general, number_as_tensor=False):
    def method(x, y=None, *args, **kwargs):
        if y is None:
            y = kwargs.pop("other", None) if "y" not in kwargs else kwargs.pop("y")
        if number_as_tensor and isinstance(y, (int, float)):
            y = _normalize.wrap(torch.tensor(y, dtype=x._t.dtype, device=x._t.device))
        _check_broadcast(x, y)
        return general(x, y, *args, **kwargs)

    return method


def _binary_kernel(name, general, kernel):
    Tensor, float_only = _normalize.Tensor, name == "divide_"

    def method(x, y=None, *args, **kwargs):
        if y is None:
            y = kwargs.pop("other", None) if "y" not in kwargs else kwargs.pop("y")
        _check_broadcast(x, y)
        if not args and (not kwargs or kwargs.keys() <= {"name"}) and type(y) is Tensor:
            t, u = x._t, y._t
            if (type(t) in _PLAIN and type(u) in _PLAIN and t.dtype is u.dtype and t.device == u.device
                    and (t.dtype in _FLOATS or not float_only) and not t.is_complex() and _plain_mode()):
                _check(x)
                kernel(t, u)
                return x
        return general(x, y, *args, **kwargs)

    return method


def _unary_kernel(general, kernel):
    def method(x, *args, **kwargs):
        t = x._t
        if (not args and (not kwargs or kwargs.keys() <= {"name"}) and type(t) in _PLAIN and t.dtype in _FLOATS
                and _plain_mode()):
            _check(x)
            kernel(t)
            return x
        return general(x, *args, **kwargs)

    return method


def bind(Tensor, package_namespace):
    """The in-place methods whose out-of-place twin is in `package_namespace` (the paddle module's names)."""
    api = paddle_api()
    for name in set(api["tensor_methods"]) | set(api["tensor_attributes"]):
        if not name.endswith("_") or name.startswith("_") or name in Tensor.__dict__:
            continue
        base = package_namespace.get(name[:-1])  # not getattr: a miss here is not the user's
        if callable(base) and not isinstance(base, type):
            setattr(Tensor, name, make_inplace(base, name))
