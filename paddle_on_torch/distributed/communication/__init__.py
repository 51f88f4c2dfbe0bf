"""paddle.distributed collectives on torch.distributed.

Paddle's conventions kept: `src` / `dst` are global ranks; a process outside `group` returns
at once; `all_gather` fills an empty list (or the given tensors in place); `ReduceOp.AVG`,
`reduce_scatter` and `alltoall` work on gloo, which lacks them natively (emulated with
all_reduce / point-to-point).  Collectives before `init_parallel_env()` raise RuntimeError
("The global group is not initialized."), as Paddle's do.
"""

import torch
import torch.distributed as tdist

from ..._normalize import wrap
# the submodules that share a name with a function of this package load first, so the functions win the
# package's attribute (as in Paddle: paddle.distributed.communication.reduce is the function)
from .group import (Group, _group, _groups, _make_global_group, _next_id, barrier,  # noqa: F401
                    destroy_process_group, get_backend, get_group, is_initialized, new_group, wait)
from .reduce import ReduceOp, _torch_op  # noqa: F401
from .batch_isend_irecv import P2POp, batch_isend_irecv  # noqa: F401

__all__ = ["ReduceOp", "Group", "new_group", "get_group", "get_backend", "destroy_process_group", "all_reduce",
           "all_gather", "all_gather_object", "broadcast", "broadcast_object_list", "reduce", "scatter",
           "scatter_object_list", "gather", "reduce_scatter", "alltoall", "alltoall_single", "send", "recv",
           "isend", "irecv", "barrier", "wait", "send_object_list", "recv_object_list", "P2POp", "batch_isend_irecv",
           "is_initialized", "stream"]


class _Task:
    """What Paddle's collectives return: wait() / is_completed()."""

    def __init__(self, work=None, then=None):
        self._work, self._then = work, then

    def wait(self):
        if self._work is not None:
            self._work.wait()
            self._work = None
        if self._then is not None:
            self._then()
            self._then = None
        return True

    def is_completed(self):
        return self._work is None or self._work.is_completed()

    def is_sync(self):
        return self._work is None


def _done(work, then=None, sync_op=True):
    task = _Task(work, then)
    if sync_op:
        task.wait()
    return task


def _data(tensor, what="tensor"):
    from ...tensor.tensor import Tensor

    if not isinstance(tensor, Tensor):
        raise TypeError(f"The type of '{what}' must be paddle.Tensor, but received {type(tensor).__name__}")
    t = tensor._t
    if getattr(t, "device_mesh", None) is not None:
        t = t.to_local()
    return t.detach()


def _needs_cast(t, pg):
    # gloo reduces neither bool nor (everywhere) bfloat16
    return t.dtype in (torch.bool, torch.bfloat16) and t.device.type == "cpu"


def all_reduce(tensor, op=ReduceOp.SUM, group=None, sync_op=True):
    g = _group(group)
    if not g.is_member() and g.nranks >= 2:
        return None
    t = _data(tensor)
    top = _torch_op(op)
    buf = t.to(torch.float32 if t.dtype == torch.bfloat16 else torch.int32) if _needs_cast(t, g) else t

    def finish():
        out = buf
        if int(op) == ReduceOp.AVG:
            out = out / g.nranks if out.is_floating_point() or out.is_complex() else out // g.nranks
        if out is not t:
            t.copy_(out.to(t.dtype))

    if g.nranks < 2:
        return _done(None, finish)
    return _done(tdist.all_reduce(buf, top, group=g.process_group, async_op=True), finish, sync_op)


def all_gather(tensor_list, tensor, group=None, sync_op=True):
    g = _group(group)
    if not g.is_member() and g.nranks >= 2:
        return None
    t = _data(tensor)
    if isinstance(tensor_list, list) and not tensor_list:
        tensor_list += [wrap(torch.empty_like(t)) for _ in range(g.nranks)]
    outs = [_data(o, "tensor_list") for o in tensor_list]
    if g.nranks < 2:
        outs[0].copy_(t)
        return _done(None)
    return _done(tdist.all_gather(outs, t.contiguous(), group=g.process_group, async_op=True), None, sync_op)


