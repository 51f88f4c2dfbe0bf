"""paddle.distributed.communication.batch_isend_irecv: P2POp and batch_isend_irecv on torch's."""
import torch.distributed as tdist

__all__ = []


class P2POp:
    """One point-to-point operation for batch_isend_irecv: `op` is paddle.distributed.isend or irecv."""

    def __init__(self, op, tensor, peer, group=None):
        from . import irecv, isend

        if op not in (isend, irecv):
            raise RuntimeError("Invalid ``op`` function. Expected ``op`` to be of type ``paddle.distributed.isend`` "
                               "or ``paddle.distributed.irecv``.")
        self.op, self.tensor, self.peer, self.group = op, tensor, peer, group


def batch_isend_irecv(p2p_op_list):
    """Start every send and receive of the list at once; returns their tasks (wait() on each)."""
    from . import _Task, _data, _group, isend

    if not isinstance(p2p_op_list, list) or not all(isinstance(p, P2POp) for p in p2p_op_list):
        raise RuntimeError("Invalid ``p2p_op_list``. Each op is expected to to be of type "
                           "``paddle.distributed.P2POp``.")
    groups = {id(p.group) for p in p2p_op_list}
    if len(groups) > 1:
        raise RuntimeError("All groups need to use the same backend.")
    ops = []
    for p in p2p_op_list:
        g = _group(p.group)
        ops.append(tdist.P2POp(tdist.isend if p.op is isend else tdist.irecv,
                               _data(p.tensor).contiguous() if p.op is isend else _data(p.tensor), int(p.peer),
                               g.process_group))
    return [_Task(w) for w in tdist.batch_isend_irecv(ops)]
