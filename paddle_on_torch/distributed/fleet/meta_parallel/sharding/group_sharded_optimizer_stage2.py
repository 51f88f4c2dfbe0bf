"""Paddle's GroupShardedOptimizerStage2 (ZeRO stage 2): not supported."""
from ...._unsupported import unsupported_class

__all__ = []

GroupShardedOptimizerStage2 = unsupported_class(
    "paddle.distributed.fleet.meta_parallel.sharding.group_sharded_optimizer_stage2.GroupShardedOptimizerStage2")
