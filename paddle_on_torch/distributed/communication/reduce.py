"""paddle.distributed.communication.reduce: ReduceOp and the reduce collective."""
import torch.distributed as tdist

__all__ = []


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


def _get_reduce_op(reduce_op, name="reduce"):
    """Paddle's ReduceOp -> the backend's reduce op (torch's here)."""
    return _torch_op(reduce_op)


def _to_inplace_op(op_name):
    return f"{op_name}_"


def is_avg_reduce_op_supported():
    """ReduceOp.AVG works on every backend here (gloo's missing AVG is a SUM and a division)."""
    return True


def reduce(tensor, dst, op=ReduceOp.SUM, group=None, sync_op=True):
    from . import _reduce

    return _reduce(tensor, dst, op, group, sync_op)
