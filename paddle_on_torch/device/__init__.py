"""paddle.device: the current device, device queries, streams, events and memory statistics.

Everything goes through the backend registry (`paddle_on_torch/_core/backends/`): Paddle's 'gpu'
is torch.cuda, 'xpu' is torch.xpu, and mps / xla / a PrivateUse1 extension are custom device types.
What Paddle's build-time questions ask (`is_compiled_with_cuda`, `get_all_device_type`) is answered
by what torch can use here.  Memory statistics are torch's caching allocator's.
"""
import sys as _sys
import types as _types

import torch

from .. import _report
from .._core import place as _place
from .._core.place import (  # noqa: F401
    Place as _Place, get_device as _get_device, indexed_device as _indexed_device, is_compiled_with_cinn,
    is_compiled_with_cuda, is_compiled_with_custom_device, is_compiled_with_distribute, is_compiled_with_rocm,
    is_compiled_with_xpu, set_device)
from ..tensor.creation import (  # noqa: F401
    BFloat16Tensor, BoolTensor, ByteTensor, CharTensor, DoubleTensor, FloatTensor, HalfTensor, IntTensor, LongTensor,
    ShortTensor)
from .._core import backends

__all__ = [
    "BFloat16Tensor", "BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor", "HalfTensor",
    "IntTensor", "LongTensor", "ShortTensor", "Event", "Stream", "StreamContext", "IPUPlace", "XPUPlace",
    "current_stream", "device", "Device", "device_count", "device_guard", "get_all_custom_device_type",
    "get_all_device_type", "get_available_custom_device", "get_available_device", "get_cudnn_version", "get_device",
    "get_device_capability", "get_device_name", "get_device_properties", "get_rng_state", "get_stream_from_external",
    "ipc_collect", "is_available", "is_bf16_supported", "is_compiled_with_cinn", "is_compiled_with_cuda",
    "is_compiled_with_custom_device", "is_compiled_with_distribute", "is_compiled_with_ipu", "is_compiled_with_rocm",
    "is_compiled_with_xpu", "is_current_stream_capturing", "manual_seed", "manual_seed_all", "max_memory_allocated",
    "max_memory_reserved", "memory_allocated", "memory_reserved", "empty_cache", "reset_max_memory_allocated",
    "reset_max_memory_reserved", "reset_peak_memory_stats", "set_device", "set_rng_state", "set_stream", "stream",
    "stream_guard", "synchronize", "current_device", "get_default_device", "set_default_device",
]


# ===================================================================== what exists here


def _accelerator():
    """The accelerator backend Paddle's CUDA/XPU/custom build would be: gpu, else xpu, else a custom one."""
    acc = backends.available_accelerators()
    return acc[0] if acc else None


def get_all_device_type():
    """The device types torch can use here besides the CPU ('gpu', 'xpu', then custom types)."""
    return [b.name for b in backends.available_accelerators()]


def get_all_custom_device_type():
    # only the custom backends are asked whether they are available: libraries call this in every layer's
    # forward (PaddleNLP's get_env_device)
    return [b.name for b in backends.backends() if b.custom and b.is_available()]


def get_available_device():
    return [f"{b.name}:{i}" for b in backends.available_accelerators() for i in range(b.device_count())]


def get_available_custom_device():
    return [f"{b.name}:{i}" for b in backends.available_accelerators() if b.custom for i in range(b.device_count())]


def device_count():
    """How many accelerators (GPUs, else XPUs, else custom devices) there are; 0 on a CPU-only machine."""
    b = _accelerator()
    return b.device_count() if b is not None else 0


def is_available():
    return device_count() >= 1


def is_compiled_with_ipu():
    return False


def IPUPlace():
    """A function, as in Paddle: the place class is paddle.framework.IPUPlace (torch has no IPU backend)."""
    return _place.IPUPlace()


def XPUPlace(dev_id):
    """A function, as in Paddle: the place class is paddle.XPUPlace."""
    return _place.XPUPlace(dev_id)


def get_cudnn_version():
    """cuDNN's version as an int (e.g. 90100), or None without CUDA/cuDNN."""
    if not torch.cuda.is_available() or not torch.backends.cudnn.is_available():
        return None
    v = torch.backends.cudnn.version()
    return None if v is None or v < 0 else int(v)


