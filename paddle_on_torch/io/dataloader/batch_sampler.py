"""paddle.io.BatchSampler and DistributedBatchSampler: iterables of index lists."""
import math
import os
from collections.abc import Iterable

import numpy as np

from .dataset import IterableDataset
from .sampler import RandomSampler, Sampler, SequenceSampler

__all__ = ["BatchSampler", "DistributedBatchSampler"]


class BatchSampler(Sampler):
    """Groups the indices of `sampler` (or of a Sequence/RandomSampler over `dataset`) into lists."""

    def __init__(self, dataset=None, sampler=None, shuffle=False, batch_size=1, drop_last=False):
        if dataset is None:
            assert sampler is not None, "either dataset or sampler should be set"
            assert isinstance(sampler, (Sampler, Iterable)), \
                f"sampler should be either paddle.io.Sampler or Iterable, but got {type(sampler)}"
            assert not shuffle, "shuffle should be False when sampler is set"
            self.sampler = sampler
        else:
            assert not isinstance(dataset, IterableDataset), "dataset should not be a paddle.io.IterableDataset"
            assert sampler is None, "should not set both dataset and sampler"
            assert isinstance(shuffle, bool), f"shuffle should be a boolean value, but got {type(shuffle)}"
            self.sampler = RandomSampler(dataset) if shuffle else SequenceSampler(dataset)
        assert isinstance(batch_size, int) and batch_size > 0, \
            f"batch_size should be a positive integer, but got {batch_size}"
        self.batch_size = batch_size
        self.shuffle = shuffle
        assert isinstance(drop_last, bool), f"drop_last should be a boolean value, but got {type(drop_last)}"
        self.drop_last = drop_last
        self._acc_steps = 1

    def __iter__(self):
        size = self.batch_size * self._acc_steps
        batch = []
        for idx in self.sampler:
            batch.append(idx)
            if len(batch) == size:
                yield batch
                batch = []
        if not self.drop_last and batch:
            yield batch

    def __len__(self):
        size = self.batch_size * self._acc_steps
        return (len(self.sampler) + int(not self.drop_last) * (size - 1)) // size


class _InfiniteIterableSampler(Sampler):
    """What Paddle batches an IterableDataset with: endless lists of `batch_size` Nones."""

    def __init__(self, dataset, batch_size=1):
        assert isinstance(dataset, IterableDataset), "dataset should be an instance of paddle.io.IterableDataset"
        self.dataset = dataset
        self.batch_size = batch_size

    def __iter__(self):
        while True:
            yield [None] * self.batch_size


def _parallel_env():
    """(world size, rank): torch.distributed's when it is initialised, else Paddle's launcher variables."""
    import torch.distributed as dist

    if dist.is_available() and dist.is_initialized():
        return dist.get_world_size(), dist.get_rank()
    return int(os.getenv("PADDLE_TRAINERS_NUM", "1")), int(os.getenv("PADDLE_TRAINER_ID", "0"))


class DistributedBatchSampler(BatchSampler):
    """The share of the batches that belongs to one rank.

    As in Paddle, the indices are padded (by repeating from the start) to a multiple of
    `num_replicas`, shuffled with `np.random.RandomState(epoch)` when `shuffle`, and dealt out
    batch by batch: rank r takes the r-th `batch_size` slice of every `batch_size * num_replicas`
    block, and an equal part of the last, short block.
    """

    def __init__(self, dataset, batch_size, num_replicas=None, rank=None, shuffle=False, drop_last=False):
        self.dataset = dataset
        assert isinstance(batch_size, int) and batch_size > 0, "batch_size should be a positive integer"
        self.batch_size = batch_size
        assert isinstance(shuffle, bool), "shuffle should be a boolean value"
        self.shuffle = shuffle
        assert isinstance(drop_last, bool), "drop_last should be a boolean number"
        if num_replicas is None or rank is None:
            env_nranks, env_rank = _parallel_env()
        if num_replicas is not None:
            assert isinstance(num_replicas, int) and num_replicas > 0, "num_replicas should be a positive integer"
            self.nranks = num_replicas
        else:
            self.nranks = env_nranks
        if rank is not None:
            assert isinstance(rank, int) and rank >= 0, "rank should be a non-negative integer"
            self.local_rank = rank
        else:
            self.local_rank = env_rank
        self.drop_last = drop_last
        self.epoch = 0
        self.num_samples = int(math.ceil(len(self.dataset) * 1.0 / self.nranks))
        self.total_size = self.num_samples * self.nranks
        self._acc_steps = 1

    def _rank_indices(self, indices):
        block = self.batch_size * self.nranks
        last_batch_size = self.total_size % block
        assert last_batch_size % self.nranks == 0
        last_local = last_batch_size // self.nranks
        out = []
        for i in range(self.local_rank * self.batch_size, len(indices) - last_batch_size, block):
            out.extend(indices[i:i + self.batch_size])
        tail = indices[len(indices) - last_batch_size:]
        out.extend(tail[self.local_rank * last_local:(self.local_rank + 1) * last_local])
        return out

    def __iter__(self):
        size = self.batch_size * self._acc_steps
        indices = list(range(len(self.dataset)))
        padding = self.total_size - len(indices)
        if padding <= len(indices):
            indices += indices[:padding]
        else:
            indices += (indices * math.ceil(padding / len(indices)))[:padding]
        assert len(indices) == self.total_size
        if self.shuffle:
            np.random.RandomState(self.epoch).shuffle(indices)
            self.epoch += 1
        if self.nranks > 1:
            indices = self._rank_indices(indices)
        assert len(indices) == self.num_samples
        batch = []
        for idx in indices:
            batch.append(idx)
            if len(batch) == size:
                yield batch
                batch = []
        if not self.drop_last and batch:
            yield batch

    def __len__(self):
        size = self.batch_size * self._acc_steps
        return (self.num_samples + int(not self.drop_last) * (size - 1)) // size

    def set_epoch(self, epoch):
        """Seed the next shuffle with `epoch` (every rank must use the same)."""
        self.epoch = epoch
