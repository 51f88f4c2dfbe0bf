"""Capture one training step of a paddle Layer (forward, loss, backward) as an fx graph of aten ops.

The step is traced with `make_fx` on fake tensors: each parameter's `_t` is swapped for a traced
tensor while the Layer runs, and `torch.autograd.grad` of the loss records the backward ops in the
same graph (a joint graph, as aot_autograd builds).  Nothing is allocated, so a model made under
`paddle.LazyGuard` (meta parameters) and a batch of any size trace on a laptop.
"""
import torch
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.fx.experimental.proxy_tensor import make_fx

from .._normalize import wrap
from ..tensor.tensor import Tensor

__all__ = ["Captured", "capture"]


class Captured:
    """A joint graph and what its placeholders and outputs are.

    `leaves`: one entry per placeholder, in order: (name, kind) with kind "param", "input", "label" or
    "state" (a frozen parameter or a buffer, such as BatchNorm's running statistics: placed like a
    parameter, no gradient);
    `grads`: for each output after the loss, the name of the parameter it is the gradient of.
    `forward`: the set of nodes the loss depends on (the rest is the backward).
    `points`: the sublayer name of each reshard point (points.py), by point id.
    """

    def __init__(self, gm, leaves, grads, shapes, points=()):
        self.gm, self.graph = gm, gm.graph
        self.leaves, self.grads, self.shapes = leaves, grads, shapes
        self.points = list(points)
        self.placeholders = [n for n in self.graph.nodes if n.op == "placeholder"]
        self.output = next(n for n in self.graph.nodes if n.op == "output")
        outs = self.output.args[0]
        self.loss_node, self.grad_nodes = outs[0], list(outs[1:])
        seen, todo = set(), [self.loss_node]
        while todo:
            n = todo.pop()
            if n in seen:
                continue
            seen.add(n)
            todo.extend(n.all_input_nodes)
        self.forward = seen


def _fake_like(mode, t, requires_grad):
    with mode:
        return torch.empty_strided(tuple(t.shape), tuple(t.stride()) if t.device.type != "meta" else
                                   torch.empty(tuple(t.shape), device="meta").stride(),
                                   dtype=t.dtype, requires_grad=requires_grad)


def _torch_of(x, what):
    if isinstance(x, Tensor):
        return x._t
    if isinstance(x, torch.Tensor):
        return x
    raise TypeError(f"paddle_on_torch.parallel.plan: {what} must be paddle Tensors, got {type(x).__name__}")


def capture(layer, inputs, labels=(), loss_fn=None, points=True):
    """The joint training-step graph of `layer` on `inputs` (values are not used, only shapes/dtypes).
    `points`: mark the reshard points (the planner's activation variables, points.py)."""
    from . import points as _points

    from ..tensor.stat import mean

    params = [(n, p) for n, p in layer.named_parameters() if not p.stop_gradient]
    if not params:
        raise ValueError("paddle_on_torch.parallel.plan: the layer has no trainable parameters")
    loss_fn = loss_fn or (lambda out, *_: mean(out))
    mode = FakeTensorMode(allow_non_fake_inputs=True)
    p_fake = [_fake_like(mode, p._t, True) for _, p in params]
    # the rest of the state (BatchNorm's statistics are frozen parameters, masks are buffers) is a
    # graph input too: it gets a placement (an op that updates it in place must not need it
    # redistributed: DTensor would update a copy), and a model made under paddle.LazyGuard traces
    trainable = {id(p) for _, p in params}
    state = [(n, t) for n, t in list(layer.named_parameters()) + list(layer.named_buffers())
             if id(t) not in trainable and isinstance(t, Tensor) and isinstance(t._t, torch.Tensor)]
    s_fake = [_fake_like(mode, t._t, False) for _, t in state]
    i_fake = [_fake_like(mode, _torch_of(x, "example_inputs"), False) for x in inputs]
    l_fake = [_fake_like(mode, _torch_of(x, "labels"), False) for x in labels]

    def step(ps, xs, ls, ss):
        olds = [p._t for _, p in params]
        s_olds = [t._t for _, t in state]
        try:
            for (_, p), t in zip(params, ps):
                p._t = t
            for (_, t), f in zip(state, ss):
                t._t = f
            out = layer(*[wrap(x) for x in xs])
            loss = loss_fn(out, *[wrap(x) for x in ls])
            loss = loss._t if isinstance(loss, Tensor) else loss
            if loss.dim() != 0:
                raise ValueError(f"paddle_on_torch.parallel.plan: the loss must be a scalar, got shape "
                                 f"{list(loss.shape)}")
            grads = torch.autograd.grad(loss, ps, allow_unused=True)
        finally:
            for (_, p), t in zip(params, olds):
                p._t = t
            for (_, t), old in zip(state, s_olds):
                t._t = old
        return [loss] + [g if g is not None else torch.zeros_like(p) for g, p in zip(grads, ps)]

    marks = _points.marking(layer) if points else None
    if marks is not None:
        with marks:
            gm = make_fx(step, tracing_mode="real")(p_fake, i_fake, l_fake, s_fake)
    else:
        gm = make_fx(step, tracing_mode="real")(p_fake, i_fake, l_fake, s_fake)
    gm.graph.eliminate_dead_code()
    leaves = ([(n, "param") for n, _ in params] + [(f"input{i}", "input") for i in range(len(inputs))]
              + [(f"label{i}", "label") for i in range(len(labels))] + [(n, "state") for n, _ in state])
    shapes = [tuple(t.shape) for t in p_fake + i_fake + l_fake + s_fake]
    return Captured(gm, leaves, [n for n, _ in params], shapes, marks.names if marks is not None else ())
