"""Tensor creation: paddle.to_tensor, zeros, ones, full, arange, linspace, eye, ...

Paddle's dtype inference differs from torch's in a few places, settled
against real Paddle: a Python float (or a list holding one) becomes the
default float dtype, a numpy array keeps its dtype (float64 stays float64),
a Python int becomes int64, and `full` / `ones` / `zeros` default to the
default float dtype whatever the fill value.
"""
import functools
import math
import numbers

import numpy as np
import torch

from .._normalize import (AxisLike, DTypeLike, IntLike, OptionalPlace, OptionalTensor, PlaceLike, RequiresGrad,
                          ShapeArgs, ShapeLike, TensorLike, TensorSequence, is_tensor, op, rebind,
                          register_data_converter, wrap)
from .._core import dtype as _dtypes
from .._core import random as _rng
from .._core.place import current_torch_device, to_torch_device
from . import _above

__all__ = [
    "to_tensor", "zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like", "empty_like",
    "arange", "range", "linspace", "logspace", "eye", "diag", "diagflat", "diag_embed", "meshgrid", "tril",
    "triu", "tril_indices", "triu_indices", "assign", "clone", "complex", "polar", "create_parameter",
    "from_numpy", "as_tensor", "cauchy_", "geometric_", "asarray", "create_tensor", "BFloat16Tensor", "BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor", "HalfTensor", "IntTensor", "LongTensor", "ShortTensor",
]


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


_NUMPY_INSIDE = 4


def _flat_kind(data):
    """The widest kind in a nested list: bool < int < float < complex, or _NUMPY_INSIDE when it holds a NumPy
    value (then, as in Paddle, which builds every list with np.array, NumPy's dtype decides)."""
    rank = {bool: 0, int: 1, float: 2, complex: 3}
    best = -1
    stack = [data]
    while stack:
        v = stack.pop()
        t = type(v)
        if t is int or t is float:  # (the common case, before the slower checks below)
            best = max(best, 1 if t is int else 2)
        elif t is list or t is tuple or isinstance(v, (list, tuple)):
            stack.extend(v)
        elif is_tensor(v):
            best = max(best, 3 if v._t.is_complex() else 2 if v._t.is_floating_point() else 1)
        elif isinstance(v, (np.ndarray, np.generic)):
            return _NUMPY_INSIDE
        else:
            best = max(best, 0 if isinstance(v, bool) else 1 if isinstance(v, numbers.Integral)
                       else 2 if isinstance(v, numbers.Real) else 3)
    return best


def _numpy_list(data):
    """A list holding NumPy values as Paddle reads it: np.array of it, floating and complex results in the default
    dtype, int32 as int64 (Paddle's unification of NumPy's Windows default); other dtypes (bool, int8, uint8,
    int16, int64, uint16 as bfloat16 bits) kept."""
    a = np.array(data)
    if a.dtype.kind == "f":
        return a.astype(_dtypes.get_default_dtype())
    if a.dtype.kind == "c":
        return a.astype("complex128" if _dtypes.get_default_dtype() == "float64" else "complex64")
    return a.astype(np.int64) if a.dtype == np.int32 else a


_SYMBOLIC = (torch.SymInt, torch.SymFloat, torch.SymBool)
_SYMBOLIC_DTYPES = {torch.SymInt: lambda: torch.int64, torch.SymFloat: lambda: _dtypes.default_float_torch(),
                    torch.SymBool: lambda: torch.bool}


