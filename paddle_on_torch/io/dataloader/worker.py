"""Worker processes: get_worker_info, and the per-worker setup Paddle does (seeds, WorkerInfo).

The processes themselves are torch.utils.data's; `_WorkerSetup` runs first in each of them (as
torch's worker_init_fn) and does what Paddle's `_worker_loop` does before fetching: seed `random`,
the paddle/torch generator and numpy from Paddle's base seed, publish the WorkerInfo, then call the
user's worker_init_fn.
"""
import random

import numpy as np
import torch

__all__ = ["get_worker_info", "WorkerInfo"]

_worker_info = None


def get_worker_info():
    """In a DataLoader worker process: its WorkerInfo (id, num_workers, dataset, seed); elsewhere None."""
    return _worker_info


class WorkerInfo:
    """What a worker knows about itself: `id`, `num_workers`, `dataset` (its own copy) and `seed`."""

    __initialized = False

    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)
        self.__initialized = True

    def __setattr__(self, key, val):
        if self.__initialized:
            raise RuntimeError(f"Cannot assign attributes to {self.__class__.__name__} objects")
        return super().__setattr__(key, val)

    def __repr__(self):
        return f"WorkerInfo(id={self.id}, num_workers={self.num_workers}, seed={self.seed})"


_MASK32 = 0xFFFFFFFF


def _generate_states(base_seed=0, worker_id=0):
    """numpy's per-worker seed: Paddle's (and torch's) SeedSequence-style hash of (worker_id, base_seed)."""
    const_a, const_b = [0x43B0D7E5], [0x8B51F9DD]

    def hash_(value):
        value = (value ^ const_a[0]) & _MASK32
        const_a[0] = (const_a[0] * 0x931E8875) & _MASK32
        value = (value * const_a[0]) & _MASK32
        return (value ^ (value >> 16)) & _MASK32

    def mix(x, y):
        r = ((0xCA01F9DD * x) - (0x4973F715 * y)) & _MASK32
        return (r ^ (r >> 16)) & _MASK32

    pool = [hash_(e) for e in (worker_id, base_seed & _MASK32, base_seed >> 32, 0)]
    for i in range(4):
        for j in range(4):
            if i != j:
                pool[j] = mix(pool[j], hash_(pool[i]))
    states = []
    for p in pool:
        state = (p ^ const_b[0]) & _MASK32
        const_b[0] = (const_b[0] * 0x58F38DED) & _MASK32
        state = (state * const_b[0]) & _MASK32
        states.append((state ^ (state >> 16)) & _MASK32)
    return states


class _WorkerSetup:
    """torch's worker_init_fn for a paddle DataLoader (picklable, for the spawn start method too)."""

    def __init__(self, num_workers, user_init_fn):
        self.num_workers = num_workers
        self.user_init_fn = user_init_fn
        self.base_seed = 0  # set by the DataLoader before it starts the workers

    def __call__(self, worker_id):
        global _worker_info
        from ..._core import place

        place.set_device("cpu")  # Paddle fetches under a CPU place in its workers
        seed = self.base_seed + worker_id
        random.seed(seed)
        torch.manual_seed(seed)  # what paddle.seed(seed) does here
        np.random.seed(_generate_states(self.base_seed, worker_id))
        # the worker's own copy of the dataset: the one torch fetches from (unwrapped from our adapter)
        dataset = torch.utils.data.get_worker_info().dataset
        dataset = getattr(dataset, "paddle_dataset", dataset)
        _worker_info = WorkerInfo(id=worker_id, num_workers=self.num_workers, dataset=dataset,
                                  seed=self.base_seed)
        if self.user_init_fn is not None:
            self.user_init_fn(worker_id)
