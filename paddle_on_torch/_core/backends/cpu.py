"""The CPU: always available, one device, index 0 only."""
import torch

from . import Backend, register


class CPUBackend(Backend):
    name = torch_type = "cpu"

    def is_available(self):
        return True

    def device_count(self):
        return 1

    def torch_device(self, index=0):
        return torch.device("cpu")

    def module(self):
        return None


register(CPUBackend())
