"""Loss and gradients in one compiled graph, for Paddle's `loss = static_fn(...); loss.backward()`.

A to_static function that compiled to one graph (full_graph=True, or no graph break happened) and
returns one scalar float Tensor depending on Parameters and on tensor arguments is compiled a second
time, with `torch.autograd.grad` of its result with
respect to those leaves inside the graph: forward and backward become one inductor program (for the
PINN step, which differentiates twice inside the loss, this is ~25% less work than a compiled forward
plus its separately compiled backward).  The call returns the loss through an autograd Function whose
backward hands the precomputed gradients (times the incoming gradient) to the autograd engine, so
`loss.backward()`, `paddle.grad(loss, ...)`, gradient accumulation and hooks on the leaves behave as
before.  Differentiating the loss again (create_graph=True) runs the function eagerly once more and
differentiates that (an AOT-compiled graph has no double backward).  The leaves are learned from the first (ordinary) call's autograd graph and
learned again after any change to a Layer (layers.MUTATIONS).  Costs: the gradients are computed at
every call under grad mode, also when no backward follows (evaluate under paddle.no_grad()).
"""
import itertools

import torch

from ..nn.layer import layers as _layers
from ._guards import CompiledEntry

_counter = itertools.count()

_JOINT_SRC = """
def {name}(leaves, args, kwargs):
    out = _entry(*args, **kwargs)
    return out.detach(), _grad(out, leaves, allow_unused=True)
"""


class _Attach(torch.autograd.Function):
    """The loss value as an autograd node over the leaves, with the gradients already computed."""

    @staticmethod
    def forward(ctx, value, grads, recompute, *leaves):
        ctx.grads, ctx.recompute = grads, recompute
        return value

    @staticmethod
    def backward(ctx, g):
        if torch.is_grad_enabled():  # create_graph=True: the gradients must be differentiable
            # AOT-compiled graphs have no double backward: run the function eagerly again for these
            fn, leaves, args, kwargs = ctx.recompute
            out = fn(*args, **kwargs)
            gs = torch.autograd.grad(out, leaves, g, create_graph=True, allow_unused=True)
        elif g.device.type == "cpu" and float(g) == 1.0:  # loss.backward(): no scaling needed
            gs = ctx.grads
        else:
            g = g.reshape(())
            gs = [None if gi is None else gi * g for gi in ctx.grads]
        return (None, None, None, *gs)


def _layers_of(sf, args):
    """Layers whose parameters the function can reach by name: its instance, Layer arguments, and
    Layers in its defaults and closure."""
    fn = sf._dygraph_function
    cands = [sf._layer, *args]
    func = getattr(fn, "__func__", fn)
    cands += list(getattr(func, "__defaults__", None) or ())
    cands += list((getattr(func, "__kwdefaults__", None) or {}).values())
    for cell in getattr(func, "__closure__", None) or ():
        try:
            cands.append(cell.cell_contents)
        except ValueError:
            pass
    return [c for c in cands if isinstance(c, _layers.Layer)]


class Joint:
    """The joint program of one StaticFunction (one code object; its leaves are learned per call pattern)."""

    def __init__(self, sf, entry_fn):
        self.sf, self.entry_fn = sf, entry_fn
        self.params, self.arg_pos, self.pattern, self.mutations = None, None, None, None
        name = f"to_static_joint_{next(_counter)}"
        ns = {"_entry": entry_fn, "_grad": torch.autograd.grad}
        exec(compile(_JOINT_SRC.format(name=name), f"<paddle.jit.to_static joint {name}>", "exec"), ns)
        self.entry = CompiledEntry(ns[name], sf._torch_backend, fullgraph=True)

    @staticmethod
    def applies(out):
        return (isinstance(out, torch.Tensor) and out.numel() == 1 and out.is_floating_point()
                and out.grad_fn is not None and type(out.grad_fn).__name__ == "CompiledFunctionBackward")

    def learn(self, out, targs, tkwargs):
        """Learn the leaves from an ordinary call's result; False when the pattern does not fit."""
        self.pattern = None
        if not self.applies(out):
            return False
        if any(_holds_tensor(v) for v in tkwargs.values()) or any(
                not isinstance(a, torch.Tensor) and _holds_tensor(a) for a in targs):
            return False
        arg_pos = [i for i, a in enumerate(targs) if isinstance(a, torch.Tensor) and a.requires_grad]
        by_id = {id(p._t): p for layer in _layers_of(self.sf, targs) for p in layer.parameters()}
        params = []
        for node, _ in out.grad_fn.next_functions:
            if node is None:
                continue
            var = getattr(node, "variable", None)
            if var is None:  # a non-leaf input: only a tensor argument is known to be one
                if not any(targs[i].grad_fn is node for i in arg_pos):
                    return False
            elif any(targs[i] is var for i in arg_pos):
                continue
            elif id(var) in by_id and by_id[id(var)]._t is var:
                if not any(p is by_id[id(var)] for p in params):
                    params.append(by_id[id(var)])
            else:  # a leaf reached some other way (a global tensor): leave this function alone
                return False
        if not params and not arg_pos:
            return False
        self.params, self.arg_pos, self.pattern = params, arg_pos, _pattern(targs)
        self.mutations = _layers.MUTATIONS[0]
        return True

    def fits(self, targs):
        return (self.pattern is not None and torch.is_grad_enabled() and _layers.MUTATIONS[0] == self.mutations
                and _pattern(targs) == self.pattern)

    def __call__(self, targs, tkwargs):
        leaves = [p._t for p in self.params] + [targs[i] for i in self.arg_pos]
        value, grads = self.entry(leaves, targs, tkwargs)
        return _Attach.apply(value, grads, (self.entry_fn, leaves, targs, tkwargs), *leaves)


def _pattern(targs):
    return tuple(isinstance(a, torch.Tensor) and a.requires_grad for a in targs)


def _holds_tensor(obj):
    if isinstance(obj, torch.Tensor):
        return True
    if isinstance(obj, (list, tuple)):
        return any(_holds_tensor(v) for v in obj)
    if isinstance(obj, dict):
        return any(_holds_tensor(v) for v in obj.values())
    return False
