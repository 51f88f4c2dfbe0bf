"""paddle.incubate's graph operators (older names of paddle.geometric's) and fused masked softmax."""
import torch

from .. import _report, geometric
from .._normalize import TensorLike, op


def graph_send_recv(x, src_index, dst_index, pool_type="sum", out_size=None, name=None):
    """paddle.geometric.send_u_recv under its 2.x name."""
    return geometric.send_u_recv(x, src_index, dst_index, reduce_op=pool_type, out_size=out_size)


def graph_reindex(x, neighbors, count, value_buffer=None, index_buffer=None, flag_buffer_hashtable=False, name=None):
    """paddle.geometric.reindex_graph under its 2.x name (the hash-table buffers are not needed)."""
    return geometric.reindex_graph(x, neighbors, count)


def graph_sample_neighbors(row, colptr, input_nodes, eids=None, perm_buffer=None, sample_size=-1,
                           return_eids=False, flag_perm_buffer=False, name=None):
    """paddle.geometric.sample_neighbors under its 2.x name and argument order."""
    return geometric.sample_neighbors(row, colptr, input_nodes, sample_size=sample_size, eids=eids,
                                      return_eids=return_eids)


@op
def softmax_mask_fuse(x: TensorLike, mask: TensorLike, name=None):
    """softmax(x + mask) over the last axis (Paddle returns x + mask for an empty mask)."""
    if mask.numel() == 0:
        return x + mask
    return torch.softmax(x + mask, dim=-1)


def softmax_mask_fuse_upper_triangle(x):
    """Paddle 3.3.1 runs this only on GPU; its CPU kernel raises, and so does this one."""
    raise _report.unsupported("paddle.incubate.softmax_mask_fuse_upper_triangle",
                              ": Paddle's kernel only supports GPU (its CPU kernel raises too)")


def identity_loss(x, reduction="none"):
    """x reduced by 'sum' (0), 'mean' (1) or 'none' (2)."""
    if isinstance(reduction, str):
        reduction = {"sum": 0, "mean": 1, "none": 2}.get(reduction.lower())
        if reduction is None:
            raise TypeError("Unsupported reduction type.")
    if reduction == 0:
        return x.sum()
    if reduction == 1:
        return x.mean()
    if reduction == 2:
        return x
    raise ValueError(f"(InvalidArgument) reduction should be 0, 1 or 2, but received {reduction}")
