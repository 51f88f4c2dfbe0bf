"""paddle.geometric.reindex_graph / reindex_heter_graph: renumber a sampled subgraph's nodes from 0."""
import torch

from .._normalize import OptionalTensor, TensorLike, TensorSequence, op


def _reindex(x, neighbors, counts):
    """Input nodes keep ids 0..len(x)-1; new neighbours get the next ids in order of first appearance."""
    allnodes = torch.cat([x] + neighbors)
    uniq, inverse = torch.unique(allnodes, return_inverse=True)
    first = torch.full([uniq.numel()], allnodes.numel(), dtype=torch.int64, device=x.device)
    first.scatter_reduce_(0, inverse, torch.arange(allnodes.numel(), device=x.device), "amin")
    order = torch.argsort(first)  # unique nodes by first appearance
    rank = torch.empty_like(order)
    rank[order] = torch.arange(order.numel(), device=x.device)
    new_id = rank[inverse].to(x.dtype)
    src = new_id[x.numel():]
    dst = torch.cat([torch.repeat_interleave(torch.arange(x.numel(), device=x.device), c.long()) for c in counts])
    return src, dst.to(x.dtype), uniq[order]


def _check(x, neighbors, counts):
    for n, c in zip(neighbors, counts):
        if int(c.sum()) != n.numel():
            raise ValueError(f"(InvalidArgument) The sum of count ({int(c.sum())}) should equal the number of "
                             f"neighbors ({n.numel()}).")
        if c.numel() != x.numel():
            raise ValueError(f"(InvalidArgument) count should have one entry per input node ({x.numel()}), "
                             f"got {c.numel()}")


@op
def reindex_graph(x: TensorLike, neighbors: TensorLike, count: TensorLike, value_buffer: OptionalTensor = None,
                  index_buffer: OptionalTensor = None, name=None):
    """(reindex_src, reindex_dst, out_nodes); the hash-table buffers are accepted and not needed."""
    _check(x, [neighbors], [count])
    return _reindex(x, [neighbors], [count])


@op
def reindex_heter_graph(x: TensorLike, neighbors: TensorSequence, count: TensorSequence,
                        value_buffer: OptionalTensor = None, index_buffer: OptionalTensor = None, name=None):
    """reindex_graph over several edge types sharing one node numbering."""
    _check(x, neighbors, count)
    return _reindex(x, list(neighbors), list(count))
