"""DTensor sharding rules for the shim's own custom ops (kernels/: swiglu, softmax cross entropy), so a
distributed Tensor flows through them as through any aten op, and for aten ops DTensor has none for
(masked_select: replicated, its output's size depends on the data).

Each rule lists, for one mesh dimension, the placements the op accepts (DTensor expands them to the whole
mesh and redistributes the inputs to the cheapest one): elementwise ops any `Shard(d)`, the cross entropy a
split of its rows (not of the classes); always `Replicate`.  No rule takes a `Partial` input: neither op is
linear.  Registered once, when the first mesh is made.  (The fused norm and rotary ops have no rule yet: a
distributed Tensor reaching them raises DTensor's "no sharding strategy" error.)
"""
import torch
from torch.distributed.tensor import Replicate, Shard

__all__ = []

_done = [False]


def _elementwise(ndim, n_in, n_out):
    rules = [([Replicate()] * n_out, [Replicate()] * n_in)]
    rules += [([Shard(d)] * n_out, [Shard(d)] * n_in) for d in range(ndim)]
    return rules


def register():
    if _done[0]:
        return
    _done[0] = True
    from torch.distributed.tensor.experimental import register_sharding

    from ...kernels import cross_entropy, swiglu  # noqa: F401  (defines the ops)

    ops = torch.ops.paddle_on_torch

    @register_sharding(ops.swiglu.default)
    def _swiglu(x, y):
        return _elementwise(len(x.shape), 2, 1)

    @register_sharding(ops.swiglu_bwd.default)
    def _swiglu_bwd(g, x, y):
        return _elementwise(len(x.shape), 3, 2)

    @register_sharding(ops.softmax_ce.default)
    def _softmax_ce(logits, labels, ignore_index):
        # [rows, classes] -> loss [rows], lse [rows]: rows may be split, the classes not
        return [([Replicate(), Replicate()], [Replicate(), Replicate(), None]),
                ([Shard(0), Shard(0)], [Shard(0), Shard(0), None])]

    @register_sharding(ops.softmax_ce_bwd.default)
    def _softmax_ce_bwd(logits, labels, lse, g, ignore_index):
        return [([Replicate()], [Replicate()] * 4 + [None]),
                ([Shard(0)], [Shard(0)] * 4 + [None])]

    # torch's CPU flash attention ([b, heads, s, d] in and out, logsumexp [b, heads, s]): DTensor has rules for
    # the CUDA kernels only; each batch row and each head is independent, so either may be split
    aten = torch.ops.aten

    @register_sharding(aten._scaled_dot_product_flash_attention_for_cpu.default)
    def _flash_cpu(query, key, value, dropout_p=0.0, is_causal=False, *, attn_mask=None, scale=None):
        mask = lambda p: None if attn_mask is None else p  # noqa: E731
        return [([p, p], [p, p, p, None, None, mask(p), None]) for p in (Replicate(), Shard(0), Shard(1))]

    @register_sharding(aten._scaled_dot_product_flash_attention_for_cpu_backward.default)
    def _flash_cpu_bwd(grad_out, query, key, value, out, logsumexp, dropout_p, is_causal, *, attn_mask=None,
                       scale=None):
        mask = lambda p: None if attn_mask is None else p  # noqa: E731
        return [([p] * 3, [p] * 6 + [None, None, mask(p), None]) for p in (Replicate(), Shard(0), Shard(1))]

    # aten ops DTensor has no rule for.  masked_select's output size depends on the data (DTensor's fake
    # propagation refuses it): it runs on the replicated whole (PaddleNLP's criterion selects the positive
    # per-token losses this way)
    from torch.distributed.tensor import DTensor

    handlers = DTensor._op_dispatcher._custom_op_handlers
    for op in (torch.ops.aten.masked_select.default, torch.ops.aten.masked_scatter.default):  # and its backward
        handlers[op] = _on_replicated_whole
    for op in (torch.ops.aten._local_scalar_dense.default, torch.ops.aten.is_nonzero.default):
        handlers[op] = _number


