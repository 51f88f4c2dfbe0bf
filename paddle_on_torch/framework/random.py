"""paddle.seed, the generators and their states.

The CPU generator is Paddle's (paddle_on_torch._core.random: std::mt19937_64 and Paddle's kernels, in C++), so a
seeded program draws Paddle's CPU numbers bit for bit; its state is Paddle's GeneratorState (device, current seed,
offset, the engine's words), pickled in Paddle's format.  paddle.seed also seeds torch's CPU and CUDA generators
(CUDA random ops and the CPU ops not ported keep drawing from torch: other numbers than Paddle's); it leaves numpy's
global generator alone, as Paddle's does (RandomSampler's orders and paddle.io's worker seeds come from numpy's
global state, so a script that seeds numpy gets Paddle's).
"""
import numpy as np
import torch

from .._core import random as _cpu

__all__ = ["seed", "get_rng_state", "set_rng_state", "get_cuda_rng_state", "set_cuda_rng_state", "Generator"]


class GeneratorState:
    """paddle.base.core.GeneratorState: a generator's state -- device (-1: CPU), current seed, offset and the
    CPU engine's words.  It also carries torch's CPU generator state, so restoring it replays the ops that still
    draw from torch."""

    __slots__ = ("device", "_seed", "thread_offset", "_engine", "_torch")

    def __init__(self, device=-1, seed=0, thread_offset=0, engine=None, torch_state=None):
        self.device, self._seed, self.thread_offset = int(device), int(seed), int(thread_offset)
        self._engine = engine if engine is not None else torch.zeros(_cpu.STATE_WORDS, dtype=torch.int64)
        self._torch = torch_state

    def current_seed(self):
        return self._seed

    def _engine_text(self):
        # std::mt19937_64's stream form: the 312 words, then the read position
        return " ".join(str(int(v)) for v in self._engine.numpy().view(np.uint64))

    def __str__(self):
        return f"{self.device} {self._seed} {self.thread_offset} 0x0 {self._engine_text()}"

    def __getstate__(self):  # Paddle's pickled form: the engine's text as a list of character codes
        return (self.device, self._seed, self.thread_offset, [ord(c) for c in self._engine_text()])

    def __setstate__(self, state):
        device, seed, offset, text = state
        words = np.array([int(v) for v in "".join(map(chr, text)).split()], dtype=np.uint64)
        self.device, self._seed, self.thread_offset = int(device), int(seed), int(offset)
        self._engine = torch.from_numpy(words.view(np.int64).copy())
        self._torch = None

    def __reduce__(self):
        return (GeneratorState, (), self.__getstate__())


