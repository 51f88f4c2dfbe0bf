"""paddle.geometric.segment_*: reductions over sorted segment ids, on torch.scatter_reduce."""
import torch

from .._normalize import TensorLike, op

_REDUCE = {"sum": "sum", "mean": "mean", "max": "amax", "min": "amin"}


def _check_index(index, name):
    if index.dtype not in (torch.int32, torch.int64):
        raise TypeError(f"The data type of {name} must be int32 or int64, but received {index.dtype}")
    if index.dim() != 1:
        raise ValueError(f"(InvalidArgument) {name} should be 1-D, but received shape {list(index.shape)}")


def scatter_rows(values, index, rows, reduce):
    """Reduce the rows of `values` into `rows` output rows by `index`; rows nothing lands in are 0 (Paddle)."""
    out = torch.zeros((rows, *values.shape[1:]), dtype=values.dtype, device=values.device)
    if values.shape[0] == 0:
        return out
    idx = index.long().reshape(-1, *([1] * (values.dim() - 1))).expand_as(values)
    if reduce in ("sum", "mean") or not values.requires_grad:
        return out.scatter_reduce(0, idx, values, _REDUCE[reduce], include_self=False)
    # max/min: Paddle's gradient reaches every message equal to the result (torch would split it among ties)
    best = out.scatter_reduce(0, idx, values.detach(), _REDUCE[reduce], include_self=False)
    hit = values.detach() == best.gather(0, idx)
    delta = torch.where(hit, values - values.detach(), torch.zeros_like(values))
    return best + torch.zeros_like(out).scatter_add(0, idx, delta)


def _segment(data, segment_ids, reduce):
    _check_index(segment_ids, "segment_ids")
    if segment_ids.shape[0] != data.shape[0]:
        raise ValueError(f"(InvalidArgument) segment_ids length ({segment_ids.shape[0]}) must equal the first "
                         f"dimension of data ({data.shape[0]})")
    rows = int(segment_ids.max()) + 1 if segment_ids.numel() else 0
    return scatter_rows(data, segment_ids, rows, reduce)


@op
def segment_sum(data: TensorLike, segment_ids: TensorLike, name=None):
    return _segment(data, segment_ids, "sum")


@op
def segment_mean(data: TensorLike, segment_ids: TensorLike, name=None):
    return _segment(data, segment_ids, "mean")


@op
def segment_min(data: TensorLike, segment_ids: TensorLike, name=None):
    return _segment(data, segment_ids, "min")


@op
def segment_max(data: TensorLike, segment_ids: TensorLike, name=None):
    return _segment(data, segment_ids, "max")
