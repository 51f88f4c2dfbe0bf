"""paddle.grad and paddle.autograd.backward over torch.autograd.

Paddle's differences from torch's: results are Paddle Tensors in a list; grad keeps the graph
whatever `retain_graph` says; a gradient computed without `create_graph` has stop_gradient=True, one computed with
it has stop_gradient=False (even a constant one); an input the outputs do not depend on (or an output
that needs no gradient at all) is a ValueError unless `allow_unused=True` (then None);
`no_grad_vars` are treated as constants.  Complex gradients follow the same convention in both
(the conjugate Wirtinger derivative, d/dx + i d/dy for a real loss), so they pass through unchanged.
"""
import torch

from .._normalize import to_torch, wrap
from ..tensor.tensor import Tensor

__all__ = ["grad", "backward"]


def _tensors(xs):
    return [xs] if isinstance(xs, Tensor) else list(xs)


def _unused(k):
    return ValueError(f"(InvalidArgument) The {k}-th input does not appear in the backward graph. "
                      "Please check the input tensor or set allow_unused=True to get None result.")


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=False, no_grad_vars=None, *, dump_backward_graph_path=None):
    if not only_inputs:
        raise AssertionError("only_inputs=False is not supported yet")  # Paddle's own refusal
    outs = [to_torch(o) for o in _tensors(outputs)]
    ins = [to_torch(i) for i in _tensors(inputs)]
    if not ins:
        raise AssertionError("inputs cannot be empty")
    if grad_outputs is None:
        gouts = [None] * len(outs)
    else:
        gouts = [None if g is None else to_torch(g) for g in _tensors(grad_outputs)]
        if len(gouts) != len(outs):
            raise AssertionError("The length of grad_outputs must be equal to outputs")
    # identity by `is`, not id(): under to_static dynamo would guard on each input's id and recompile for
    # every new batch tensor (ppsci's eval_forward recompiled per batch until dynamo's recompile limit)
    if any(i is j for k, i in enumerate(ins) for j in ins[:k]):
        raise RuntimeError("(AlreadyExists) inputs contain duplicate tensor, please check inputs carefully.")
    # torch refuses outputs that need no gradient; Paddle just finds nothing flows from them
    pairs = [(o, torch.ones_like(o) if g is None else g) for o, g in zip(outs, gouts) if o.requires_grad]
    wanted = [k for k, i in enumerate(ins) if i.requires_grad]
    hooks = []
    if no_grad_vars is not None:
        frozen = [to_torch(v) for v in _tensors(no_grad_vars)]
        if any(v is i for v in frozen for i in ins):
            raise ValueError("(InvalidArgument) an input of paddle.grad is also in no_grad_vars")
        # Paddle cuts the graph at these tensors; a hook that sends zeros on through them gives the
        # same gradients (an input reached only through them gets zeros where Paddle says "unused")
        hooks = [v.register_hook(torch.zeros_like) for v in frozen if v.requires_grad]
    # Paddle's grad never frees the graph (a second paddle.grad over it works even with
    # retain_graph=False), so the graph is always kept; it goes when its tensors do.
    retain = True
    try:
        if pairs and wanted:
            grads = torch.autograd.grad([o for o, _ in pairs], [ins[k] for k in wanted], [g for _, g in pairs],
                                        retain_graph=retain, create_graph=create_graph, allow_unused=True)
        else:
            grads = [None] * len(wanted)
    finally:
        for h in hooks:
            h.remove()
    by_input = dict(zip(wanted, grads))
    result = []
    for k in range(len(ins)):
        g = by_input.get(k)
        if g is None:
            if not allow_unused:
                raise _unused(k)
            result.append(None)
            continue
        if create_graph and not g.requires_grad:
            g = g.detach().requires_grad_(True)  # Paddle: a create_graph gradient never stops gradients
        result.append(wrap(g))
    return result


def backward(tensors, grad_tensors=None, retain_graph=False, *, dump_backward_graph_path=None):
    ts = [to_torch(t) for t in _tensors(tensors)]
    if grad_tensors is None:
        gs = [None] * len(ts)
    else:
        gs = [None if g is None else to_torch(g) for g in _tensors(grad_tensors)]
        if len(gs) != len(ts):
            raise AssertionError("The length of grad_tensors must be equal to tensors")
    pairs = [(t, torch.ones_like(t) if g is None else g) for t, g in zip(ts, gs) if t.requires_grad]
    if pairs:  # a root that needs no gradient contributes nothing (torch would refuse it)
        torch.autograd.backward([t for t, _ in pairs], [g for _, g in pairs], retain_graph=retain_graph)
