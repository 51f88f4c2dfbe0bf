"""Tensor creation: paddle.to_tensor, zeros, ones, full, arange, linspace, eye, ...

Paddle's dtype inference differs from torch's in a few places, settled
against real Paddle: a Python float (or a list holding one) becomes the
default float dtype, a numpy array keeps its dtype (float64 stays float64),
a Python int becomes int64, and `full` / `ones` / `zeros` default to the
default float dtype whatever the fill value.
"""
import numbers

import numpy as np
import torch

from .._normalize import (AxisLike, DTypeLike, OptionalTensor, ShapeLike, TensorLike, TensorSequence, op,
                          wrap)
from ..framework import dtype as _dtypes
from ..framework.place import to_torch_device

__all__ = [
    "to_tensor", "zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like", "empty_like",
    "arange", "range", "linspace", "logspace", "eye", "diag", "diagflat", "diag_embed", "meshgrid", "tril",
    "triu", "tril_indices", "triu_indices", "assign", "clone", "complex", "polar", "create_parameter",
    "from_numpy", "tensor", "as_tensor",
]

_builtin_range = range


def _infer_dtype(data):
    """The torch dtype Paddle gives a Python scalar or (nested) list."""
    if isinstance(data, bool):
        return torch.bool
    if isinstance(data, numbers.Integral):
        return torch.int64
    if isinstance(data, numbers.Real):
        return _dtypes.default_float_torch()
    if isinstance(data, numbers.Complex):
        return torch.complex64 if _dtypes.get_default_dtype() != "float64" else torch.complex128
    return None


def _flat_kind(data):
    """The widest kind in a nested list: bool < int < float < complex."""
    rank = {bool: 0, int: 1, float: 2, complex: 3}
    best = -1
    stack = [data]
    while stack:
        v = stack.pop()
        if isinstance(v, (list, tuple)):
            stack.extend(v)
        elif hasattr(v, "_t"):
            best = max(best, 3 if v._t.is_complex() else 2 if v._t.is_floating_point() else 1)
        elif isinstance(v, np.ndarray):
            best = max(best, 3 if np.iscomplexobj(v) else 2 if v.dtype.kind == "f" else 1)
        else:
            best = max(best, 0 if isinstance(v, (bool, np.bool_)) else 1 if isinstance(v, numbers.Integral)
                       else 2 if isinstance(v, numbers.Real) else 3)
    return best


def _as_torch(data, dtype=None, place=None):
    """Anything `paddle.to_tensor` accepts -> a torch tensor (always a fresh one)."""
    tdtype = _dtypes.to_torch_dtype(dtype)
    device = to_torch_device(place)
    if hasattr(data, "_t"):
        t = data._t.detach().clone()
    elif isinstance(data, torch.Tensor):
        t = data.detach().clone()
    elif isinstance(data, np.ndarray) or isinstance(data, np.generic):
        a = np.asarray(data)
        if a.dtype.kind in "US":
            raise ValueError(f"Unsupported numpy data type {a.dtype} for paddle.to_tensor")
        t = torch.from_numpy(np.array(a, copy=True))
    elif isinstance(data, (list, tuple)):
        if any(hasattr(v, "_t") for v in data):
            t = torch.stack([_as_torch(v) for v in data])
            if tdtype is None and t.dtype.is_floating_point:
                tdtype = t.dtype
        else:
            kind = _flat_kind(data)
            default = {0: torch.bool, 1: torch.int64, 2: _dtypes.default_float_torch(),
                       3: torch.complex64}.get(kind, _dtypes.default_float_torch())
            try:
                t = torch.tensor(data, dtype=tdtype or default)
            except (TypeError, ValueError):
                t = torch.from_numpy(np.array(data)).to(tdtype or default)
    elif isinstance(data, numbers.Number):
        t = torch.tensor(data, dtype=tdtype or _infer_dtype(data))
    else:
        raise TypeError(f"Can't constructs a 'paddle.Tensor' with data type {type(data)}, data type must be "
                        "scalar|list|tuple|np.ndarray|paddle.Tensor")
    if tdtype is not None and t.dtype is not tdtype:
        t = t.to(tdtype)
    if t.device != device:
        t = t.to(device)
    return t


