"""The cost model: compute (FLOPs and bytes), communication (alpha-beta per collective on a described
topology) and memory per rank.  All times are seconds, sizes bytes.

Collectives use the ring algorithm's figures for a group of n ranks moving S bytes (the size of the
whole tensor on the group):
  all_gather, reduce_scatter: (n-1) * alpha + (n-1)/n * S / beta
  all_reduce:               2 (n-1) * alpha + 2 (n-1)/n * S / beta
  all_to_all:                 (n-1) * alpha + (n-1)/n^2 * S / beta   (each rank holds S/n)
alpha and beta are the intra-node figures when every group along that mesh dimension stays inside
one node (ranks_per_node consecutive process ids), the inter-node figures otherwise.
"""
import dataclasses

import numpy as np
from torch.distributed.tensor.placement_types import _StridedShard
from torch.utils.flop_counter import flop_registry

__all__ = ["Topology", "MeshCost", "parse_bytes", "sharded"]


def sharded(p):
    """Shard, or the _StridedShard DTensor's view rule makes of a flatten of two sharded dims (whose
    is_shard() is False: it must not be priced as a Replicate)."""
    return p is not None and (p.is_shard() or isinstance(p, _StridedShard))


@dataclasses.dataclass
class Topology:
    """A cluster description for planning (defaults: 8 GPUs per node, NVLink-class inside a node,
    InfiniBand-class between nodes, an accelerator of 100 TFLOP/s and 2 TB/s)."""
    ranks_per_node: int = 8
    intra_bandwidth: float = 150e9   # bytes/s per rank, inside a node
    inter_bandwidth: float = 25e9    # bytes/s per rank, between nodes
    intra_latency: float = 5e-6      # s per ring step
    inter_latency: float = 15e-6
    flops: float = 100e12            # sustained FLOP/s per rank
    memory_bandwidth: float = 2e12   # bytes/s per rank

    def to_dict(self):
        return dataclasses.asdict(self)


_UNITS = {"": 1, "b": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12, "kib": 2 ** 10, "mib": 2 ** 20,
          "gib": 2 ** 30, "tib": 2 ** 40}


def parse_bytes(v):
    """`memory_limit` as bytes: a number, or a string such as '16GB' or '512MiB'."""
    if v is None:
        return None
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    if isinstance(v, str):
        s = v.strip().lower().replace(" ", "")
        num = s.rstrip("abcdefghijklmnopqrstuvwxyz")
        unit = s[len(num):]
        if num and unit in _UNITS:
            return float(num) * _UNITS[unit]
    raise ValueError(f"memory_limit must be a number of bytes or a string such as '16GB', got {v!r}")


class MeshCost:
    """Collective and compute costs on one mesh under a Topology."""

    def __init__(self, mesh_ids, topology):
        self.topology = topology
        ids = np.asarray(mesh_ids)
        self.sizes = list(ids.shape)
        node = ids // topology.ranks_per_node
        # a mesh dimension is intra-node when every group along it lies in one node
        self.intra = [bool((node.max(axis=d) == node.min(axis=d)).all()) for d in range(ids.ndim)]

    def _ab(self, dim):
        t = self.topology
        return (t.intra_latency, t.intra_bandwidth) if self.intra[dim] else (t.inter_latency, t.inter_bandwidth)

    def collective(self, kind, dim, nbytes):
        n = self.sizes[dim]
        if n == 1:
            return 0.0
        a, b = self._ab(dim)
        if kind == "all_reduce":
            return 2 * (n - 1) * a + 2 * (n - 1) / n * nbytes / b
        if kind in ("all_gather", "reduce_scatter"):
            return (n - 1) * a + (n - 1) / n * nbytes / b
        if kind == "all_to_all":
            return (n - 1) * a + (n - 1) / n / n * nbytes / b
        raise ValueError(kind)

    def redistribute(self, nbytes, src, dst):
        """[(kind, mesh_dim, bytes on the group, seconds)] to turn placements `src` into `dst` (torch
        placements, one per mesh dim) for a tensor of `nbytes` in all, one mesh dimension at a time."""
        cur, steps = list(src), []
        for d, (s, t) in enumerate(zip(src, dst)):
            if s == t:
                continue
            others = 1
            for j, p in enumerate(cur):
                if j != d and sharded(p):
                    others *= self.sizes[j]
            size = nbytes / others
            kind = None
            if s.is_partial():
                kind = "reduce_scatter" if sharded(t) else "all_reduce"
            elif sharded(s):
                kind = "all_to_all" if sharded(t) else "all_gather"
            if kind is not None:  # Replicate -> Shard / Partial is local
                steps.append((kind, d, size, self.collective(kind, d, size)))
            cur[d] = t
        return steps

    def split(self, placements):
        """By how many ranks an op's work is divided when its output has `placements`."""
        f = 1
        for d, p in enumerate(placements):
            if not p.is_replicate():
                f *= self.sizes[d]
        return f

    def compute(self, flops, nbytes):
        t = self.topology
        return max(flops / t.flops, nbytes / t.memory_bandwidth)


def op_flops(node):
    """FLOPs of one aten op node of the global (unsharded) graph (0 for ops torch's counter does not know)."""
    import torch
    from torch.utils._pytree import tree_map

    fn = flop_registry.get(getattr(node.target, "overloadpacket", None))
    if fn is None:
        return _attention_flops(node)
    shape = lambda v: tuple(v.shape) if isinstance(v, torch.Tensor) else v  # noqa: E731
    val = lambda a: a.meta.get("val") if hasattr(a, "meta") else a  # noqa: E731
    args = tree_map(lambda a: shape(val(a)), node.args)
    kwargs = tree_map(lambda a: shape(val(a)), node.kwargs)
    out = node.meta.get("val")
    out_shape = tree_map(shape, out)
    try:  # torch's registered formulas take the output as `out_val` (shape_wrapper turns it into out_shape)
        return int(fn(*args, out_val=out_shape, **kwargs))
    except Exception:
        return 0


def _attention_flops(node):
    """torch's CPU flash attention (no formula in torch's registry): the two matmuls of [b, h, s, d] by
    [b, h, s_k, d] forward (4 b h s s_k d), four backward (8 b h s s_k d); 0 for other ops."""
    import torch

    name = getattr(node.target, "__name__", "")
    if not name.startswith("_scaled_dot_product_flash_attention_for_cpu"):
        return 0
    back = name.startswith("_scaled_dot_product_flash_attention_for_cpu_backward")
    q, k = (a.meta.get("val") for a in node.args[1:3]) if back else (a.meta.get("val") for a in node.args[:2])
    if not isinstance(q, torch.Tensor) or not isinstance(k, torch.Tensor):
        return 0
    b, h, s, d = q.shape
    return (8 if back else 4) * b * h * s * k.shape[2] * d
