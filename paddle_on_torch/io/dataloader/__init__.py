"""paddle.io.dataloader: datasets, samplers, collation and worker support."""
from .batch_sampler import BatchSampler, DistributedBatchSampler  # noqa: F401
from .collate import default_collate_fn, default_convert_fn  # noqa: F401
from .dataset import (  # noqa: F401
    ChainDataset, ComposeDataset, ConcatDataset, Dataset, IterableDataset, Subset, TensorDataset, random_split)
from .sampler import (  # noqa: F401
    RandomSampler, Sampler, SequenceSampler, SubsetRandomSampler, WeightedRandomSampler)
from .worker import get_worker_info  # noqa: F401
