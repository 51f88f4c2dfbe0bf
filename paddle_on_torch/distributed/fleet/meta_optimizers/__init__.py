from .hybrid_parallel_optimizer import HybridParallelClipGrad, HybridParallelOptimizer  # noqa: F401