def _as_torch(data, dtype=None, place=None):
    """Anything `paddle.to_tensor` accepts -> a torch tensor (always a fresh one)."""
    tdtype = _dtypes.to_torch_dtype(dtype)
    device = to_torch_device(place)
    if is_tensor(data):
        t = data._t.detach().clone()
    elif isinstance(data, torch.Tensor):
        t = data.detach().clone()
    elif isinstance(data, np.ndarray) or isinstance(data, np.generic):
        a = np.asarray(data)
        if a.dtype.kind in "US":
            raise ValueError(f"Unsupported numpy data type {a.dtype} for paddle.to_tensor")
        if a.dtype == np.uint16:  # Paddle reads uint16 arrays as raw bfloat16 bits
            t = torch.from_numpy(np.array(a, copy=True).view(np.int16)).view(torch.bfloat16)
        else:
            t = torch.from_numpy(np.array(a, copy=True))
    elif isinstance(data, (list, tuple)):
        if any([is_tensor(v) for v in data]):
            parts = [_as_torch(v) for v in data]
            kinds = {p.dtype for p in parts}
            if len(kinds) > 1:  # Paddle goes through numpy here, so numpy's promotion decides
                if torch.bfloat16 in kinds:
                    common = functools.reduce(torch.promote_types, kinds)
                else:
                    common = _dtypes.to_torch_dtype(str(np.result_type(*[torch.empty(0, dtype=k).numpy().dtype
                                                                          for k in kinds])))
                parts = [p.to(common) for p in parts]
            t = torch.stack(parts)
            if tdtype is None and t.dtype.is_floating_point:
                tdtype = t.dtype
        elif data and all(isinstance(v, (int, torch.SymInt)) for v in data) and \
                any(isinstance(v, torch.SymInt) for v in data):  # sizes while tracing: computed in the program
            t = torch.stack([torch.scalar_tensor(v, dtype=tdtype or torch.int64) for v in data])
        else:
            kind = _flat_kind(data) if tdtype is None else None
            if kind == _NUMPY_INSIDE:
                return _as_torch(_numpy_list(data), place=place)
            if tdtype is None:
                tdtype = {0: torch.bool, 1: torch.int64, 2: _dtypes.default_float_torch(),
                          3: _infer_dtype(1j)}.get(kind, _dtypes.default_float_torch())
            try:
                if any([isinstance(v, np.ndarray) for v in data]):
                    # a batch of arrays (data collators build these): torch.tensor is slow on them, and warns so
                    t = torch.from_numpy(np.array(data)).to(tdtype)
                else:
                    t = torch.tensor(data, dtype=tdtype)
            except (TypeError, ValueError):
                t = torch.from_numpy(np.array(data)).to(tdtype)
    elif isinstance(data, _SYMBOLIC):  # a size while tracing (to_tensor(x.shape[0] // 4)): computed in the program
        t = torch.scalar_tensor(data, dtype=tdtype or _SYMBOLIC_DTYPES[type(data)]())
    elif isinstance(data, numbers.Number):
        try:
            t = torch.tensor(data, dtype=tdtype or _infer_dtype(data))
        except (OverflowError, RuntimeError, ValueError) as e:
            if "Overflow" not in str(e) and "overflow" not in str(e):
                raise
            raise ValueError(f"(InvalidArgument) Input object type error or incompatible array data type: {data} does "
                             "not fit in 64 bits.") from None
    else:
        raise TypeError(f"Can't constructs a 'paddle.Tensor' with data type {type(data)}, data type must be "
                        "scalar|list|tuple|np.ndarray|paddle.Tensor")
    if tdtype is not None and t.dtype is not tdtype:
        t = t.to(tdtype)
    if t.device != device:
        t = t.to(device)
    return t


register_data_converter(_as_torch)  # what TensorLike makes of data that is not a Tensor


# the names paddle.to_tensor takes (its dtype check is stricter than the other APIs': no 'float', no Python float)
_TO_TENSOR_DTYPES = ("bool", "float16", "uint16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
                     "complex64", "complex128", "bfloat16")


def _check_to_tensor_dtype(dtype):
    if isinstance(dtype, str):
        ok = dtype in _TO_TENSOR_DTYPES
    elif isinstance(dtype, type):
        ok = dtype is bool or issubclass(dtype, np.generic)
    else:
        return
    if not ok:
        raise TypeError(f"dtype must be any of [{', '.join(_TO_TENSOR_DTYPES)}], but received {dtype}")


def to_tensor(data, dtype=None, place=None, stop_gradient=True):
    """paddle.to_tensor: a new Tensor holding a copy of `data`."""
    if dtype is not None and type(dtype) is not _dtypes.dtype:
        _check_to_tensor_dtype(dtype)
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


