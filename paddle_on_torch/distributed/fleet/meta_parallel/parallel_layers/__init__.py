from ...layers.mpu.mp_layers import (ColumnParallelLinear, ParallelCrossEntropy, RowParallelLinear,  # noqa: F401
                                     VocabParallelEmbedding)
from ...layers.mpu.random import RNGStatesTracker, get_rng_state_tracker, model_parallel_random_seed  # noqa: F401
from .pp_layers import LayerDesc, LocalSharedLayerDesc, PipelineLayer, SharedLayerDesc  # noqa: F401
