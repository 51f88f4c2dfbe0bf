"""paddle.distributed.fleet.meta_optimizers.dygraph_optimizer: Paddle's module path for the dygraph hybrid-parallel
optimizers (ours live one level up)."""
from ..dygraph_sharding_optimizer import DygraphShardingOptimizer  # noqa: F401
from ..hybrid_parallel_optimizer import HybridParallelClipGrad, HybridParallelOptimizer  # noqa: F401
from .dygraph_sharding_optimizer import DygraphShardingOptimizerV2  # noqa: F401

__all__ = []