def all_gather_object(object_list, obj, group=None):
    g = _group(group)
    if not g.is_member() and g.nranks >= 2:
        return None
    out = [None] * g.nranks
    if g.nranks < 2:
        out = [obj]
    else:
        tdist.all_gather_object(out, obj, group=g.process_group)
    object_list.clear()
    object_list.extend(out)


def broadcast(tensor, src, group=None, sync_op=True):
    g = _group(group)
    if not g.is_member() and g.nranks >= 2:
        return None
    t = _data(tensor)
    if g.nranks < 2:
        return _done(None)
    return _done(tdist.broadcast(t, int(src), group=g.process_group, async_op=True), None, sync_op)


def broadcast_object_list(object_list, src, group=None):
    g = _group(group)
    if not g.is_member() and g.nranks >= 2:
        return None
    if g.nranks >= 2:
        tdist.broadcast_object_list(object_list, int(src), group=g.process_group)


def _reduce(tensor, dst, op=ReduceOp.SUM, group=None, sync_op=True):
    g = _group(group)
    if not g.is_member() and g.nranks >= 2:
        return None
    t = _data(tensor)
    buf = t.to(torch.float32 if t.dtype == torch.bfloat16 else torch.int32) if _needs_cast(t, g) else t

    def finish():
        out = buf
        if tdist.get_rank() == int(dst) and int(op) == ReduceOp.AVG:
            out = out / g.nranks if out.is_floating_point() or out.is_complex() else out // g.nranks
        if out is not t:
            t.copy_(out.to(t.dtype))

    if g.nranks < 2:
        return _done(None, finish)
    return _done(tdist.reduce(buf, int(dst), _torch_op(op), group=g.process_group, async_op=True), finish, sync_op)


def scatter(tensor, tensor_list=None, src=0, group=None, sync_op=True):
    g = _group(group)
    if not g.is_member() and g.nranks >= 2:
        return None
    t = _data(tensor)
    me = tdist.get_rank() if tdist.is_initialized() else 0
    ins = [_data(x, "tensor_list").contiguous() for x in tensor_list] if me == int(src) else None
    if ins is not None and len(ins) != g.nranks:
        raise ValueError(f"scatter: tensor_list has {len(ins)} tensors for a group of {g.nranks}")
    if g.nranks < 2:
        t.copy_(ins[0])
        return _done(None)
    return _done(tdist.scatter(t, ins, int(src), group=g.process_group, async_op=True), None, sync_op)


def scatter_object_list(out_object_list, in_object_list=None, src=0, group=None):
    g = _group(group)
    if not g.is_member() and g.nranks >= 2:
        return None
    if g.nranks < 2:
        out_object_list[:] = [in_object_list[0]]
        return
    out = [None]
    tdist.scatter_object_list(out, in_object_list if tdist.get_rank() == int(src) else None, int(src),
                              group=g.process_group)
    out_object_list.clear()
    out_object_list.extend(out)


def gather(tensor, gather_list=None, dst=0, group=None, sync_op=True):
    g = _group(group)
    if not g.is_member() and g.nranks >= 2:
        return None
    t = _data(tensor)
    me = tdist.get_rank() if tdist.is_initialized() else 0
    outs = None
    if me == int(dst):
        if gather_list is None:
            raise ValueError("gather: gather_list must be a list on the dst rank")
        if not gather_list:
            gather_list += [wrap(torch.empty_like(t)) for _ in range(g.nranks)]
        outs = [_data(o, "gather_list") for o in gather_list]
    if g.nranks < 2:
        outs[0].copy_(t)
        return _done(None)
    return _done(tdist.gather(t.contiguous(), outs, int(dst), group=g.process_group, async_op=True), None, sync_op)


