"""paddle.geometric.send_u_recv / send_ue_recv / send_uv: gather along edges, combine, scatter-reduce."""
import torch

from .._normalize import TensorLike, op
from .math import _check_index, scatter_rows

_MESSAGE_OPS = ("add", "sub", "mul", "div")


def _check_ops(message_op=None, reduce_op=None):
    if message_op is not None and message_op not in _MESSAGE_OPS:
        raise ValueError(f"message_op should be `add`, `sub`, `mul`, `div`, but received {message_op}")
    if reduce_op is not None and reduce_op not in ("sum", "mean", "max", "min"):
        raise ValueError(f"reduce_op should be `sum`, `mean`, `max` or `min`, but received {reduce_op}")


def _out_rows(out_size, default):
    if out_size is None:
        return default
    n = int(out_size.reshape(-1)[0]) if isinstance(out_size, torch.Tensor) else int(out_size)
    return n if n > 0 else default  # Paddle treats out_size <= 0 as "as many rows as x"


def _align(x, y):
    """Paddle's reshape_lhs_rhs: 1-D operands become [n, 1]; fewer dims get 1s after the first."""
    x = x.reshape(-1, 1) if x.dim() == 1 else x
    y = y.reshape(-1, 1) if y.dim() == 1 else y
    nd = max(x.dim(), y.dim())
    x = x.reshape(x.shape[0], *([1] * (nd - x.dim())), *x.shape[1:])
    y = y.reshape(y.shape[0], *([1] * (nd - y.dim())), *y.shape[1:])
    return x, y


def _message(a, b, message_op):
    if message_op == "sub":
        return a + (-b)
    if message_op == "div":  # Paddle multiplies by 1 / (y + 1e-12)
        return a * (1.0 / (b + 1e-12))
    return a + b if message_op == "add" else a * b


@op
def send_u_recv(x: TensorLike, src_index: TensorLike, dst_index: TensorLike, reduce_op="sum", out_size=None,
                name=None):
    """out[dst] = reduce over edges of x[src]; out has out_size rows (x's row count when None or <= 0)."""
    _check_ops(reduce_op=reduce_op)
    _check_index(src_index, "src_index")
    _check_index(dst_index, "dst_index")
    return scatter_rows(x[src_index.long()], dst_index, _out_rows(out_size, x.shape[0]), reduce_op)


@op
def send_ue_recv(x: TensorLike, y: TensorLike, src_index: TensorLike, dst_index: TensorLike, message_op="add",
                 reduce_op="sum", out_size=None, name=None):
    """out[dst] = reduce over edges of (x[src] message_op y[edge])."""
    _check_ops(message_op, reduce_op)
    _check_index(src_index, "src_index")
    _check_index(dst_index, "dst_index")
    rows = _out_rows(out_size, x.shape[0])
    x, y = _align(x, y)
    return scatter_rows(_message(x[src_index.long()], y, message_op), dst_index, rows, reduce_op)


@op
def send_uv(x: TensorLike, y: TensorLike, src_index: TensorLike, dst_index: TensorLike, message_op="add",
            name=None):
    """Per-edge messages x[src] message_op y[dst]."""
    _check_ops(message_op)
    _check_index(src_index, "src_index")
    _check_index(dst_index, "dst_index")
    x, y = _align(x, y)
    return _message(x[src_index.long()], y[dst_index.long()], message_op)
