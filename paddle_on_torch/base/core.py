"""paddle.base.core (also paddle.framework.core and paddle.core): the names of Paddle's C++ core that Python code
reaches, over torch.

Types are the shim's own: `core.eager.Tensor` is paddle.Tensor, `core.DataType` is paddle.dtype, the places are
paddle.CPUPlace and its kin, `core.VarDesc.VarType` holds the legacy type codes.  Names that Paddle builds only
with CUDA (`nvprof_*`, `get_cuda_device_count`) exist here when torch can use CUDA, as in Paddle's CUDA build,
and are missing (AttributeError) otherwise, as in its CPU build.  Paddle's other core names raise
UnsupportedAPIError naming themselves.
"""
import importlib

import torch

from .. import _report
from .._core import dtype as _dtypes
from .._core.dtype import FInfo as finfo, IInfo as iinfo, PybindEnum, VarType, dtype as DataType  # noqa: F401
from ..framework.flags import globals  # noqa: F401,A004
from .._core.place import (  # noqa: F401
    CPUPlace, CUDAPinnedPlace, CUDAPlace, CustomPlace, IPUPlace, Place, XPUPinnedPlace, XPUPlace,
    is_compiled_with_cinn, is_compiled_with_cuda, is_compiled_with_custom_device, is_compiled_with_distribute,
    is_compiled_with_rocm, is_compiled_with_xpu)
from ..framework.random import CoreGenerator as Generator, GeneratorState, default_generator as _default_generator  # noqa: F401,E501
from ..tensor.tensor import Size  # noqa: F401
from . import _eager as eager  # noqa: F401


class VarDesc:
    """paddle.base.core.VarDesc: a static-graph variable's description.  Only its type table, VarType, is used
    outside Paddle's legacy program builder here."""

    VarType = VarType

    def __init__(self, *args, **kwargs):
        raise _report.unsupported("paddle.base.core.VarDesc", ": legacy ProgramDesc variables do not exist on torch "
                                  "(paddle_on_torch's static graphs are torch.fx graphs)")


class AmpLevel(PybindEnum):
    """paddle.base.core.AmpLevel: O0 (off), O1, O2, O3 and OD (what the tracer's _amp_level reports)."""

    __slots__ = ()


AmpLevel._define([("O0", 0), ("O1", 1), ("O2", 2), ("O3", 3), ("OD", 4)])


# ------------------------------------------------------------------------------------- build and devices

def is_compiled_with_ipu():
    return False


def is_compiled_with_mkldnn():
    return torch.backends.mkldnn.is_available()


is_compiled_with_onednn = is_compiled_with_mkldnn


def is_compiled_with_nccl():
    return torch.distributed.is_available() and torch.distributed.is_nccl_available()


def is_compiled_with_dist():
    return torch.distributed.is_available()


def is_compiled_with_brpc():
    return False


def _device():
    return importlib.import_module("paddle_on_torch.device")


def get_all_device_type():
    return _device().get_all_device_type()


def get_all_custom_device_type():
    return _device().get_all_custom_device_type()


def get_available_device():
    return _device().get_available_device()


def get_available_custom_device():
    return _device().get_available_custom_device()


def get_custom_device_count(device_type):
    from .._core import backends

    b = backends.get(device_type)
    if b is None or not b.custom or not b.is_available():
        raise RuntimeError(f"(NotFound) {device_type} interface not found.")
    return b.device_count()


_STATS = {("Allocated", False): "memory_allocated", ("Reserved", False): "memory_reserved",
          ("Allocated", True): "max_memory_allocated", ("Reserved", True): "max_memory_reserved"}


def _memory_stat(stat_type, device_id, peak):
    what = _STATS.get((stat_type, peak))
    if what is None:
        raise ValueError(f"(InvalidArgument) The STAT type \"Device{stat_type}\" for device {device_id} has not been "
                         "registered.")
    if not torch.cuda.is_available():
        return 0  # Paddle's CPU build keeps no device statistics: 0
    return int(getattr(torch.cuda, what)(device_id))


def device_memory_stat_current_value(stat_type, device_id):
    """Bytes of the caching allocator's "Allocated" or "Reserved" memory on GPU `device_id` (0 without CUDA)."""
    return _memory_stat(stat_type, device_id, peak=False)


def device_memory_stat_peak_value(stat_type, device_id):
    return _memory_stat(stat_type, device_id, peak=True)


def size_of_dtype(d):
    """Bytes per element of a dtype (paddle dtype or VarType)."""
    return _dtypes.to_torch_dtype(d).itemsize


def set_num_threads(n):
    torch.set_num_threads(int(n))


# ------------------------------------------------------------------------------------- grad mode

def _has_grad():
    return torch.is_grad_enabled()


def _set_has_grad(value):
    torch.set_grad_enabled(bool(value))


# ------------------------------------------------------------------------------------- generators

def default_cpu_generator():
    """The generator that paddle.seed and the CPU random ops use (Paddle's CPU stream: framework/random.py)."""
    return _default_generator("cpu")


def default_cuda_generator(device_id):
    if not torch.cuda.is_available():
        raise RuntimeError("(PermissionDenied) getDefaultCUDAGenerator only support in CUDA place")
    return _default_generator(torch.device("cuda", device_id))


