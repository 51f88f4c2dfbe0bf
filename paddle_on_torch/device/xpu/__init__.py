"""paddle.device.xpu: XPU devices through torch.xpu (device count, synchronize, memory statistics)."""
import torch

from .. import Event, Stream, _memory_api, current_stream as _current_stream  # noqa: F401
from ...framework.place import Place as _Place

__all__ = ["Stream", "Event", "current_stream", "synchronize", "device_count", "empty_cache", "max_memory_allocated",
           "max_memory_reserved", "memory_allocated", "memory_reserved", "reset_max_memory_allocated",
           "reset_max_memory_reserved", "get_rng_state", "set_rng_state", "manual_seed"]


def _xpu():
    return bool(getattr(torch, "xpu", None) and torch.xpu.is_available())


def _device_id(device, api):
    if device is None:
        return torch.xpu.current_device()
    if isinstance(device, int) and not isinstance(device, bool):
        return device
    if isinstance(device, _Place) and device.is_xpu_place():
        return device.get_device_id()
    if isinstance(device, str):
        if device.startswith("xpu:"):
            return int(device[4:])
        if device == "xpu":
            return 0
    raise ValueError(f"The device type {device} is not expected. Because {api} only support int, str or "
                     "paddle.XPUPlace. Please input appropriate device again!")


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


def _mem(name, torch_name):
    return _memory_api(name, torch_name, f"paddle.device.xpu.{name}", _ONLY, "xpu")


memory_allocated = _mem("memory_allocated", "memory_allocated")
max_memory_allocated = _mem("max_memory_allocated", "max_memory_allocated")
memory_reserved = _mem("memory_reserved", "memory_reserved")
max_memory_reserved = _mem("max_memory_reserved", "max_memory_reserved")
reset_max_memory_allocated = _mem("reset_max_memory_allocated", "reset_peak_memory_stats")
reset_max_memory_reserved = _mem("reset_max_memory_reserved", "reset_peak_memory_stats")


def get_rng_state(device=None):
    from .. import get_rng_state as _get

    return _get(device)


def set_rng_state(new_state, device=None):
    from .. import set_rng_state as _set

    _set(new_state, device)


def manual_seed(seed):
    from .. import manual_seed as _seed

    _seed(seed)