def to_tensor(data, dtype=None, place=None, stop_gradient=True):
    """paddle.to_tensor: a new Tensor holding a copy of `data`."""
    t = _as_torch(data, dtype, place)
    if not stop_gradient:
        if t.dtype.is_floating_point or t.dtype.is_complex:
            t.requires_grad_(True)
        else:
            x = wrap(t)
            x.stop_gradient = False
            return x
    return wrap(t)


def tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """paddle.tensor (Paddle 3.3's torch-style constructor)."""
    return to_tensor(data, dtype, device, stop_gradient=not requires_grad)


def as_tensor(data, dtype=None, device=None):
    if hasattr(data, "_t") and dtype is None and device is None:
        return data
    return to_tensor(data, dtype, device)


def from_numpy(ndarray):
    """Shares memory with the numpy array, as torch.from_numpy does."""
    return wrap(torch.from_numpy(ndarray))


def _factory_kwargs(dtype, device, requires_grad=False):
    return {"dtype": dtype if dtype is not None else _dtypes.default_float_torch(),
            "device": to_torch_device(device), "requires_grad": requires_grad}


@op
def zeros(shape: ShapeLike, dtype: DTypeLike = None, name=None, *, out=None, device=None, requires_grad=False,
          pin_memory=False):
    return torch.zeros(shape, **_factory_kwargs(dtype, device, requires_grad))


@op
def ones(shape: ShapeLike, dtype: DTypeLike = None, name=None, *, out=None, device=None, requires_grad=False,
         pin_memory=False):
    return torch.ones(shape, **_factory_kwargs(dtype, device, requires_grad))


@op
def empty(shape: ShapeLike, dtype: DTypeLike = None, name=None, *, out=None, device=None, requires_grad=False,
          pin_memory=False):
    return torch.empty(shape, **_factory_kwargs(dtype, device, requires_grad))


def _fill_value(v):
    if hasattr(v, "_t"):
        return v._t.item()
    return v.item() if isinstance(v, np.generic) else v


@op
def full(shape: ShapeLike, fill_value, dtype: DTypeLike = None, name=None, *, out=None, device=None,
         requires_grad=False, pin_memory=False):
    return torch.full(shape, _fill_value(fill_value), **_factory_kwargs(dtype, device, requires_grad))


def _like_kwargs(x, dtype, device, requires_grad):
    return {"dtype": x.dtype if dtype is None else dtype,
            "device": x.device if device is None else to_torch_device(device), "requires_grad": requires_grad}


@op
def zeros_like(x: TensorLike, dtype: DTypeLike = None, name=None, *, device=None, requires_grad=False,
               pin_memory=False):
    return torch.zeros(x.shape, **_like_kwargs(x, dtype, device, requires_grad))


@op
def ones_like(x: TensorLike, dtype: DTypeLike = None, name=None, *, device=None, requires_grad=False,
              pin_memory=False):
    return torch.ones(x.shape, **_like_kwargs(x, dtype, device, requires_grad))


@op
def empty_like(x: TensorLike, dtype: DTypeLike = None, name=None, *, device=None, requires_grad=False,
               pin_memory=False):
    return torch.empty(x.shape, **_like_kwargs(x, dtype, device, requires_grad))


@op
def full_like(x: TensorLike, fill_value, dtype: DTypeLike = None, name=None, *, device=None, requires_grad=False,
              pin_memory=False):
    return torch.full(x.shape, _fill_value(fill_value), **_like_kwargs(x, dtype, device, requires_grad))


def _number(v):
    return _fill_value(v)


@op
def arange(start=0, end=None, step=1, dtype: DTypeLike = None, name=None, *, out=None, device=None,
           requires_grad=False):
    start, end, step = _number(start), _number(end), _number(step)
    if end is None:
        start, end = 0, start
    if dtype is None:
        floats = any(isinstance(v, float) for v in (start, end, step))
        dtype = _dtypes.default_float_torch() if floats else torch.int64
    return torch.arange(start, end, step, dtype=dtype, device=to_torch_device(device), requires_grad=requires_grad)