def is_bf16_supported(including_emulation=True):
    place = _place.current_torch_device()
    if place.type == "cpu":
        return True  # Paddle's CPU kernels support bfloat16
    if place.type == "cuda":
        return bool(torch.cuda.is_bf16_supported(including_emulation))
    if not including_emulation:
        return False
    try:
        torch.ones(1, dtype=torch.bfloat16, device=place)
        return True
    except Exception:  # noqa: BLE001 - Paddle answers False when a bfloat16 tensor cannot be made
        return False


def is_current_stream_capturing():
    return bool(torch.cuda.is_available() and torch.cuda.is_current_stream_capturing())


def get_device(input=None):
    """The current device ('cpu', 'gpu:0', ...); given a Tensor, its device id (-1 on the CPU)."""
    return _get_device(input)


def current_device():
    d = _get_device()
    return int(d.split(":")[1]) if ":" in d else 0


def set_default_device(device):
    set_device(device)


def get_default_device():
    return Device(_get_device().replace("gpu", "cuda"))


_CUSTOM_DEVICE_TYPES = {"metax_gpu", "biren_gpu", "custom_cpu", "gcu", "iluvatar_gpu", "intel_gpu", "intel_hpu", "mlu",
                        "mps", "npu", "sdaa"}


def get_device_module(device=None):
    """The paddle module of a device's API (Paddle 3.3's twin of torch.get_device_module): paddle.cuda for 'gpu' /
    'cuda', paddle.device.xpu, paddle.device.cpu for 'cpu' (also for None on the CPU); a Place object: its
    module (paddle.device for a CPUPlace, as in Paddle)."""
    import importlib

    if isinstance(device, int):
        device = _indexed_device(device)
    elif device is None:
        device = _get_device()
    if isinstance(device, str):
        kind = device.strip().lower().split(":")[0]
        if kind in ("cuda", "gpu"):
            return importlib.import_module("paddle_on_torch.cuda")
        if kind == "xpu":
            return importlib.import_module("paddle_on_torch.device.xpu")
        if kind in _CUSTOM_DEVICE_TYPES:
            raise _report.unsupported("paddle.get_device_module", f" for the custom device type {kind!r}")
        if kind == "cpu":
            return importlib.import_module("paddle_on_torch.device.cpu")
        raise RuntimeError(f"Unsupported device type: {kind}")
    if isinstance(device, _place.CUDAPlace):
        return importlib.import_module("paddle_on_torch.cuda")
    if isinstance(device, _place.CPUPlace):
        return _sys.modules[__name__]
    return None


# ===================================================================== resolving a device argument


def _device_to_place(device=None):
    return _place._device_to_place(device)


def _convert_to_place(device):
    """Paddle's private converter: a device string ('cpu', 'gpu:0', 'cuda:1', 'xpu', ...) as a Place; anything else
    is returned as given (PaddleNLP / PaddleFormers call it)."""
    if not isinstance(device, str):
        return device
    return _place._place_from_string(device)


def _as_place(device):
    """Paddle's `place = current if None, _convert_to_place if str, else as given` (no int handling)."""
    if device is None:
        return _Place(_place.current_torch_device())
    if isinstance(device, str):
        return _place._place_from_string(device)
    if isinstance(device, _Place):
        return device
    if isinstance(device, torch.device):
        return _Place(device)
    raise TypeError(f"The device must be a str or a Place, but received {type(device).__name__}")


def _stream_backend(place):
    """The backend of an accelerator place whose torch module has streams, or Paddle's TypeError."""
    b = backends.get(place._device.type)
    mod = b.module() if b is not None and b.name != "cpu" and b.is_available() else None
    if mod is None or not hasattr(mod, "synchronize"):
        raise TypeError("device should be gpu, xpu, " + ",".join(get_all_custom_device_type()))
    return b, mod


def synchronize(device=None):
    """Wait for the work queued on `device` (default: the current device) to finish."""
    place = _as_place(device)
    _, mod = _stream_backend(place)
    mod.synchronize(place._device)


def ipc_collect():
    if not torch.cuda.is_available():
        raise RuntimeError("(Unavailable) Paddle is not compiled with CUDA/XPU, so `ipc_collect` cannot be used.")
    torch.cuda.ipc_collect()


# ===================================================================== memory statistics


