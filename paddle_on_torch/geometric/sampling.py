"""paddle.geometric.sample_neighbors / weighted_sample_neighbors on a CSC graph (row, colptr)."""
import torch

from .._normalize import OptionalTensor, TensorLike, op


def _sample(row, colptr, input_nodes, sample_size, eids, return_eids, weights=None):
    if return_eids and eids is None:
        raise ValueError("`eids` should not be None if `return_eids` is True.")
    picks, counts = [], []
    for node in input_nodes.tolist():
        lo, hi = int(colptr[node]), int(colptr[node + 1])
        pos = torch.arange(lo, hi, device=row.device)
        if 0 <= sample_size < pos.numel():
            if weights is None:
                pos = pos[torch.randperm(pos.numel(), device=row.device)[:sample_size]]
            else:  # weighted sampling without replacement
                pos = pos[torch.multinomial(weights[lo:hi].double(), sample_size, replacement=False)]
        picks.append(pos)
        counts.append(pos.numel())
    pos = torch.cat(picks) if picks else torch.zeros([0], dtype=torch.int64, device=row.device)
    out = [row[pos], torch.tensor(counts, dtype=torch.int32, device=row.device)]
    if return_eids:
        out.append(eids[pos])
    return tuple(out)


@op
def sample_neighbors(row: TensorLike, colptr: TensorLike, input_nodes: TensorLike, sample_size=-1,
                     eids: OptionalTensor = None, return_eids=False, perm_buffer: OptionalTensor = None, name=None):
    """Up to `sample_size` neighbours of each input node, uniformly without replacement (-1: all of them)."""
    return _sample(row, colptr, input_nodes, sample_size, eids, return_eids)


@op
def weighted_sample_neighbors(row: TensorLike, colptr: TensorLike, edge_weight: TensorLike, input_nodes: TensorLike,
                              sample_size=-1, eids: OptionalTensor = None, return_eids=False, name=None):
    """Like sample_neighbors, drawing neighbours with probability proportional to edge_weight."""
    return _sample(row, colptr, input_nodes, sample_size, eids, return_eids, edge_weight)