def as_tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    if pin_memory and to_torch_device(device).type != "cuda":
        from .._core.place import Place

        raise RuntimeError(f"Pinning memory is not supported for {Place(to_torch_device(device))}.")
    if is_tensor(data) and dtype is None and device is None and not requires_grad:
        return data
    out = to_tensor(data, dtype, device, stop_gradient=not requires_grad)
    return wrap(out._t.pin_memory()) if pin_memory else out


def from_numpy(ndarray):
    """Shares memory with the numpy array, as torch.from_numpy does."""
    return wrap(torch.from_numpy(ndarray))


def _check_shape(shape):
    for d in shape:
        if d < 0:
            raise ValueError(f"(InvalidArgument) The shape must not contain negative sizes, but received {shape}.")
    return shape


def _factory(make, shape, dtype, device):
    """torch.zeros / ones / empty (`make`) with Paddle's shape check and defaults (the default float dtype, the
    current place).  The sizes go in as separate ints: torch parses `make(10, 10)` about 0.5 us faster than
    `make([10, 10])`.  torch refuses negative sizes itself; Paddle's error replaces its error."""
    dtype = dtype if dtype is not None else _dtypes.default_float_torch()
    try:
        if not shape:  # (a 0-D shape has no sizes to spread)
            return make(shape, dtype=dtype, device=device)
        return make(*shape, dtype=dtype, device=device)
    except RuntimeError:
        if all(d >= 0 for d in shape):
            raise
    _check_shape(shape)  # a negative size: Paddle's error (outside the except: no torch error chained to it)


@op
def zeros(shape: ShapeArgs, dtype: DTypeLike = None, name=None, *, out=None, device: PlaceLike = None,
          requires_grad: RequiresGrad = False, pin_memory=False):
    return _factory(torch.zeros, shape, dtype, device)


@op
def ones(shape: ShapeArgs, dtype: DTypeLike = None, name=None, *, out=None, device: PlaceLike = None,
         requires_grad: RequiresGrad = False, pin_memory=False):
    return _factory(torch.ones, shape, dtype, device)


@op
def empty(shape: ShapeArgs, dtype: DTypeLike = None, name=None, *, out=None, device: PlaceLike = None,
          requires_grad: RequiresGrad = False, pin_memory=False):
    return _factory(torch.empty, shape, dtype, device)


def _fill_value(v):
    if is_tensor(v):
        return v._t.reshape(-1)[0].item()
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, str):
        return float(v)
    if isinstance(v, _SYMBOLIC):  # a size while tracing (full([b], x.shape[1])): filled in at run time
        return v
    if not isinstance(v, numbers.Number):
        raise TypeError("The fill_value should be int, float, bool, complex, np.number, string numeric values or "
                        f"Tensor, but received {type(v)}.")
    return v


def _filled(shape, v, dtype, device):
    """torch.full with Paddle's casting: the value is converted to dtype as a C cast would (2.7 -> 2)."""
    if not (dtype.is_floating_point or dtype.is_complex) and isinstance(v, float) and np.isfinite(v):
        v = int(v)
    elif dtype is not torch.bool and not dtype.is_complex and isinstance(v, builtins_complex):
        v = v.real
    return torch.full(shape, v, dtype=dtype, device=device)


builtins_complex = complex


@op(aliases={"size": "shape"})
def full(shape: ShapeLike, fill_value, dtype: DTypeLike = None, name=None, *, out=None, device: PlaceLike = None,
         requires_grad: RequiresGrad = False, pin_memory=False):
    raw = fill_value
    v = _fill_value(fill_value)
    if dtype is None:
        dtype = (torch.bool if isinstance(raw, bool) else torch.complex128 if isinstance(raw, builtins_complex)
                 else _dtypes.default_float_torch())
    return _filled(_check_shape(shape), v, dtype, device)


def _like_kwargs(x, dtype, device):
    return {"dtype": x.dtype if dtype is None else dtype, "device": x.device if device is None else device}


@op
def zeros_like(x: TensorLike, dtype: DTypeLike = None, name=None, *, device: OptionalPlace = None,
               requires_grad: RequiresGrad = False, pin_memory=False):
    return torch.zeros(x.shape, **_like_kwargs(x, dtype, device))