def _backend_or_none(backend_name=None):
    """The named backend if torch can use it, else None; with no name, the accelerator."""
    if backend_name is None:
        return _accelerator()
    b = backends.get(backend_name)
    return b if b is not None and b.is_available() else None


def _memory_device(api, device, cpu_message, backend_name=None):
    """The torch.device a memory API reports on; ValueError (Paddle's) without an accelerator."""
    b = _backend_or_none(backend_name)
    if b is None or b.module() is None or not hasattr(b.module(), "memory_allocated"):
        raise ValueError(cpu_message.format(api=api))
    if device is None:
        cur = _place.current_torch_device()
        if cur.type == b.torch_type:
            return cur
        return torch.device(b.torch_type, b.module().current_device())
    if isinstance(device, bool):
        raise ValueError(f"The device type {device} is not expected. Because {api} only support int, str or Place.")
    if isinstance(device, int):
        if not 0 <= device < b.device_count():
            raise AssertionError(f"The device id {device} exceeds gpu card number {b.device_count()}")
        return torch.device(b.torch_type, device)
    place = _as_place(device) if isinstance(device, (str, _Place, torch.device)) else None
    if place is None or place._device.type != b.torch_type:
        raise ValueError(f"The device type {device} is not expected. Because {api} only support int, str "
                         f"(format 'gpu:x' or '<custom_device>:x'), paddle.CUDAPlace or paddle.CustomPlace.")
    return place._device


_CPU_MEMORY = ("The API {api} is not supported in CPU PaddlePaddle. Please reinstall PaddlePaddle with GPU or XPU "
               "support to call this API.")


def _memory_api(name, torch_name, api=None, message=_CPU_MEMORY, backend_name=None):
    api = api or f"paddle.device.{name}"

    def fn(device=None):
        dev = _memory_device(api, device, message, backend_name)
        return getattr(backends.get(dev.type).module(), torch_name)(dev)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Paddle's {api}, from torch's caching allocator ({torch_name})."
    return fn


def _memory_apis(namespace="paddle.device", message=_CPU_MEMORY, backend_name=None):
    """The six memory-statistics APIs of a namespace, in the order they are unpacked below."""
    # torch keeps one peak-statistics reset for allocated and reserved memory together
    pairs = (("memory_allocated", "memory_allocated"), ("max_memory_allocated", "max_memory_allocated"),
             ("memory_reserved", "memory_reserved"), ("max_memory_reserved", "max_memory_reserved"),
             ("reset_max_memory_allocated", "reset_peak_memory_stats"),
             ("reset_max_memory_reserved", "reset_peak_memory_stats"))
    return [_memory_api(name, torch_name, f"{namespace}.{name}", message, backend_name) for name, torch_name in pairs]


(memory_allocated, max_memory_allocated, memory_reserved, max_memory_reserved, reset_max_memory_allocated,
 reset_max_memory_reserved) = _memory_apis()


def _device_index(device, api, kind):
    """The device index a paddle.device.cuda / .xpu API gets from None, an int, a place, 'gpu' or 'gpu:x'
    (kind 'gpu' or 'xpu')."""
    mod = torch.cuda if kind == "gpu" else torch.xpu
    if device is None:
        return mod.current_device()
    if isinstance(device, int) and not isinstance(device, bool):
        return device
    if isinstance(device, _Place) and (device.is_gpu_place() if kind == "gpu" else device.is_xpu_place()):
        return device.get_device_id()
    if isinstance(device, str):
        if device.startswith(kind + ":"):
            return int(device[len(kind) + 1:])
        if device == kind:
            return 0
        if kind == "gpu":  # Paddle's cuda APIs word a bad string apart; its xpu APIs do not
            raise ValueError(f"The current string {device} is not expected. Because {api} only support string which "
                             "is like 'gpu:x' or 'gpu'. Please input appropriate string again!")
    place = "paddle.CUDAPlace" if kind == "gpu" else "paddle.XPUPlace"
    raise ValueError(f"The device type {device} is not expected. Because {api} only support int, str or "
                     f"{place}. Please input appropriate device again!")


def reset_peak_memory_stats(device=None):
    reset_max_memory_allocated(device)  # (Paddle's own message names reset_max_memory_allocated too)


def empty_cache():
    """Give the caching allocator's unused memory back to the device (nothing to do on the CPU)."""
    b = _accelerator()
    if b is not None and b.module() is not None and hasattr(b.module(), "empty_cache"):
        b.module().empty_cache()


