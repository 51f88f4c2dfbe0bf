"""NVIDIA (and ROCm) GPUs through torch.cuda: Paddle's 'gpu' (also spelled 'cuda' and 'dcu')."""
from . import Backend, register


class CUDABackend(Backend):
    name, torch_type, aliases = "gpu", "cuda", ("cuda", "dcu")


register(CUDABackend())