def default_xpu_generator(device_id):
    if not (hasattr(torch, "xpu") and torch.xpu.is_available()):
        raise RuntimeError("(PermissionDenied) getDefaultXPUGenerator only support in XPU place")
    return _default_generator(torch.device("xpu", device_id))


def default_custom_device_generator(place):
    if not isinstance(place, CustomPlace):
        raise TypeError("default_custom_device_generator(): incompatible function arguments. The following argument "
                        "types are supported:\n    1. (arg0: paddle.base.libpaddle.CustomPlace) -> "
                        "paddle.base.libpaddle.Generator")
    return _default_generator(place._device)


# ------------------------------------------------------------------------------------- prim (decomposition) switches
# Paddle decomposes composite ops into primitive ones when these are on (for its compiler and higher-order
# gradients).  torch's autograd and torch.compile decompose as they need, so the switches are kept and reported
# but change nothing here (docs/compatibility.md).

_prim = {"fwd": False, "bwd": False, "eager": False}


def _check_bool(value):
    assert isinstance(value, bool), f"value should be bool, but got {type(value)}"


def _say(what, print_flag):
    import os

    flag = os.getenv("FLAGS_prim_log")
    if print_flag or (flag and flag.lower() in ("1", "true")):
        print(f"{what} prim enabled: ", bool(_prim_state(what)))


def _prim_state(what):
    return {"forward": _prim["fwd"], "backward": _prim["bwd"], "eager": _prim["eager"],
            "all": _prim["fwd"] and _prim["bwd"]}[what]


def _is_fwd_prim_enabled():
    return _prim["fwd"]


def _is_bwd_prim_enabled():
    return _prim["bwd"]


def _is_eager_prim_enabled():
    return _prim["eager"]


def _is_all_prim_enabled():
    return _prim["fwd"] and _prim["bwd"]


def _set_prim_forward_enabled(value, print_flag=False):
    _check_bool(value)
    _prim["fwd"] = value
    _say("forward", print_flag)


def _set_prim_backward_enabled(value, print_flag=False):
    _check_bool(value)
    _prim["bwd"] = value
    _say("backward", print_flag)


def set_prim_eager_enabled(value, print_flag=False):
    _check_bool(value)
    _prim["eager"] = value
    _say("eager", print_flag)


def _set_prim_all_enabled(value, print_flag=False):
    _check_bool(value)
    _prim["fwd"] = _prim["bwd"] = value
    _say("all", print_flag)


# ------------------------------------------------------------------------------------- CUDA-build-only names

def _nvprof_start():
    """Start the CUDA profiler (cudaProfilerStart), for nsys / nvprof capture ranges."""
    torch.cuda.profiler.start()


def _nvprof_stop():
    torch.cuda.profiler.stop()


def _nvprof_nvtx_push(name):
    torch.cuda.nvtx.range_push(name)


def _nvprof_nvtx_pop():
    torch.cuda.nvtx.range_pop()


_record_event = []


def _nvprof_enable_record_event():
    """Mark every op with an NVTX range from now on (Paddle's RecordEvent under nvprof; torch's emit_nvtx)."""
    if not _record_event:
        ctx = torch.autograd.profiler.emit_nvtx()
        ctx.__enter__()
        _record_event.append(ctx)


def _nvprof_disable_record_event():
    if _record_event:
        _record_event.pop().__exit__(None, None, None)


def _get_cuda_device_count():
    return torch.cuda.device_count()


def _get_cuda_current_device_id():
    return torch.cuda.current_device()


def _set_cuda_current_device_id(device_id):
    torch.cuda.set_device(device_id)


_CUDA_BUILD_ONLY = {
    "nvprof_start": _nvprof_start, "nvprof_stop": _nvprof_stop, "nvprof_nvtx_push": _nvprof_nvtx_push,
    "nvprof_nvtx_pop": _nvprof_nvtx_pop, "nvprof_enable_record_event": _nvprof_enable_record_event,
    "nvprof_disable_record_event": _nvprof_disable_record_event, "get_cuda_device_count": _get_cuda_device_count,
    "get_cuda_current_device_id": _get_cuda_current_device_id,
    "set_cuda_current_device_id": _set_cuda_current_device_id,
}
for _name, _fn in _CUDA_BUILD_ONLY.items():
    _fn.__name__ = _fn.__qualname__ = _name

_missing = _report.module_getattr("paddle.base.core")


def __getattr__(name):
    fn = _CUDA_BUILD_ONLY.get(name)
    if fn is not None:
        if torch.cuda.is_available():
            return fn
        raise AttributeError(f"module 'paddle.base.core' has no attribute '{name}' (as in Paddle's CPU build: "
                             "torch cannot use CUDA here)")
    if name == "Tracer":
        return importlib.import_module("paddle_on_torch.base.dygraph.tracer").Tracer
    if name in ("DenseTensor", "LoDTensor"):
        raise _report.unsupported(f"paddle.base.core.{name}", ": a Tensor's storage is a torch tensor here; use "
                                  "paddle.to_tensor / Tensor.set_value")
    return _missing(name)

