"""fleet recompute (activation checkpointing) on torch.utils.checkpoint.

`recompute(function, *args, preserve_rng_state=True, use_reentrant=True, **kwargs)` runs a Paddle
callable without keeping its activations and re-runs it during backward; gradients equal those of
a plain call (dropout included: the RNG state is restored for the re-run).

torch's non-reentrant checkpoint runs in both modes: the reentrant one cannot serve
`autograd.grad(inputs=...)`, which torch's pipelining uses.  Paddle's reentrant mode (the default)
differs only when no input requires grad: then its output is cut from the graph (stop_gradient=True,
no parameter gradients), and so is ours.
"""
import torch
import torch.utils.checkpoint as _ckpt

from ...._normalize import wrap
from ....tensor.tensor import Tensor

__all__ = ["recompute", "recompute_sequential", "recompute_hybrid"]


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

    def run(*xs):
        return _to_torch(function(*_to_paddle(xs), **kwargs))

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
