"""Reductions, search (argmax, topk, sort) and softmax."""
import torch

from ..._report import unsupported
from ..pir_writer import UNDEFINED_DTYPE, _api, _axis, _ndim, _out, _register, a_bool, a_dtype, a_f32, a_i32, a_i32s, pir


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


# ------------------------------------------------------------------ variance, standard deviation, norms
def _var_std(w, node, x, dims, correction, keep, want):
    """Paddle's var / std forms: mean (keepdim), subtract, square, sum, divided by numel(x) / numel(sum) minus the
    correction (the count read at run time, so a reduced dynamic dim is counted right)."""
    t = _out(node)
    tv = t[0] if isinstance(t, list) else t
    dt = tv[0]
    x = w.cast(x, dt)
    xs = w.shape(x)
    dims = _dims(w, x, dims) or list(range(len(xs)))
    kshape = [1 if i in dims else s for i, s in enumerate(xs)]
    rshape = kshape if keep else [s for i, s in enumerate(xs) if i not in dims]
    mean_k = w.op1("mean", [x, w.int_array(dims)], [("keepdim", a_bool(True))], (dt, kshape))
    d = w.op1("subtract", [x, mean_k], [], (dt, xs))
    sq = w.op1("multiply", [d, d], [], (dt, xs))
    s = w.op1("sum", [sq, w.int_array(dims)], [("dtype", a_dtype(UNDEFINED_DTYPE)), ("keepdim", a_bool(keep))],
              (dt, rshape))
    n_all = w.cast(w.op1("numel", [x], [], ("int64", []), sg=[True]), dt)
    n_out = w.cast(w.op1("numel", [s], [], ("int64", []), sg=[True]), dt)
    n = w.op1("divide", [n_all, n_out], [], (dt, []), sg=[True])
    if correction:
        n = w.op1("scale", [n, w.full([1], 1.0, "float32")], [("bias", a_f32(-float(correction))),
                                                               ("bias_after_scale", a_bool(True))], (dt, []), sg=[True])
    var = w.op1("divide", [s, n], [], (dt, rshape))
    if want == "std":
        return w.op1("sqrt", [var], [], (dt, rshape))
    if want == "var_mean":
        mean = mean_k if keep else w.op1("mean", [x, w.int_array(dims)], [("keepdim", a_bool(False))], (dt, rshape))
        return [var, mean]
    return var


def _correction(node, args, unbiased_at):
    if "correction" in node.kwargs:
        c = node.kwargs["correction"]
        return 1 if c is None else c
    if len(args) > unbiased_at and isinstance(args[unbiased_at], bool):
        return 1 if args[unbiased_at] else 0
    return 1


def _var_family(want):
    def lower(w, node, args):
        x = args[0]
        dims = args[1] if len(args) > 1 else node.kwargs.get("dim")
        keep = node.kwargs.get("keepdim", args[3] if len(args) > 3 else False)
        return _var_std(w, node, x, dims, _correction(node, args, 2), keep, want)
    return lower


for _name, _want in (("var", "var"), ("std", "std"), ("var_mean", "var_mean")):
    for _ov in ("correction", "dim"):
        _register([f"{_name}.{_ov}"], _var_family(_want))


@pir(torch.ops.aten.linalg_vector_norm.default)
def _vector_norm(w, node, args):
    x = args[0]
    ord_ = args[1] if len(args) > 1 else node.kwargs.get("ord", 2)
    dim = args[2] if len(args) > 2 else node.kwargs.get("dim")
    keep = args[3] if len(args) > 3 else node.kwargs.get("keepdim", False)
    t = _out(node)
    dims = _dims(w, x, dim)
    if len(dims) > 1:
        raise unsupported(_api(), " (Paddle program): a vector norm over several dims")
    return w.op1("p_norm", [w.cast(x, t[0])], [("porder", a_f32(float(ord_))), ("axis", a_i32(dims[0] if dims else -1)),
                                               ("epsilon", a_f32(1e-12)), ("keepdim", a_bool(keep)),
                                               ("asvector", a_bool(not dims))], t)