# ===================================================================== device properties


class _DeviceProperties:
    """What Paddle's get_device_properties returns (name, major, minor, total_memory, multi_processor_count).

    Built on torch's device properties; other attributes torch reports are readable as well.
    """

    def __init__(self, props, kind="_gpuDeviceProperties"):
        self._props, self._kind = props, kind

    def __getattr__(self, name):
        return getattr(self._props, name)

    def __repr__(self):
        p = self._props
        return (f"{self._kind}(name='{p.name}', major={getattr(p, 'major', 0)}, minor={getattr(p, 'minor', 0)}, "
                f"total_memory={getattr(p, 'total_memory', 0) // (1024 * 1024)}MB, "
                f"multi_processor_count={getattr(p, 'multi_processor_count', 0)})")


def _properties(api, device, backend_name=None):
    b = _backend_or_none(backend_name)
    if b is None or not hasattr(b.module(), "get_device_properties"):
        raise ValueError(f"The API {api} is not supported in CPU-only PaddlePaddle. Please reinstall PaddlePaddle "
                         "with GPU support to call this API.")
    if device is None:
        dev = torch.device(b.torch_type, b.module().current_device())
    elif isinstance(device, int) and not isinstance(device, bool):
        if not 0 <= device < b.device_count():
            raise ValueError(f"The device id {device} is not expected: there are {b.device_count()} {b.name} devices")
        dev = torch.device(b.torch_type, device)
    elif isinstance(device, (str, _Place)):
        dev = _as_place(device)._device
    else:
        raise ValueError(f"The device type {device} is not expected. Because {api} only support int, str or "
                         "paddle.CUDAPlace. Please input appropriate device again!")
    return _DeviceProperties(b.module().get_device_properties(dev),
                             "_gpuDeviceProperties" if b.name == "gpu" else "_customDeviceProperties")


def get_device_properties(device=None):
    return _properties("paddle.device.get_device_properties", device)


def get_device_name(device=None):
    return get_device_properties(device).name


def get_device_capability(device=None):
    p = get_device_properties(device)
    return p.major, p.minor


# ===================================================================== random state


def _generator_place(device):
    return _device_to_place(device)._device if device is not None else _place.current_torch_device()


def get_rng_state(device=None):
    """The state of the default generator of `device` (default: the current device): on the CPU Paddle's
    GeneratorState (framework/random.py), else the accelerator's (opaque)."""
    dev = _generator_place(device)
    if dev.type == "cpu":
        from ..framework.random import default_generator

        return default_generator("cpu").get_state()
    return backends.get(dev.type).module().get_rng_state(dev)


def set_rng_state(new_state, device=None):
    dev = _generator_place(device)
    if dev.type == "cpu":
        from ..framework.random import default_generator

        if isinstance(new_state, torch.Tensor):  # a torch generator state
            torch.set_rng_state(new_state)
        else:
            default_generator("cpu").set_state(new_state)
    else:
        backends.get(dev.type).module().set_rng_state(new_state, dev)


def manual_seed(seed):
    """Seed the default generator of the current device only."""
    seed = int(seed)
    dev = _place.current_torch_device()
    if dev.type == "cpu":
        from ..framework.random import default_generator

        default_generator("cpu").manual_seed(seed)
    else:
        mod = backends.get(dev.type).module()
        with mod.device(dev) if hasattr(mod, "device") else _nullcontext():
            mod.manual_seed(seed)


def manual_seed_all(seed):
    """paddle.seed: every generator."""
    from ..framework.random import seed as _seed

    _seed(seed)


class _nullcontext:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


# ===================================================================== streams and events


class Event:
    """A device event (torch.<device>.Event) on the current device."""

    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        self.device = _Place(_place.current_torch_device())
        _, mod = _stream_backend(self.device)
        self.enable_timing = enable_timing
        self.event_base = mod.Event(enable_timing=enable_timing, blocking=blocking, interprocess=interprocess)

    def record(self, stream=None):
        if stream is None:
            stream = current_stream(self.device)
        self.event_base.record(stream.stream_base)

    def query(self):
        return self.event_base.query()

    def elapsed_time(self, end_event):
        return self.event_base.elapsed_time(end_event.event_base)

    def synchronize(self):
        self.event_base.synchronize()

    def __repr__(self):
        return f"Event(device={self.device}, event_base={self.event_base})"