@op
def ones_like(x: TensorLike, dtype: DTypeLike = None, name=None, *, device: OptionalPlace = None,
              requires_grad: RequiresGrad = False, pin_memory=False):
    return torch.ones(x.shape, **_like_kwargs(x, dtype, device))


@op
def empty_like(x: TensorLike, dtype: DTypeLike = None, name=None, *, device: OptionalPlace = None,
               requires_grad: RequiresGrad = False, pin_memory=False):
    return torch.empty(x.shape, **_like_kwargs(x, dtype, device))


@op
def full_like(x: TensorLike, fill_value, dtype: DTypeLike = None, name=None, *, device: OptionalPlace = None,
              requires_grad: RequiresGrad = False, pin_memory=False):
    if type(fill_value) is not float and type(fill_value) is not int:  # (a plain number needs no conversion)
        fill_value = _fill_value(fill_value)
    elif dtype is None and device is None and type(x) is torch.Tensor \
            and x.is_floating_point():
        # the common full_like(x, -inf) of a mask: a float needs none of _filled's casts, and torch.full_like
        # skips the shape and dtype round trip (contiguous, as Paddle's result is whatever x's strides)
        return torch.full_like(x, fill_value, memory_format=torch.contiguous_format)
    return _filled(x.shape, fill_value, x.dtype if dtype is None else dtype,
                   x.device if device is None else device)


def _number(v):
    if is_tensor(v):
        return v._t.reshape(-1)[0].item()
    return v.item() if isinstance(v, np.generic) else v


def _is_float_arg(v):
    if is_tensor(v):
        return v._t.is_floating_point()
    return isinstance(v, (float, np.floating))


@op
def arange(start=0, end=None, step=1, dtype: DTypeLike = None, *, out=None, device: PlaceLike = None,
           requires_grad: RequiresGrad = False,
           pin_memory=False, name=None):
    """Values from start (inclusive) to end (exclusive) by step; int64 unless an argument is a float."""
    if type(start) is int and (end is None or type(end) is int) and type(step) is int \
            and (dtype is None or dtype is torch.int64 or dtype is torch.int32) \
            and (start if end is None else (end - start) * step) > 0:
        # the common `arange(n)` of position ids (a non-empty integer range): torch's arange is Paddle's
        dev, dt = device, dtype or torch.int64
        if end is None:
            return torch.arange(start, device=dev, dtype=dt)
        return torch.arange(start, end, device=dev, dtype=dt) if step == 1 else \
            torch.arange(start, end, step, device=dev, dtype=dt)  # (torch parses a step of 1 left out faster)
    floats = any(_is_float_arg(v) for v in (start, end, step))
    start, end, step = _number(start), _number(end), _number(step)
    if end is None:
        start, end = 0, start
    if step == 0:
        raise ValueError("(InvalidArgument) arange: step must not be 0.")
    for what, v in (("start", start), ("end", end), ("step", step)):
        if isinstance(v, float) and not np.isfinite(v):
            raise ValueError(f"The value of {what} must be finite, but received: {v}.")
    if dtype is None:
        dtype = _dtypes.default_float_torch() if floats else torch.int64
    if not floats and any(isinstance(v, torch.SymInt) for v in (start, end, step)):
        # a traced (torch.export) size: int() below would specialise it to the example's value
        return torch.arange(start, end, step, dtype=dtype, device=device)
    n = max(int(np.ceil((end - start) / step)), 0)
    if not (dtype.is_floating_point or dtype.is_complex) and floats:
        r = (torch.arange(n, dtype=torch.float64, device=device) * step + start).to(dtype)
    elif n == 0:
        r = torch.empty(0, dtype=dtype, device=device)
    else:
        r = torch.arange(start, start + n * step, step, dtype=dtype, device=device)[:n]
    return r


@op
def range(start=0, end=None, step=1, dtype: DTypeLike = None, *, out=None, device: PlaceLike = None,
          requires_grad: RequiresGrad = False, name=None):
    """paddle.range (deprecated): like arange but `end` is included."""
    start, end, step = _number(start), _number(end), _number(step)
    if end is None:
        start, end = 0, start
    if step == 0:
        raise ValueError("(InvalidArgument) range: step must not be 0.")
    n = max(int(np.floor((end - start) / step)) + 1, 0)
    dtype = dtype or _dtypes.default_float_torch()
    return torch.arange(n, dtype=torch.float64, device=device).mul(step).add(start).to(dtype)


