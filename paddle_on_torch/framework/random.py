"""paddle.seed and the generator state.

paddle.seed seeds torch's CPU and CUDA generators (and numpy's global one,
which paddle.io workers derive from).  Paddle's own generator algorithm is
not reproduced: the same seed gives other numbers than real Paddle (see
docs/compatibility.md).
"""
import numpy as np
import torch

__all__ = ["seed", "get_rng_state", "set_rng_state", "get_cuda_rng_state", "set_cuda_rng_state", "Generator"]


class CoreGenerator:
    """paddle.base.core.Generator: a random-number generator over a torch.Generator.  The default ones
    (`core.default_cpu_generator()`, what paddle.seed returns and paddle.Generator() gives) are torch's default
    generators, so seeding them seeds every random op."""

    __slots__ = ("_g",)

    def __init__(self, device=None):
        from .._core.place import to_torch_device

        self._g = torch.Generator(device=to_torch_device(device) if device is not None else "cpu")

    @classmethod
    def _of(cls, torch_generator):
        g = object.__new__(cls)
        g._g = torch_generator
        return g

    def manual_seed(self, seed_value):
        self._g.manual_seed(int(seed_value))
        if self._g is torch.default_generator:
            np.random.seed(int(seed_value) % (2**32))  # paddle.io workers derive their numpy seeds from it
        return self

    def seed(self):
        return self._g.seed()

    def initial_seed(self):
        return self._g.initial_seed()

    def get_state(self):
        return self._g.get_state()

    def set_state(self, state):
        self._g.set_state(state)
        return self

    def random(self):
        """A random 64-bit unsigned integer, advancing the generator."""
        return int(torch.randint(0, 2**63 - 1, (1,), generator=self._g).item())


_defaults = {}


def default_generator(device):
    """The CoreGenerator over torch's default generator of a device ('cpu' or a torch.device)."""
    device = torch.device(device)
    if device.type == "cuda" and device.index is None:
        device = torch.device("cuda", torch.cuda.current_device())
    g = _defaults.get(device)
    if g is None:
        if device.type == "cpu":
            tg = torch.default_generator
        else:
            mod = getattr(torch, device.type)
            mod.init()
            tg = mod.default_generators[device.index or 0]
        g = _defaults[device] = CoreGenerator._of(tg)
    return g


def seed(value):
    """Seed torch's CPU and accelerator generators (and numpy's); returns the default CPU generator."""
    value = int(value)
    torch.manual_seed(value)
    np.random.seed(value % (2**32))
    return default_generator("cpu")


def _manual_program_seed(seed_value):
    """Paddle's seed for static programs: the default programs' random_seed, and (static programs drawing from
    torch's generator here) the generator paddle.seed seeds."""
    from ..static import default_main_program, default_startup_program

    default_main_program().random_seed = seed_value
    default_startup_program().random_seed = seed_value
    seed(seed_value)


def get_rng_state(device=None, use_index=False):
    return [torch.get_rng_state()]


def set_rng_state(state_list, device=None, use_index=False):
    torch.set_rng_state(state_list[0] if isinstance(state_list, (list, tuple)) else state_list)


def get_cuda_rng_state():
    return torch.cuda.get_rng_state_all() if torch.cuda.is_available() else []


def set_cuda_rng_state(state_list):
    if torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state_list)


class Generator:
    """paddle.Generator(device=None): as in Paddle, a factory that returns the default generator of the device
    (the current one when None), a paddle.base.core.Generator, not an instance of this class."""

    def __new__(cls, device=None):
        from .._core.place import _device_to_place

        return default_generator(_device_to_place(device)._device)
