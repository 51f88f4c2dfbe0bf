"""paddle.distributed collectives on torch.distributed.

Paddle's conventions kept: `src` / `dst` are global ranks; a process outside `group` returns
at once; `all_gather` fills an empty list (or the given tensors in place); `ReduceOp.AVG`,
`reduce_scatter` and `alltoall` work on gloo, which lacks them natively (emulated with
all_reduce / point-to-point).  Collectives before `init_parallel_env()` raise RuntimeError
("The global group is not initialized."), as Paddle's do.
"""

import numpy as np
import torch
import torch.distributed as tdist

from .._normalize import wrap
from . import parallel as _parallel

__all__ = ["ReduceOp", "Group", "new_group", "get_group", "get_backend", "destroy_process_group", "all_reduce",
           "all_gather", "all_gather_object", "broadcast", "broadcast_object_list", "reduce", "scatter",
           "scatter_object_list", "gather", "reduce_scatter", "alltoall", "alltoall_single", "send", "recv",
           "isend", "irecv", "barrier", "wait", "send_object_list", "recv_object_list"]


class ReduceOp:
    SUM = 0
    MAX = 1
    MIN = 2
    PROD = 3
    AVG = 4


_TORCH_OPS = {ReduceOp.SUM: tdist.ReduceOp.SUM, ReduceOp.MAX: tdist.ReduceOp.MAX, ReduceOp.MIN: tdist.ReduceOp.MIN,
              ReduceOp.PROD: tdist.ReduceOp.PRODUCT, ReduceOp.AVG: tdist.ReduceOp.SUM}


def _torch_op(op):
    try:
        return _TORCH_OPS[int(op)]
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"Unknown reduce_op type {op!r}: use paddle.distributed.ReduceOp") from None


class Group:
    """A communication group (Paddle's Group over a torch ProcessGroup)."""

    def __init__(self, rank_in_group, id, ranks, pg=None, name=None):
        self._rank_in_group = rank_in_group
        self._world_size = len(ranks) if rank_in_group >= 0 else -1
        self._id = id
        self._ranks = list(ranks)
        self._pg = pg
        self._name = name

    @property
    def rank(self):
        return self._rank_in_group

    @property
    def ranks(self):
        return self._ranks

    @property
    def nranks(self):
        return len(self._ranks)

    @property
    def name(self):
        return self._name

    @property
    def process_group(self):
        return self._pg

    @property
    def world_size(self):
        return self._world_size

    @property
    def backend(self):
        return tdist.get_backend(self._pg).upper()

    @property
    def id(self):
        return self._id

    def is_member(self):
        return self.rank >= 0 and self.nranks >= 2

    def get_group_rank(self, rank):
        return self.ranks.index(rank) if self.is_member() else -1

    def get_global_rank(self, rank):
        return self.ranks[rank] if self.is_member() else -1

    def __repr__(self):
        s = f"rank: {self.rank}, nranks: {self.nranks}, id: {self.id}, ranks: " + ", ".join(map(str, self.ranks))
        return s + "; name: " + (self.name if self.name else "None")


_groups = {}
_next_id = [1]


def _make_global_group():
    if 0 not in _groups:
        world = tdist.get_world_size()
        _groups[0] = Group(tdist.get_rank(), 0, list(range(world)), tdist.group.WORLD, "_default_pg")
    return _groups[0]


def _group(group):
    if group is None:
        if 0 not in _groups:
            raise RuntimeError("The global group is not initialized.")
        return _groups[0]
    if not isinstance(group, Group):
        raise TypeError(f"group must be a paddle.distributed Group, got {type(group).__name__}")
    return group


def new_group(ranks=None, backend=None, timeout=None, nccl_comm_init_option=0, nccl_config=None):
    """A group of `ranks` (every rank must call it, in the same order, as in Paddle and torch)."""
    g = _group(None) if 0 in _groups else None
    if g is None:
        raise RuntimeError("The global group is not initialized.")
    world = tdist.get_world_size()
    ranks = list(range(world)) if ranks is None else sorted(int(r) for r in np.asarray(ranks).reshape(-1))
    if len(set(ranks)) != len(ranks):
        raise ValueError(f"new_group: ranks must be unique, got {ranks}")
    bad = [r for r in ranks if not 0 <= r < world]
    if bad:
        raise ValueError(f"new_group: ranks {bad} are outside the world of {world} processes")
    kwargs = {} if timeout is None else {"timeout": timeout}
    pg = tdist.new_group(ranks, **kwargs)
    me = tdist.get_rank()
    gid = _next_id[0]
    _next_id[0] += 1
    group = Group(ranks.index(me) if me in ranks else -1, gid, ranks, pg, f"_default_pg{gid}")
    _groups[gid] = group
    return group


def get_group(id=0):
    return _groups.get(id)


def get_backend(group=None):
    return _group(group).backend


def destroy_process_group(group=None):
    """Destroy `group`, or everything (after a barrier, so that gloo shuts down cleanly)."""
    if group is None or group.id == 0:
        g = _group(None)
        tdist.barrier(g.process_group)
        tdist.destroy_process_group()
        _groups.clear()
        _parallel._state["paddle_initialized"] = False
        return
    group = _group(group)
    if group.is_member():
        tdist.barrier(group.process_group)
    tdist.destroy_process_group(group.process_group)
    _groups.pop(group.id, None)


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
    from ..tensor.tensor import Tensor

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


def reduce(tensor, dst, op=ReduceOp.SUM, group=None, sync_op=True):
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


def barrier(group=None):
    g = _group(group)
    if g.nranks >= 2 and g.is_member():
        tdist.barrier(g.process_group)


def wait(tensor, group=None, use_calc_stream=True):
    """Wait for the communication on `tensor` (CPU collectives here complete synchronously)."""
    if torch.cuda.is_available() and tensor._t.is_cuda:
        torch.cuda.current_stream().synchronize()