def _count(num, api, minimum):
    num = _number(num)
    if isinstance(num, float) and num.is_integer():
        num = int(num)
    if not isinstance(num, numbers.Integral) or num < minimum:
        raise ValueError(f"(InvalidArgument) {api}: num must be an integer >= {minimum}, but received {num}.")
    return int(num)


@op
def linspace(start, stop, num, dtype: DTypeLike = None, name=None, *, out=None, device: PlaceLike = None,
             requires_grad: RequiresGrad = False):
    """num evenly spaced values from start to stop (both included)."""
    start, stop, num = _number(start), _number(stop), _count(num, "linspace", 0)
    dtype = dtype or _dtypes.default_float_torch()
    if dtype.is_floating_point or dtype.is_complex:
        return torch.linspace(start, stop, num, dtype=dtype, device=device)
    # computed in double, then truncated as Paddle's kernel does
    return torch.linspace(start, stop, num, dtype=torch.float64, device=device).to(dtype)


@op
def logspace(start, stop, num, base=10.0, dtype: DTypeLike = None, name=None):
    """num values base**linspace(start, stop, num)."""
    start, stop, num, base = _number(start), _number(stop), _count(num, "logspace", 1), _number(base)
    dtype = dtype or _dtypes.default_float_torch()
    return torch.logspace(start, stop, num, base=base, dtype=torch.float64, device=current_torch_device()).to(dtype)


def _eye_dim(v, what):
    v = _number(v)
    if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 0:
        raise TypeError(f"{what} should be a non-negative int.")
    return int(v)


@op
def eye(num_rows, num_columns=None, dtype: DTypeLike = None, name=None, *, out=None, device: PlaceLike = None,
        requires_grad: RequiresGrad = False, pin_memory=False):
    """A 2-D tensor with ones on the diagonal."""
    num_rows = _eye_dim(num_rows, "num_rows")
    num_columns = num_rows if num_columns is None else _eye_dim(num_columns, "num_columns")
    r = torch.eye(num_rows, num_columns, dtype=dtype or _dtypes.default_float_torch(),
                  device=device)
    return r


@op
def diag(x: TensorLike, offset: IntLike = 0, padding_value=0, name=None):
    """A 1-D x becomes a square matrix with x on the `offset` diagonal (the rest padding_value);
    a 2-D x gives its `offset` diagonal."""
    if x.dim() == 0:
        x = x.reshape(1)
    if x.dim() not in (1, 2):
        raise ValueError("(InvalidArgument) The input tensor X's dimensions of DiagV2Op should be either 1 or 2, "
                         f"but received {x.dim()}.")
    if x.dim() == 1 and padding_value != 0:
        n = x.shape[0] + abs(offset)
        pad = torch.full((n, n), padding_value, dtype=x.dtype, device=x.device)
        return torch.where(torch.diag(torch.ones_like(x, dtype=torch.bool), offset), torch.diag(x, offset), pad)
    return torch.diag(x, offset)


@op
def diagflat(x: TensorLike, offset=0, name=None):
    """The flattened x placed on the `offset` diagonal of a square matrix."""
    return torch.diagflat(x, offset)


@op
def diag_embed(input: TensorLike, offset=0, dim1=-2, dim2=-1):
    """Each last-axis vector of input becomes the `offset` diagonal of a matrix in dims (dim1, dim2)."""
    n = input.dim() + 1
    for d in (dim1, dim2):
        if not -n <= d < n:
            raise IndexError(f"(OutOfRange) diag_embed: dim1 and dim2 must be in [{-n}, {n}), but received {d}.")
    if dim1 % n == dim2 % n:
        raise ValueError(f"(InvalidArgument) diag_embed: dim1 and dim2 must differ, but both are {dim1}.")
    return torch.diag_embed(input, offset, dim1, dim2)