@op
def range(start=0, end=None, step=1, dtype: DTypeLike = None, name=None):
    """paddle.range: like arange but `end` is included (torch.range semantics)."""
    start, end, step = _number(start), _number(end), _number(step)
    if end is None:
        start, end = 0, start
    n = int(np.floor((end - start) / step)) + 1
    return torch.arange(n, dtype=torch.float64).mul(step).add(start).to(dtype or _dtypes.default_float_torch())


@op
def linspace(start, stop, num, dtype: DTypeLike = None, name=None):
    start, stop, num = _number(start), _number(stop), int(_number(num))
    dtype = dtype or _dtypes.default_float_torch()
    r = torch.linspace(start, stop, num, dtype=torch.float64)
    return r.round().to(dtype) if not (dtype.is_floating_point or dtype.is_complex) else r.to(dtype)


@op
def logspace(start, stop, num, base=10.0, dtype: DTypeLike = None, name=None):
    start, stop, num, base = _number(start), _number(stop), int(_number(num)), _number(base)
    dtype = dtype or _dtypes.default_float_torch()
    return torch.logspace(start, stop, num, base=base, dtype=torch.float64).to(dtype)


@op
def eye(num_rows, num_columns=None, dtype: DTypeLike = None, name=None):
    num_rows = int(_number(num_rows))
    num_columns = num_rows if num_columns is None else int(_number(num_columns))
    return torch.eye(num_rows, num_columns, dtype=dtype or _dtypes.default_float_torch())


@op
def diag(x: TensorLike, offset=0, padding_value=0, name=None):
    if x.dim() == 1 and padding_value != 0:
        n = x.shape[0] + abs(offset)
        out = torch.full((n, n), padding_value, dtype=x.dtype, device=x.device)
        return out + torch.diag(x, offset) - torch.diag(torch.full_like(x, padding_value), offset)
    return torch.diag(x, offset)


@op
def diagflat(x: TensorLike, offset=0, name=None):
    return torch.diagflat(x, offset)


@op
def diag_embed(input: TensorLike, offset=0, dim1=-2, dim2=-1):
    return torch.diag_embed(input, offset, dim1, dim2)


@op
def meshgrid(*args, **kwargs):
    tensors = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
    return list(torch.meshgrid(*[t._t if hasattr(t, "_t") else t for t in tensors], indexing="ij"))


@op
def tril(x: TensorLike, diagonal=0, name=None):
    return torch.tril(x, diagonal)


@op
def triu(x: TensorLike, diagonal=0, name=None):
    return torch.triu(x, diagonal)


@op
def tril_indices(row, col, offset=0, dtype: DTypeLike = "int64"):
    return torch.tril_indices(row, col, offset, dtype=dtype)


@op
def triu_indices(row, col=None, offset=0, dtype: DTypeLike = "int64"):
    return torch.triu_indices(row, row if col is None else col, offset, dtype=dtype)


def assign(x, output=None):
    """paddle.assign: copy `x` (a Tensor, numpy array, list or scalar) into a new Tensor or `output`."""
    if hasattr(x, "_t"):
        t = x._t.clone()
    else:
        data = np.asarray(x)
        if data.dtype == np.float64 and not isinstance(x, np.ndarray):
            data = data.astype(np.float32)
        t = _as_torch(data)
    if output is None:
        return wrap(t)
    output._t = t
    return output


@op
def clone(x: TensorLike, name=None):
    return x.clone()


@op
def complex(real: TensorLike, imag: TensorLike, name=None):
    return torch.complex(real, imag)


@op
def polar(abs: TensorLike, angle: TensorLike, name=None):
    return torch.polar(abs, angle)


def create_parameter(shape, dtype, name=None, attr=None, is_bias=False, default_initializer=None):
    """paddle.create_parameter: a trainable Tensor initialised as Paddle does."""
    from ..nn.layer.layers import _create_parameter

    return _create_parameter(shape, dtype, name=name, attr=attr, is_bias=is_bias,
                             default_initializer=default_initializer)
