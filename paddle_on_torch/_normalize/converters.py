"""The converters behind the markers: one function per kind of Paddle argument (an axis, a shape, a dtype
spelling, a scalar, a place ...), and what the generated wrappers share (aliases, `out=`, spread sizes)."""
import numbers

import numpy as np
import torch

from .._core import dtype as _dtypes
from .markers import (AxisLike, DTypeLike, IntLike, OptionalPlace, OptionalTensor, PlaceLike, ScalarLike,
                      ScalarOrTensor, ShapeArgs, ShapeLike, TensorLike, TensorSequence, ValuesLike)
from .wrapping import rebind, to_torch

Tensor = None  # the paddle Tensor class, set by the package's register_tensor

def _optional_tensor(x):
    return None if x is None else to_torch(x)


def _tensor_arg(x, api, name, pos):
    """TensorLike's converter for what is not a paddle Tensor (the wrappers inline that case): data that
    to_tensor takes becomes a tensor; None and other objects are Paddle's ValueError naming the argument."""
    if x is None or isinstance(x, (str, bytes, dict, set)):
        raise ValueError(f"(InvalidArgument) {api.rsplit('.', 1)[-1]}(): argument '{name}' (position {pos}) must be "
                         f"Tensor, but got {'None' if x is None else type(x).__name__}")
    return to_torch(x)


def _operand(x, api, name, pos):
    """The converter of a binary op's operand that is not a paddle Tensor: a number stays a number."""
    if x is None:
        _tensor_arg(x, api, name, pos)
    return _scalar_or_tensor(x)


def _tensor_sequence(xs):
    if isinstance(xs, Tensor):  # Paddle accepts a stacked Tensor where a list is expected
        return list(xs._t.unbind(0))
    return [v._t if type(v) is Tensor else to_torch(v) for v in xs]


def _scalar_or_tensor(x):
    if isinstance(x, Tensor):
        return x._t
    if isinstance(x, (bool, int, float, complex)):
        return x
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, _SYMBOLIC):  # a size read while tracing (x * x.shape[1]): a number to torch
        return x
    return to_torch(x)


def _axis(axis):
    if axis is None or type(axis) is int:
        return axis
    if isinstance(axis, Tensor):
        axis = axis._t.tolist()
        return axis if isinstance(axis, int) else tuple(axis)
    if isinstance(axis, (list, tuple)):
        for a in axis:
            if type(a) is not int:
                return tuple(int(a) for a in axis)
        return tuple(axis)
    if isinstance(axis, numbers.Integral):
        return int(axis)
    raise TypeError(f"(InvalidType) The type of 'axis' must be int, list or tuple, but received {type(axis).__name__}.")


_SYMBOLIC = (torch.SymInt, torch.SymFloat, torch.SymBool)


def _item_int(t):
    """A one-element tensor's value as an int; while tracing, a size computed at run time stays a SymInt
    (int() of it would bake the trace-time value into the program)."""
    v = t.item()
    return v if isinstance(v, torch.SymInt) else int(v)


def int_arg(v, err=TypeError, api=None):
    """An int from an int or a 1-element tensor (Paddle accepts Tensors for most integer attributes); a float, a
    string or None is Paddle's error for an integer attribute (TypeError for most ops, ValueError for some)."""
    if isinstance(v, torch.Tensor):
        return _item_int(v)
    if isinstance(v, Tensor):
        return _item_int(v._t)
    if isinstance(v, torch.SymInt):  # a size read while tracing stays symbolic (int() would fix it)
        return v
    if isinstance(v, (float, str, bytes)) or v is None:
        kind = "InvalidType" if err is TypeError else "InvalidArgument"
        raise err(f"({kind}) {api + '(): ' if api else ''}an integer argument (an axis, a size, a count) must be int, "
                  f"but got {type(v).__name__}")
    return int(v)


# DTypeLike for a string spelling ('float32', 'bool', 'paddle.int64', 'float'): the torch dtype, memoised, as a
# name always means the same dtype (unlike the Python type `float`, which follows the default dtype)
_DTYPE_BY_NAME = {}


def _dtype_by_name(name):
    t = _dtypes.to_torch_dtype(name)  # (an unknown name raises here and is not remembered)
    _DTYPE_BY_NAME[name] = t
    return t


