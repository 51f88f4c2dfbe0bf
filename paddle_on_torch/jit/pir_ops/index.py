"""Indexing: index_select, index (one index tensor), gather, embedding."""
import numpy as np
import torch

from ..._report import unsupported
from ..pir_writer import _Sym, _api, _axis, _ndim, _out, _shape, a_bool, a_i32, a_i64, pir
from .shape import _reshape_to


@pir(torch.ops.aten.index_select.default)
def _index_select(w, node, args):
    x, dim, index = args[:3]
    return w.op1("index_select", [x, index], [("axis", a_i32(_axis(dim, _ndim(w, x))))], _out(node))


@pir(torch.ops.aten.index.Tensor)
def _index(w, node, args):
    """x[..., idx, ...] with one index tensor: index_select over the flattened index, reshaped back."""
    x, indices = args[0], list(args[1])
    live = [i for i, v in enumerate(indices) if v is not None]
    if len(live) != 1:
        raise unsupported(_api(), " (Paddle program): advanced indexing with several index tensors")
    d = live[0]
    idx = indices[d]
    t = _out(node)
    if w.dtype(idx) == "bool":
        raise unsupported(_api(), " (Paddle program): boolean-mask indexing (a run-time output size)")
    ishape = w.shape(idx)
    if len(ishape) == 1:
        return w.op1("index_select", [x, idx], [("axis", a_i32(d))], t)
    numel = int(np.prod(ishape)) if all(s >= 0 for s in ishape) else -1
    flat = w.op1("reshape", [idx, w.int_array([-1])], [], (w.dtype(idx), [numel]))
    xs = w.shape(x)
    sel = w.op1("index_select", [x, flat], [("axis", a_i32(d))], (t[0], xs[:d] + [numel] + xs[d + 1:]))
    return _reshape_to(w, sel, [(_Sym(s) if not isinstance(s, int) else s) for s in _shape(node)], t)


@pir(torch.ops.aten.gather.default)
def _gather(w, node, args):
    x, dim, index = args[:3]
    return w.op1("take_along_axis", [x, index], [("axis", a_i32(_axis(dim, _ndim(w, x))))], _out(node))


@pir(torch.ops.aten.embedding.default)
def _embedding(w, node, args):
    weight, ids = args[0], args[1]  # torch's padding_idx changes only the gradient: Paddle's -1 computes the same
    return w.op1("embedding", [ids, weight], [("padding_idx", a_i64(-1)), ("sparse", a_bool(False))], _out(node))
