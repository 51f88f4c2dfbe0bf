"""paddle.io.DataLoader on torch.utils.data.

Sampling, fetching and collation follow Paddle (its BatchSampler, its fetch rules, its collate
semantics and dtypes); worker processes, shared memory, prefetching and persistent workers are
torch.utils.data.DataLoader's.  Workers collate into torch tensors (in shared memory) and send
those; the main process wraps them into paddle Tensors, so no paddle object is pickled on the
hot path.

Deviations forced by torch (see docs/compatibility.md):
- On a GPU device batches arrive on that device (pinned, non-blocking copies), where Paddle hands
  out CUDA-pinned host tensors: torch ops do not move host operands to the GPU by themselves.
- num_workers=0 fetches synchronously in the calling thread; Paddle prefetches in a thread.
"""
import sys
import warnings

import numpy as np
import torch
import torch.utils.data as tud

from .._core import place as _place
from .dataloader.batch_sampler import BatchSampler, _InfiniteIterableSampler
from .dataloader.collate import collate_to_torch, default_convert_fn, to_numpy_transport, to_paddle, to_transport
from .dataloader.dataset import IterableDataset
from .dataloader.worker import _WorkerSetup

__all__ = ["DataLoader"]


class _DatasetKind:
    MAP = 0
    ITER = 1


class _TorchIterable(tud.IterableDataset):
    """A paddle IterableDataset as torch's DataLoader needs it (torch decides the kind by isinstance)."""

    def __init__(self, dataset):
        self.paddle_dataset = dataset

    def __iter__(self):
        return iter(self.paddle_dataset)


class _Collate:
    """Runs where the samples are fetched (a worker, or the main process): collate, then the transport form."""

    def __init__(self, collate_fn, auto_collate, shared):
        self.collate_fn = collate_fn
        self.auto_collate = auto_collate
        self.shared = shared

    def __call__(self, data):
        if self.collate_fn is not None:
            out = to_transport(self.collate_fn(data))
        elif self.auto_collate:
            out = collate_to_torch(data, shared=self.shared and tud.get_worker_info() is not None)
        else:
            out = to_transport(default_convert_fn(data))
        if not self.shared and tud.get_worker_info() is not None:
            return to_numpy_transport(out[0]), out[1]
        return out


def _torch_device(places):
    if places is None:
        return _place.current_torch_device()
    if isinstance(places, (list, tuple)):
        if not places:
            raise ValueError("places should not be empty")
        places = places[0]  # as in Paddle's dynamic mode, batches go to the first place
    if isinstance(places, str):
        if places.startswith("gpu_pinned") or places.startswith("cpu"):
            return torch.device("cpu")
        m = _place._DEVICE_RE.match(places)
        if m is None:
            raise ValueError(f"The places should be 'cpu', 'gpu:x' or 'gpu_pinned', but got {places!r}")
        return _place.to_torch_device(places)
    if isinstance(places, (_place.Place, torch.device)):
        return _place.to_torch_device(places)
    raise TypeError(f"places should be a Place, a string or a list of them, but got {type(places).__name__}")


class DataLoader:
    """Iterates over `dataset` in batches of paddle Tensors (Paddle's DataLoader)."""

    def __init__(self, dataset, feed_list=None, places=None, return_list=True, batch_sampler=None, batch_size=1,
                 shuffle=False, drop_last=False, collate_fn=None, num_workers=0, use_buffer_reader=True,
                 reader_buffer_size=2, prefetch_factor=2, use_shared_memory=True, timeout=0, worker_init_fn=None,
                 persistent_workers=False):
        self.return_list = return_list
        self.collate_fn = collate_fn
        self.use_buffer_reader = use_buffer_reader
        self.reader_buffer_size = reader_buffer_size
        self.prefetch_factor = prefetch_factor
        self.worker_init_fn = worker_init_fn
        self.dataset = dataset
        self.feed_list = feed_list
        self._device = _torch_device(places)
        self.places = [_place.Place(self._device)]
        assert num_workers >= 0, "num_workers should be a non-negative value"
        if num_workers > 0 and sys.platform in ("darwin", "win32"):
            warnings.warn("DataLoader with multi-process mode is not supported on MacOs and Windows currently. "
                          "Please use single-process mode with num_workers = 0 instead")
            num_workers = 0
        self.num_workers = num_workers
        assert prefetch_factor > 0, "prefetch_factor should be a positive value"
        self.use_shared_memory = use_shared_memory and num_workers > 0
        assert timeout >= 0, "timeout should be a non-negative value"
        # Paddle's workers poll with this interval but never give up waiting; so does this DataLoader
        self.timeout = timeout
        if isinstance(dataset, IterableDataset):
            self.dataset_kind = _DatasetKind.ITER
            if shuffle:
                raise ValueError(f"IterableDataset not support shuffle, but got shuffle={shuffle}")
            if batch_sampler is not None:
                raise ValueError("IterableDataset expect unspecified batch_sampler")
        else:
            self.dataset_kind = _DatasetKind.MAP
        if batch_sampler is not None:
            assert batch_size == 1 and not shuffle and not drop_last, \
                "batch_size/shuffle/drop_last should not be set when batch_sampler is given"
            self.batch_sampler = batch_sampler
            self.batch_size = None
        elif batch_size is None:
            self.batch_sampler = None
            self.batch_size = None
        else:
            assert batch_size > 0, "batch_size should be None or a positive value when batch_sampler is not given"
            self.batch_size = batch_size
            if self.dataset_kind == _DatasetKind.ITER:
                self.batch_sampler = _InfiniteIterableSampler(dataset, batch_size)
            else:
                self.batch_sampler = BatchSampler(dataset=dataset, batch_size=batch_size, shuffle=shuffle,
                                                  drop_last=drop_last)
        self.drop_last = drop_last
        self.auto_collate_batch = self.batch_sampler is not None
        self.pin_memory = self._device.type == "cuda"
        self._persistent_workers = persistent_workers
        self._torch_loader = None
        self._worker_setup = None
        self._workers_started = False

    def __len__(self):
        if self.dataset_kind == _DatasetKind.ITER:
            raise ValueError("length of IterableDataset not supported")
        return len(self.batch_sampler) if self.auto_collate_batch else len(self.dataset)

    def __iter__(self):
        if self.num_workers == 0:
            return _SingleProcessIter(self)
        return _MultiProcessIter(self)

    def __call__(self):
        return self.__iter__()

    # ------------------------------------------------------------ workers
    def _make_torch_loader(self):
        self._worker_setup = _WorkerSetup(self.num_workers, self.worker_init_fn)
        kw = {}
        if self.dataset_kind == _DatasetKind.ITER:
            dataset = _TorchIterable(self.dataset)
            if self.auto_collate_batch:
                kw.update(batch_size=self.batch_size, drop_last=self.drop_last)
            else:
                kw.update(batch_size=None)
        else:
            dataset = self.dataset
            if self.auto_collate_batch:
                kw.update(batch_sampler=self.batch_sampler)
            else:
                kw.update(batch_size=None)
        return tud.DataLoader(
            dataset, num_workers=self.num_workers,
            collate_fn=_Collate(self.collate_fn, self.auto_collate_batch, self.use_shared_memory),
            worker_init_fn=self._worker_setup, prefetch_factor=self.prefetch_factor,
            persistent_workers=self._persistent_workers, pin_memory=self.pin_memory,
            # torch's own draw of a base seed must not consume the global generator
            generator=torch.Generator(), **kw)


