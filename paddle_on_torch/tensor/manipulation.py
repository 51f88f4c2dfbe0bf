"""Shape and layout manipulation (paddle.tensor.manipulation)."""
import builtins

import torch

from .._normalize import AxisLike, DTypeLike, ShapeLike, TensorLike, TensorSequence, op

__all__ = [
    "reshape", "transpose", "permute", "concat", "cat", "stack", "squeeze", "unsqueeze", "flatten", "split",
    "chunk", "cast", "astype", "expand", "expand_as", "broadcast_to", "tile", "flip", "roll", "unbind",
    "unstack", "moveaxis", "t", "view", "view_as", "slice", "strided_slice", "gather", "gather_nd",
    "index_select", "masked_select", "repeat_interleave", "broadcast_tensors", "broadcast_shape", "rot90",
    "scatter", "scatter_nd", "scatter_nd_add", "put_along_axis", "take_along_axis", "index_add", "index_put",
    "masked_fill", "unfold", "as_complex", "as_real", "crop", "hstack", "vstack", "dstack", "column_stack",
    "row_stack", "hsplit", "vsplit", "dsplit", "tensor_split", "atleast_1d", "atleast_2d", "atleast_3d",
    "swapaxes", "swapdims", "narrow", "unflatten", "index_fill", "diagonal_scatter", "select_scatter",
    "slice_scatter", "shard_index", "tolist", "unique_consecutive", "as_strided", "contiguous",
]


@op
def reshape(x: TensorLike, shape: ShapeLike, name=None):
    # Paddle: a 0 in `shape` copies that dimension from x
    if 0 in shape:
        shape = [x.shape[i] if s == 0 else s for i, s in enumerate(shape)]
    return x.reshape(shape)


@op
def view(x: TensorLike, shape_or_dtype, name=None):
    if isinstance(shape_or_dtype, (list, tuple)):
        return x.view([int(s) for s in shape_or_dtype])
    from ..framework.dtype import to_torch_dtype

    return x.view(to_torch_dtype(shape_or_dtype))


@op
def view_as(x: TensorLike, other: TensorLike, name=None):
    return x.view_as(other)


@op
def transpose(x: TensorLike, perm: AxisLike, name=None):
    if len(perm) != x.dim():
        raise ValueError(f"(InvalidArgument) The length of perm ({len(perm)}) should be equal to the rank of "
                         f"x ({x.dim()}).")
    return x.permute(perm)


def permute(x, *perm, name=None, dims=None):
    perm = dims if dims is not None else perm[0] if len(perm) == 1 and isinstance(perm[0], (list, tuple)) else perm
    return transpose(x, list(perm))


@op
def moveaxis(x: TensorLike, source: AxisLike, destination: AxisLike, name=None):
    return torch.movedim(x, source, destination)


@op
def swapaxes(x: TensorLike, axis0, axis1, name=None):
    return torch.swapaxes(x, axis0, axis1)


swapdims = swapaxes


@op
def t(input: TensorLike, name=None):
    if input.dim() > 2:
        raise ValueError(f"(InvalidArgument) The input tensor of t() should be at most 2-D, but received "
                         f"{input.dim()}-D.")
    return input.t()


@op
def concat(x: TensorSequence, axis=0, name=None, *, out=None):
    axis = int(axis.item()) if isinstance(axis, torch.Tensor) else axis
    return torch.cat(x, dim=axis)


cat = concat


@op
def stack(x: TensorSequence, axis=0, name=None, *, out=None):
    return torch.stack(x, dim=axis)


@op
def hstack(x: TensorSequence, name=None):
    return torch.hstack(x)


@op
def vstack(x: TensorSequence, name=None):
    return torch.vstack(x)


row_stack = vstack


@op
def dstack(x: TensorSequence, name=None):
    return torch.dstack(x)


@op
def column_stack(x: TensorSequence, name=None):
    return torch.column_stack(x)


@op
def squeeze(x: TensorLike, axis: AxisLike = None, name=None):
    if axis is None:
        return x.squeeze()
    return x.squeeze(axis)


@op
def unsqueeze(x: TensorLike, axis: AxisLike, name=None):
    if isinstance(axis, int):
        return x.unsqueeze(axis)
    for a in axis:
        x = x.unsqueeze(a)
    return x


@op
def flatten(x: TensorLike, start_axis=0, stop_axis=-1, name=None):
    return x.flatten(start_axis, stop_axis)


@op
def unflatten(x: TensorLike, axis, shape: ShapeLike, name=None):
    return x.unflatten(axis, shape)


