"""Paddle's module for the sharding optimizers: stage 1 (DygraphShardingOptimizer); the V2 (its fused
comm-buffer variant) is not supported."""
from ...._unsupported import unsupported_class
from ..dygraph_sharding_optimizer import DygraphShardingOptimizer  # noqa: F401

__all__ = []

DygraphShardingOptimizerV2 = unsupported_class(
    "paddle.distributed.fleet.meta_optimizers.dygraph_optimizer.dygraph_sharding_optimizer."
    "DygraphShardingOptimizerV2", " (use DygraphShardingOptimizer: sharding stage 1 without the V2 comm buffers)")
