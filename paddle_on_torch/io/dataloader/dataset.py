"""paddle.io datasets: the map-style and iterable base classes and their combinators.

Plain Python classes with Paddle's semantics (assertions where Paddle asserts).  They are not
torch.utils.data datasets: the DataLoader hands them to torch through small adapters
(see ../reader.py), so a Paddle Dataset behaves exactly as in Paddle (no `ds1 + ds2`, say).
"""
import bisect
import math
import warnings
from typing import Generic, TypeVar

import torch

from ..._core import random as _rng

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ComposeDataset", "ChainDataset", "Subset",
           "random_split", "ConcatDataset"]

_T = TypeVar("_T")


class Dataset(Generic[_T]):
    """A map-style dataset: subclasses define `__getitem__(idx)` and `__len__()`."""

    def __init__(self):
        pass

    def __getitem__(self, idx):
        raise NotImplementedError(f"'__getitem__' not implement in class {self.__class__.__name__}")

    def __len__(self):
        raise NotImplementedError(f"'__len__' not implement in class {self.__class__.__name__}")


class IterableDataset(Dataset[_T]):
    """An iterable dataset: subclasses define `__iter__()`."""

    def __init__(self):
        pass

    def __iter__(self):
        raise NotImplementedError(f"'__iter__' not implement in class {self.__class__.__name__}")

    def __getitem__(self, idx):
        raise RuntimeError(f"'__getitem__' should not be called for IterableDataset{self.__class__.__name__}")

    def __len__(self):
        raise RuntimeError(f"'__len__' should not be called for IterableDataset{self.__class__.__name__}")


class TensorDataset(Dataset):
    """Samples are the rows of several Tensors that share their first dimension."""

    def __init__(self, tensors):
        assert all(t.shape[0] == tensors[0].shape[0] for t in tensors), \
            "tensors not have same shape of the 1st dimension"
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].shape[0]


def _to_list(value):
    if value is None:
        return value
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


class ComposeDataset(Dataset):
    """Sample i is the fields of sample i of every dataset, concatenated into one tuple."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        assert len(self.datasets) > 0, "input datasets should not be empty"
        for i, dataset in enumerate(self.datasets):
            assert isinstance(dataset, Dataset), "each input dataset should be paddle.io.Dataset"
            assert not isinstance(dataset, IterableDataset), "paddle.io.IterableDataset not supported"
            if i > 0:
                assert len(dataset) == len(self.datasets[i - 1]), "lengths of datasets should be same"

    def __len__(self):
        return len(self.datasets[0])

    def __getitem__(self, idx):
        sample = []
        for dataset in self.datasets:
            sample.extend(_to_list(dataset[idx]))
        return tuple(sample)


class ChainDataset(IterableDataset):
    """The samples of several IterableDatasets, one dataset after another."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        assert len(self.datasets) > 0, "input datasets should not be empty"
        for dataset in self.datasets:
            assert isinstance(dataset, IterableDataset), "ChainDataset only support paddle.io.IterableDataset"

    def __iter__(self):
        for dataset in self.datasets:
            yield from dataset


class Subset(Dataset):
    """The samples of `dataset` at `indices`."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


def _accumulate(values):
    total = 0
    for v in values:
        total += v
        yield total


def random_split(dataset, lengths, generator=None):
    """Split `dataset` into Subsets of the given lengths (or fractions summing to 1), at random.

    The permutation comes from paddle.randperm, i.e. the global generator that paddle.seed seeds
    (Paddle also ignores `generator`).
    """
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        subset_lengths = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            subset_lengths.append(int(math.floor(len(dataset) * frac)))
        remainder = len(dataset) - sum(subset_lengths)
        for i in range(remainder):
            subset_lengths[i % len(subset_lengths)] += 1
        lengths = subset_lengths
        for i, length in enumerate(lengths):
            if length == 0:
                warnings.warn(f"Length of split at index {i} is 0. This might result in an empty dataset.")
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = _rng.randperm(sum(lengths)).tolist()  # paddle.randperm: Paddle's draws on the CPU
    return [Subset(dataset, indices[offset - length:offset]) for offset, length in zip(_accumulate(lengths), lengths)]


class ConcatDataset(Dataset):
    """Several map-style datasets, one after another."""

    @staticmethod
    def cumsum(sequence):
        r, s = [], 0
        for e in sequence:
            s += len(e)
            r.append(s)
        return r

    def __init__(self, datasets):
        self.datasets = list(datasets)
        assert len(self.datasets) > 0, "datasets should not be an empty iterable"
        for d in self.datasets:
            assert not isinstance(d, IterableDataset), "ConcatDataset does not support IterableDataset"
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        dataset_idx = bisect.bisect_right(self.cumulative_sizes, idx)
        sample_idx = idx if dataset_idx == 0 else idx - self.cumulative_sizes[dataset_idx - 1]
        return self.datasets[dataset_idx][sample_idx]
