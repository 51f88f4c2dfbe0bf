"""Paddle's module for HybridParallelOptimizer."""
from ..hybrid_parallel_optimizer import HybridParallelClipGrad, HybridParallelOptimizer  # noqa: F401
from ...utils.hybrid_parallel_util import (  # noqa: F401
    obtain_optimizer_parameters_list as _obtain_optimizer_parameters_list)

__all__ = []
