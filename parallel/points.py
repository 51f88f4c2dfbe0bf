"""Reshard points: the activations the planner may redistribute (its activation decision variables).

A reshard point is the output of a sublayer where a plan may choose the activation's placements
instead of taking the ones DTensor's propagation gives it: the output of every `nn.Linear` (the
matmul outputs: Megatron's all-reduce or sequence parallelism's reduce-scatter is chosen there)
and the output of every child of a `LayerList` / `Sequential` (the residual stream between
blocks).  The capture marks each one with an identity op `point(x, id)` whose gradient is
`point_bwd(g, id)`, so the joint graph holds both ends of the redistribution that `Plan.apply`
will insert (a forward post-hook doing `DTensor.redistribute`), and its backward twin: DTensor's
`Redistribute.backward` sends the gradient back to the placements the forward started from
(a Partial source becomes Replicate there).  Choosing "follow" on a mesh dimension keeps DTensor's
placement (no hook work, no cost), so a plan with only "follow" is DTensor's plain propagation.
"""
import torch

__all__ = ["POINT", "POINT_BWD", "select", "marking", "install", "backward_target"]

_LIB = "paddle_on_torch_planner"


@torch.library.custom_op(f"{_LIB}::point", mutates_args=())
def _point(x: torch.Tensor, id: int) -> torch.Tensor:
    return x.clone()


@_point.register_fake
def _(x, id):
    return torch.empty_like(x)


@torch.library.custom_op(f"{_LIB}::point_bwd", mutates_args=())
def _point_bwd(g: torch.Tensor, id: int) -> torch.Tensor:
    return g.clone()


@_point_bwd.register_fake
def _(g, id):
    return torch.empty_like(g)


def _setup(ctx, inputs, output):
    ctx.id = inputs[1]


def _backward(ctx, g):
    return _point_bwd(g, ctx.id), None


_point.register_autograd(_backward, setup_context=_setup)

POINT = torch.ops.paddle_on_torch_planner.point.default
POINT_BWD = torch.ops.paddle_on_torch_planner.point_bwd.default


def select(layer):
    """[(sublayer name, sublayer)] whose outputs are reshard points: Linear layers and the children of
    LayerList / Sequential containers."""
    from ..nn import LayerList, Linear, Sequential

    out, seen = [], set()
    for name, sub in layer.named_sublayers():
        if isinstance(sub, (LayerList, Sequential)):
            for cname, child in sub.named_children():
                full = f"{name}.{cname}" if name else cname
                if id(child) not in seen:
                    seen.add(id(child))
                    out.append((full, child))
    for name, sub in layer.named_sublayers():
        if isinstance(sub, Linear) and id(sub) not in seen:
            seen.add(id(sub))
            out.append((name, sub))
    return out


class marking:
    """While active, the outputs of `select(layer)` pass through `point` (for the capture); `names` lists
    the points in id order (a sublayer called twice gets a point per call, under the same name)."""

    def __init__(self, layer):
        self.layer, self.names, self.handles = layer, [], []

    def __enter__(self):
        from .._normalize import wrap
        from ..tensor.tensor import Tensor

        def hook_for(name):
            def hook(_, inputs, out):
                if not isinstance(out, Tensor) or not out._t.is_floating_point():
                    return None
                self.names.append(name)
                return wrap(_point(out._t, len(self.names) - 1))
            return hook

        for name, sub in select(self.layer):
            self.handles.append(sub.register_forward_post_hook(hook_for(name)))
        return self

    def __exit__(self, *exc):
        for h in self.handles:
            h.remove()
        self.handles = []


def target(current, choice):
    """The placements a point's output takes: `choice` per mesh dimension, None keeping `current`'s."""
    return tuple(c if t is None else t for c, t in zip(current, choice))


def backward_target(src, grad):
    """Where DTensor's Redistribute.backward sends a gradient `grad` of an activation redistributed from
    `src`: back to `src`, except that a Partial there becomes Replicate unless the gradient is Partial."""
    from torch.distributed.tensor import Replicate

    return tuple(Replicate() if s.is_partial() and not g.is_partial() else s for s, g in zip(src, grad))


def install(layer, choices):
    """Forward post-hooks on `layer`'s sublayers that redistribute their outputs to the planned
    placements (`choices`: sublayer name -> per-mesh-dimension torch placements or None).  Returns the
    hook handles."""
    from .._normalize import wrap
    from ..tensor.tensor import Tensor
    from torch.distributed.tensor import DTensor

    subs = dict(select(layer))
    handles = []
    for name, choice in choices.items():
        if all(c is None for c in choice):
            continue
        if name not in subs:
            raise ValueError(f"Plan.apply: the layer has no sublayer {name!r}; apply a plan to the layer it was made for")

        def hook(_, inputs, out, choice=choice):
            if not isinstance(out, Tensor) or not isinstance(out._t, DTensor):
                return None
            t = out._t
            dst = target(t.placements, choice)
            if dst == tuple(t.placements):
                return None  # what the plan priced: nothing to do
            return wrap(t.redistribute(t.device_mesh, dst))
        handles.append(subs[name].register_forward_post_hook(hook))
    return handles
