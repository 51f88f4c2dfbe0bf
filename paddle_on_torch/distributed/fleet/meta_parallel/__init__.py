"""paddle.distributed.fleet.meta_parallel: tensor- and pipeline-parallel building blocks."""
from .... import _report
from .meta_parallel_base import MetaParallelBase  # noqa: F401
from .parallel_layers import (ColumnParallelLinear, LayerDesc, LocalSharedLayerDesc, ParallelCrossEntropy,  # noqa: F401
                              PipelineLayer, RNGStatesTracker, RowParallelLinear, SharedLayerDesc,
                              VocabParallelEmbedding, get_rng_state_tracker, model_parallel_random_seed)
from .pipeline_parallel import NoPipelineParallel, PipelineParallel  # noqa: F401
from .sharding_parallel import ShardingParallel  # noqa: F401
from .tensor_parallel import TensorParallel  # noqa: F401

__all__ = []
_PP = ": Paddle's newer pipeline internals (zero-bubble / layer-spec pipelines) are not provided"
__getattr__ = _report.module_getattr("paddle.distributed.fleet.meta_parallel", also=dict.fromkeys(
    ("LayerSpec", "build_spec_layer", "ScheduleChunk", "ScheduleNode", "PipelineDatasetPreprocessor"), _PP))
