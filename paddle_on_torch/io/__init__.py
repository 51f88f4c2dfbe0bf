"""paddle.io: datasets, samplers and the DataLoader (built on torch.utils.data)."""
from .. import _report
from .dataloader import (  # noqa: F401
    BatchSampler, ChainDataset, ComposeDataset, ConcatDataset, Dataset, DistributedBatchSampler, IterableDataset,
    RandomSampler, Sampler, SequenceSampler, Subset, SubsetRandomSampler, TensorDataset, WeightedRandomSampler,
    get_worker_info, random_split)
from .reader import DataLoader  # noqa: F401

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ComposeDataset", "ChainDataset", "BatchSampler",
           "DistributedBatchSampler", "DataLoader", "get_worker_info", "Sampler", "SequenceSampler", "RandomSampler",
           "WeightedRandomSampler", "random_split", "Subset", "SubsetRandomSampler", "ConcatDataset"]

__getattr__ = _report.module_getattr("paddle.io")
