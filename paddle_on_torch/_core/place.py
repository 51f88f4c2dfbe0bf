"""Paddle places (`paddle.CPUPlace()`, `paddle.CUDAPlace(0)`) and the current device.

A place is a thin value object naming a torch.device.  Which device types exist, whether torch
can use them and how many there are comes from the backend registry in
`paddle_on_torch/_core/backends/` (cpu, gpu = torch.cuda, xpu, and the custom types mps, xla and
a PrivateUse1 extension).  The interface the rest of the package uses is `to_torch_device`,
`current_torch_device` and `Place`; `set_device` / `get_device` are Paddle's.
"""
import os

import torch
from .._report import unsupported

__all__ = ["Place", "CPUPlace", "CUDAPlace", "CUDAPinnedPlace", "XPUPlace", "XPUPinnedPlace", "CustomPlace", "IPUPlace",
           "set_device", "get_device", "is_compiled_with_cuda", "is_compiled_with_rocm",
           "is_compiled_with_xpu", "is_compiled_with_custom_device", "is_compiled_with_cinn",
           "is_compiled_with_distribute", "current_torch_device"]


def _backends():
    from . import backends

    return backends


class Place:
    """Where a tensor lives (paddle.base.core.Place).  Equal places name the same torch device.

    `Tensor.place` is a plain Place, as in Paddle; `paddle.CPUPlace()`, `CUDAPlace(i)` and the other kinds are
    subclasses, so `isinstance(p, paddle.CPUPlace)` answers as Paddle does (True for `paddle.CPUPlace()`, False
    for `tensor.place`) while equality ignores the kind.  `Place()` is Paddle's undefined place; paddle_on_torch
    also builds one from a torch device (`Place("cpu")`), which Paddle's constructor does not take."""

    __slots__ = ("_device",)

    def __init__(self, device=None):
        self._device = None if device is None else torch.device(device)

    def _paddle_type(self):
        t = self._device.type
        if t == "cuda":
            return "gpu"
        return t

    def __repr__(self):
        d = self._device
        if d is None:
            return "Place(undefined:0)"
        if d.type == "cpu":
            return "Place(cpu)"
        return f"Place({self._paddle_type()}:{d.index or 0})"

    __str__ = __repr__

    def __eq__(self, other):
        return isinstance(other, Place) and self._device == other._device

    def __hash__(self):
        return hash(self._device)

    def __reduce__(self):
        return (Place, (self._device,)) if type(self) is Place else (typed_place, (self._device,))

    def _equals(self, other):
        return self == other

    def set_place(self, place):
        """Make this place name the same device as `place` (Paddle's Place.set_place)."""
        if not isinstance(place, Place):
            raise TypeError(f"set_place(): incompatible function arguments: {type(place).__name__} is not a Place")
        self._device = place._device

    def is_cpu_place(self):
        return self._device is not None and self._device.type == "cpu"

    def is_gpu_place(self):
        return self._device is not None and self._device.type == "cuda"

    def is_xpu_place(self):
        return self._device is not None and self._device.type == "xpu"

    def is_custom_place(self):
        return self._device is not None and self._device.type not in ("cpu", "cuda", "xpu", "meta")

    def is_cuda_pinned_place(self):
        return False

    def is_xpu_pinned_place(self):
        return False

    def is_ipu_place(self):
        return False

    def gpu_device_id(self):
        return self._device.index or 0

    xpu_device_id = ipu_device_id = custom_device_id = get_device_id = gpu_device_id

    def custom_device_type(self):
        return self._paddle_type() if self.is_custom_place() else ""

    def get_device_type(self):
        return self._paddle_type()


class CPUPlace(Place):
    """paddle.CPUPlace(): the host."""

    __slots__ = ()

    def __init__(self):
        self._device = torch.device("cpu")



def _wrong_place(what):
    return ValueError(f"(InvalidArgument) use wrong place, Please check. ({what} is not available to torch here)")


def _checked_device(backend_name, device_id):
    b = _backends().get(backend_name)
    if b is None or not b.is_available():
        raise _wrong_place(backend_name.upper() if backend_name in ("gpu", "xpu") else backend_name)
    if not isinstance(device_id, int) or isinstance(device_id, bool):
        raise TypeError(f"The device id must be an int, but received {type(device_id).__name__}")
    n = b.device_count()
    if not 0 <= device_id < n:
        raise ValueError(f"(InvalidArgument) Invalid {'CUDAPlace' if b.name == 'gpu' else b.name + ' place'}"
                         f"({device_id}), must inside [0, {n}), because {b.name.upper()} number on your machine "
                         f"is {n}")
    return b.torch_device(device_id)


