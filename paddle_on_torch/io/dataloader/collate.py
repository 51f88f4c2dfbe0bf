"""Collation: Paddle's public collate functions, and the internal path from samples to torch tensors.

`default_collate_fn` / `default_convert_fn` are Paddle's (they return numpy arrays and paddle
Tensors, as Paddle's do, for code that calls them directly).  The DataLoader turns whatever a
collate function returns into a *transport* structure, as Paddle's `_flatten_batch` does: numpy
arrays and Tensors become torch tensors, sequences become lists, mappings dicts, and numbers,
strings and anything else stay as they are.  That structure crosses process boundaries (torch
tensors through shared memory) and is wrapped into paddle Tensors in the main process
(`to_paddle`).  With the default collate function the DataLoader skips the numpy detour:
`collate_to_torch` stacks straight into one (shared-memory, in a worker) torch tensor.
"""
import numbers
from collections.abc import Mapping, Sequence

import numpy as np
import torch

from ... import _normalize

__all__ = ["default_collate_fn", "default_convert_fn"]


def _is_paddle_tensor(x):
    return isinstance(x, _normalize.Tensor)


def default_collate_fn(batch):
    """Paddle's default: stack arrays (numpy), numbers -> one numpy array, Tensors -> paddle.stack,
    dicts and sequences field by field (sequences come back as lists), strings as a list."""
    sample = batch[0]
    if isinstance(sample, np.ndarray):
        return np.stack(batch, axis=0)
    if _is_paddle_tensor(sample):
        import paddle_on_torch

        return paddle_on_torch.stack(batch, axis=0)
    if isinstance(sample, numbers.Number):
        return np.array(batch)
    if isinstance(sample, (str, bytes)):
        return batch
    if isinstance(sample, Mapping):
        return {key: default_collate_fn([d[key] for d in batch]) for key in sample}
    if isinstance(sample, Sequence):
        n = len(sample)
        if not all(len(s) == n for s in batch):
            raise RuntimeError("fields number not same among samples in a batch")
        return [default_collate_fn(fields) for fields in zip(*batch)]
    raise TypeError(f"batch data con only contains: tensor, numpy.ndarray, dict, list, number, but got {type(sample)}")


def default_convert_fn(batch):
    """Paddle's collate when batching is off (batch_size=None): sequences become lists, nothing is stacked."""
    if _is_paddle_tensor(batch) or isinstance(batch, (np.ndarray, str, bytes)):
        return batch
    if isinstance(batch, Mapping):
        return {key: default_convert_fn(batch[key]) for key in batch}
    if isinstance(batch, Sequence):
        return [default_convert_fn(d) for d in batch]
    return batch


# ----------------------------------------------------------------- to torch


def _from_numpy(a, copy=True):
    """A numpy array -> a torch tensor of its own (Paddle copies too; `copy=False` for a fresh array);
    uint16 is read as bfloat16 bits, as Paddle reads it."""
    if a.dtype.kind in "USO":
        raise TypeError(f"DataLoader cannot turn a numpy array of dtype {a.dtype} into a Tensor")
    a = np.array(a, copy=True, order="C") if copy else np.ascontiguousarray(a)
    if not a.dtype.isnative:  # torch reads native byte order only
        a = a.astype(a.dtype.newbyteorder("="))
    if a.dtype == np.uint16:
        return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(a)


def _empty(shape, dtype, shared):
    if not shared:
        return torch.empty(shape, dtype=dtype)
    numel = 1
    for d in shape:
        numel *= d
    # allocated in shared memory, so sending it to the main process copies nothing
    storage = torch.empty(0, dtype=dtype)._typed_storage()._new_shared(numel)
    return torch.empty(0, dtype=dtype).set_(storage).view(shape)


def _stack_numpy(batch, shared):
    first = batch[0]
    dtype = first.dtype
    if dtype.kind in "USO" or not dtype.isnative or not all(isinstance(a, np.ndarray) and a.dtype == dtype and a.shape == first.shape
                                      for a in batch):
        return _from_numpy(np.stack(batch, axis=0), copy=False)  # numpy's promotion and error messages
    bf16 = dtype == np.uint16
    out = _empty((len(batch),) + first.shape, torch.int16 if bf16 else _normalize_np_dtype(dtype), shared)
    view = out.numpy()
    np.stack(batch, axis=0, out=view.view(np.uint16) if bf16 else view)
    return out.view(torch.bfloat16) if bf16 else out