def meshgrid(*args, **kwargs):
    """N-D coordinate grids from 1-D (or 0-D) tensors, 'ij' indexing unless indexing='xy'."""
    tensors = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
    indexing = kwargs.get("indexing") or "ij"
    ts = [t._t if is_tensor(t) else _as_torch(t) for t in tensors]
    for i, t in enumerate(ts):
        if t.dtype is not ts[0].dtype:
            raise ValueError("(InvalidArgument) The data_type of input tensor in list isn't consistent, the first "
                             f"tensor is {str(ts[0].dtype)[6:]}, but {i}th tensor is {str(t.dtype)[6:]}.")
        if t.dim() > 1:
            raise ValueError(f"(InvalidArgument) Expected scalar or 1D tensor in the tensor list but got tensor {i}.")
    return [wrap(t) for t in torch.meshgrid(*[t.reshape(-1) for t in ts], indexing=indexing)]


def _not_a_matrix(x, api):
    return ValueError(f"(InvalidArgument) {api}: the input must have at least 2 dimensions, but received "
                      f"{x.dim()}.")


@op
def tril(x: TensorLike, diagonal=0, name=None):
    """The lower triangle of (the last two axes of) x; the rest zero."""
    if x.dim() < 2:
        raise _not_a_matrix(x, "tril")
    return torch.tril(x, diagonal)


@op
def triu(x: TensorLike, diagonal=0, name=None):
    """The upper triangle of (the last two axes of) x; the rest zero."""
    if x.dim() < 2:
        raise _not_a_matrix(x, "triu")
    return torch.triu(x, diagonal)


@op
def tril_indices(row, col, offset=0, dtype: DTypeLike = "int64"):
    """The [2, N] coordinates of the lower triangle of a row x col matrix."""
    return torch.tril_indices(row, col, offset, dtype=dtype, device=current_torch_device())


@op
def triu_indices(row, col=None, offset=0, dtype: DTypeLike = "int64"):
    """The [2, N] coordinates of the upper triangle of a row x col matrix."""
    return torch.triu_indices(row, row if col is None else col, offset, dtype=dtype, device=current_torch_device())


def assign(x, output=None):
    """paddle.assign: copy `x` (a Tensor, numpy array, list or scalar) into a new Tensor or into `output`.

    A Python scalar becomes a shape-[1] Tensor and a list goes through numpy (so Python floats give
    float64), as in Paddle.
    """
    if is_tensor(x):
        t = x._t.clone()
    else:
        if isinstance(x, (list, tuple)) and any(is_tensor(v) for v in x):
            t = _as_torch(x)
        else:
            if isinstance(x, (list, tuple)):
                data = np.array(x)
            elif np.isscalar(x) and not isinstance(x, str):
                data = np.array([x])
            elif isinstance(x, np.ndarray):
                data = x
            else:
                raise TypeError(f"The type of 'input' in assign must be Tensor, numpy.ndarray, list, tuple, float, "
                                f"int or bool, but received {type(x)}.")
            t = _as_torch(data)
    if output is None:
        return wrap(t)
    if output._t.shape == t.shape and output._t.dtype == t.dtype and not output._t.requires_grad:
        output._t.copy_(t)
    else:
        rebind(output, t)
    return output


@op
def clone(x: TensorLike, name=None):
    """A copy of x that stays in the autograd graph."""
    return x.clone()


_REAL_FLOATS = (torch.float16, torch.bfloat16, torch.float32, torch.float64)


@op
def complex(real: TensorLike, imag: TensorLike, name=None, *, out=None):
    """real + 1j * imag (broadcast); both float32 or both float64."""
    if real.dtype not in _REAL_FLOATS or imag.dtype not in _REAL_FLOATS:
        raise RuntimeError(f"(NotFound) The kernel `complex` is not registered for {str(real.dtype)[6:]} and "
                           f"{str(imag.dtype)[6:]}: it takes float32 or float64 tensors.")
    if real.dtype is not imag.dtype:
        raise ValueError(f"(InvalidArgument) complex: real and imag must have the same dtype, but received "
                         f"{str(real.dtype)[6:]} and {str(imag.dtype)[6:]}.")
    return torch.complex(real, imag)


