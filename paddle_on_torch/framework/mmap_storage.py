"""paddle.MmapStorage: the first `nbytes` of a file mapped copy-on-write (writes through a slice never reach the
file), read back as tensors with `get_slice`."""
import os

import torch

from .._normalize import wrap
from .._core.dtype import to_torch_dtype

__all__ = ["MmapStorage"]


class MmapStorage:
    """MmapStorage(filename, nbytes): map `nbytes` of `filename` (torch.from_file, private mapping)."""

    def __init__(self, filename, nbytes):
        filename = os.fspath(filename)
        if not os.path.isfile(filename):
            raise RuntimeError(f"(Unavailable) unable to open file <{filename}> in read-only mode.")
        size = os.path.getsize(filename)
        if size < nbytes:
            raise RuntimeError(f"(Unavailable) file <{filename}> size <{size}> is smaller than the required mapping "
                               f"size <{nbytes}>")
        self._bytes = torch.from_file(filename, shared=False, size=int(nbytes), dtype=torch.uint8)

    def get_slice(self, dtype, start, stop):
        """stop - start elements of `dtype` from byte `start` (Paddle 3.3.1 offsets by bytes, counts in elements).
        They share the mapping where `start` is a multiple of the element size, else they are a copy."""
        dt = to_torch_dtype(dtype)
        count = max(int(stop) - int(start), 0)
        start = max(int(start), 0)
        end = start + count * dt.itemsize
        if end > self._bytes.numel():  # Paddle reads past the mapping here
            raise ValueError(f"MmapStorage.get_slice: bytes [{start}, {end}) are outside the {self._bytes.numel()} "
                             f"mapped bytes")
        raw = self._bytes[start:end]
        return wrap(raw.view(dt) if start % dt.itemsize == 0 else raw.clone().view(dt))
