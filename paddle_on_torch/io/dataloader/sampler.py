"""paddle.io samplers: iterables of dataset indices.

RandomSampler and WeightedRandomSampler draw from numpy's global generator, as Paddle's do, so
`np.random.seed(s)` gives the very index sequences real Paddle gives (paddle.seed leaves numpy alone, as
Paddle's does).  SubsetRandomSampler uses paddle.randperm (torch's generator), as Paddle uses its own.
"""
from typing import Generic, TypeVar

import numpy as np
import torch

from ..._core import random as _rng
from ..._normalize import is_tensor

__all__ = ["Sampler", "SequenceSampler", "RandomSampler", "WeightedRandomSampler", "SubsetRandomSampler"]

_T = TypeVar("_T")


class Sampler(Generic[_T]):
    """Base class: subclasses define `__iter__` (and usually `__len__`)."""

    def __init__(self, data_source=None):
        self.data_source = data_source

    def __iter__(self):
        raise NotImplementedError


class SequenceSampler(Sampler):
    """0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random order of the indices (or `num_samples` draws with replacement).

    `generator`, as in Paddle, is an iterator that yields the indices itself.
    """

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError(f"expect boolean value for replacement, but got replacement={self.replacement}")
        if not self.replacement and self.num_samples > len(self.data_source):
            raise ValueError("num_samples should be smaller than or equal to length of data_source when replacement "
                             f"is False, but got num_samples: {self.num_samples} > data_source: "
                             f"{len(self.data_source)}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer, but got num_samples={self.num_samples}")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        if self.generator:
            for _ in range(self.num_samples):
                try:
                    index = next(self.generator)
                except StopIteration:
                    return
                yield index
        else:
            # numpy's global generator, drawn exactly as Paddle draws it
            yield from np.random.choice(np.arange(n), self.num_samples, replace=self.replacement).tolist()

    def __len__(self):
        return self.num_samples


def _weighted_sample(weights, num_samples, replacement=True):
    if is_tensor(weights):
        weights = weights.numpy()
    if isinstance(weights, (list, tuple)):
        weights = np.array(weights)
    assert isinstance(weights, np.ndarray), "weights should be paddle.Tensor, numpy.ndarray, list or tuple"
    assert len(weights.shape) <= 2, "weights should be a 1-D or 2-D array"
    weights = weights.reshape((-1, weights.shape[-1]))
    assert np.all(weights >= 0.0), "weights should be positive value"
    assert not np.any(weights == np.inf), "weights should not be INF"
    assert not np.any(weights == np.nan), "weights should not be NaN"
    non_zeros = np.sum(weights > 0.0, axis=1)
    assert np.all(non_zeros > 0), "weights should have positive values"
    if not replacement:
        assert np.all(non_zeros >= num_samples), \
            "weights positive value number should not less than num_samples when replacement=False"
    weights = weights / weights.sum(axis=1)
    return np.array([np.random.choice(weights.shape[1], num_samples, replacement, weights[i])
                     for i in range(weights.shape[0])])


class WeightedRandomSampler(Sampler):
    """`num_samples` indices drawn with probabilities proportional to `weights` (per row of a 2-D weight)."""

    def __init__(self, weights, num_samples, replacement=True):
        if not isinstance(num_samples, int) or num_samples <= 0:
            raise ValueError("num_samples should be a positive integer")
        if not isinstance(replacement, bool):
            raise ValueError("replacement should be a boolean value")
        self.weights = weights
        self.num_samples = num_samples
        self.replacement = replacement

    def __iter__(self):
        return iter(_weighted_sample(self.weights, self.num_samples, self.replacement).reshape(-1).tolist())

    def __len__(self):
        # as in Paddle, this reads `weights.shape`: list weights have none (AttributeError)
        mul = int(np.prod(self.weights.shape)) // self.weights.shape[-1]
        return self.num_samples * mul


class SubsetRandomSampler(Sampler):
    """The given indices in a random order."""

    def __init__(self, indices):
        if len(indices) == 0:
            raise ValueError("The length of `indices` in SubsetRandomSampler should be greater than 0.")
        self.indices = indices

    def __iter__(self):
        for i in _rng.randperm(len(self.indices)).tolist():  # paddle.randperm: Paddle's draws on the CPU
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)
