"""Paddle's group-sharded helpers: GroupShardedScaler is not supported."""
from ...._unsupported import unsupported_class

__all__ = []

GroupShardedScaler = unsupported_class(
    "paddle.distributed.fleet.meta_parallel.sharding.group_sharded_utils.GroupShardedScaler")
