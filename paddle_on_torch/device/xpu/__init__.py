"""paddle.device.xpu: XPU devices through torch.xpu (device count, synchronize, memory statistics)."""
import torch

from .. import (Event, Stream, _device_index, _memory_apis, current_stream as _current_stream,  # noqa: F401
                get_rng_state, manual_seed, set_rng_state)

__all__ = ["Stream", "Event", "current_stream", "synchronize", "device_count", "empty_cache", "max_memory_allocated",
           "max_memory_reserved", "memory_allocated", "memory_reserved", "reset_max_memory_allocated",
           "reset_max_memory_reserved", "get_rng_state", "set_rng_state", "manual_seed"]


def _xpu():
    return bool(getattr(torch, "xpu", None) and torch.xpu.is_available())


def _device_id(device, api):
    return _device_index(device, api, "xpu")


def device_count():
    return torch.xpu.device_count() if _xpu() else 0


def synchronize(device=None):
    if not _xpu():
        raise RuntimeError("(Unavailable) Paddle is not compiled with XPU. Cannot visit device synchronize.")
    torch.xpu.synchronize(_device_id(device, "paddle.device.xpu.synchronize"))


def current_stream(device=None):
    if isinstance(device, int) and not isinstance(device, bool):
        device = f"xpu:{device}"
    return _current_stream(device if device is not None else ("xpu" if _xpu() else None))


_ONLY = ("The API {api} is only supported in XPU PaddlePaddle. Please reinstall PaddlePaddle with XPU support to "
         "call this API.")


def empty_cache():
    if not _xpu():
        raise ValueError(_ONLY.format(api="paddle.device.xpu.empty_cache"))
    torch.xpu.empty_cache()


(memory_allocated, max_memory_allocated, memory_reserved, max_memory_reserved, reset_max_memory_allocated,
 reset_max_memory_reserved) = _memory_apis("paddle.device.xpu", _ONLY, "xpu")
