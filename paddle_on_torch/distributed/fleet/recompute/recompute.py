"""fleet recompute (activation checkpointing) on torch.utils.checkpoint.

`recompute(function, *args, preserve_rng_state=True, use_reentrant=True, **kwargs)` runs a Paddle
callable without keeping its activations and re-runs it during backward; gradients equal those of
a plain call (dropout included: the RNG state is restored for the re-run).

torch's non-reentrant checkpoint runs in both modes: the reentrant one cannot serve
`autograd.grad(inputs=...)`, which torch's pipelining uses.  Paddle's reentrant mode (the default)
differs only when no input requires grad: then its output is cut from the graph (stop_gradient=True,
no parameter gradients), and so is ours.
"""
import contextlib
import random

import numpy as np
import torch
import torch.utils.checkpoint as _ckpt

from ...._core import random as _cpu_random
from ...._normalize import wrap
from ....tensor.tensor import Tensor

__all__ = ["recompute", "recompute_sequential", "recompute_hybrid"]


def check_recompute_necessary(inputs):
    """Warn (as Paddle does) when no input of a recompute block needs a gradient: recomputing it is wasted."""
    flags = []
    for inp in inputs:
        for t in (inp if type(inp) is tuple else (inp,)):
            if isinstance(t, Tensor):
                flags.append(t.stop_gradient)
    if all(flags):
        from ..utils.log_util import logger

        logger.warning("[Recompute]: None of the inputs to current recompute block need grad, therefore there is "
                       "NO need to recompute this block in backward !")


def detach_variable(inputs):
    """Detached copies of the tensors in `inputs` (and in its tuples) that keep their stop_gradient."""
    def detach(t):
        if not isinstance(t, Tensor):
            return t
        d = t.detach()
        d.stop_gradient = t.stop_gradient
        return d

    return tuple(tuple(detach(i) for i in inp) if type(inp) is tuple else detach(inp) for inp in inputs)


class CustomStatesManager:
    """Holds a user's get/set functions for extra random state that recompute must replay (set once each)."""

    def __init__(self):
        self.custom_get_state_func = None
        self.custom_set_state_func = None

    def set_custom_get_state_func(self, custom_get_state_func):
        assert self.custom_get_state_func is None, "The custom_state_manager does not support duplicate settings."
        self.custom_get_state_func = custom_get_state_func

    def set_custom_set_state_func(self, custom_set_state_func):
        assert self.custom_set_state_func is None, "The custom_state_manager does not support duplicate settings."
        self.custom_set_state_func = custom_set_state_func


custom_state_manager = CustomStatesManager()


@contextlib.contextmanager
def switch_rng_state_tracker(rng_state, tracker, numpy_state=None, random_state=None, custom_state=None,
                             custom_get_state_func=None, custom_set_state_func=None):
    """Run the block under the given generator state, model-parallel RNG tracker states (and NumPy / Python
    `random` / custom states when given), and restore the current ones after.  Paddle 3.3.1 requires
    numpy_state and random_state; PaddleNLP 3.0.0b4 passes only the first two, which works here."""
    from ....framework import random as _random
    from ..layers.mpu.random import get_rng_state_tracker

    orig_rng, orig_tracker = _random.get_rng_state(), get_rng_state_tracker().get_states_tracker()
    _random.set_rng_state(rng_state)
    get_rng_state_tracker().set_states_tracker(tracker)
    orig_np = orig_py = orig_custom = None
    if numpy_state is not None:
        orig_np = np.random.get_state()
        np.random.set_state(numpy_state)
    if random_state is not None:
        orig_py = random.getstate()
        random.setstate(random_state)
    if custom_state is not None:
        assert custom_get_state_func is not None and custom_set_state_func is not None
        orig_custom = custom_get_state_func()
        custom_set_state_func(custom_state)
    try:
        yield
    finally:
        _random.set_rng_state(orig_rng)
        get_rng_state_tracker().set_states_tracker(orig_tracker)
        if orig_np is not None:
            np.random.set_state(orig_np)
        if orig_py is not None:
            random.setstate(orig_py)
        if custom_state is not None:
            custom_set_state_func(orig_custom)


def _to_torch(obj):
    if isinstance(obj, Tensor):
        return obj._t
    if isinstance(obj, (list, tuple)):
        return type(obj)(_to_torch(o) for o in obj)
    if isinstance(obj, dict):
        return {k: _to_torch(v) for k, v in obj.items()}
    return obj


def _to_paddle(obj):
    if isinstance(obj, torch.Tensor):
        return wrap(obj)
    if isinstance(obj, (list, tuple)):
        return type(obj)(_to_paddle(o) for o in obj)
    if isinstance(obj, dict):
        return {k: _to_paddle(v) for k, v in obj.items()}
    return obj


def recompute(function, *args, **kwargs):
    preserve = kwargs.pop("preserve_rng_state", True)
    use_reentrant = kwargs.pop("use_reentrant", True)
    kwargs.pop("offload_indices", None)
    targs = _to_torch(args)
    needs_grad = any(isinstance(a, torch.Tensor) and a.requires_grad for a in targs)
    if not torch.is_grad_enabled() or (use_reentrant and not needs_grad):
        with torch.no_grad():
            return function(*args, **kwargs)

    # torch's checkpoint replays torch's generator; Paddle's CPU stream (dropout's masks) is replayed here: the
    # recomputation starts from the stream's state at the forward and leaves the stream as it found it
    stream = _cpu_random.default_cpu()
    at_forward = stream.state.clone() if preserve else None
    calls = [0]

    def run(*xs):
        calls[0] += 1
        if at_forward is None or calls[0] == 1:
            return _to_torch(function(*_to_paddle(xs), **kwargs))
        now = stream.state.clone()
        stream.state.copy_(at_forward)
        try:
            return _to_torch(function(*_to_paddle(xs), **kwargs))
        finally:
            stream.state.copy_(now)

    return _to_paddle(_ckpt.checkpoint(run, *targs, use_reentrant=False, preserve_rng_state=preserve))


def recompute_sequential(ctx, functions, *args, **kwargs):
    """Recompute a Sequential in ctx['segments'] chunks (Paddle's recompute_sequential)."""
    segments = ctx.get("segments", 1)
    preserve = ctx.get("preserve_rng_state", True)
    layers = list(functions.children()) if hasattr(functions, "children") else list(functions)
    size = (len(layers) + segments - 1) // segments

    def chunk(lo, hi):
        def run(*xs):
            x = xs[0] if len(xs) == 1 else xs
            for f in layers[lo:hi]:
                x = f(x)
            return x

        return run

    x = args
    for lo in range(0, len(layers), size):
        x = recompute(chunk(lo, min(lo + size, len(layers))), *(x if isinstance(x, tuple) else (x,)),
                      preserve_rng_state=preserve, **kwargs)
    return x


def recompute_hybrid(ctx, function, *args, **kwargs):
    """Paddle's recompute for hybrid parallel (ctx: mp_group, offload, partition): offload and partition
    are memory placements of the saved inputs; the computation and gradients are recompute's."""
    return recompute(function, *args, preserve_rng_state=ctx.get("preserve_rng_state", True), **kwargs)