def _stream_classes():
    classes = [torch.Stream]
    for name in ("cuda", "xpu"):
        cls = getattr(getattr(torch, name, None), "Stream", None)
        if isinstance(cls, type):
            classes.append(cls)
    return tuple(classes)


class Stream:
    """A device stream (torch.<device>.Stream).  Paddle's priorities: 1 or -1 high, 2 or 0 low (default)."""

    _priority_map = {-1: 1, 0: 2, 1: 1, 2: 2}

    def __init__(self, device=None, priority=2, stream_base=None):
        if stream_base is not None:
            if not isinstance(stream_base, _stream_classes()):
                raise TypeError("stream_base should be CUDAStream, XPUStream, CustomDeviceStream")
            self.stream_base = stream_base
            self.device = _Place(stream_base.device)
            return
        self.device = _device_to_place(device)
        _, mod = _stream_backend(self.device)
        high = self._priority_map.get(priority, 2) == 1
        self.stream_base = mod.Stream(device=self.device._device, priority=-1 if high else 0)

    def wait_event(self, event):
        self.stream_base.wait_event(event.event_base)

    def wait_stream(self, stream):
        self.stream_base.wait_stream(stream.stream_base)

    def record_event(self, event=None):
        if event is None:
            event = Event()
        event.record(self)
        return event

    def query(self):
        return self.stream_base.query()

    def synchronize(self):
        self.stream_base.synchronize()

    @property
    def raw_stream(self):
        return getattr(self.stream_base, "cuda_stream", None) or getattr(self.stream_base, "sycl_queue", 0)

    cuda_stream = raw_stream

    @property
    def _as_parameter_(self):
        import ctypes

        return ctypes.c_void_p(self.raw_stream)

    def __cuda_stream__(self):
        return (0, self.raw_stream)

    def __eq__(self, other):
        return isinstance(other, Stream) and self.stream_base == other.stream_base

    def __hash__(self):
        return hash((self.stream_base, self.device))

    def __repr__(self):
        return f"<paddle.device.Stream device={self.device} stream={self.raw_stream:#x}>"


def current_stream(device=None):
    place = _as_place(device) if not isinstance(device, int) or isinstance(device, bool) else \
        _device_to_place(device)
    _, mod = _stream_backend(place)
    return Stream(stream_base=mod.current_stream(place._device))


def set_stream(stream):
    """Make `stream` current on its device; returns the stream that was current."""
    if not isinstance(stream, Stream):
        raise TypeError(f"stream type should be paddle.device.Stream, but received {type(stream).__name__}")
    prev = current_stream(stream.device)
    _, mod = _stream_backend(stream.device)
    mod.set_stream(stream.stream_base)
    return prev


class stream_guard:
    """`with stream_guard(s):` runs on stream `s` (and its device), restoring both after; None does nothing."""

    def __init__(self, stream=None):
        if stream is not None and not isinstance(stream, Stream):
            raise TypeError(f"stream type should be paddle.device.Stream, but received {type(stream).__name__}")
        self.stream = stream

    def __enter__(self):
        s = self.stream
        if s is None:
            return
        self._prev_place = _place.current_torch_device()
        self._src_prev = current_stream(s.device)
        if s.device._device != self._prev_place:
            _place._current[0] = s.device._device
        set_stream(s)

    def __exit__(self, *exc):
        if self.stream is None:
            return
        set_stream(self._src_prev)
        _place._current[0] = self._prev_place


StreamContext = stream_guard


def stream(stream):
    return StreamContext(stream)


def get_stream_from_external(data_ptr, device=None):
    """Wrap a cudaStream_t made elsewhere (the caller keeps it alive)."""
    place = _as_place(device)
    if place._device.type != "cuda":
        raise TypeError("device should be gpu: get_stream_from_external wraps CUDA streams only")
    return Stream(stream_base=torch.cuda.ExternalStream(data_ptr, device=place._device))


# ===================================================================== device context managers


class device:
    """`with paddle.device.device('cpu'):` runs the block on that device."""

    def __init__(self, device=None):
        self.place = _device_to_place(device)
        self.prev_place_str = "-1"

    def __enter__(self):
        self.prev_place_str = _get_device()
        set_device(self.place)

    def __exit__(self, *exc):
        set_device(self.prev_place_str)
        return False


