"""append_backward, gradients and static-mode minimize: nodes that call torch.autograd.grad.

The Executor runs a program that has such nodes with autograd on, so the forward nodes build
torch's autograd graph and the gradient node differentiates it; the optimizer node then updates the
scope's parameters in place with the existing paddle.optimizer classes.
"""
import torch

from .. import _normalize
from . import program as _prog

__all__ = ["append_backward", "gradients", "minimize"]


def _grad(targets, inputs, grad_outputs, create_graph=False):
    gs = torch.autograd.grad(targets, inputs, grad_outputs, retain_graph=True, allow_unused=True,
                             create_graph=create_graph)
    return tuple(torch.zeros_like(i) if g is None else g for g, i in zip(gs, inputs))


def _grad_of_grad(targets, inputs, grad_outputs):
    """`_grad` for a gradient that a later gradient node differentiates (Paddle's grad ops are themselves
    differentiable): the backward pass builds a graph."""
    return _grad(targets, inputs, grad_outputs, create_graph=True)


def _grad_shapes(targets, inputs, grad_outputs):
    return tuple(torch.empty_like(i).requires_grad_(i.is_floating_point()) for i in inputs)  # Paddle: not stopped


def _ancestors(nodes):
    seen, stack = set(), list(nodes)
    while stack:
        n = stack.pop()
        if n not in seen:
            seen.add(n)
            stack.extend(n.all_input_nodes)
    return seen


def _record_grads(targets, inputs, target_gradients=None):
    """Gradient Variables for the inputs (None, as in Paddle, for an input the targets do not use)."""
    prog = _prog.current_program()
    tt = [t._t for t in targets]
    used = _ancestors([prog._lookup(t)[1] for t in tt])
    for n in used:  # gradients these targets are computed from must be differentiable themselves
        if n.op == "call_function" and n.target is _grad:
            n.target = _grad_of_grad
    reached = [prog._lookup(i._t)[1] in used for i in inputs]
    ii = [i._t for i, r in zip(inputs, reached) if r]
    if not ii:
        return [None] * len(inputs)
    go = [None if g is None else g._t for g in target_gradients] if target_gradients else None
    if go is None:
        go = [None if t.numel() == 1 else _prog._record(torch.ones_like, (t,), {}) for t in tt]
    out = iter(_prog._record(_grad, (tt, ii, go), {}, compute=_grad_shapes, meta={"backward": True}))
    return [_normalize.wrap(next(out)) if r else None for r in reached]


def variable_grads(y, xs):
    """d sum(y) / d x for Variables' fake tensors (the Jacobian / Hessian rows of paddle.autograd and
    paddle.incubate.autograd in static mode): zeros for an x that y does not reach, as Paddle's
    _replace_none_with_zero_tensor."""
    wrap = _normalize.wrap
    gs = _record_grads([wrap(y)], [wrap(x) for x in xs])
    return [_prog._record(torch.zeros_like, (x,), {}) if g is None else g._t for g, x in zip(gs, xs)]


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def gradients(targets, inputs, target_gradients=None, no_grad_set=None):
    """d(sum of targets)/d(inputs) as Variables of the current program."""
    targets, inputs = _as_list(targets), _as_list(inputs)
    if target_gradients is not None:
        target_gradients = _as_list(target_gradients)
        if len(target_gradients) != len(targets):
            raise ValueError("Should have the same number of target_gradients as targets")
    return _record_grads(targets, inputs, target_gradients)


def _trainable(prog, parameter_list, no_grad_set):
    skip = {p if isinstance(p, str) else p.name for p in (no_grad_set or ())}
    if parameter_list is not None:
        params = [_prog._params[p] if isinstance(p, str) else p for p in parameter_list]
    else:
        params = [p for n, p in sorted(prog._param_objs.items()) if n in prog._pnodes]  # Paddle: by name
    return [p for p in params if not p.stop_gradient and p.name not in skip]


def append_backward(loss, parameter_list=None, no_grad_set=None, callbacks=None, checkpoints=None,
                    distop_context=None):
    """[(parameter, gradient Variable)] for the trainable parameters loss depends on."""
    if not _prog.is_var(getattr(loss, "_t", None)):
        raise TypeError("The type of 'loss' in append_backward must be Variable (a static-mode Tensor), but "
                        f"received {type(loss).__name__}.")
    prog = _prog.current_program()
    params = _trainable(prog, parameter_list, no_grad_set)
    if not params:
        return []
    grads = _record_grads([loss], params)
    params, grads = [p for p, g in zip(params, grads) if g is not None], [g for g in grads if g is not None]
    for p, g in zip(params, grads):
        g.name = p.name + "@GRAD"
        prog._node_of(g).meta["name"] = g.name
    return list(zip(params, grads))


class _OptimizerStep:
    """The node that applies an optimizer's update to the scope's parameters."""

    def __init__(self, opt, params):
        self.__name__ = self.__qualname__ = "optimizer_step"  # (the node name fx gives the call)
        self.opt, self.params = opt, params

    def __call__(self, tensors, grads):
        pairs = []
        for p, t, g in zip(self.params, tensors, grads):
            p._t = t  # the optimizer works on the scope's tensor for this run
            pairs.append((p, _normalize.wrap(g)))
        with torch.no_grad():
            self.opt._apply_optimize(pairs, None)


def minimize(opt, loss, startup_program=None, parameters=None, no_grad_set=None):
    params_grads = append_backward(loss, parameters, no_grad_set)
    if params_grads:
        params = [p for p, _ in params_grads]
        step = _OptimizerStep(opt, params)
        _prog._record(step, ([p._t for p in params], [g._t for _, g in params_grads]), {},
                      compute=lambda t, g: None, meta={"optimizer": True}, force=True)
    return [], params_grads
