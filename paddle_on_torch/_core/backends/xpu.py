"""Intel GPUs through torch.xpu: Paddle's 'xpu' (Paddle's XPU is Kunlun's; the API is the same)."""
from . import Backend, register


class XPUBackend(Backend):
    name = torch_type = "xpu"


register(XPUBackend())
