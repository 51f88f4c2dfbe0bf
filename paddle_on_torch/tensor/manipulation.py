"""Shape and layout manipulation (paddle.tensor.manipulation)."""
import builtins
import functools
import numbers

import torch

from .. import _normalize
from .._normalize import AxisLike, DTypeLike, ShapeLike, TensorLike, TensorSequence, op
from .._core import dtype as _dtypes

__all__ = [
    "reshape", "transpose", "permute", "concat", "cat", "stack", "squeeze", "unsqueeze", "flatten", "ravel",
    "split",
    "chunk", "cast", "expand", "expand_as", "broadcast_to", "tile", "flip", "roll", "unbind",
    "unstack", "moveaxis", "t", "view", "view_as", "slice", "strided_slice", "gather", "gather_nd",
    "index_select", "repeat_interleave", "broadcast_tensors", "broadcast_shape", "rot90",
    "scatter", "scatter_nd", "scatter_nd_add", "put_along_axis", "take_along_axis", "scatter_add", "scatter_reduce",
    "index_add", "index_put", "masked_fill", "unfold", "as_complex", "as_real", "view_as_complex", "view_as_real",
    "crop", "hstack", "vstack", "dstack", "column_stack", "row_stack", "hsplit", "vsplit", "dsplit", "tensor_split",
    "atleast_1d", "atleast_2d", "atleast_3d", "swapaxes", "swapdims", "narrow", "unflatten", "index_fill",
    "diagonal_scatter", "select_scatter", "slice_scatter", "shard_index", "unique_consecutive",
    "as_strided", "tensordot", "block_diag", "tolist", "reverse", "take_along_dim", "concatenate",
]

# Tensor methods only: bound onto Tensor, not exported as paddle.* (Paddle has no such functions)
__tensor_methods__ = ["astype", "repeat", "contiguous", "fill_", "zero_", "fill_diagonal_", "fill_diagonal_tensor",
                      "fill_diagonal_tensor_", "split_with_sizes",
]


_int = _normalize.int_arg  # (an int from an int or a 1-element Tensor)


def _axis_in(axis, ndim, api, err=ValueError):
    """One axis of an ndim-D tensor, as a non-negative int (a 0-D tensor has no axis to name)."""
    if not -ndim <= axis < ndim:
        raise err(f"({'OutOfRange' if err is IndexError else 'InvalidArgument'}) {api}: the axis is expected to be in "
                  f"range of [{-ndim}, {ndim}), but got {axis}")
    return axis + ndim if axis < 0 else axis


def _check_index_dtype(index, api):
    if index.dtype not in (torch.int64, torch.int32):
        raise ValueError(f"(InvalidArgument) The data type of Input(Index) of {api} must be int32 or int64, but "
                         f"received {_dtypes.dtype_name(index.dtype)}.")


def _same_dtypes(xs, api):
    d = xs[0].dtype
    for i, v in enumerate(xs):
        if v.dtype is not d:
            raise ValueError(f"(InvalidArgument) The data_type of input tensor in list isn't consistent, the first "
                             f"tensor is {_dtypes.dtype_name(xs[0].dtype)}, but {i}th tensor is "
                             f"{_dtypes.dtype_name(v.dtype)}.")


def _wrap_claiming_grad(r):
    """Wrap an integer/bool result of a differentiable input: Paddle reports stop_gradient=False."""
    w = _normalize.wrap(r)
    w.__dict__["_claims_grad"] = True
    return w


# ---------------------------------------------------------------- reshape / view


def _is_size(v):
    from .tensor import Tensor

    return (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, Tensor) and v.size == 1)


def _sizes_as_args(api):
    """`api(x, shape, name=None)` that also takes Paddle 3.3's torch-style forms: the sizes as separate ints
    (x.reshape(2, 3), x.expand(2, 3, 4)) and `size=` for `shape`."""

    def call(*args, **kwargs):
        if len(args) <= 2 and not kwargs:
            return api(*args)
        if "size" in kwargs and "shape" not in kwargs:
            kwargs["shape"] = kwargs.pop("size")
        elif len(args) > 2 and all(_is_size(v) for v in args[1:]):
            args, kwargs["shape"] = args[:1], list(args[1:])
        return api(*args, **kwargs)

    return functools.wraps(api)(call)


@op
def reshape(x: TensorLike, shape: ShapeLike, name=None):
    # Paddle: a 0 in `shape` copies that dimension from x
    try:
        zero = 0 in shape
    except RuntimeError:  # a size computed from a value while tracing (to_tensor(x.shape[0] // 4)): not a 0
        zero = any(type(s) is int and s == 0 for s in shape)
    if zero:
        shape = [x.shape[i] if type(s) is int and s == 0 and i < x.dim() else s for i, s in enumerate(shape)]
    return torch.reshape(x, shape)  # (torch's function form parses a list faster than the method)


reshape = _sizes_as_args(reshape)


@op
def view(x: TensorLike, shape_or_dtype, name=None):
    if isinstance(shape_or_dtype, (list, tuple)):
        return x.view([_int(s) for s in shape_or_dtype])
    if shape_or_dtype is None:
        raise TypeError("(InvalidType) view(): shape_or_dtype must be a list of int or a dtype, but got None")
    return x.view(_dtypes.to_torch_dtype(shape_or_dtype))


_view_shape_or_dtype = view


@functools.wraps(_view_shape_or_dtype)
def view(*args, **kwargs):
    """view(x, shape_or_dtype), or the sizes as separate ints after x (x.view(2, 3), x.view(4)): Paddle 3.3 reads
    them as a shape (its view decorator)."""
    if len(args) >= 2 and all(_is_size(v) for v in args[1:]):
        args = (args[0], list(args[1:]))
    return _view_shape_or_dtype(*args, **kwargs)


@op
def view_as(x: TensorLike, other: TensorLike, name=None):
    return x.view_as(other)


