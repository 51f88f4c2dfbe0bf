"""paddle.distributed.communication.stream (paddle.distributed.stream): the collectives with Paddle's stream
arguments.

`sync_op=False` returns a task to wait on; `use_calc_stream=True` runs on the computation stream and needs
`sync_op=True`, as in Paddle.  On torch there is one stream per collective either way, so the flag only
keeps Paddle's argument check.  Beside the lists the plain collectives take, these accept one tensor split
(or concatenated) along axis 0 for all_gather, alltoall, reduce_scatter and scatter, as Paddle's do.
"""
from ... import communication as _c

__all__ = ["all_gather", "all_reduce", "alltoall", "alltoall_single", "broadcast", "reduce", "reduce_scatter",
           "recv", "scatter", "send", "gather"]


def _check(sync_op, use_calc_stream):
    if use_calc_stream and not sync_op:
        raise RuntimeError("use_calc_stream can only be true in sync op behavior.")


def _is_tensor(v):
    from ....tensor.tensor import Tensor

    return isinstance(v, Tensor)


def _parts(tensor, n):
    """`n` views of `tensor` along axis 0 (they share its storage, so filling them fills it)."""
    from ...._normalize import wrap

    if tensor.shape[0] % n:
        raise ValueError(f"The size of axis 0 ({tensor.shape[0]}) must be divisible by the group size ({n}).")
    return [wrap(p) for p in tensor._t.detach().chunk(n, dim=0)]


def all_reduce(tensor, op=_c.ReduceOp.SUM, group=None, sync_op=True, use_calc_stream=False):
    _check(sync_op, use_calc_stream)
    return _c.all_reduce(tensor, op, group, sync_op)


def all_gather(tensor_or_tensor_list, tensor, group=None, sync_op=True, use_calc_stream=False):
    _check(sync_op, use_calc_stream)
    if _is_tensor(tensor_or_tensor_list):  # concatenated along axis 0
        out = _parts(tensor_or_tensor_list, _c._group(group).nranks)
        return _c.all_gather(out, tensor, group, sync_op)
    return _c.all_gather(tensor_or_tensor_list, tensor, group, sync_op)


def alltoall(out_tensor_or_tensor_list, in_tensor_or_tensor_list, group=None, sync_op=True, use_calc_stream=False):
    _check(sync_op, use_calc_stream)
    n = _c._group(group).nranks
    outs, ins = out_tensor_or_tensor_list, in_tensor_or_tensor_list
    if _is_tensor(ins):
        ins = _parts(ins, n)
    if _is_tensor(outs):
        outs = _parts(outs, n)
    return _c.alltoall(outs, ins, group, sync_op)


def alltoall_single(out_tensor, in_tensor, out_split_sizes=None, in_split_sizes=None, group=None, sync_op=True,
                    use_calc_stream=False):
    _check(sync_op, use_calc_stream)
    return _c.alltoall_single(out_tensor, in_tensor, in_split_sizes, out_split_sizes, group, sync_op)


def broadcast(tensor, src, group=None, sync_op=True, use_calc_stream=False):
    _check(sync_op, use_calc_stream)
    return _c.broadcast(tensor, src, group, sync_op)


def reduce(tensor, dst=0, op=_c.ReduceOp.SUM, group=None, sync_op=True, use_calc_stream=False):
    _check(sync_op, use_calc_stream)
    return _c.reduce(tensor, dst, op, group, sync_op)


def reduce_scatter(tensor, tensor_or_tensor_list, op=_c.ReduceOp.SUM, group=None, sync_op=True,
                   use_calc_stream=False):
    _check(sync_op, use_calc_stream)
    ins = tensor_or_tensor_list
    if _is_tensor(ins):
        ins = _parts(ins, _c._group(group).nranks)
    return _c.reduce_scatter(tensor, ins, op, group, sync_op)


def scatter(tensor, tensor_or_tensor_list=None, src=0, group=None, sync_op=True, use_calc_stream=False):
    _check(sync_op, use_calc_stream)
    ins = tensor_or_tensor_list
    if _is_tensor(ins):
        ins = _parts(ins, _c._group(group).nranks)
    return _c.scatter(tensor, ins, src, group, sync_op)


def gather(tensor, gather_list=None, dst=0, group=None, sync_op=True, use_calc_stream=False):
    _check(sync_op, use_calc_stream)
    return _c.gather(tensor, gather_list, dst, group, sync_op)


def send(tensor, dst=0, group=None, sync_op=True, use_calc_stream=False):
    _check(sync_op, use_calc_stream)
    return _c.send(tensor, dst, group, sync_op)


def recv(tensor, src=0, group=None, sync_op=True, use_calc_stream=False):
    _check(sync_op, use_calc_stream)
    return _c.recv(tensor, src, group, sync_op)
