"""paddle.amp: automatic mixed precision (auto_cast, decorate, GradScaler).

Paddle enables AMP only on accelerators: on CPU, auto_cast warns and has no effect, GradScaler
disables itself and decorate returns the models unchanged; paddle_on_torch does the same.
"""
from .. import _report
from .._core.place import current_torch_device as _current_torch_device
from . import amp_lists, grad_scaler  # noqa: F401
from .._core.amp_state import cast_inputs, current_amp_state  # noqa: F401
from .amp_lists import black_list, white_list  # noqa: F401
from .auto_cast import (  # noqa: F401
    amp_decorate, amp_guard, auto_cast, autocast, decorate, get_autocast_dtype, is_autocast_enabled)
from .grad_scaler import AmpScaler, GradScaler, OptimizerState  # noqa: F401

__all__ = ["auto_cast", "GradScaler", "decorate", "is_float16_supported", "is_bfloat16_supported",
           "is_autocast_enabled", "get_autocast_dtype", "get_autocast_cpu_dtype", "get_autocast_gpu_dtype"]

get_autocast_cpu_dtype = get_autocast_dtype
get_autocast_gpu_dtype = get_autocast_dtype


def _device(device):
    import torch

    from .._core.place import Place, to_torch_device

    if device is None:
        return _current_torch_device()
    if isinstance(device, Place):
        return to_torch_device(device)
    if not isinstance(device, str):
        raise ValueError(f"The device must be a string or a Place, but received {type(device).__name__}.")
    name = device.lower()
    kind, _, index = name.partition(":")
    if kind == "cpu" and not index:
        return torch.device("cpu")
    if kind in ("gpu", "cuda"):
        if not torch.cuda.is_available():
            raise ValueError(f"The device should not be {device}, since PaddlePaddle is not compiled with CUDA")
        return torch.device("cuda", int(index) if index else torch.cuda.current_device())
    raise ValueError("Paddle supports CPUPlace, CUDAPlace, CUDAPinnedPlace, XPUPlace, XPUPinnedPlace, IPUPlace and "
                     f"CustomPlace, but received {device}.")


def is_float16_supported(device=None):
    """Whether `device` (default: the current one) runs float16 AMP: a GPU of compute capability 7.0+; CPU: False."""
    import torch

    d = _device(device)
    if d.type == "cuda":
        return torch.cuda.get_device_capability(d) >= (7, 0)
    return False


def is_bfloat16_supported(device=None):
    """Whether `device` (default: the current one) runs bfloat16 AMP: a GPU of compute capability 8.0+; CPU: True."""
    import torch

    d = _device(device)
    if d.type == "cuda":
        return torch.cuda.get_device_capability(d) >= (8, 0)
    return d.type == "cpu"


__getattr__ = _report.module_getattr("paddle.amp")