class _IterBase:
    def __init__(self, loader):
        self._loader = loader
        # the loader's settings under the names Paddle's iterators keep them (PaddleNLP's Trainer reads
        # _batch_sampler / _dataset from an iterator it is handed)
        self._dataset = loader.dataset
        self._batch_sampler = loader.batch_sampler
        self._drop_last = loader.drop_last
        self._auto_collate_batch = loader.auto_collate_batch
        self._num_workers = loader.num_workers
        self._dataset_kind = loader.dataset_kind
        self._device = loader._device if loader._device.type != "cpu" else None
        self._done = False

    def __iter__(self):
        return self

    def __len__(self):
        return len(self._loader.batch_sampler)

    def _finish(self, structure, n_tensors):
        if n_tensors == 0:
            # Paddle's reader reads a batch without a single array or Tensor as the end of the data
            self._done = True
            raise StopIteration
        return to_paddle(structure, self._device)


class _SingleProcessIter(_IterBase):
    """num_workers=0: Paddle's fetch rules, in the calling thread."""

    def __init__(self, loader):
        super().__init__(loader)
        if loader.auto_collate_batch:
            index_sampler = loader.batch_sampler
        elif loader.dataset_kind == _DatasetKind.MAP:
            index_sampler = range(len(loader.dataset))
        else:
            index_sampler = _InfiniteIterableSampler(loader.dataset, 1)
        self._sampler_iter = iter(index_sampler)
        self._dataset_iter = iter(loader.dataset) if loader.dataset_kind == _DatasetKind.ITER else None
        self._collate = _Collate(loader.collate_fn, loader.auto_collate_batch, False)

    def _fetch(self, indices):
        loader = self._loader
        if self._dataset_iter is None:
            if loader.auto_collate_batch:
                dataset = loader.dataset
                return [dataset[i] for i in indices]
            return loader.dataset[indices]
        if loader.auto_collate_batch:
            data = []
            for _ in indices:
                try:
                    data.append(next(self._dataset_iter))
                except StopIteration:
                    break
            if not data or (loader.drop_last and len(data) < len(indices)):
                raise StopIteration
            return data
        return next(self._dataset_iter)

    def __next__(self):
        if self._done:
            raise StopIteration
        try:
            data = self._fetch(next(self._sampler_iter))
        except StopIteration:
            self._done = True
            raise
        return self._finish(*self._collate(data))


class _MultiProcessIter(_IterBase):
    """num_workers>0: torch's worker processes, seeded as Paddle seeds its workers."""

    def __init__(self, loader):
        super().__init__(loader)
        if loader._torch_loader is None or not loader._persistent_workers:
            # rebuilt per epoch (cheap) so that attributes changed on the loader count, as in Paddle
            loader._torch_loader = loader._make_torch_loader()
        if not (loader._persistent_workers and loader._workers_started):
            # Paddle draws each worker pool's base seed from numpy's global generator
            loader._worker_setup.base_seed = int(np.random.randint(low=0, high=sys.maxsize))
            loader._workers_started = True
        self._it = iter(loader._torch_loader)

    def __next__(self):
        if self._done:
            raise StopIteration
        try:
            structure, n = next(self._it)
        except StopIteration:
            self._done = True
            raise
        if n == 0 and not self._loader._persistent_workers:
            self._it = None  # ends the epoch: let torch shut the workers down
        return self._finish(structure, n)


USE_PINNED_MEMORY = None


def use_pinned_memory(*args):
    """Paddle's DataLoader switch: with no argument, the setting (None: the default); with one bool, sets it.
    Batches are pinned here when they go to a GPU whatever it says (see the module docstring)."""
    global USE_PINNED_MEMORY
    if len(args) == 0:
        return USE_PINNED_MEMORY
    assert len(args) == 1 and isinstance(args[0], bool)
    USE_PINNED_MEMORY = args[0]
