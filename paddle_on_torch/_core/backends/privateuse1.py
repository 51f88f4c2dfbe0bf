"""A device registered with torch under its PrivateUse1 key (Ascend's torch_npu, Cambricon's torch_mlu, the tests'
custom_cpu, ...): a custom device to Paddle.

An extension renames PrivateUse1 (`torch.utils.rename_privateuse1_backend('npu')`) and registers its device
module (`torch._register_device_module('npu', ...)`, with is_available / device_count / synchronize / memory
statistics / RNG state).  The backend is registered under that name, the same for Paddle and torch, as soon as
the registry is next asked (`refresh`, called by backends.get / backends.backends), so importing the extension
before or after paddle both work.  An extension that wants other spellings accepted (aliases) or a compile backend
registers its own `PrivateUse1Backend(name, aliases=..., compile_backend=...)` with backends.register instead.
"""
import torch

from . import Backend, _REGISTRY, register

_seen = [None]  # the PrivateUse1 name the registry last saw


def _name():
    try:
        name = torch._C._get_privateuse1_backend_name()
    except Exception:  # noqa: BLE001
        return None
    return None if name in (None, "privateuseone") else name


class PrivateUse1Backend(Backend):
    custom = True

    def __init__(self, name, aliases=(), compile_backend=None):
        self.name = self.torch_type = name  # one name for Paddle and torch: reprs and get_device spell it
        self.aliases = tuple(aliases)
        self.compile_backend = compile_backend


def refresh():
    """(Re-)register the PrivateUse1 backend under its current name, if one was given (cheap when unchanged)."""
    name = _name()
    if name is not None and name != _seen[0]:
        _seen[0] = name
        if not any(b.torch_type == name for b in _REGISTRY.values()):  # an extension's own registration wins
            register(PrivateUse1Backend(name))
    return name


refresh()