def _checked_place(backend_name, device_id):
    """The Place subclass of a backend's device `device_id` (CUDAPlace, XPUPlace or CustomPlace)."""
    b = _backends().get(backend_name)
    if backend_name == "gpu":
        return CUDAPlace(device_id)
    if backend_name == "xpu":
        return XPUPlace(device_id)
    return CustomPlace(b.name if b is not None else backend_name, device_id)


class CUDAPlace(Place):
    """paddle.CUDAPlace(i): GPU i, when torch can use CUDA."""

    __slots__ = ()

    def __init__(self, device_id):
        self._device = _checked_device("gpu", device_id)



class XPUPlace(Place):
    """paddle.XPUPlace(i): XPU i, when torch has an XPU backend."""

    __slots__ = ()

    def __init__(self, device_id):
        self._device = _checked_device("xpu", device_id)



class CustomPlace(Place):
    """paddle.CustomPlace(device_type, i): a device of a registered custom type (mps, xla, a PrivateUse1 device)."""

    __slots__ = ()

    def __init__(self, device_type, device_id=0):
        b = _backends().get(device_type)
        if b is None or not b.custom or not b.is_available():
            raise ValueError(f"(InvalidArgument) use wrong place, Please check. (Invalid CustomPlace({device_type}, "
                             f"{device_id}), the device type is not registered as a custom device)")
        self._device = _checked_device(b.name, device_id)



class CUDAPinnedPlace(Place):
    """paddle.CUDAPinnedPlace(): page-locked host memory.  torch keeps pinning as a flag of CPU tensors, not a
    device, so there is no such place here (pin a CPU tensor with pin_memory() instead)."""

    __slots__ = ()

    def __init__(self):
        if torch.cuda.is_available():
            raise unsupported("paddle.CUDAPinnedPlace", ": use a CPU tensor's pin_memory() for pinned host memory")
        raise RuntimeError("(PermissionDenied) Cannot use CUDAPinnedPlace in CPU only version, "
                           "Please recompile or reinstall Paddle with CUDA support.")


class XPUPinnedPlace(Place):
    """paddle.XPUPinnedPlace(): page-locked host memory for XPUs (not a device torch has)."""

    __slots__ = ()

    def __init__(self):
        raise RuntimeError("(PermissionDenied) Cannot use XPUPinnedPlace in CPU only version, "
                           "Please recompile or reinstall Paddle with XPU support.")


class IPUPlace(Place):
    """paddle.framework.IPUPlace(): Graphcore IPUs, which torch has no backend for."""

    __slots__ = ()

    def __init__(self):
        raise ValueError("(InvalidArgument) use wrong place, Please check. (torch has no IPU backend)")


def typed_place(device):
    """The Place of a torch device as Paddle's place constructors make it: CPUPlace for the host, CUDAPlace,
    XPUPlace or CustomPlace for an accelerator (what set_device and _current_expected_place return)."""
    device = torch.device(device)
    cls = {"cpu": CPUPlace, "cuda": CUDAPlace, "xpu": XPUPlace}.get(device.type, CustomPlace)
    p = object.__new__(cls)
    p._device = device
    return p


def _startup_device():
    """Paddle's start-up place (`_current_expected_place_`): the first selected GPU when torch can use one, else
    the CPU.  FLAGS_selected_gpus is how Paddle's launcher gives each rank its GPU; under torchrun, LOCAL_RANK."""
    if not torch.cuda.is_available():
        return torch.device("cpu")
    selected = os.getenv("FLAGS_selected_gpus") or os.getenv("LOCAL_RANK") or "0"
    return torch.device("cuda", int(selected.split(",")[0]) % torch.cuda.device_count())


_current = [_startup_device()]


def _bad_device_string():
    names = ["gpu", "dcu", "xpu", "npu"] + [b.name for b in _backends().backends()
                                               if b.custom and b.is_available() and b.name != "npu"]
    return ValueError("The device must be a string which is like 'cpu', "
                      + ", ".join(f"'{x}', '{x}:x'" for x in names))


