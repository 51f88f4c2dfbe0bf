"""paddle.device.cuda: CUDA devices, streams and memory statistics, on torch.cuda."""
import contextlib

import torch

from ... import _report
from .. import (Event, Stream, _as_place, _device_index, _memory_apis, _properties, backends,  # noqa: F401
                current_stream as _current_stream, get_rng_state, manual_seed, set_rng_state, set_stream)

__all__ = ["Stream", "Event", "current_stream", "synchronize", "device_count", "empty_cache", "max_memory_allocated",
           "max_memory_reserved", "memory_allocated", "memory_reserved", "reset_max_memory_allocated",
           "reset_max_memory_reserved", "stream_guard", "get_device_properties", "get_device_name",
           "get_device_capability", "memory_summary", "get_rng_state", "set_rng_state", "manual_seed"]


def _cuda():
    return torch.cuda.is_available()


def _device_id(device, api):
    return _device_index(device, api, "gpu")


def device_count():
    return torch.cuda.device_count() if _cuda() else 0


def synchronize(device=None):
    """Wait for the work queued on a GPU (default: the current one) to finish."""
    if not _cuda():
        raise RuntimeError("(Unavailable) Paddle is not compiled with CUDA. Cannot visit device synchronize.")
    torch.cuda.synchronize(_device_id(device, "paddle.device.cuda.synchronize"))


def current_stream(device=None):
    if isinstance(device, int) and not isinstance(device, bool):
        device = f"gpu:{device}"
    return _current_stream(device if device is not None else ("gpu" if _cuda() else None))


def empty_cache():
    if _cuda():
        torch.cuda.empty_cache()


_CPU = ("The API {api} is not supported in CPU-only PaddlePaddle. Please reinstall PaddlePaddle with GPU or custom "
        "device support to call this API.")


(memory_allocated, max_memory_allocated, memory_reserved, max_memory_reserved, reset_max_memory_allocated,
 reset_max_memory_reserved) = _memory_apis("paddle.device.cuda", _CPU, "gpu")


def memory_summary(device=None):
    """Print torch's caching-allocator summary for a GPU."""
    if not _cuda():
        raise ValueError(_CPU.format(api="paddle.device.cuda.memory_summary"))
    print(torch.cuda.memory_summary(_device_id(device, "paddle.device.cuda.memory_summary")))


def get_device_properties(device=None):
    if isinstance(device, str) and device != "gpu" and not device.startswith("gpu:"):
        _device_id(device, "paddle.device.cuda.get_device_properties")  # Paddle's ValueError
    return _properties("paddle.device.cuda.get_device_properties", device, "gpu")


def get_device_name(device=None):
    return get_device_properties(device).name


def get_device_capability(device=None):
    p = get_device_properties(device)
    return p.major, p.minor


@contextlib.contextmanager
def stream_guard(stream=None):
    """Run the block on `stream` (None: the current stream)."""
    if stream is not None and not isinstance(stream, Stream):
        raise TypeError("stream type should be paddle.device.cuda.Stream")
    if stream is None:
        yield
        return
    prev = set_stream(stream)
    try:
        yield
    finally:
        set_stream(prev)


__getattr__ = _report.module_getattr("paddle.device.cuda")
_ = (_as_place, backends)  # (re-exported helpers the package shares)