@op(binary=("abs", "angle"))
def polar(abs, angle, name=None, *, out=None):
    """abs * (cos(angle) + 1j * sin(angle))."""
    if abs.dtype is not angle.dtype:
        t = torch.promote_types(abs.dtype, angle.dtype)
        abs, angle = abs.to(t), angle.to(t)
    if not abs.dtype.is_floating_point:
        raise TypeError(f"(InvalidType) polar: abs and angle must be floating-point Tensors, but received {str(abs.dtype)[6:]}.")
    return torch.polar(abs, angle)


def create_parameter(shape, dtype, name=None, attr=None, is_bias=False, default_initializer=None):
    """paddle.create_parameter: a trainable Tensor initialised as Paddle does."""
    return _above.create_parameter(shape, dtype, name=name, attr=attr, is_bias=is_bias,
                             default_initializer=default_initializer)


def _fill_inplace(x, fill):
    from .inplace import _check

    _check(x)
    with torch.no_grad():
        fill(x._t)
    return x


def cauchy_(x, loc=0, scale=1, name=None):
    """Fill x in place with Paddle's Cauchy(loc, scale) samples: as Paddle's Python, tan(pi * (z - 0.5)) * scale +
    loc of its standard normal draws z (Paddle's generator on the CPU)."""
    def fill(t):
        _rng.normal_(t, 0.0, 1.0)
        t.sub_(torch.tensor(0.5, dtype=t.dtype)).mul_(math.pi).tan_().mul_(float(scale))
        t.add_(torch.tensor(loc, dtype=t.dtype))
    return _fill_inplace(x, fill)


def geometric_(x, probs, name=None):
    """Fill x in place with Paddle's (continuous) geometric samples log(u) / log(1 - probs), u uniform in
    [tiny, 1) from Paddle's generator (on the CPU)."""
    p = probs._t if is_tensor(probs) else float(probs)

    def fill(t):
        _rng.uniform_(t, float(torch.finfo(t.dtype).tiny), 1.0)
        t.log_().div_(torch.log1p(-torch.as_tensor(p, dtype=t.dtype)))
    return _fill_inplace(x, fill)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """paddle.asarray (torch-style): like to_tensor, a new Tensor holding a copy (Paddle copies even a Tensor)."""
    return to_tensor(obj, dtype, device, stop_gradient=not requires_grad)


def _DTypeTensorFactory(name, dtype):  # noqa: N802 - makes a class
    """paddle.FloatTensor and friends: classes, as in Paddle, whose constructor returns a paddle.Tensor of their
    dtype: `FloatTensor([1, 2])` (data) or `FloatTensor(2, 3)` (a shape)."""

    def __new__(cls, *args, device=None):
        if args and all(isinstance(a, int) and not isinstance(a, bool) for a in args):
            return wrap(torch.empty(args, dtype=_dtypes.to_torch_dtype(dtype), device=to_torch_device(device)))
        data = args[0] if args else []
        return to_tensor(data, dtype, device)

    return type(name, (), {"__new__": __new__, "__module__": "paddle", "__doc__": __new__.__doc__})


BFloat16Tensor = _DTypeTensorFactory("BFloat16Tensor", "bfloat16")
BoolTensor = _DTypeTensorFactory("BoolTensor", "bool")
ByteTensor = _DTypeTensorFactory("ByteTensor", "uint8")
CharTensor = _DTypeTensorFactory("CharTensor", "int8")
DoubleTensor = _DTypeTensorFactory("DoubleTensor", "float64")
FloatTensor = _DTypeTensorFactory("FloatTensor", "float32")
HalfTensor = _DTypeTensorFactory("HalfTensor", "float16")
IntTensor = _DTypeTensorFactory("IntTensor", "int32")
LongTensor = _DTypeTensorFactory("LongTensor", "int64")
ShortTensor = _DTypeTensorFactory("ShortTensor", "int16")


def create_tensor(dtype, name=None, persistable=False):
    """paddle.tensor.create_tensor: a placeholder Tensor of the given dtype (shape [], as Paddle reports)."""
    x = wrap(torch.empty([], dtype=_dtypes.to_torch_dtype(dtype)))
    x.persistable = persistable
    return x
