"""Writes into tensors: slice / select assignment, copy, fill, index_put, scatter, index_copy.

In-place ops reach the writer functionalized (`pir_writer.functional`): `x[:, 1:3] = y` as slice_scatter,
`x[:, 0] = v` as select_scatter, `t.copy_(s)` as copy, `t.fill_(v)` as fill.  Paddle writes slice assignment as
`set_value_with_tensor_`; the non-inplace `set_value_with_tensor` is written here, so that the value assigned
into stays as it was for its other readers (the functional graph may read it again)."""
import torch

from ..._report import unsupported
from ..pir_writer import (
    _INT32_MAX, _Sym, _api, _axis, _is_value, _ndim, _out, a_arr, a_bool, a_dtype, a_i32, a_i64s, a_place, a_str, pir)


def _is_num(v):
    """A Python number among the arguments (value ids are ints too)."""
    return isinstance(v, (int, float, bool)) and not _is_value(v)


def _set_value(w, base, src, dim, start, end, step, decrease, t):
    src = w.cast(src, t[0])
    starts = w.ints([start]) if isinstance(start, _Sym) else w.int_array([start])
    ends = w.ints([end]) if isinstance(end, _Sym) else w.int_array([end])
    return w.op1("set_value_with_tensor", [base, src, starts, ends, w.int_array([step])],
                 [("axes", a_i64s([dim])), ("decrease_axes", a_i64s([dim]) if decrease else a_arr([])),
                  ("none_axes", a_arr([]))], t)


@pir(torch.ops.aten.slice_scatter.default)
def _slice_scatter(w, node, args):
    base, src = args[0], args[1]
    dim = _axis(args[2] if len(args) > 2 else 0, _ndim(w, base))
    start = args[3] if len(args) > 3 and args[3] is not None else 0
    end = args[4] if len(args) > 4 and args[4] is not None else _INT32_MAX
    step = args[5] if len(args) > 5 else 1
    if isinstance(end, int) and end > _INT32_MAX:
        end = _INT32_MAX
    if not isinstance(step, int):
        raise unsupported(_api(), " (Paddle program): slice assignment with a run-time step")
    if 0 in w.shape(src):  # an empty region (Swin's slice(0, -7) of a 7-wide map): nothing to write, and Paddle's
        return base        # set_value kernel refuses an empty value
    size = w.shape(base)[dim]
    if start == 0 and step == 1 and isinstance(end, int) and (end == _INT32_MAX or (size >= 0 and end >= size)):
        return _copy_into(w, base, src, _out(node))  # the whole dim: the source, broadcast
    return _set_value(w, base, src, dim, start, end, step, False, _out(node))


@pir(torch.ops.aten.select_scatter.default)
def _select_scatter(w, node, args):
    base, src, dim, index = args[:4]
    dim = _axis(dim, _ndim(w, base))
    if not isinstance(index, int):
        raise unsupported(_api(), " (Paddle program): assignment at a run-time index")
    end = index + 1 if index != -1 else _INT32_MAX
    return _set_value(w, base, src, dim, index, end, 1, True, _out(node))


def _copy_into(w, dst, src, t):
    """`src` cast to `dst`'s dtype and broadcast to its shape (torch's copy / fill): added to zeros like `dst`."""
    src = w.cast(src, t[0]) if not _is_num(src) else src
    if not _is_num(src) and list(w.shape(src)) == list(t[1]) and -1 not in t[1]:
        return src
    if _is_num(src):
        return w.op1("full_like", [dst, w.full([1], src, t[0])], [("dtype", a_dtype(t[0])),
                                                                  ("place", a_place(0))], t)
    zeros = w.op1("full_like", [dst, w.full([1], 0, t[0])], [("dtype", a_dtype(t[0])), ("place", a_place(0))], t)
    if t[0] == "bool":
        return w.op1("logical_or", [zeros, src], [], t)
    return w.op1("add", [zeros, src], [], t)


@pir(torch.ops.aten.copy.default)
def _copy(w, node, args):
    return _copy_into(w, args[0], args[1], _out(node))


@pir(torch.ops.aten.fill.Scalar, torch.ops.aten.fill.Tensor)
def _fill(w, node, args):
    return _copy_into(w, args[0], args[1], _out(node))


@pir(torch.ops.aten.index_put.default)
def _index_put(w, node, args):
    x, indices, values = args[0], list(args[1]), args[2]
    accumulate = args[3] if len(args) > 3 else False
    t = _out(node)
    if any(i is None for i in indices):
        raise unsupported(_api(), " (Paddle program): index_put with a slice before an index tensor")
    vec = w.emit("builtin.combine", indices, outs=[[w.type(i) for i in indices]], sg=[True])[0]
    values = w.cast(values, t[0]) if not _is_num(values) else w.full([1], values, t[0])
    return w.op1("index_put", [x, vec, values], [("accumulate", a_bool(accumulate))], t)


_REDUCE = {"sum": "add", "prod": "mul", "mean": "mean", "amax": "amax", "amin": "amin"}


def _put_along_axis(w, x, dim, index, values, reduce, include_self, t):
    if _is_num(values):
        values = w.op1("full_like", [index, w.full([1], values, t[0])], [("dtype", a_dtype(t[0])),
                                                                         ("place", a_place(0))],
                       (t[0], w.shape(index)))
    elif list(w.shape(values)) != list(w.shape(index)):  # torch reads src where index has entries: cut it to index's shape
        n = _ndim(w, index)
        values = w.op1("slice", [values, w.int_array([0] * n), w.op1("shape64", [index], [], ("int64", [n]),
                                                                     sg=[True])],
                       [("axes", a_i64s(range(n))), ("infer_flags", a_i64s([1] * n)), ("decrease_axis", a_arr([]))],
                       (w.dtype(values), w.shape(index)))
    return w.op1("put_along_axis", [x, index, w.cast(values, t[0])],
                 [("axis", a_i32(_axis(dim, _ndim(w, x)))), ("reduce", a_str(reduce)),
                  ("include_self", a_bool(include_self))], t)


@pir(torch.ops.aten.scatter.src, torch.ops.aten.scatter.value)
def _scatter(w, node, args):
    x, dim, index, src = args[:4]
    if len(args) > 4 or "reduce" in node.kwargs:
        raise unsupported(_api(), " (Paddle program): scatter with reduce= (use scatter_reduce)")
    return _put_along_axis(w, x, dim, index, src, "assign", True, _out(node))


@pir(torch.ops.aten.scatter_add.default)
def _scatter_add(w, node, args):
    x, dim, index, src = args[:4]
    return _put_along_axis(w, x, dim, index, src, "add", True, _out(node))


@pir(torch.ops.aten.scatter_reduce.two)
def _scatter_reduce(w, node, args):
    x, dim, index, src, reduce = args[:5]
    include_self = args[5] if len(args) > 5 else node.kwargs.get("include_self", True)
    return _put_along_axis(w, x, dim, index, src, _REDUCE[reduce], include_self, _out(node))


@pir(torch.ops.aten.index_copy.default)
def _index_copy(w, node, args):
    x, dim, index, src = args[:4]
    if _axis(dim, _ndim(w, x)) != 0:
        raise unsupported(_api(), " (Paddle program): index_copy along a dim other than 0")
    t = _out(node)
    return w.op1("scatter", [x, index, w.cast(src, t[0])], [("overwrite", a_bool(True))], t)

