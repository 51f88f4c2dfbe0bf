"""Apple GPUs through torch.mps: a custom device type to Paddle ('mps', CustomPlace('mps', 0))."""
import torch

from . import Backend, register


class MPSBackend(Backend):
    name = torch_type = "mps"
    custom = True

    def is_available(self):
        return bool(getattr(torch.backends, "mps", None) and torch.backends.mps.is_available())

    def device_count(self):
        return 1 if self.is_available() else 0


register(MPSBackend())
