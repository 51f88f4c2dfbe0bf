"""Paddle places (`paddle.CPUPlace()`, `paddle.CUDAPlace(0)`) and the current device.

A place is a thin value object naming a torch.device.  `set_device` accepts
Paddle's device strings; 'gpu' maps to torch's 'cuda'.  Issue 8 widens this to
a registry of backends; the interface stays `to_torch_device` / `place_of`.
"""
import re

import torch

__all__ = ["Place", "CPUPlace", "CUDAPlace", "CUDAPinnedPlace", "XPUPlace", "XPUPinnedPlace", "CustomPlace",
           "set_device", "get_device", "is_compiled_with_cuda", "is_compiled_with_rocm",
           "is_compiled_with_xpu", "is_compiled_with_custom_device", "is_compiled_with_cinn",
           "is_compiled_with_distribute", "current_torch_device"]


class Place:
    """Where a tensor lives.  Equal places name the same torch device."""

    __slots__ = ("_device",)

    def __init__(self, device="cpu"):
        self._device = torch.device(device)

    def __repr__(self):
        d = self._device
        if d.type == "cpu":
            return "Place(cpu)"
        if d.type == "cuda":
            return f"Place(gpu:{d.index or 0})"
        return f"Place({d.type}:{d.index or 0})"

    __str__ = __repr__

    def __eq__(self, other):
        return isinstance(other, Place) and self._device == other._device

    def __hash__(self):
        return hash(self._device)

    def is_cpu_place(self):
        return self._device.type == "cpu"

    def is_gpu_place(self):
        return self._device.type == "cuda"

    def is_xpu_place(self):
        return self._device.type == "xpu"

    def is_custom_place(self):
        return self._device.type not in ("cpu", "cuda", "xpu")

    def is_cuda_pinned_place(self):
        return False

    def gpu_device_id(self):
        return self._device.index or 0

    def get_device_id(self):
        return self._device.index or 0


def CPUPlace():
    return Place("cpu")


def _need(available, what):
    if not available:
        raise ValueError(f"(InvalidArgument) use wrong place, Please check. ({what} is not available to torch here)")


def CUDAPlace(device_id=0):
    _need(torch.cuda.is_available(), "CUDA")
    return Place(f"cuda:{device_id}")


def CUDAPinnedPlace():
    raise RuntimeError("(PermissionDenied) Cannot use CUDAPinnedPlace in CPU only version, "
                       "Please recompile or reinstall Paddle with CUDA support.")


def XPUPinnedPlace():
    raise RuntimeError("(PermissionDenied) Cannot use XPUPinnedPlace: no XPU is available to torch here.")


def XPUPlace(device_id=0):
    _need(hasattr(torch, "xpu") and torch.xpu.is_available(), "XPU")
    return Place(f"xpu:{device_id}")


def CustomPlace(device_type, device_id=0):
    return Place(f"{device_type}:{device_id}")


_current = [torch.device("cpu")]
_DEVICE_RE = re.compile(r"^(cpu|gpu|xpu|npu|dcu|mps|xla)(?::(\d+))?$")


def set_device(device):
    """Paddle's `set_device('cpu' | 'gpu' | 'gpu:1' | ...)`: returns the new Place."""
    m = _DEVICE_RE.match(device) if isinstance(device, str) else None
    if m is None:
        raise ValueError("The device must be a string which is like 'cpu', 'gpu', 'gpu:x', 'dcu', 'dcu:x', "
                         "'xpu', 'xpu:x', 'npu', 'npu:x'")
    kind, index = m.group(1), int(m.group(2) or 0)
    if kind == "cpu":
        dev = torch.device("cpu")
    elif kind in ("gpu", "dcu"):
        if not torch.cuda.is_available():
            raise ValueError(f"The device should not be {device!r}, since PaddlePaddle is not compiled with CUDA")
        dev = torch.device("cuda", index)
    else:
        mod = getattr(torch, kind, None)
        if mod is None or not mod.is_available():
            raise ValueError(f"The device should not be {device!r}, since torch has no available {kind} backend")
        dev = torch.device(kind, index)
    _current[0] = dev
    return Place(dev)


def get_device():
    d = _current[0]
    return "cpu" if d.type == "cpu" else f"{'gpu' if d.type == 'cuda' else d.type}:{d.index or 0}"


def current_torch_device():
    return _current[0]


def to_torch_device(place):
    """A Place, a device string, or None (the current device) -> torch.device."""
    if place is None:
        return _current[0]
    if isinstance(place, Place):
        return place._device
    if isinstance(place, str):
        return torch.device(place.replace("gpu", "cuda"))
    if isinstance(place, torch.device):
        return place
    raise TypeError(f"Unsupported place: {place!r}")


def is_compiled_with_cuda():
    return torch.cuda.is_available()


def is_compiled_with_rocm():
    return torch.version.hip is not None


def is_compiled_with_xpu():
    return hasattr(torch, "xpu") and torch.xpu.is_available()


def is_compiled_with_custom_device(device_type=None):
    return False


def is_compiled_with_cinn():
    return False


def is_compiled_with_distribute():
    return torch.distributed.is_available()