def _shape(shape):
    t = type(shape)
    if t is list or t is tuple:  # the common case: plain ints, checked without a per-element call
        for v in shape:
            if type(v) is not int and not isinstance(v, torch.SymInt):  # (symbolic sizes stay symbolic)
                break
        else:
            return list(shape)
    if isinstance(shape, Tensor):
        return [v if isinstance(v, torch.SymInt) else int(v) for v in shape._t.reshape(-1).tolist()]
    if isinstance(shape, (list, tuple)):
        for i, v in enumerate(shape):
            if isinstance(v, (float, str)) or v is None:
                raise TypeError(f"(InvalidType) the shape must be a list of int, but got {type(v).__name__} at "
                                f"position {i}: {list(shape)}")
        return [_item_int(v._t) if isinstance(v, Tensor) else v if isinstance(v, torch.SymInt) else int(v)
                for v in shape]
    if isinstance(shape, numbers.Integral):
        return [int(shape)]
    raise TypeError(f"The type of 'shape' must be list, tuple or Tensor, but received {type(shape).__name__}.")


def _scalar(v):
    """The converter behind ScalarLike."""
    if isinstance(v, Tensor):
        v = v._t
    if isinstance(v, torch.Tensor):
        if v.numel() != 1:
            raise ValueError(f"(InvalidArgument) expected a number or a 1-element Tensor, but got a Tensor of "
                             f"shape {list(v.shape)}")
        return v.reshape(-1)[0].item()
    return v.item() if isinstance(v, np.generic) else v


def _values(v):
    """The converter behind ValuesLike."""
    if isinstance(v, (list, tuple)):
        for e in v:
            if type(e) is not int and isinstance(e, Tensor):
                return type(v)(e._t.item() if isinstance(e, Tensor) else e for e in v)
        return v
    return v._t.tolist() if isinstance(v, Tensor) else v


def _int(v, api):
    """The converter behind IntLike."""
    return v if type(v) is int else int_arg(v, TypeError, api.rsplit(".", 1)[-1])


_CONVERTERS = {
    ScalarLike: "_scalar",
    IntLike: "_int",
    PlaceLike: "_place",
    OptionalPlace: "_optional_place",
    TensorLike: "_to_torch",
    OptionalTensor: "_optional_tensor",
    TensorSequence: "_tensor_sequence",
    AxisLike: "_axis",
    DTypeLike: "_to_torch_dtype",
    ShapeLike: "_shape",
    ShapeArgs: "_shape",
    ValuesLike: "_values",
    ScalarOrTensor: "_scalar_or_tensor",
}

# Paddle 3.3 accepts torch's keyword names beside its own.
ALIASES = {"input": "x", "other": "y", "dim": "axis", "keepdims": "keepdim"}
class _MissingType(type):
    def __repr__(cls):
        return "<required>"


# A class, not an instance of a throwaway class: dynamo can rebuild it from an op's defaults.
_MISSING = _MissingType("_MISSING", (), {})


def _write_out(out, r):
    """Paddle's `out=`: the values land in `out`; the function still returns its own result.  Where autograd is
    involved (the result has a history, or `out` requires grad) `out` becomes the op's output as in Paddle: the
    write is recorded (gradients flow from `out` to the inputs, its stop_gradient follows) and the result is
    another wrapper of `out`'s tensor (its stop_gradient is out's)."""
    t, o = r._t, out._t
    tracked = t.grad_fn is not None or o.requires_grad
    if o.shape == t.shape and o.dtype == t.dtype:
        if t.grad_fn is not None and not (o.is_leaf and o.requires_grad):
            o.copy_(t)  # (differentiable: a leaf out that requires grad cannot be written so, and keeps its own)
        else:
            with torch.no_grad():
                o.copy_(t)
        if tracked:
            r._t = o
    else:
        rebind(out, t if t.grad_fn is not None else t.detach())
    return r


def _spread_sizes(api, shape, extra, given, defaults):
    """ShapeArgs when more than one positional argument came: ints are all sizes (`paddle.ones(2, 3)`); after a
    list, the extra ones are the parameters that follow, as Python would bind them (`given`: their values now,
    all defaults unless also passed by keyword; `defaults`: their (name, default))."""
    if isinstance(shape, int) and not isinstance(shape, bool):
        return (list((shape,) + extra),) + given
    fn = api.rsplit(".", 1)[-1]
    if len(extra) > len(given):
        raise TypeError(f"{fn}() takes from 1 to {len(given) + 1} positional arguments but {len(extra) + 1} were "
                        "given")
    for v, (name, default) in zip(given[:len(extra)], defaults):
        if v is not default:
            raise TypeError(f"{fn}() got multiple values for argument '{name}'")
    return (shape,) + extra + given[len(extra):]