_NP_TO_TORCH = {}


def _normalize_np_dtype(dtype):
    t = _NP_TO_TORCH.get(dtype)
    if t is None:
        t = _NP_TO_TORCH[dtype] = torch.from_numpy(np.empty(0, dtype)).dtype
    return t


def collate_to_torch(batch, shared=False):
    """default_collate_fn followed by the transport conversion, in one pass (no intermediate numpy copy).

    Returns (structure, number of tensors in it).
    """
    sample = batch[0]
    if isinstance(sample, np.ndarray):
        return _stack_numpy(batch, shared), 1
    if _is_paddle_tensor(sample) or isinstance(sample, torch.Tensor):
        ts = [s._t.detach() if _is_paddle_tensor(s) else s.detach() for s in batch]
        out = None
        if shared and all(t.device.type == "cpu" for t in ts):
            out = _empty((len(ts),) + tuple(ts[0].shape), ts[0].dtype, True)
        try:
            return torch.stack(ts, 0, out=out), 1
        except RuntimeError as e:
            raise ValueError(f"DataLoader cannot stack the Tensors of a batch: {e}") from None
    if isinstance(sample, numbers.Number):
        return _from_numpy(np.array(batch), copy=False), 1
    if isinstance(sample, (str, bytes)):
        return list(batch), 0
    if isinstance(sample, Mapping):
        out, n = {}, 0
        for key in sample:
            out[key], k = collate_to_torch([d[key] for d in batch], shared)
            n += k
        return out, n
    if isinstance(sample, Sequence):
        size = len(sample)
        if not all(len(s) == size for s in batch):
            raise RuntimeError("fields number not same among samples in a batch")
        out, n = [], 0
        for fields in zip(*batch):
            v, k = collate_to_torch(fields, shared)
            out.append(v)
            n += k
        return out, n
    raise TypeError(f"batch data con only contains: tensor, numpy.ndarray, dict, list, number, but got {type(sample)}")


def to_transport(batch):
    """What any collate function returned -> (structure of torch tensors, number of tensors), as Paddle's
    _flatten_batch sees it."""
    if isinstance(batch, np.ndarray):
        return _from_numpy(batch), 1
    if _is_paddle_tensor(batch):
        return batch._t.detach(), 1
    if isinstance(batch, torch.Tensor):
        return batch.detach(), 1
    if isinstance(batch, (str, bytes, numbers.Number)):
        return batch, 0
    if isinstance(batch, Sequence):
        out, n = [], 0
        for v in batch:
            v, k = to_transport(v)
            out.append(v)
            n += k
        return out, n
    if isinstance(batch, Mapping):
        out, n = {}, 0
        for key, v in batch.items():
            out[key], k = to_transport(v)
            n += k
        return out, n
    return batch, 0


def to_numpy_transport(structure):
    """use_shared_memory=False: send arrays through the pipe (pickled) instead of torch's shared memory."""
    if isinstance(structure, torch.Tensor):
        return _Pickled(structure)
    if isinstance(structure, list):
        return [to_numpy_transport(v) for v in structure]
    if isinstance(structure, dict):
        return {k: to_numpy_transport(v) for k, v in structure.items()}
    return structure


class _Pickled:
    """A tensor's bytes as a numpy array (pickled by value), rebuilt as a torch tensor in the main process."""

    __slots__ = ("array", "bf16")

    def __init__(self, t):
        self.bf16 = t.dtype == torch.bfloat16
        self.array = (t.view(torch.int16) if self.bf16 else t).numpy()

    def tensor(self):
        t = torch.from_numpy(self.array)
        return t.view(torch.bfloat16) if self.bf16 else t


def to_paddle(structure, device=None):
    """The transport structure -> the batch the user sees: torch tensors wrapped as paddle Tensors."""
    if isinstance(structure, torch.Tensor):
        if device is not None and structure.device != device:
            structure = structure.to(device, non_blocking=structure.is_pinned())
        return _normalize.wrap(structure)
    if isinstance(structure, _Pickled):
        return to_paddle(structure.tensor(), device)
    if isinstance(structure, list):
        return [to_paddle(v, device) for v in structure]
    if isinstance(structure, dict):
        return {k: to_paddle(v, device) for k, v in structure.items()}
    return structure