def _sections(x, num_or_sections, axis):
    n = x.shape[axis]
    if isinstance(num_or_sections, int):
        if n % num_or_sections:
            raise ValueError(f"(InvalidArgument) The input's size along the split dimension must be evenly "
                             f"divisible by Attr(num_or_sections). But received Attr(num_or_sections) = "
                             f"{num_or_sections}, input(X)'s shape = {list(x.shape)}, Attr(dim) = {axis}.")
        return [n // num_or_sections] * num_or_sections
    sizes = [int(s.item()) if isinstance(s, torch.Tensor) else int(s) for s in num_or_sections]
    if -1 in sizes:
        sizes[sizes.index(-1)] = n - (sum(sizes) + 1)
    return sizes


@op
def split(x: TensorLike, num_or_sections, axis=0, name=None):
    axis = int(axis.item()) if isinstance(axis, torch.Tensor) else axis
    return list(torch.split(x, _sections(x, num_or_sections, axis), dim=axis))


@op
def chunk(x: TensorLike, chunks, axis=0, name=None):
    return list(torch.split(x, _sections(x, chunks, axis), dim=axis))


@op
def tensor_split(x: TensorLike, num_or_indices, axis=0, name=None):
    return list(torch.tensor_split(x, num_or_indices, dim=axis))


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
def cast(x: TensorLike, dtype: DTypeLike):
    return x.to(dtype)


astype = cast


@op
def expand(x: TensorLike, shape: ShapeLike, name=None):
    return x.expand(shape)


@op
def expand_as(x: TensorLike, y: TensorLike, name=None):
    return x.expand_as(y)


@op
def broadcast_to(x: TensorLike, shape: ShapeLike, name=None):
    return x.expand(shape)


@op
def broadcast_tensors(input: TensorSequence, name=None):
    return list(torch.broadcast_tensors(*input))


def broadcast_shape(x_shape, y_shape):
    return list(torch.broadcast_shapes(tuple(x_shape), tuple(y_shape)))


@op
def tile(x: TensorLike, repeat_times: ShapeLike, name=None):
    return x.repeat([1] * (len(repeat_times) - x.dim()) + list(repeat_times)) if len(repeat_times) >= x.dim() \
        else x.repeat([1] * (x.dim() - len(repeat_times)) + list(repeat_times))


@op
def flip(x: TensorLike, axis: AxisLike, name=None):
    return torch.flip(x, (axis,) if isinstance(axis, int) else axis)


@op
def rot90(x: TensorLike, k=1, axes=(0, 1), name=None):
    return torch.rot90(x, k, list(axes))


@op
def roll(x: TensorLike, shifts: AxisLike, axis: AxisLike = None, name=None):
    return torch.roll(x, shifts, axis) if axis is not None else torch.roll(x, shifts)


@op
def unbind(input: TensorLike, axis=0):
    return list(torch.unbind(input, axis))


@op
def unstack(x: TensorLike, axis=0, num=None):
    return list(torch.unbind(x, axis))


@op
def slice(input: TensorLike, axes: AxisLike, starts: ShapeLike, ends: ShapeLike):
    index = [builtins.slice(None)] * input.dim()
    for a, s, e in zip(axes, starts, ends):
        n = input.shape[a]
        s = max(0, min(n, s + n if s < 0 else s))
        e = max(0, min(n, e + n if e < 0 else e))
        index[a] = builtins.slice(s, e)
    return input[tuple(index)]


@op
def strided_slice(x: TensorLike, axes: AxisLike, starts: ShapeLike, ends: ShapeLike, strides: ShapeLike,
                  name=None):
    index = [builtins.slice(None)] * x.dim()
    flips = []
    for a, s, e, st in zip(axes, starts, ends, strides):
        if st > 0:
            index[a] = builtins.slice(s, e, st)
        else:  # torch has no negative steps: take the positive-step slice of the flipped axis
            n = x.shape[a]
            s = n + s if s < 0 else min(s, n - 1)
            e = n + e if e < 0 else e
            index[a] = builtins.slice(n - 1 - s, n - 1 - e if e >= -1 else None, -st)
            flips.append(a)
    if flips:
        x = torch.flip(x, flips)
    return x[tuple(index)]



@op
def narrow(input: TensorLike, dim, start, length, name=None):
    return torch.narrow(input, dim, start, length)


@op
def gather(x: TensorLike, index: TensorLike, axis=None, name=None):
    axis = 0 if axis is None else int(axis.item()) if isinstance(axis, torch.Tensor) else axis
    return torch.index_select(x, axis, index.reshape(-1) if index.dim() else index.reshape(1)) \
        if index.dim() <= 1 else torch.index_select(x, axis, index.reshape(-1))


@op
def gather_nd(x: TensorLike, index: TensorLike, name=None):
    k = index.shape[-1]
    idx = tuple(index[..., i] for i in range(k))
    return x[idx]


@op
def index_select(x: TensorLike, index: TensorLike, axis=0, name=None):
    return torch.index_select(x, axis, index)


@op
def masked_select(x: TensorLike, mask: TensorLike, name=None):
    return torch.masked_select(x, mask)


@op
def masked_fill(x: TensorLike, mask: TensorLike, value, name=None):
    value = value._t if hasattr(value, "_t") else value
    return torch.masked_fill(x, mask, value)


@op
def index_fill(x: TensorLike, index: TensorLike, axis, value, name=None):
    return torch.index_fill(x, axis, index, value)


@op
def repeat_interleave(x: TensorLike, repeats, axis=None, name=None, *, output_size=None):
    repeats = repeats._t if hasattr(repeats, "_t") else repeats
    return torch.repeat_interleave(x, repeats, dim=axis)


@op
def scatter(x: TensorLike, index: TensorLike, updates: TensorLike, overwrite=True, name=None):
    index = index.reshape(-1)
    if overwrite:
        return x.index_copy(0, index, updates)
    out = x.index_fill(0, index, 0)
    return out.index_add(0, index, updates)


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


@op
def take_along_axis(arr: TensorLike, indices: TensorLike, axis, broadcast=True):
    if broadcast:
        shape = list(torch.broadcast_shapes(
            tuple(s for i, s in enumerate(arr.shape) if i != axis % arr.dim()),
            tuple(s for i, s in enumerate(indices.shape) if i != axis % arr.dim())))
        shape.insert(axis % arr.dim(), indices.shape[axis])
        indices = indices.expand(shape)
        arr_shape = list(shape)
        arr_shape[axis % arr.dim()] = arr.shape[axis]
        arr = arr.expand(arr_shape)
    return torch.take_along_dim(arr, indices, axis)


@op
def put_along_axis(arr: TensorLike, indices: TensorLike, values, axis, reduce="assign", include_self=True,
                   broadcast=True):
    values = values._t if hasattr(values, "_t") else torch.as_tensor(values, dtype=arr.dtype)
    if broadcast:
        indices = indices.expand(torch.broadcast_shapes(indices.shape, values.shape)) \
            if indices.dim() == values.dim() else indices
        values = values.expand(indices.shape)
    if reduce == "assign":
        return arr.scatter(axis, indices, values)
    torch_reduce = {"add": "sum", "mul": "prod", "multiply": "prod", "mean": "mean", "amax": "amax",
                    "amin": "amin"}[reduce]
    return arr.scatter_reduce(axis, indices, values, torch_reduce, include_self=include_self)


@op
def index_add(x: TensorLike, index: TensorLike, axis, value: TensorLike, name=None):
    return x.index_add(axis, index, value)


@op
def index_put(x: TensorLike, indices: TensorSequence, value: TensorLike, accumulate=False, name=None):
    return x.index_put(tuple(indices), value, accumulate=accumulate)


@op
def unfold(x: TensorLike, axis, size, step, name=None):
    return x.unfold(axis, size, step)


@op
def as_complex(x: TensorLike, name=None):
    return torch.view_as_complex(x.contiguous())


@op
def as_real(x: TensorLike, name=None):
    return torch.view_as_real(x)


@op
def crop(x: TensorLike, shape: ShapeLike = None, offsets: ShapeLike = None, name=None):
    shape = x.shape if shape is None else [x.shape[i] - (offsets or [0] * x.dim())[i] if s == -1 else s
                                           for i, s in enumerate(shape)]
    offsets = offsets or [0] * x.dim()
    return x[tuple(builtins.slice(o, o + s) for o, s in zip(offsets, shape))]


@op
def atleast_1d(*inputs, name=None):
    r = [torch.atleast_1d(i._t if hasattr(i, "_t") else torch.as_tensor(i)) for i in inputs]
    return r[0] if len(r) == 1 else r


@op
def atleast_2d(*inputs, name=None):
    r = [torch.atleast_2d(i._t if hasattr(i, "_t") else torch.as_tensor(i)) for i in inputs]
    return r[0] if len(r) == 1 else r


@op
def atleast_3d(*inputs, name=None):
    r = [torch.atleast_3d(i._t if hasattr(i, "_t") else torch.as_tensor(i)) for i in inputs]
    return r[0] if len(r) == 1 else r


@op
def diagonal_scatter(x: TensorLike, y: TensorLike, offset=0, axis1=0, axis2=1, name=None):
    return torch.diagonal_scatter(x, y, offset, axis1, axis2)


@op
def select_scatter(x: TensorLike, values: TensorLike, axis, index, name=None):
    return torch.select_scatter(x, values, axis, index)


@op
def slice_scatter(x: TensorLike, value: TensorLike, axes, starts, ends, strides, name=None):
    out = x
    for a, s, e, st in zip(axes, starts, ends, strides):
        out = torch.slice_scatter(out, value, a, s, e, st)
    return out


@op
def shard_index(input: TensorLike, index_num, nshards, shard_id, ignore_value=-1):
    size = (index_num + nshards - 1) // nshards
    inside = (input // size) == shard_id
    return torch.where(inside, input % size, torch.full_like(input, ignore_value))


def tolist(x):
    return x._t.tolist()


@op
def unique_consecutive(x: TensorLike, return_inverse=False, return_counts=False, axis=None, dtype: DTypeLike = "int64",
                       name=None):
    out = torch.unique_consecutive(x, return_inverse=return_inverse, return_counts=return_counts, dim=axis)
    if not isinstance(out, tuple):
        return out
    return (out[0],) + tuple(o.to(dtype) for o in out[1:])


@op
def as_strided(x: TensorLike, shape: ShapeLike, stride: ShapeLike, offset=0, name=None):
    return torch.as_strided(x, shape, stride, offset)


@op
def contiguous(x: TensorLike):
    return x.contiguous()
