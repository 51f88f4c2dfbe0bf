"""paddle.seed and the generator state.

paddle.seed seeds torch's CPU and CUDA generators (and numpy's global one,
which paddle.io workers derive from).  Paddle's own generator algorithm is
not reproduced: the same seed gives other numbers than real Paddle (see
docs/compatibility.md).
"""
import numpy as np
import torch

__all__ = ["seed", "get_rng_state", "set_rng_state", "get_cuda_rng_state", "set_cuda_rng_state", "Generator"]


class _Generator:
    """What paddle.seed returns: a handle with Paddle's generator methods."""

    def __init__(self, seed_value):
        self._seed = seed_value

    def initial_seed(self):
        return self._seed

    def seed(self):
        return self._seed

    def manual_seed(self, value):
        return seed(value)

    def get_state(self):
        return torch.get_rng_state()

    def set_state(self, state):
        torch.set_rng_state(state)


def seed(value):
    value = int(value)
    torch.manual_seed(value)
    np.random.seed(value % (2**32))
    return _Generator(value)


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
    """paddle.Generator: a random-number generator of its own, over a torch.Generator."""

    def __init__(self, device=None):
        from .place import to_torch_device

        self._g = torch.Generator(device=to_torch_device(device))

    def manual_seed(self, seed_value):
        self._g.manual_seed(int(seed_value))
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
