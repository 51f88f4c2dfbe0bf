"""Small paddle.static helpers: places, global vars, parameters, accuracy, device_guard."""
import contextlib
import os

import torch

from .._core import dtype as _dtypes
from ..framework import unique_name

__all__ = ["accuracy", "cpu_places", "create_global_var", "create_parameter", "device_guard"]


def cpu_places(device_count=None):
    from .._core.place import CPUPlace

    if device_count is None:
        device_count = int(os.environ.get("CPU_NUM", 1))
    return [CPUPlace() for _ in range(device_count)]


def create_parameter(shape, dtype, name=None, attr=None, is_bias=False, default_initializer=None):
    from ..tensor.creation import create_parameter as _create

    return _create(shape, dtype, name=name, attr=attr, is_bias=is_bias, default_initializer=default_initializer)


def create_global_var(shape, value, dtype, persistable=False, force_cpu=False, name=None):
    """A persistable variable filled with `value` when the startup program runs."""
    from ..nn.layer.layers import EagerParamBase

    for d in shape:
        if not isinstance(d, int) or d < 0:
            raise ValueError(f"create_global_var: every dim of shape must be a non-negative int, got {shape}")
    t = torch.full([int(d) for d in shape], value, dtype=_dtypes.to_torch_dtype(dtype))
    p = EagerParamBase(t, requires_grad=False, name=name or unique_name.generate("global_var"))
    p.persistable = persistable
    return p


def accuracy(input, label, k=1, correct=None, total=None):
    from ..metric import accuracy as _acc

    return _acc(input, label, k=k, correct=correct, total=total)


@contextlib.contextmanager
def device_guard(device=None):
    """Ops inside run where the program runs (one device here)."""
    if device is not None and not isinstance(device, str):
        raise ValueError("device argument of device_guard should be str")
    yield
