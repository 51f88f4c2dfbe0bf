"""paddle.distributed.flex_checkpoint.dcp.sharded_weight: the description of one rank's piece of a parameter
(its key, local tensor, and where it sits in the global tensor) that flex checkpoints are written from.

PaddleFormers' layers build these in `sharded_state_dict()` (build_sharded_state_dict with their tensor-parallel
axes).  Plain bookkeeping: a tensor-parallel rule asks fleet's hybrid group for this rank's place along the axis.
"""
import copy
from dataclasses import dataclass
from typing import Optional, Union

__all__ = ["ShardedWeightDesc", "ShardedWeight", "ShardedStateDict", "shard_weight",
           "make_tp_sharded_weight_for_checkpoint", "make_replicated_sharded_weight", "build_sharded_state_dict",
           "create_sharded_weight_with_new_local"]


@dataclass
class ShardedWeightDesc:
    key: str
    local_shape: tuple
    global_shape: tuple
    global_offset: tuple
    dtype: Optional[str] = None


class ShardedWeight:
    """One rank's shard of a parameter: `local_tensor` of `local_shape` at `global_offset` in `global_shape`;
    `is_flattened` / `flattened_range` for sharding stage 2's flattened slices."""

    def __init__(self, key, local_tensor, local_shape, global_shape, global_offset, is_flattened=False,
                 flattened_range=None):
        self.key = key
        if local_tensor.is_dist():  # an auto-parallel tensor: keep this rank's piece under the same name
            local = local_tensor._local_value()
            local.name = local_tensor.name
            self.local_tensor, self.local_shape = local, tuple(local.shape)
        else:
            self.local_tensor, self.local_shape = local_tensor, tuple(local_shape)
        self.global_shape = global_shape
        self.global_offset = global_offset
        self.is_flattened = is_flattened
        self.flattened_range = flattened_range

    def __str__(self):
        return (f"ShardedWeight(\n  key={self.key},\n"
                f"  local_tensor={type(self.local_tensor).__name__}(shape={self.local_tensor.shape}),\n"
                f"  local_shape={self.local_shape},\n  global_shape={self.global_shape},\n"
                f"  global_offset={self.global_offset},\n  flattened_range={self.flattened_range}\n)")


ShardedStateDict = Union[dict, "dict[str, ShardedWeight]"]


def shard_weight(key, weight, axis, group):
    """`weight` as this rank's equal piece, along `axis`, of a tensor spread over `group`."""
    shape = list(weight.shape)
    if axis < 0 or axis >= len(shape):
        raise ValueError(f"Shard axis {axis} is invalid for tensor with shape {shape}")
    nranks = group.nranks
    global_shape = list(shape)
    global_shape[axis] *= nranks
    offset = [0] * len(shape)
    if nranks > 1:
        offset[axis] = group.rank * shape[axis]
    return ShardedWeight(key, weight, tuple(shape), tuple(global_shape), tuple(offset))


def make_tp_sharded_weight_for_checkpoint(key, tensor, tensor_parallel_axis=0):
    """A shard over fleet's model-parallel (tensor-parallel) group."""
    from ... import fleet

    group = fleet.get_hybrid_communicate_group().get_model_parallel_group()
    return shard_weight(key, tensor, tensor_parallel_axis, group)


def make_replicated_sharded_weight(key, tensor):
    """A tensor every rank holds whole."""
    shape = tuple(tensor.shape)
    return ShardedWeight(key, tensor, shape, shape, (0,) * len(shape))


def build_sharded_state_dict(state_dict, shard_rules=None, prefix=""):
    """Each entry of `state_dict` as a ShardedWeight under `prefix + key`: split along `shard_rules[key]` over the
    tensor-parallel group when the key has a rule, replicated otherwise."""
    rules = shard_rules or {}
    out = {}
    for key, tensor in state_dict.items():
        full = f"{prefix}{key}" if prefix else key
        if key in rules:
            out[full] = make_tp_sharded_weight_for_checkpoint(full, tensor, rules[key])
        else:
            out[full] = make_replicated_sharded_weight(full, tensor)
    return out


def create_sharded_weight_with_new_local(new_key, new_local_tensor, reference_tensor):
    """A ShardedWeight for `new_local_tensor` placed as `reference_tensor` is (same local / global shape, offset)."""
    local_shape = tuple(reference_tensor.local_shape)
    if tuple(new_local_tensor.shape) != local_shape:
        raise ValueError(f"Shape mismatch: new_local_tensor has shape {new_local_tensor.shape}, but expected shape "
                         f"{local_shape} (from reference_tensor.local_shape).")
    return ShardedWeight(new_key, new_local_tensor, local_shape, tuple(copy.deepcopy(reference_tensor.global_shape)),
                         tuple(copy.deepcopy(reference_tensor.global_offset)))