@op
def flatten(x: TensorLike, start_axis=0, stop_axis=-1, name=None):
    if x.dim() == 0:
        return x.reshape(1)
    nd = x.dim()
    if not isinstance(start_axis, int) or not isinstance(stop_axis, int):
        raise ValueError("The start_axis and stop_axis should be ints, in range [-rank(x), rank(x))")
    s, e = start_axis + nd if start_axis < 0 else start_axis, stop_axis + nd if stop_axis < 0 else stop_axis
    if not (0 <= s < nd and 0 <= e < nd):
        raise ValueError(f"(InvalidArgument) The start_axis ({start_axis}) and stop_axis ({stop_axis}) should be in "
                         f"the range [{-nd}, {nd}).")
    if s > e:
        raise ValueError("The stop_axis should be larger than stat_axis")  # Paddle's words
    return torch.flatten(x, s, e)


@op
def ravel(input: TensorLike):
    return input.reshape(-1)


@op
def unflatten(x: TensorLike, axis, shape: ShapeLike, name=None):
    return x.unflatten(_int(axis), shape)


@op
def as_strided(x: TensorLike, shape: ShapeLike, stride: ShapeLike, offset=0, name=None):
    # Paddle's offset counts bytes
    size = x.element_size()
    if offset % size:
        raise ValueError(f"(InvalidArgument) as_strided: offset {offset} is not a multiple of the element size "
                         f"({size} bytes).")
    return torch.as_strided(x, shape, stride, x.storage_offset() + offset // size)


@op
def contiguous(x: TensorLike):
    return x.contiguous()


# ---------------------------------------------------------------- transpose family


@op
def transpose(x: TensorLike, perm=None, name=None, *, dim0=None, dim1=None):
    if dim0 is not None or (type(perm) is int and type(name) is int):
        # Paddle 3.3's torch-style form, x.transpose(dim0, dim1) (or the keywords): swap two axes
        return torch.transpose(x, perm if dim0 is None else dim0, name if dim1 is None else dim1)
    nd = x.dim()
    if type(perm) is list and len(perm) == nd:
        # the common case, a full list: torch takes it as it is and validates it (no AxisLike conversion);
        # its errors, and elements it refuses (a 1-element Tensor), fall through to the checks below
        try:
            return torch.permute(x, perm)
        except (RuntimeError, IndexError, TypeError):
            pass
    if isinstance(perm, (list, tuple)) and any(isinstance(a, float) for a in perm):
        raise TypeError(f"(InvalidType) transpose(): argument 'perm' (position 1) must be list of int, but got {perm}")
    perm = _normalize._axis(perm)
    if type(perm) is not tuple:  # (AxisLike gives an int or a tuple)
        perm = (perm,)
    if len(perm) == nd:  # torch validates; its errors fall through to Paddle's checks
        try:
            return torch.permute(x, perm)
        except (RuntimeError, IndexError):
            pass
    if len(perm) > nd:
        raise ValueError(f"(InvalidArgument) The input tensor's dimension should be equal to or greater than the "
                         f"axis's size. But received input tensor's dimension is {nd}, axis's size is {len(perm)}")
    norm = []
    for p in perm:
        if not -nd <= p < nd:
            raise ValueError(f"(InvalidArgument) Each element of axis should be in the range [{-nd}, {nd}), but "
                             f"received {p}.")
        norm.append(p + nd if p < 0 else p)
    if len(set(norm)) != len(norm):
        raise ValueError(f"(InvalidArgument) Each element of axis should be unique, but received {list(perm)}.")
    # Paddle: a shorter perm permutes the leading axes and keeps the rest
    return x.permute(norm + list(range(len(norm), nd)))


def permute(x=None, *perm, name=None, dims=None, input=None):
    if x is None:  # (torch's input= for x, Paddle 3.3's alias)
        if input is None:
            raise TypeError("permute() missing 1 required positional argument: 'x'")
        x = input
    perm = dims if dims is not None else perm[0] if len(perm) == 1 and not isinstance(perm[0], int) else perm
    return transpose(x, perm if isinstance(perm, _normalize.Tensor) else list(perm))


@op
def moveaxis(x: TensorLike, source: AxisLike, destination: AxisLike, name=None):
    for a in (source if isinstance(source, tuple) else (source,)) + (destination if isinstance(destination, tuple)
                                                                      else (destination,)):
        _axis_in(a, x.dim(), "moveaxis")
    return torch.movedim(x, source, destination)


@op
def swapaxes(x: TensorLike, perm=None, name=None, *, dim0=None, dim1=None, axis0=None, axis1=None):
    """Paddle 3.3's forms: `swapaxes(x, perm)` permutes like transpose; torch's `swapaxes(x, 0, 2)` (two ints in
    the places of perm and name) or `dim0=` / `dim1=` (`axis0=` / `axis1=`) swap two axes."""
    d0 = dim0 if dim0 is not None else axis0
    d1 = dim1 if dim1 is not None else axis1
    if d0 is None and isinstance(perm, int) and not isinstance(perm, bool):
        d0, perm = perm, None
    if d1 is None and isinstance(name, int) and not isinstance(name, bool):
        d1 = name
    if d0 is not None and d1 is not None:
        return torch.swapaxes(x, int(d0), int(d1))
    if perm is None:
        raise TypeError("swapaxes() missing 1 required positional argument: 'perm'")
    return x.permute([int(p) for p in perm])


swapdims = swapaxes


@op
def t(input: TensorLike, name=None):
    if input.dim() > 2:
        raise ValueError(f"Input(input) only support N-D (N<=2) tensor, but received length of Input(input) is "
                         f"{input.dim()}. Perhaps you can use paddle.tensor.transpose() instead.")
    return input.t()


# ---------------------------------------------------------------- concat / stack


@op
def concat(x: TensorSequence, axis=0, name=None, *, out=None):
    if not x:
        raise ValueError("(InvalidArgument) concat(): argument 'x' (position 0) must be list of Tensors, but got "
                         "empty list")
    _same_dtypes(x, "concat")
    return torch.cat(x, axis if type(axis) is int else int(axis) if isinstance(axis, float) else _int(axis))


cat = concat


@op
def stack(x: TensorSequence, axis=0, name=None, *, out=None):
    if not x:
        raise ValueError("(InvalidArgument) stack(): argument 'x' must be a non-empty list of Tensors")
    _same_dtypes(x, "stack")
    for i, v in enumerate(x[1:], 1):
        if v.shape != x[0].shape:
            raise ValueError(f"(InvalidArgument) stack expects each tensor to be equal size, but got "
                             f"{list(x[0].shape)} at entry 0 and {list(v.shape)} at entry {i}.")
    return torch.stack(x, dim=_int(axis, api="stack"))


@op
def hstack(x: TensorSequence, name=None):
    _same_dtypes(x, "hstack")
    return torch.hstack(x)


@op
def vstack(x: TensorSequence, name=None):
    _same_dtypes(x, "vstack")
    return torch.vstack(x)


row_stack = vstack


@op
def dstack(x: TensorSequence, name=None):
    _same_dtypes(x, "dstack")
    return torch.dstack(x)


@op
def column_stack(x: TensorSequence, name=None):
    _same_dtypes(x, "column_stack")
    return torch.column_stack(x)


@op
def block_diag(inputs: TensorSequence, name=None):
    _same_dtypes(inputs, "block_diag")
    return torch.block_diag(*inputs)


# ---------------------------------------------------------------- squeeze / unsqueeze


@op
def squeeze(x: TensorLike, axis: AxisLike = None, name=None):
    if axis is None:
        return x.squeeze()
    return x.squeeze(axis)


@op
def unsqueeze(x: TensorLike, axis: AxisLike, name=None):
    if type(axis) is int and -2 - x.dim() < axis <= x.dim():
        return torch.unsqueeze(x, axis)  # one axis in range
    if isinstance(axis, int):
        axis = (axis,)
    for a in axis:
        nd = x.dim() + 1
        if not -nd <= a < nd:
            raise ValueError(f"(InvalidArgument) The insert dimension value should not be larger than the "
                             f"dimension size of input tensor, but received axis {a} for a {x.dim()}-D tensor.")
        x = x.unsqueeze(a)
    return x


# ---------------------------------------------------------------- split family


def _sections(x, num_or_sections, axis):
    """The sizes of the parts for Paddle's num_or_sections (a count or a list of sizes)."""
    n = x.shape[axis]
    if isinstance(num_or_sections, (int, torch.Tensor)) and not (isinstance(num_or_sections, torch.Tensor)
                                                                and num_or_sections.dim() > 0):
        num = _int(num_or_sections)
        if num <= 0:
            raise ValueError("(InvalidArgument) Attr(num_or_sections) should not be 0.")
        if n % num:
            raise ValueError(f"(InvalidArgument) The input's size along the split dimension must be evenly "
                             f"divisible by Attr(num_or_sections). But received Attr(num_or_sections) = "
                             f"{num}, input(X)'s shape = {list(x.shape)}, Attr(dim) = {axis}.")
        return [n // num] * num
    if isinstance(num_or_sections, torch.Tensor):
        num_or_sections = num_or_sections.tolist()
    sizes = [_int(s) for s in num_or_sections]
    if sizes.count(-1) > 1:
        raise ValueError(f"(InvalidArgument) Only one dimension value of Attr(num_or_sections) in SplitOp can be -1. "
                         f"But received Attr(num_or_sections) = {sizes}.")
    if -1 in sizes:
        sizes[sizes.index(-1)] = n - (sum(sizes) + 1)
    if sum(sizes) != n or any(s < 0 for s in sizes):
        raise ValueError(f"(InvalidArgument) Sum of Attr(num_or_sections) must be equal to the input's size along "
                         f"the split dimension. But received Attr(num_or_sections) = {sizes}, input(X)'s shape = "
                         f"{list(x.shape)}, Attr(dim) = {axis}.")
    return sizes


@op
def split(x: TensorLike, num_or_sections, axis=0, name=None):
    axis = _axis_in(_int(axis, ValueError, "split"), x.dim(), "split")
    # (torch.split_with_sizes: torch.split is Python around it and costs twice as much on small tensors)
    return list(torch.split_with_sizes(x, _sections(x, num_or_sections, axis), dim=axis))


@op
def chunk(x: TensorLike, chunks, axis=0, name=None):
    axis = _axis_in(_int(axis, ValueError, "chunk"), x.dim(), "chunk")
    if not 0 < chunks:
        raise ValueError(f"The value of 'chunks' must be greater than 0 and less than or equal to the size of the "
                         f"dimension specified by 'axis', but received chunks={chunks} and "
                         f"x.shape[axis]={x.shape[axis]}.")
    return list(torch.split_with_sizes(x, _sections(x, chunks, axis), dim=axis))


@op
def tensor_split(x: TensorLike, num_or_indices, axis=0, name=None):
    if isinstance(num_or_indices, _normalize.Tensor):
        num_or_indices = num_or_indices.tolist()
    return list(torch.tensor_split(x, num_or_indices, dim=_int(axis)))


@op
def hsplit(x: TensorLike, num_or_indices, name=None):
    return list(torch.hsplit(x, num_or_indices))


@op
def vsplit(x: TensorLike, num_or_indices, name=None):
    return list(torch.vsplit(x, num_or_indices))


@op
def dsplit(x: TensorLike, num_or_indices, name=None):
    return list(torch.dsplit(x, num_or_indices))


@op
def unbind(input: TensorLike, axis=0):
    return list(torch.unbind(input, _axis_in(_int(axis, api="unbind"), input.dim(), "unbind")))


@op
def unstack(x: TensorLike, axis=0, num=None):
    if num is not None and not 0 <= num <= x.shape[axis]:
        raise ValueError(f"`num` must be in the range [0, {x.shape[axis]})")
    return list(torch.unbind(x, axis))


# ---------------------------------------------------------------- cast


def cast(x, dtype):
    t = x._t if isinstance(x, _normalize.Tensor) else _normalize._tensor_arg(x, "paddle.cast", "x", 0)
    d = _dtypes.to_torch_dtype(dtype)
    r = t.to(d)
    if t.requires_grad and not (d.is_floating_point or d.is_complex):
        return _wrap_claiming_grad(r)
    return _normalize.wrap(r)


def astype(x, dtype):
    """Tensor.astype: this tensor itself when it already has `dtype` (Paddle's method, unlike paddle.cast, makes
    no copy then)."""
    if isinstance(x, _normalize.Tensor) and x._t.dtype == _dtypes.to_torch_dtype(dtype):
        return x
    return cast(x, dtype)


# ---------------------------------------------------------------- expand / tile


@op
def expand(x: TensorLike, shape: ShapeLike, name=None):
    if len(shape) < x.dim():
        raise ValueError(f"(InvalidArgument) The number of elements ({len(shape)}) of 'shape' for expand_v2 op must "
                         f"be greater than or equal to the rank ({x.dim()}) of the input.")
    return x.expand(shape)


@op
def expand_as(x: TensorLike, y: TensorLike, name=None):
    return x.expand_as(y)


broadcast_to = expand


expand = _sizes_as_args(expand)


@op
def broadcast_tensors(input: TensorSequence, name=None):
    return list(torch.broadcast_tensors(*input))


def broadcast_shape(x_shape, y_shape):
    try:
        return list(torch.broadcast_shapes(tuple(x_shape), tuple(y_shape)))
    except RuntimeError as e:
        raise ValueError(f"(InvalidArgument) {e}") from None


@op
def tile(x: TensorLike, repeat_times: ShapeLike, name=None):
    if len(repeat_times) < x.dim():
        repeat_times = [1] * (x.dim() - len(repeat_times)) + list(repeat_times)
    return x.repeat(repeat_times)


def repeat(input, *repeats, **kw):
    """Tensor.repeat(2, 1), (repeats) as one list or Tensor, or Paddle 3.3's repeats= keyword."""
    if kw:
        if set(kw) != {"repeats"} or repeats:
            bad = sorted(set(kw) - {"repeats"}) or ["repeats"]
            raise TypeError(f"repeat() got an unexpected keyword argument '{bad[0]}'" if bad[0] != "repeats" or
                            not repeats else "repeat() got multiple values for argument 'repeats'")
        repeats = (kw["repeats"],)
    if len(repeats) == 1 and not isinstance(repeats[0], int):
        repeats = repeats[0]
    return tile(input, list(repeats) if isinstance(repeats, tuple) else repeats)


@op
def repeat_interleave(x: TensorLike, repeats, axis=None, name=None, *, output_size=None):
    if isinstance(repeats, _normalize.Tensor):
        repeats = repeats._t
        n = x.numel() if axis is None else x.shape[axis]
        if repeats.numel() != n and not (repeats.dim() == 0 or repeats.numel() == 1):
            raise ValueError(f"(InvalidArgument) The length of Input(RepeatsTensor) must be the same as length of "
                             f"Input(X) in axis. But received: [{repeats.numel()}], required: [{n}].")
        if repeats.dim() == 0:
            repeats = repeats.reshape(1)
    elif repeats <= 0:
        raise ValueError("(InvalidArgument) repeats should be larger than zero")
    if axis is not None:
        axis = _axis_in(_int(axis, api="repeat_interleave"), x.dim(), "repeat_interleave", IndexError)
    return torch.repeat_interleave(x, repeats, dim=axis, output_size=output_size)


# ---------------------------------------------------------------- flip / roll / rot90


@op
def flip(x: TensorLike, axis: AxisLike, name=None):
    axis = (axis,) if isinstance(axis, int) else axis
    nd = x.dim()  # (a 0-D tensor has no axis to flip: Paddle refuses axis 0 there)
    norm = [a + nd if a < 0 else a for a in axis]
    if any(not 0 <= a < nd for a in norm):
        raise ValueError(f"(InvalidArgument) flip axes {list(axis)} out of range for a {x.dim()}-D tensor.")
    if len(set(norm)) != len(norm):
        raise ValueError(f"(InvalidArgument) axes has duplicates, original flip axes size={len(norm)}, but unique "
                         f"flip axes size={len(set(norm))}.")
    return torch.flip(x, norm)


@op
def rot90(x: TensorLike, k=1, axes=(0, 1), name=None):
    if x.dim() < 2:
        raise ValueError(f"expected total dims >= 2, but got total dims = {x.dim()}")
    axes = list(axes)
    if len(axes) != 2:
        raise ValueError(f"expected total rotation axes == 2, but got axes = {len(axes)}")
    if axes[0] % x.dim() == axes[1] % x.dim():
        raise ValueError(f"expected rotation axes to be different, but got axis0 = {axes[0]}, and axis1 = {axes[1]}")
    return torch.rot90(x, k, axes)


@op
def roll(x: TensorLike, shifts: AxisLike, axis: AxisLike = None, name=None):
    if axis is None:
        return torch.roll(x, shifts)
    s = (shifts,) if isinstance(shifts, int) else shifts
    a = (axis,) if isinstance(axis, int) else axis
    for v in a:
        _axis_in(v, x.dim(), "roll")
    if len(s) != len(a):
        raise ValueError(f"(InvalidArgument) When dims.size() != 0, dims.size() should be equal to shifts.size(). "
                         f"But received dims.size() = {len(a)}, shifts.size() = {len(s)}")
    return torch.roll(x, s, a)


# ---------------------------------------------------------------- slicing


def _clamp_bound(v, n):
    v = v + n if v < 0 else v
    return max(0, min(n, v))


@op
def slice(input: TensorLike, axes: AxisLike, starts: ShapeLike, ends: ShapeLike):
    index = [builtins.slice(None)] * input.dim()
    axes = (axes,) if isinstance(axes, int) else axes
    if not len(axes) == len(starts) == len(ends):
        raise ValueError(f"(InvalidArgument) The length of axes ({len(axes)}), starts ({len(starts)}) and ends "
                         f"({len(ends)}) should be the same.")
    for a, s, e in zip(axes, starts, ends):
        n = input.shape[a]
        index[a] = builtins.slice(_clamp_bound(s, n), _clamp_bound(e, n))
    return input[tuple(index)]


@op
def strided_slice(x: TensorLike, axes: AxisLike, starts: ShapeLike, ends: ShapeLike, strides: ShapeLike,
                  name=None):
    from .indexing import _resolve_negative_steps

    axes = (axes,) if isinstance(axes, int) else axes
    index = [builtins.slice(None)] * x.dim()
    negs = {}
    for a, s, e, st in zip(axes, starts, ends, strides):
        if st == 0:
            raise ValueError("(InvalidArgument) stride index in StridedSlice operator is 0.")
        a = a + x.dim() if a < 0 else a
        n = x.shape[a]
        if st > 0:
            index[a] = builtins.slice(_clamp_bound(s, n), _clamp_bound(e, n), st)
        else:
            s = n + s if s < 0 else min(s, n - 1)
            e = n + e if e < 0 else min(e, n - 1)
            index[a] = builtins.slice(s, e if e >= 0 else None, st)
            negs[a] = a
    if negs:
        x, index = _resolve_negative_steps(x, index, negs)
    return x[tuple(index)]


@op
def narrow(input: TensorLike, dim, start, length, name=None):
    return torch.narrow(input, _int(dim), _int(start), _int(length))


@op
def crop(x: TensorLike, shape: ShapeLike = None, offsets: ShapeLike = None, name=None):
    offsets = offsets or [0] * x.dim()
    shape = x.shape if shape is None else [x.shape[i] - offsets[i] if s == -1 else s for i, s in enumerate(shape)]
    for i, (o, s) in enumerate(zip(offsets, shape)):
        if o < 0 or o + s > x.shape[i]:
            raise ValueError(f"(InvalidArgument) The crop window (offset {o}, size {s}) exceeds the input's "
                             f"dimension {i} of size {x.shape[i]}.")
    return x[tuple(builtins.slice(o, o + s) for o, s in zip(offsets, shape))]


@op
def unfold(x: TensorLike, axis, size, step, name=None):
    return x.unfold(_int(axis), _int(size), _int(step))


# ---------------------------------------------------------------- gather family


def _wrap_negative(index, n):
    return torch.where(index < 0, index + n, index)


@op
def _gather(x: TensorLike, index: TensorLike, axis=None, name=None, out=None):
    axis = 0 if axis is None else _int(axis)
    _check_index_dtype(index, "gather")
    if index.dim() == 2:
        if index.shape[1] != 1:
            raise ValueError(f"(InvalidArgument) The last dim of index should be 0 or 1 when it is 2D, but we get "
                             f"{index.shape[1]}")
    elif index.dim() > 2:
        raise ValueError(f"(InvalidArgument) The index should be 0-D, 1-D or 2-D, but received {index.dim()}-D.")
    n = x.shape[axis]
    idx = _wrap_negative(index.reshape(-1), n)
    try:
        r = torch.index_select(x, axis, idx)
    except (IndexError, RuntimeError):  # paddle.gather's out-of-range index is Paddle's OutOfRange
        raise IndexError(f"(OutOfRange) The element of Index must be less than the size of input dim size of axis "
                         f"which is {n}, and at least {-n}.") from None
    if index.dim() == 0:
        r = r.squeeze(axis)
    return r


def gather(*args, **kwargs):
    """paddle.gather(x, index, axis=None) or the torch-style gather(input, dim, index)."""
    if (len(args) >= 2 and isinstance(args[1], int)) or (len(args) < 2 and "dim" in kwargs):
        return _take_along_axis_torch(*args, **kwargs)
    return _gather(*args, **kwargs)


def _take_along_axis_torch(input, dim, index, out=None):
    return take_along_axis(input, index, dim, broadcast=False, out=out)


@op
def gather_nd(x: TensorLike, index: TensorLike, name=None):
    _check_index_dtype(index, "gather_nd")
    k = index.shape[-1]
    if k > x.dim():
        raise ValueError(f"(InvalidArgument) The last dimension of index ({k}) must be at most the rank of x "
                         f"({x.dim()}).")
    idx = tuple(index[..., i] for i in range(k))
    try:
        return x[idx] if k else x.expand(tuple(index.shape[:-1]) + tuple(x.shape))
    except IndexError:  # an index past an axis: Paddle's InvalidArgument
        raise ValueError(f"(InvalidArgument) gather_nd: an index is out of range of x's shape {list(x.shape)}") \
            from None


@op
def index_select(x: TensorLike, index: TensorLike, axis=0, name=None):
    if index.dtype not in (torch.int64, torch.int32):
        raise ValueError(f"(InvalidArgument) Input(Index) holds the wrong type, it holds "
                         f"{_dtypes.dtype_name(index.dtype)}, but desires to be int32 or int64")
    if index.dim() == 0:
        raise ValueError("(InvalidArgument) The 'shape' of Input(Index) must be 1-D tensor, but received a 0-D index.")
    axis = _int(axis)
    return torch.index_select(x, axis, _wrap_negative(index.reshape(-1), x.shape[axis]))



def _take_along_shapes(arr, indices, axis):
    if arr.dim() != indices.dim():
        raise ValueError("`indices` and `arr` must have the same number of dimensions!")
    nd = arr.dim()
    if not -nd <= axis < nd:
        raise AssertionError(f"'axis'  must be in the range of [-{nd}, {nd})")
    return axis + nd if axis < 0 else axis


@op
def take_along_axis(arr: TensorLike, indices: TensorLike, axis, broadcast=True, *, out=None):
    axis = _take_along_shapes(arr, indices, _int(axis))
    _check_index_dtype(indices, "take_along_axis")
    if broadcast:
        shape = [0 if a == 0 or i == 0 else max(a, i) for a, i in zip(arr.shape, indices.shape)]
        shape[axis] = indices.shape[axis]
        indices = indices.expand(shape)
        shape[axis] = arr.shape[axis]
        arr = arr.expand(shape)
    else:
        for i in range(arr.dim()):
            if i != axis and arr.shape[i] < indices.shape[i]:
                raise RuntimeError(f"Size does not match at dimension {i} expected index {list(indices.shape)} to "
                                   f"be smaller than self {list(arr.shape)} apart from dimension {axis}")
    return torch.gather(arr, axis, _wrap_negative(indices, arr.shape[axis]))


_REDUCE = {"add": "sum", "mul": "prod", "multiply": "prod", "mean": "mean", "amax": "amax", "amin": "amin"}


def _value_dtype(v):
    """The dtype paddle.to_tensor gives a Python scalar."""
    if isinstance(v, bool):
        return torch.bool
    if isinstance(v, int):
        return torch.int64
    if isinstance(v, complex):
        return torch.complex64
    return _dtypes.to_torch_dtype(_dtypes.get_default_dtype())


@op
def put_along_axis(arr: TensorLike, indices: TensorLike, values, axis, reduce="assign", include_self=True,
                   broadcast=True):
    axis = _take_along_shapes(arr, indices, _int(axis))
    if reduce != "assign" and reduce not in _REDUCE:
        raise ValueError(f"(InvalidArgument) can not support reduce: '{reduce}' for scatter kernel, only support "
                         "reduce op: 'add', 'assign', 'mul', 'mean', 'amin', 'amax' and 'multiply', the default "
                         "reduce op is 'assign'")
    is_tensor = isinstance(values, _normalize.Tensor)
    if broadcast:
        if is_tensor:
            values = values._t
        else:
            values = torch.as_tensor(values, dtype=_value_dtype(values), device=arr.device)
        if any(a < i for a, i in zip(arr.shape, indices.shape)):
            values = values.expand(indices.shape)
        else:
            shape = list(arr.shape)
            shape[axis] = indices.shape[axis]
            indices = indices.expand(shape)
            values = values.expand(shape)
    else:
        if is_tensor:
            values = values._t
            if values.dim() != indices.dim():
                raise ValueError("`indices` and `values` must have the same number of dimensions!")
            for i in range(arr.dim()):
                if (i != axis and arr.shape[i] < indices.shape[i]) or indices.shape[i] > values.shape[i]:
                    raise RuntimeError(f"Size does not match at dimension {i} expected index {list(indices.shape)} "
                                       f"to be smaller than self {list(arr.shape)} apart from dimension {axis} and "
                                       f"to be smaller size than values {list(values.shape)}")
        else:
            values = torch.as_tensor(values, device=arr.device).to(arr.dtype)
            if values.numel() == 1:
                values = values.expand(indices.shape)
        if indices.numel() and bool((indices >= arr.shape[axis]).any()):
            raise RuntimeError(f"one of element of indices is out of bounds for dimension {axis} with size "
                               f"{arr.shape[axis]}")
    if indices.dtype not in (torch.int32, torch.int64):
        raise TypeError(f"The data type of indices should be one of ['int32', 'int64'], but got "
                        f"{_dtypes.dtype_name(indices.dtype)}")
    if values.dtype != arr.dtype:
        raise ValueError(f"(InvalidArgument) The type of data we are trying to retrieve "
                         f"({_dtypes.dtype_name(arr.dtype)}) does not match the type of data "
                         f"({_dtypes.dtype_name(values.dtype)}) currently contained in the container.")
    indices = _wrap_negative(indices, arr.shape[axis]).to(torch.int64)
    if reduce == "assign":
        return arr.scatter(axis, indices, values)
    return arr.scatter_reduce(axis, indices, values, _REDUCE[reduce], include_self=include_self)


@op
def scatter_add(input: TensorLike, dim, index: TensorLike, src: TensorLike):
    return put_along_axis.__wrapped_impl__(input, index, _normalize.wrap(src), dim, "add", True, False)


@op
def scatter_reduce(input: TensorLike, dim, index: TensorLike, src: TensorLike, reduce, *, include_self=True):
    reduce = {"sum": "add", "prod": "multiply"}.get(reduce, reduce)
    return put_along_axis.__wrapped_impl__(input, index, _normalize.wrap(src), dim, reduce, include_self, False)


@op
def _scatter(x: TensorLike, index: TensorLike, updates: TensorLike, overwrite=True, name=None, out=None):
    if index.dtype not in (torch.int32, torch.int64):
        raise ValueError(f"(InvalidArgument) Index holds the wrong type, it holds [{_dtypes.dtype_name(index.dtype)}],"
                         "but desires to be [int32] or [int64].")
    if x.dim() == 0:
        raise ValueError("(InvalidArgument) scatter: x must have at least one dimension, but received a 0-D tensor")
    if updates.dtype != x.dtype:
        raise ValueError(f"(InvalidArgument) The type of data we are trying to retrieve "
                         f"({_dtypes.dtype_name(x.dtype)}) does not match the type of data "
                         f"({_dtypes.dtype_name(updates.dtype)}) currently contained in the container.")
    index = _wrap_negative(index.reshape(-1), x.shape[0]).to(torch.int64)
    updates = updates.reshape((index.numel(),) + tuple(updates.shape[-(x.dim() - 1):] if x.dim() > 1 else ()))
    if tuple(updates.shape[1:]) != tuple(x.shape[1:]):
        raise ValueError(f"(InvalidArgument) The dimensions of the source tensor {list(updates.shape)} and target "
                         f"tensor {list(x.shape)} should match apart from dimension 0.")
    if overwrite:
        return x.index_copy(0, index, updates)
    return x.index_fill(0, index, 0).index_add(0, index, updates)


def _put_along_axis_torch(input, dim, index, src=None, reduce=None, out=None, value=None):
    if src is None:
        src = value
        if src is None:
            raise TypeError("'paddle.scatter' expects (Tensor input, int dim, Tensor index, Tensor src) or "
                            "(Tensor x, Tensor index, Tensor updates, bool overwrite)")
    elif value is not None:
        raise TypeError("`value` is useless when `src` is specified. Be careful for conflicting parameters.")
    r = put_along_axis(input, index, src, dim, reduce or "assign", broadcast=False)
    if out is not None:
        _normalize.rebind(out, r._t.detach())
    return r


def scatter(*args, **kwargs):
    """paddle.scatter(x, index, updates, overwrite=True) or the torch-style scatter(input, dim, index, src)."""
    if (len(args) >= 2 and isinstance(args[1], int)) or (len(args) < 2 and "dim" in kwargs):
        return _put_along_axis_torch(*args, **kwargs)
    return _scatter(*args, **kwargs)


@op
def scatter_nd_add(x: TensorLike, index: TensorLike, updates: TensorLike, name=None):
    k = index.shape[-1]
    idx = tuple(index.reshape(-1, k)[:, i] for i in range(k))
    return x.index_put(idx, updates.reshape((-1,) + tuple(x.shape[k:])), accumulate=True)


@op
def scatter_nd(index: TensorLike, updates: TensorLike, shape: ShapeLike, name=None):
    zeros = torch.zeros(shape, dtype=updates.dtype, device=updates.device)
    k = index.shape[-1]
    idx = tuple(index.reshape(-1, k)[:, i] for i in range(k))
    return zeros.index_put(idx, updates.reshape((-1,) + tuple(shape[k:])), accumulate=True)


def _index_1d(index, api):
    """index_add / index_fill's index: a 1-D int32 / int64 tensor, as Paddle checks it."""
    if index.dtype not in (torch.int64, torch.int32):
        raise ValueError(f"(InvalidArgument) {api}: Input(Index) holds the wrong type, it holds "
                         f"{_dtypes.dtype_name(index.dtype)}, but desires to be int32 or int64")
    if index.dim() != 1:
        raise ValueError(f"(InvalidArgument) {api}: The 'shape' of Input(Index) must be 1-D tensor. But received "
                         f"a {index.dim()}-D index.")


@op
def index_add(x: TensorLike, index: TensorLike, axis, value: TensorLike, alpha=1, name=None):
    _index_1d(index, "index_add")
    axis = _axis_in(_int(axis), x.dim(), "index_add", IndexError)
    n = x.shape[axis]
    try:
        return x.index_add(axis, _wrap_negative(index, n).to(torch.int64), value, alpha=alpha)
    except RuntimeError as e:  # an index out of range is Paddle's InvalidArgument here
        if "out of bounds" not in str(e):
            raise
        raise ValueError(f"(InvalidArgument) Variable value (index) of OP(index_add) expected >= {-n} and < {n}.") \
            from None


_index_add_paddle_order = index_add


@functools.wraps(_index_add_paddle_order)
def index_add(*args, **kwargs):
    """index_add(x, index, axis, value), or torch's order (input, dim, index, source) when the second positional
    argument is an int: Paddle 3.3 reads a call so (its index_add decorator)."""
    if len(args) >= 2 and isinstance(args[1], int):
        kwargs.update(zip(("x", "axis", "index", "value"), args))
        args = ()
    return _index_add_paddle_order(*args, **kwargs)


@op
def index_put(x: TensorLike, indices: TensorSequence, value: TensorLike, accumulate=False, name=None):
    return x.index_put(tuple(indices), value.to(x.dtype), accumulate=accumulate)


@op
def index_fill(x: TensorLike, index: TensorLike, axis, value, name=None):
    _index_1d(index, "index_fill")
    axis = _axis_in(_int(axis), x.dim(), "index_fill")
    if isinstance(value, _normalize.Tensor):
        value = value._t.to(x.dtype)
    elif not (x.is_floating_point() or x.is_complex()):
        value = int(value)
    return torch.index_fill(x, axis, _wrap_negative(index.reshape(-1), x.shape[axis]).to(torch.int64), value)


@op
def masked_fill(x: TensorLike, mask: TensorLike, value, name=None):
    if isinstance(value, _normalize.Tensor):
        value = value._t
        if value.dtype != x.dtype:  # Paddle's kernel reads the value as x's type
            raise ValueError(f"(InvalidArgument) The type of data we are trying to retrieve "
                             f"({_dtypes.dtype_name(x.dtype)}) does not match the type of data "
                             f"({_dtypes.dtype_name(value.dtype)}) currently contained in the container.")
    if mask.dtype is not torch.bool:
        mask = mask.to(torch.bool)
    if isinstance(value, torch.Tensor) and value.dim():  # a value Tensor of any rank broadcasts as Paddle's
        return torch.where(mask, value, x)
    if mask.shape != x.shape:
        shape = torch.broadcast_shapes(x.shape, mask.shape)
        x = x.expand(shape)
    return torch.masked_fill(x, mask, value)


@op
def diagonal_scatter(x: TensorLike, y: TensorLike, offset=0, axis1=0, axis2=1, name=None):
    return torch.diagonal_scatter(x, y.to(x.dtype), offset, axis1, axis2)


@op
def select_scatter(x: TensorLike, values: TensorLike, axis, index, name=None):
    return torch.select_scatter(x, values.to(x.dtype), _int(axis), _int(index))


@op
def slice_scatter(x: TensorLike, value: TensorLike, axes, starts, ends, strides, name=None):
    index = [builtins.slice(None)] * x.dim()
    for a, s, e, st in zip(axes, starts, ends, strides):
        index[_int(a)] = builtins.slice(_int(s), _int(e), _int(st))
    out = x.clone()
    out[tuple(index)] = value.to(x.dtype)
    return out


@op
def shard_index(input: TensorLike, index_num, nshards, shard_id, ignore_value=-1):
    size = (index_num + nshards - 1) // nshards
    inside = (input // size) == shard_id
    return torch.where(inside, input % size, torch.full_like(input, ignore_value))


def tolist(x):
    return x.tolist()  # the method owns it (a distributed Tensor lists its global value)


@op
def unique_consecutive(x: TensorLike, return_inverse=False, return_counts=False, axis=None, dtype: DTypeLike = "int64",
                       name=None):
    out = torch.unique_consecutive(x, return_inverse=return_inverse, return_counts=return_counts, dim=axis)
    if not isinstance(out, tuple):
        return out
    return (out[0],) + tuple(o.to(dtype) for o in out[1:])


# ---------------------------------------------------------------- complex views


@op
def as_complex(x: TensorLike, name=None):
    if x.dim() == 0 or x.shape[-1] != 2:
        raise ValueError(f"(InvalidArgument) The last dimension of the input of as_complex must be 2, but received "
                         f"shape {list(x.shape)}.")
    return torch.view_as_complex(x.contiguous())


@op
def as_real(x: TensorLike, name=None):
    return torch.view_as_real(x)


def view_as_complex(input):
    return as_complex(input)


def view_as_real(input):
    return as_real(input)


# ---------------------------------------------------------------- misc


def _atleast_inputs(inputs):
    """atleast_*d's inputs: one list or tuple that holds a Tensor stands for its items, as Paddle reads it."""
    if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)) and \
            any(isinstance(i, _normalize.Tensor) for i in inputs[0]):
        return inputs[0]
    return inputs


@op
def atleast_1d(*inputs, name=None):
    r = [torch.atleast_1d(_normalize.to_torch(i)) for i in _atleast_inputs(inputs)]
    return r[0] if len(r) == 1 else r


@op
def atleast_2d(*inputs, name=None):
    r = [torch.atleast_2d(_normalize.to_torch(i)) for i in _atleast_inputs(inputs)]
    return r[0] if len(r) == 1 else r


@op
def atleast_3d(*inputs, name=None):
    r = [torch.atleast_3d(_normalize.to_torch(i)) for i in _atleast_inputs(inputs)]
    return r[0] if len(r) == 1 else r


@op
def tensordot(x: TensorLike, y: TensorLike, axes=2, name=None):
    if x.dtype != y.dtype:
        raise ValueError(f"(InvalidArgument) The type of data we are trying to retrieve ({_dtypes.dtype_name(y.dtype)})"
                         f" does not match the type of data ({_dtypes.dtype_name(x.dtype)}) currently contained in "
                         "the container.")
    ax, ay = _tensordot_axes(axes, x.dim())
    for a, b in zip(ax, ay):
        sx, sy = list(x.shape)[a], list(y.shape)[b]  # a list's IndexError past the rank, as Paddle's
        if sx == 1:  # Paddle contracts a size-1 axis against the other side's sum over its axis
            y = y.sum(b, keepdim=True)
        elif sy == 1:
            x = x.sum(a, keepdim=True)
        elif sx != sy:
            raise AssertionError(f"The dimensional size for 'x' and 'y' in tensordot should match each other, "
                                 f"but 'x' has size {sx} in dim {a} while 'y' has size {sy} in dim {b}.")
    for t, axs in ((x, ax), (y, ay)):
        kept = t.dim() - len({a % t.dim() for a in axs})
        if kept + len(axs) > t.dim():  # an axis named twice: Paddle's transpose gets a longer perm
            raise ValueError("(InvalidArgument) The input tensor's dimension should be equal to or greater than the "
                             f"axis's size. But received input tensor's dimension is {t.dim()}, axis's size is "
                             f"{kept + len(axs)}")
    return torch.tensordot(x, y, dims=(ax, ay))


def _tensordot_axes(axes, ndim):
    """tensordot's axes as Paddle reads them: an int n (the last n of x, the first n of y), one list (the same axes
    of both), or two lists, the shorter extended by the other's tail; anything else fails as Python does there."""
    if isinstance(axes, numbers.Integral) and not isinstance(axes, bool):
        if axes < 0:
            raise AssertionError(f"The 'axes' in tensordot should not be negative, but received axes={axes}.")
        return list(range(ndim - axes, ndim)), list(range(axes))
    ax, ay = [], []
    if isinstance(axes, _normalize.Tensor):
        axes = axes.tolist()
    if not axes or isinstance(axes[0], numbers.Integral):
        ax = axes
    else:
        ax = axes[0]
        if len(axes) > 1:
            ay = axes[1]
    ax, ay = (a.tolist() if isinstance(a, _normalize.Tensor) else a for a in (ax, ay))
    ax, ay = list(ax), list(ay)
    return ax + ay[len(ax):], ay + ax[len(ay):]


# ---------------------------------------------------------------- in-place fills (Tensor methods)


def _check_inplace(x):
    t = x._t
    if t.requires_grad and t.is_leaf and torch.is_grad_enabled():
        raise ValueError(f"(InvalidArgument) Leaf Tensor ({x.name}) that doesn't stop gradient can't use "
                         "inplace strategy.")


def fill_(x, value):
    if not isinstance(value, (float, int)):
        raise TypeError(f"The type of 'value'  must be int or float, but received {type(value)}.")
    _check_inplace(x)
    x._t.fill_(value if x._t.is_floating_point() or x._t.is_complex() else int(value))
    return x


def zero_(x):
    _check_inplace(x)
    x._t.zero_()
    return x


def fill_diagonal_(x, value, offset=0, wrap=False, name=None):
    _check_inplace(x)
    t = x._t
    if t.dim() < 2:
        raise ValueError(f"(InvalidArgument) Tensor dims should >= 2, but received {t.dim()}.")
    if t.dim() != 2:
        wrap = True
    cols = t.shape[1]
    step = builtins.sum(t.stride()) if t.is_contiguous() else builtins.sum(
        torch.empty(t.shape, device="meta").stride())
    size = t.numel()
    end = size if wrap else builtins.min(size, cols * cols)
    pos = torch.arange(0, end, step, device=t.device)
    col = pos % cols + offset
    pos = pos[(col >= 0) & (col < cols)] + offset
    pos = pos[(pos >= 0) & (pos < size)]
    if not (t.is_floating_point() or t.is_complex()):
        value = int(value)
    t.put_(pos, torch.full(pos.shape, value, dtype=t.dtype, device=t.device))
    return x


@op
def fill_diagonal_tensor(x: TensorLike, y: TensorLike, offset=0, dim1=0, dim2=1, name=None):
    return torch.diagonal_scatter(x, y.to(x.dtype), offset, dim1, dim2)


def fill_diagonal_tensor_(x, y, offset=0, dim1=0, dim2=1, name=None):
    _check_inplace(x)
    r = fill_diagonal_tensor(x, y, offset, dim1, dim2)
    x._t.copy_(r._t)
    return x


# torch-style spellings Paddle 3.3 also accepts
concatenate = concat
reverse = flip
take_along_dim = take_along_axis


def split_with_sizes(x, split_sizes, dim=0):
    """Tensor.split_with_sizes: `split` with a list of sizes (torch's name and argument order)."""
    return split(x, list(split_sizes), dim)
