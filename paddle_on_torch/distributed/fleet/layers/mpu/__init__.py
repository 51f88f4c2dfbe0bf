from .mp_layers import ColumnParallelLinear, ParallelCrossEntropy, RowParallelLinear, VocabParallelEmbedding  # noqa: F401
from .random import RNGStatesTracker, get_rng_state_tracker, model_parallel_random_seed  # noqa: F401
