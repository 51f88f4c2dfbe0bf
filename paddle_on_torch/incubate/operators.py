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


def _sample_layer(row, colptr, eids, inputs, k, bs):
    """One hop of Paddle's CPU khop kernel: up to k neighbours of each of the first `bs` frontier nodes."""
    srcs, counts, picked_eids = [], [], []
    for node in inputs[:bs]:  # Paddle's kernel keeps the first layer's batch size for every layer
        lo, hi = int(colptr[node]), int(colptr[node + 1])
        pos = torch.arange(lo, hi)
        if k < pos.numel():
            pos = pos[torch.randperm(pos.numel())[:k]]
        srcs += row[pos].tolist()
        counts.append(pos.numel())
        if eids is not None:
            picked_eids += eids[pos].tolist()
    return srcs, counts, picked_eids


def graph_khop_sampler(row, colptr, input_nodes, sample_sizes, sorted_eids=None, return_eids=False, name=None):
    """Multi-hop neighbour sampling with reindexing, after Paddle's CPU kernel:
    (edge_src [E, 1], edge_dst [E, 1], sample_index, reindex_nodes[, edge_eids])."""
    from .._normalize import unwrap, wrap

    if return_eids and sorted_eids is None:
        raise ValueError("`sorted_eid` should not be None if return_eids is True.")
    r, cp, x = unwrap(row), unwrap(colptr), unwrap(input_nodes)
    e = unwrap(sorted_eids) if return_eids else None
    xs = x.tolist()
    bs = len(xs)
    inputs = [v for i, v in enumerate(xs) if i == 0 or v != xs[i - 1]]  # std::unique: adjacent duplicates only
    dst_layers, src_all, counts_all, eids_all = [], [], [], []
    for layer, k in enumerate(sample_sizes):
        if not inputs:
            break
        dst_layers.append(list(inputs))
        srcs, counts, picked = _sample_layer(r, cp, e, inputs, int(k), bs)
        if layer == 0 and not srcs:
            raise ValueError("(InvalidArgument) The input nodes `X` should have at least one neighbors, but none of "
                             "the input nodes have neighbors.")
        src_all += srcs
        counts_all += counts
        eids_all += picked
        inputs = sorted(set(srcs) - set(inputs))
    node_map, nodes = {}, []
    for v in [v for layer in dst_layers for v in layer] + src_all:
        if v not in node_map:
            node_map[v] = len(nodes)
            nodes.append(v)
    dst_nodes = [v for layer in dst_layers for v in layer]
    # as in Paddle, the per-layer counts are laid end to end over all frontier nodes, so when a hop samples fewer
    # nodes than its frontier holds, later edges are attributed to the frontier's unsampled nodes
    dst = [node_map[v] for v, c in zip(dst_nodes, counts_all) for _ in range(c)]
    dt = r.dtype
    out = [torch.tensor([node_map[v] for v in src_all], dtype=dt).reshape(-1, 1),
           torch.tensor(dst, dtype=dt).reshape(-1, 1), torch.tensor(nodes, dtype=dt),
           torch.tensor([node_map[v] for v in xs], dtype=dt)]
    if return_eids:
        out.append(torch.tensor(eids_all, dtype=dt))
    return tuple(wrap(t) for t in out)