def _on_replicated_whole(op_call, args, kwargs):
    """Run `op_call` on the full values of its DTensor arguments; the result is replicated on their mesh."""
    from torch.distributed.tensor import DTensor

    mesh = next(a.device_mesh for a in args if isinstance(a, DTensor))
    whole = [Replicate()] * mesh.ndim
    local = [a.redistribute(mesh, whole).to_local() if isinstance(a, DTensor) else a for a in args]
    out = op_call(*local, **kwargs)
    if mesh.get_coordinate() is None and op_call is torch.ops.aten.masked_scatter.default:
        # outside the mesh the pieces are empty, but autograd checks the global shape (the input's)
        return DTensor.from_local(out, mesh, whole, run_check=False, shape=args[0].shape, stride=args[0].stride())
    return DTensor.from_local(out, mesh, whole, run_check=False)


def _number(op_call, args, kwargs):
    """A DTensor read as a Python number (`bool(t)`, `t.item()`) inside the shim's ops: its global value; on a
    process outside its mesh, which holds none of it, zero.  Paddle does not run an op on such a process at all,
    so its data checks (a label out of range, ...) must not stop it here.  (A user's `float(t)` / `t.item()` there
    raises Paddle's error before reaching torch: Tensor.item.)"""
    x = args[0]
    mesh = x.device_mesh
    if mesh.get_coordinate() is None:
        return op_call(torch.zeros((), dtype=x.dtype))
    return op_call(x.redistribute(mesh, [Replicate()] * mesh.ndim).to_local(), **kwargs)


def local_matmul(x, y):
    """torch.matmul of two DTensors of 3+ dims with the same batch dims, on local pieces, when every mesh dimension
    splits both along one batch dim, or x's rows (y replicated), or y's columns (x replicated), or neither: the
    output's placements follow, no communication.  None when the layout is another one (DTensor's own rule then).

    Why: DTensor runs a batched matmul as view + bmm + view; the view of a tensor split on both its batch and its
    head dims (attention's [b, h, s, d] on dp x mp) is a `_StridedShard`, for which DTensor plans every
    redistribution by a graph search: PaddleNLP's LLaMA spent ~35 s of CPU on its first step's attention there."""
    nd = x.dim()
    if nd < 3 or y.dim() != nd or x.shape[:-2] != y.shape[:-2] or x.device_mesh != y.device_mesh:
        return None
    out, used = [], set()
    for px, py in zip(x.placements, y.placements):
        if px.is_replicate() and py.is_replicate():
            out.append(Replicate())
            continue
        if type(px) is Shard and type(py) is Shard and px.dim == py.dim < nd - 2:
            d = px.dim
        elif type(px) is Shard and px.dim == nd - 2 and py.is_replicate():
            d = nd - 2
        elif px.is_replicate() and type(py) is Shard and py.dim == nd - 1:
            d = nd - 1
        else:
            return None
        if d in used:  # a dim split by two mesh dimensions: its pieces' order is DTensor's business
            return None
        used.add(d)
        out.append(Shard(d))
    from torch.distributed.tensor import DTensor

    shape = torch.Size((*x.shape[:-1], y.shape[-1]))
    stride, acc = [], 1
    for n in reversed(shape):
        stride.append(acc)
        acc *= max(int(n), 1)
    stride = tuple(reversed(stride))
    if x.device_mesh.get_coordinate() is None:
        # no pieces here (another pipeline stage's mesh): an empty piece, kept on the autograd graph through a
        # zero (the backward still runs here and must reach the same nodes as on the mesh's processes)
        empty = DTensor.from_local(x.to_local().new_empty(0), x.device_mesh, out, run_check=False, shape=shape,
                                   stride=stride)
        return empty + (x.sum() + y.sum()) * 0
    local = torch.matmul(x.to_local(), y.to_local())
    return DTensor.from_local(local, x.device_mesh, out, run_check=False, shape=shape, stride=stride)