class CoreGenerator:
    """paddle.base.core.Generator.  A CPU generator is Paddle's (a CPUStream); the default CPU generator
    (`core.default_cpu_generator()`, what paddle.seed returns) is the stream every CPU random op draws from.  An
    accelerator's generator is torch's default generator of that device."""

    __slots__ = ("_g", "_cpu")

    def __init__(self, device=None):
        from .._core.place import to_torch_device

        device = torch.device(to_torch_device(device) if device is not None else "cpu")
        self._cpu = _cpu.CPUStream() if device.type == "cpu" else None
        self._g = None if device.type == "cpu" else torch.Generator(device=device)

    @classmethod
    def _of(cls, torch_generator=None, stream=None):
        g = object.__new__(cls)
        g._g, g._cpu = torch_generator, stream
        return g

    def manual_seed(self, seed_value):
        seed_value = int(seed_value)
        if seed_value < 0 or seed_value >= 1 << 64:  # Paddle's binding takes an unsigned 64-bit integer
            raise TypeError("manual_seed(): incompatible function arguments. The following argument types are "
                            "supported:\n    1. (self: paddle.base.libpaddle.Generator, arg0: int) -> "
                            f"paddle.base.libpaddle.Generator\n\nInvoked with: {self!r}, {seed_value}")
        if self._cpu is not None:
            self._cpu.manual_seed(seed_value)
            if self._cpu is _cpu.default_cpu():
                torch.manual_seed(seed_value & ((1 << 64) - 1))  # the ops that still draw from torch
        else:
            self._g.manual_seed(seed_value & ((1 << 64) - 1))
        return self

    def seed(self):
        if self._cpu is not None:
            import os

            return self.manual_seed(int.from_bytes(os.urandom(8), "little") & ((1 << 53) - 1)).initial_seed()
        return self._g.seed()

    def initial_seed(self):
        return self._cpu.seed if self._cpu is not None else self._g.initial_seed()

    def get_state(self):
        if self._cpu is None:
            return self._g.get_state()
        is_default = self._cpu is _cpu.default_cpu()
        return GeneratorState(-1, self._cpu.seed, self._cpu.thread_offset, self._cpu.state.clone(),
                              torch.get_rng_state() if is_default else None)

    def set_state(self, state):
        if self._cpu is None:
            self._g.set_state(state)
            return self
        if not isinstance(state, GeneratorState):
            raise TypeError("set_state(): incompatible function arguments. The following argument types are "
                            "supported:\n    1. (self: paddle.base.libpaddle.Generator, arg0: "
                            "paddle.base.libpaddle.GeneratorState) -> None")
        self._cpu.state.copy_(state._engine)
        self._cpu.seed, self._cpu.thread_offset = state._seed, state.thread_offset
        if state._torch is not None and self._cpu is _cpu.default_cpu():
            torch.set_rng_state(state._torch)
        return self

    def random(self):
        """A random 64-bit unsigned integer, advancing the generator."""
        if self._cpu is not None and _cpu.ops() is not None:
            return self._cpu.draw64()
        gen = self._g if self._g is not None else torch.default_generator
        return int(torch.randint(0, 2**63 - 1, (1,), generator=gen).item())


_defaults = {}


def default_generator(device):
    """The CoreGenerator of a device ('cpu' or a torch.device): Paddle's default CPU stream, or torch's default
    generator of an accelerator."""
    device = torch.device(device)
    if device.type == "cuda" and device.index is None:
        device = torch.device("cuda", torch.cuda.current_device())
    g = _defaults.get(device)
    if g is None:
        if device.type == "cpu":
            g = CoreGenerator._of(stream=_cpu.default_cpu())
        else:
            mod = getattr(torch, device.type)
            mod.init()
            g = CoreGenerator._of(mod.default_generators[device.index or 0])
        _defaults[device] = g
    return g


def seed(seed):
    """Seed Paddle's CPU generator (and torch's CPU and accelerator generators; not numpy's, as in Paddle); returns
    the default CPU generator."""
    value = int(seed)
    generator = default_generator("cpu").manual_seed(value)
    torch.manual_seed(value)
    return generator


def _manual_program_seed(seed_value):
    """Paddle's seed for static programs: the default programs' random_seed, and (static programs drawing from
    the same generators) paddle.seed."""
    from ..static import default_main_program, default_startup_program

    default_main_program().random_seed = seed_value
    default_startup_program().random_seed = seed_value
    seed(seed_value)


def _on_cpu(device):
    from .._core.place import current_torch_device

    if device is None:
        return current_torch_device().type == "cpu"
    return str(device).lower().startswith("cpu")


def get_rng_state(device=None, use_index=False):
    """The generator states of a device (the current one when None): [the CPU GeneratorState] on the CPU, torch's
    generator states of each accelerator device otherwise."""
    if _on_cpu(device):
        return [default_generator("cpu").get_state()]
    return get_cuda_rng_state()


def set_rng_state(state_list, device=None, use_index=False):
    states = list(state_list) if isinstance(state_list, (list, tuple)) else [state_list]
    if _on_cpu(device) or (states and isinstance(states[0], GeneratorState)):
        if len(states) != 1:
            raise ValueError("Length of cpu state list should be equal to 1")
        if isinstance(states[0], GeneratorState):
            default_generator("cpu").set_state(states[0])
        else:  # a torch state (saved before Paddle's CPU streams were kept here)
            torch.set_rng_state(states[0])
        return
    set_cuda_rng_state(states)


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