def _not_compiled(device, backend):
    what = {"gpu": "CUDA", "xpu": "XPU"}.get(backend.name, backend.name)
    return ValueError(f"The device should not be {device!r}, since PaddlePaddle is not compiled with {what} "
                      f"(torch cannot use {backend.torch_type} here)")


def _place_from_string(device):
    """Paddle's _convert_to_place for strings: 'cpu', 'gpu', 'gpu:1', 'cuda:0', 'dcu', 'xpu:0', 'mps', ..."""
    s = device.strip().lower()
    if s.startswith("cuda"):
        s = "gpu" + s[4:]
    kind, sep, index = s.partition(":")
    if kind == "cpu" and not sep:
        return CPUPlace()
    backends = _backends()
    b = backends.get(kind)
    if b is None or b.name == "cpu" or (sep and not index.isdigit()):
        raise _bad_device_string()
    if b.custom and not b.is_available():  # Paddle knows only custom types that are registered
        raise _bad_device_string()
    if not b.is_available():
        raise _not_compiled(device if sep else b.name, b)
    if sep:
        i = int(index)
    else:
        flag = "FLAGS_selected_gpus" if b.name == "gpu" else f"FLAGS_selected_{b.name}s"
        i = int(os.getenv(flag, "0").split(",")[0])
    return _checked_place(b.name, i)


def _device_to_place(device):
    """Paddle's device_to_place: a Place, an index on the current device type, or a device string."""
    if isinstance(device, Place):
        return device
    if isinstance(device, torch.device):
        return typed_place(device)
    if isinstance(device, bool) or not isinstance(device, (int, str)):
        if device is None:
            return typed_place(_current[0])
        raise ValueError(f"The device must be a string, an int or a Place, but received {type(device).__name__}")
    if isinstance(device, int):
        name = indexed_device(device)
        return CPUPlace() if name == "cpu" else _place_from_string(name)
    return _place_from_string(device)


def indexed_device(index):
    """An int device as Paddle reads it: 'cpu' (index 0 while on the CPU), else index `index` of the current
    device type ('gpu:1')."""
    if index < 0:
        raise ValueError(f"Device index must be non-negative, got {index}")
    cur = get_device()
    if cur == "cpu":
        if index != 0:
            raise ValueError(f"CPU device only supports index 0, got {index}")
        return "cpu"
    return f"{cur.split(':')[0]}:{index}"


def set_device(device):
    """Paddle's `set_device('cpu' | 'gpu' | 'gpu:1' | 'xpu:0' | Place | index)`: returns the new Place."""
    place = _device_to_place(device)
    _current[0] = place._device
    return place


def get_device(input=None):
    """The current device ('cpu', 'gpu:0', ...); given a Tensor, its device id (-1 on the CPU)."""
    place = getattr(input, "place", None)  # a Tensor (the tensor layer stands above this one)
    if isinstance(place, Place):
        d = place._device
        return -1 if d.type == "cpu" else (d.index or 0)
    d = _current[0]
    return "cpu" if d.type == "cpu" else f"{'gpu' if d.type == 'cuda' else d.type}:{d.index or 0}"


def current_torch_device():
    return _current[0]


def current_place():
    """The current device as Paddle's _current_expected_place() gives it (CPUPlace(), CUDAPlace(i), ...)."""
    return typed_place(_current[0])


def to_torch_device(place):
    """A Place, a device string, or None (the current device) -> torch.device."""
    if place is None:
        return _current[0]
    if isinstance(place, Place):
        return place._device
    if isinstance(place, torch.device):
        return place
    if isinstance(place, str):
        kind, _, index = place.partition(":")
        b = _backends().get(kind) if kind not in ("cpu", "meta") else None
        if b is not None:
            return b.torch_device(int(index) if index else 0)
        return torch.device(place)
    raise TypeError(f"Unsupported place: {place!r}")


def is_compiled_with_cuda():
    return torch.cuda.is_available()


def is_compiled_with_rocm():
    return torch.version.hip is not None and torch.cuda.is_available()


def is_compiled_with_xpu():
    return _backends().get("xpu").is_available()


def is_compiled_with_custom_device(device_type=None):
    b = _backends().get(device_type) if isinstance(device_type, str) else None
    return bool(b is not None and b.custom and b.is_available())


def is_compiled_with_cinn():
    return False


def is_compiled_with_distribute():
    return torch.distributed.is_available()
