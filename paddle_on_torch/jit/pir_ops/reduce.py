"""Reductions, search (argmax, topk, sort) and softmax."""
import torch

from ..pir_writer import UNDEFINED_DTYPE, _axis, _ndim, _out, a_bool, a_dtype, a_i32, a_i32s, pir


def _dims(w, x, dims):
    if dims is None:
        return []
    dims = list(dims) if isinstance(dims, (list, tuple)) else [dims]
    return [_axis(d, max(_ndim(w, x), 1)) for d in dims]


@pir(torch.ops.aten.mean.dim, torch.ops.aten.mean.default)
def _mean(w, node, args):
    x = args[0]
    dims = _dims(w, x, args[1] if len(args) > 1 else None)
    keep = args[2] if len(args) > 2 else node.kwargs.get("keepdim", False)
    t = _out(node)
    return w.op1("mean", [w.cast(x, t[0]), w.int_array(dims)], [("keepdim", a_bool(keep))], t)


@pir(torch.ops.aten.sum.dim_IntList, torch.ops.aten.sum.default)
def _sum(w, node, args):
    x = args[0]
    dims = _dims(w, x, args[1] if len(args) > 1 and node.target is torch.ops.aten.sum.dim_IntList else None)
    keep = (args[2] if len(args) > 2 else node.kwargs.get("keepdim", False)) \
        if node.target is torch.ops.aten.sum.dim_IntList else False
    t = _out(node)
    dtype = t[0] if t[0] != w.dtype(x) else UNDEFINED_DTYPE
    return w.op1("sum", [x, w.int_array(dims)], [("dtype", a_dtype(dtype)), ("keepdim", a_bool(keep))], t)


@pir(torch.ops.aten.amax.default, torch.ops.aten.amin.default, torch.ops.aten.max.default, torch.ops.aten.min.default)
def _amax(w, node, args):
    x = args[0]
    dims = _dims(w, x, args[1] if len(args) > 1 else None)
    keep = args[2] if len(args) > 2 else False
    name = "max" if node.target in (torch.ops.aten.amax.default, torch.ops.aten.max.default) else "min"
    return w.op1(name, [x, w.int_array(dims)], [("keepdim", a_bool(keep))], _out(node))


@pir(torch.ops.aten.prod.dim_int, torch.ops.aten.prod.default)
def _prod(w, node, args):
    x = args[0]
    dims = _dims(w, x, args[1] if len(args) > 1 else None)
    keep = args[2] if len(args) > 2 else False
    return w.op1("prod", [x, w.int_array(dims)], [("keepdim", a_bool(keep)), ("reduce_all", a_bool(not dims))],
                 _out(node))


@pir(torch.ops.aten.logsumexp.default)
def _logsumexp(w, node, args):
    x = args[0]
    dims = _dims(w, x, args[1])
    keep = args[2] if len(args) > 2 else False
    return w.op1("logsumexp", [x], [("axis", a_i32s(dims)), ("keepdim", a_bool(keep)), ("reduce_all", a_bool(False))],
                 _out(node))


@pir(torch.ops.aten.argmax.default, torch.ops.aten.argmin.default)
def _argmax(w, node, args):
    x = args[0]
    dim = args[1] if len(args) > 1 else None
    keep = args[2] if len(args) > 2 else False
    name = "argmax" if node.target is torch.ops.aten.argmax.default else "argmin"
    return w.op1(name, [x, w.full([1], dim if dim is not None else 0, "int64")],
                 [("keepdims", a_bool(keep)), ("flatten", a_bool(dim is None)), ("dtype", a_dtype("int64"))],
                 _out(node))


@pir(torch.ops.aten.max.dim, torch.ops.aten.min.dim)
def _max_dim(w, node, args):
    x, dim = args[0], args[1]
    keep = args[2] if len(args) > 2 else False
    types = _out(node)
    big = node.target is torch.ops.aten.max.dim
    v = w.op1("max" if big else "min", [x, w.int_array([_axis(dim, _ndim(w, x))])], [("keepdim", a_bool(keep))],
              types[0])
    i = w.op1("argmax" if big else "argmin", [x, w.full([1], dim, "int64")],
              [("keepdims", a_bool(keep)), ("flatten", a_bool(False)), ("dtype", a_dtype("int64"))], types[1])
    return [v, i]


@pir(torch.ops.aten.cumsum.default)
def _cumsum(w, node, args):
    x, dim = args[0], args[1]
    t = _out(node)
    return w.op1("cumsum", [w.cast(x, t[0]), w.full([1], dim, "int32")],
                 [("flatten", a_bool(False)), ("exclusive", a_bool(False)), ("reverse", a_bool(False))], t)


@pir(torch.ops.aten.topk.default)
def _topk(w, node, args):
    x, k = args[0], args[1]
    dim = args[2] if len(args) > 2 else -1
    largest = args[3] if len(args) > 3 else True
    srt = args[4] if len(args) > 4 else True
    return w.emit("pd_op.topk", [x, w.full([1], k, "int32")],
                  [("axis", a_i32(dim)), ("largest", a_bool(largest)), ("sorted", a_bool(srt))], _out(node))


@pir(torch.ops.aten.sort.default, torch.ops.aten.sort.stable)
def _sort(w, node, args):
    x = args[0]
    if node.target is torch.ops.aten.sort.stable:
        stable = node.kwargs.get("stable", False)
        dim = node.kwargs.get("dim", -1)
        desc = node.kwargs.get("descending", False)
    else:
        stable = False
        dim = args[1] if len(args) > 1 else -1
        desc = args[2] if len(args) > 2 else False
    return w.emit("pd_op.argsort", [x], [("axis", a_i32(dim)), ("descending", a_bool(desc)),
                                         ("stable", a_bool(bool(stable)))], _out(node))


@pir(torch.ops.aten.argsort.default, torch.ops.aten.argsort.stable)
def _argsort(w, node, args):
    x = args[0]
    dim = args[1] if len(args) > 1 else node.kwargs.get("dim", -1)
    desc = args[2] if len(args) > 2 else node.kwargs.get("descending", False)
    stable = node.kwargs.get("stable", False)
    t = _out(node)
    outs = w.emit("pd_op.argsort", [x], [("axis", a_i32(dim)), ("descending", a_bool(desc)),
                                         ("stable", a_bool(bool(stable)))], [w.type(x), t])
    return outs[1]


@pir(torch.ops.aten.softmax.int, torch.ops.aten._softmax.default, torch.ops.aten.log_softmax.int,
     torch.ops.aten._log_softmax.default)
def _softmax(w, node, args):
    name = "log_softmax" if node.target in (torch.ops.aten.log_softmax.int, torch.ops.aten._log_softmax.default) \
        else "softmax"
    t = _out(node)
    return w.op1(name, [w.cast(args[0], t[0])], [("axis", a_i32(args[1]))], t)