class device_guard:
    """`with paddle.device.device_guard('gpu:0'):` (a device string or a Place)."""

    def __init__(self, device):
        if isinstance(device, str):
            self._target = _place._place_from_string(device)
        elif isinstance(device, _Place):
            self._target = device
        else:
            raise ValueError("'device' must be a string or an instance of a subclass of paddle.base.libpaddle.Place, "
                             f"but got {type(device)}")

    def __enter__(self):
        self._original = _place.current_torch_device()
        _place._current[0] = self._target._device

    def __exit__(self, *exc):
        _place._current[0] = self._original


class Device(str):
    """paddle.device('cuda:0'): a device name that is also a str, with .type and .index and a `with` block."""

    _DEFAULT_DEVICE_STACK = []
    _SUPPORTED_TYPES = {"cpu", "gpu", "cuda", "xpu"}

    def __new__(cls, type=None, index=None):
        if isinstance(type, _Place):
            d = type._device
            dev_type = {"cuda": "cuda"}.get(d.type, d.type)
            dev_index = None if d.type == "cpu" else (d.index or 0)
        elif isinstance(type, str):
            t = type.lower()
            if t not in cls._SUPPORTED_TYPES and ":" not in t:
                raise ValueError(f"Unsupported device type: {t}")
            if index is not None:
                dev_type, dev_index = t, (index if t != "cpu" else None)
            elif ":" in t:
                dev_type, idx = t.split(":")
                if dev_type not in cls._SUPPORTED_TYPES:
                    raise ValueError(f"Unsupported device type: {dev_type}")
                dev_index = int(idx)
            else:
                dev_type, dev_index = t, (0 if t != "cpu" else None)
        elif isinstance(type, int) and not isinstance(type, bool):
            dev_type, dev_index = "cuda", type
        elif type is None and index is not None:
            raise ValueError("Device type must be specified if index is given")
        else:
            raise TypeError(f"Unsupported type for Device: {type}")
        obj = str.__new__(cls, f"{dev_type}:{dev_index}" if dev_type != "cpu" else "cpu")
        obj._dev_type, obj._index = dev_type, dev_index
        return obj

    @property
    def type(self):
        return self._dev_type

    @property
    def index(self):
        return self._index

    def __enter__(self):
        Device._DEFAULT_DEVICE_STACK.append(_get_device())
        set_device(str(self))
        return self

    def __exit__(self, *exc):
        set_device(Device._DEFAULT_DEVICE_STACK.pop())


# ===================================================================== the module itself

_unsupported = _report.module_getattr("paddle.device")


class _DeviceModule(_types.ModuleType):
    """paddle.device is callable, as in Paddle: paddle.device('cuda:0') -> Device."""

    def __call__(self, *args, **kwargs):
        return Device(*args, **kwargs)


def _nvtx_call(what, fn):
    """NVTX markers on torch.cuda's; a CPU build's Paddle has no NVTX entry points (its AttributeError)."""
    if not torch.cuda.is_available():
        raise AttributeError(f"module 'paddle.base.libpaddle' has no attribute '{what}'")
    return fn()


class nvtx:
    """paddle.device.nvtx: NVTX range markers (CUDA builds)."""

    @staticmethod
    def range_push(msg):
        _nvtx_call("nvprof_nvtx_push", lambda: torch.cuda.nvtx.range_push(msg))

    @staticmethod
    def range_pop():
        _nvtx_call("nvprof_nvtx_pop", torch.cuda.nvtx.range_pop)


class _AutocastMode:
    @staticmethod
    def autocast(enabled=True, dtype="float16", cache_enabled=True):
        """paddle.amp.autocast on the GPU (device_type 'cuda'): a CPU computation is left as it is."""
        from ..amp import autocast as _autocast

        return _autocast(device_type="cuda", enabled=enabled, dtype=dtype)


class amp:
    """paddle.device.amp (paddle.cuda.amp too): torch.cuda.amp's autocast namespace."""

    autocast = staticmethod(_AutocastMode.autocast)
    autocast_mode = _AutocastMode()


def __getattr__(name):
    if name in ("cuda", "xpu"):
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    return _unsupported(name)


_sys.modules[__name__].__class__ = _DeviceModule