def reduce_scatter(tensor, tensor_list, op=ReduceOp.SUM, group=None, sync_op=True):
    """tensor <- op over ranks of tensor_list[my rank in group] (emulated with all_reduce: gloo has none)."""
    g = _group(group)
    if not g.is_member() and g.nranks >= 2:
        return None
    t = _data(tensor)
    ins = [_data(x, "tensor_list") for x in tensor_list]
    if len(ins) != g.nranks:
        raise ValueError(f"reduce_scatter: tensor_list has {len(ins)} tensors for a group of {g.nranks}")
    stacked = wrap(torch.stack(ins))
    task = all_reduce(stacked, op, group, sync_op=True)
    t.copy_(stacked._t[max(g.rank, 0)])
    return task


def alltoall(out_tensor_list, in_tensor_list, group=None, sync_op=True):
    """out_tensor_list[j] <- rank j's in_tensor_list[my rank] (point-to-point: gloo has no all_to_all)."""
    g = _group(group)
    if not g.is_member() and g.nranks >= 2:
        return None
    ins = [_data(x, "in_tensor_list") for x in in_tensor_list]
    if not ins:
        raise RuntimeError("The input tensor_list should not be empty.")
    if len(ins) != g.nranks:
        raise ValueError(f"alltoall: in_tensor_list has {len(ins)} tensors for a group of {g.nranks}")
    if not out_tensor_list:
        out_tensor_list += [wrap(torch.empty_like(x)) for x in ins]
    outs = [_data(o, "out_tensor_list") for o in out_tensor_list]
    _exchange(g, ins, outs)
    return _done(None)


def _exchange(g, ins, outs):
    me = max(g.rank, 0)
    outs[me].copy_(ins[me])
    if g.nranks < 2:
        return
    ops = []
    for j, peer in enumerate(g.ranks):
        if j != me:
            ops.append(tdist.P2POp(tdist.isend, ins[j].contiguous(), peer, g.process_group))
            ops.append(tdist.P2POp(tdist.irecv, outs[j], peer, g.process_group))
    for w in tdist.batch_isend_irecv(ops):
        w.wait()


def alltoall_single(out_tensor, in_tensor, in_split_sizes=None, out_split_sizes=None, group=None, sync_op=True):
    g = _group(group)
    if not g.is_member() and g.nranks >= 2:
        return None
    src, dst = _data(in_tensor), _data(out_tensor)
    n = g.nranks
    ins = list(torch.split(src, in_split_sizes if in_split_sizes else src.shape[0] // n))
    outs = list(torch.split(dst, out_split_sizes if out_split_sizes else dst.shape[0] // n))
    if len(ins) != n or len(outs) != n:
        raise ValueError(f"alltoall_single: the split sizes must give {n} parts")
    bufs = [torch.empty_like(o) for o in outs]
    _exchange(g, ins, bufs)
    for o, b in zip(outs, bufs):
        o.copy_(b)
    return _done(None)


def _p2p_group(group):
    g = _group(group)
    return g


def send(tensor, dst=0, group=None, sync_op=True):
    g = _p2p_group(group)
    return _done(tdist.isend(_data(tensor).contiguous(), int(dst), group=g.process_group), None, sync_op)


def recv(tensor, src=0, group=None, sync_op=True):
    g = _p2p_group(group)
    return _done(tdist.irecv(_data(tensor), int(src), group=g.process_group), None, sync_op)


def isend(tensor, dst, group=None):
    return send(tensor, dst, group, sync_op=False)


def irecv(tensor, src=None, group=None):
    return recv(tensor, src, group, sync_op=False)


def send_object_list(object_list, dst=0, group=None):
    g = _p2p_group(group)
    tdist.send_object_list(object_list, int(dst), group=g.process_group)


def recv_object_list(object_list, src=None, group=None):
    g = _p2p_group(group)
    tdist.recv_object_list(object_list, src, group=g.process_group)


from .reduce import reduce  # noqa: E402  (the function; its module is paddle.distributed.communication.reduce)
from . import stream  # noqa: E402,F401
