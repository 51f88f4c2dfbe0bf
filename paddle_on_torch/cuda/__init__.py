"""paddle.cuda: Paddle 3.3's torch-style namespace over paddle.device, on torch.cuda."""
import torch

from .. import _report
from ..device import (  # noqa: F401
    BFloat16Tensor, BoolTensor, ByteTensor, CharTensor, DoubleTensor, Event, FloatTensor, HalfTensor, IntTensor,
    LongTensor, ShortTensor, Stream, StreamContext, current_device, current_stream, device, device_count,
    empty_cache, get_device_capability, get_device_name, get_device_properties, get_rng_state, ipc_collect,
    is_available, is_bf16_supported, is_current_stream_capturing, manual_seed, manual_seed_all,
    max_memory_allocated, max_memory_reserved, memory_allocated, memory_reserved, reset_max_memory_allocated,
    reset_max_memory_reserved, reset_peak_memory_stats, set_rng_state, set_stream, stream, synchronize)
from .. import device as _device
from .._core import place as _place

__all__ = [
    "cudart", "check_error", "is_available", "is_initialized", "mem_get_info", "synchronize", "current_stream",
    "get_device_properties", "get_device_name", "get_device_capability", "stream", "Stream",
    "get_stream_from_external", "current_device", "device_count", "empty_cache", "memory_allocated",
    "max_memory_allocated", "max_memory_reserved", "memory_reserved", "reset_max_memory_allocated",
    "reset_max_memory_reserved", "reset_peak_memory_stats", "set_device", "set_stream", "manual_seed",
    "manual_seed_all", "get_rng_state", "set_rng_state", "ipc_collect", "is_bf16_supported", "device",
    "StreamContext", "Event",
]


def cudart():
    """The CUDA runtime bindings (torch.cuda.cudart()); a CPU build has none (Paddle's AttributeError)."""
    if not torch.cuda.is_available():
        raise _no_cudart()
    return torch.cuda.cudart()


def _no_cudart():
    return AttributeError("module 'paddle.base.libpaddle' has no attribute '_cudart'")


class nvtx:
    """paddle.cuda.nvtx: NVTX range markers (its own class, as in Paddle; the same calls as paddle.device.nvtx)."""

    @staticmethod
    def range_push(msg):
        _device.nvtx.range_push(msg)

    @staticmethod
    def range_pop():
        _device.nvtx.range_pop()


amp = _device.amp  # (Paddle's paddle.cuda.amp is paddle.device.amp)


class CudaError(RuntimeError):
    """A CUDA runtime error: its message is cudaGetErrorString(code) and the code (a CPU build has no runtime to
    ask: Paddle's AttributeError)."""

    def __init__(self, code):
        rt = cudart()
        super().__init__(f"{rt.cudaGetErrorString(rt.cudaError(code))} ({code})")


def check_error(res):
    """Raise torch.cuda.CudaError (a RuntimeError) when a cudaError_t code is not cudaSuccess (a CPU build has no
    CUDA runtime: Paddle's AttributeError)."""
    if not torch.cuda.is_available():
        raise _no_cudart()
    torch.cuda.check_error(res)


def is_initialized():
    return bool(_device.get_all_device_type())


def mem_get_info(device=None):
    """(free, total) bytes of a GPU."""
    if device is None:
        device = _device.get_device()
    if isinstance(device, str):
        device = _place._place_from_string(device)
    if isinstance(device, int) and not isinstance(device, bool):
        device_id = device
    else:
        if not isinstance(device, _place.Place) or not device.is_gpu_place():
            raise ValueError(f"Expected a cuda device, but got: {device}")
        device_id = device.get_device_id()
    return torch.cuda.mem_get_info(device_id)


def set_device(device):
    """paddle.cuda.set_device(index | 'gpu:0' | Place); returns None."""
    if isinstance(device, int) and not isinstance(device, bool):
        cur = _device.get_device()
        if cur == "cpu":
            raise ValueError("Paddle-CPU is not supported. Please use PaddlePaddle with CUDA, XPU or Custom Device")
        device = f"{cur.split(':')[0]}:{device}"
    _device.set_device(device)


def get_stream_from_external(data_ptr, device=None):
    return _device.get_stream_from_external(data_ptr, device)


__getattr__ = _report.module_getattr("paddle.cuda")
