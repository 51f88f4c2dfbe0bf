"""A device registered with torch under its PrivateUse1 key (Ascend's torch_npu, ...): a custom device.

The backend is named after whatever name the extension gave `torch.utils.rename_privateuse1_backend`
('npu' for torch_npu); it is registered only when such a name exists.
"""
import torch

from . import Backend, register


def _name():
    try:
        name = torch._C._get_privateuse1_backend_name()
    except Exception:  # noqa: BLE001
        return None
    return None if name in (None, "privateuseone") else name


class PrivateUse1Backend(Backend):
    custom = True

    def __init__(self, name):
        self.name = self.torch_type = name


def refresh():
    """(Re-)register the PrivateUse1 backend under its current name, if one was given."""
    name = _name()
    if name is not None:
        register(PrivateUse1Backend(name))
    return name


refresh()
