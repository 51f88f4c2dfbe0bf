"""paddle.grad and paddle.autograd.backward over torch.autograd.

Paddle's differences from torch's: results are Paddle Tensors in a list; `retain_graph` defaults to
`create_graph`; a gradient computed without `create_graph` has stop_gradient=True, one computed with
it has stop_gradient=False; an input the outputs do not depend on is a ValueError unless
`allow_unused=True` (then None); `no_grad_vars` are treated as constants.
"""
import torch

from .._normalize import to_torch, wrap
from ..tensor.tensor import Tensor

__all__ = ["grad", "backward"]


def _tensors(xs):
    return [xs] if isinstance(xs, Tensor) else list(xs)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=False, no_grad_vars=None, *, dump_backward_graph_path=None):
    outs = [to_torch(o) for o in _tensors(outputs)]
    ins = [to_torch(i) for i in _tensors(inputs)]
    if grad_outputs is None:
        gouts = [None] * len(outs)
    else:
        gouts = [None if g is None else to_torch(g) for g in _tensors(grad_outputs)]
        if len(gouts) != len(outs):
            raise ValueError("The length of grad_outputs must be equal to outputs.")
    gouts = [torch.ones_like(o) if g is None else g for o, g in zip(outs, gouts)]
    if no_grad_vars is not None:
        frozen = {id(to_torch(v)) for v in (_tensors(no_grad_vars) if not isinstance(no_grad_vars, set)
                                             else no_grad_vars)}
        if any(id(i) in frozen for i in ins):
            raise ValueError("(InvalidArgument) an input of paddle.grad is also in no_grad_vars")
    retain = create_graph if retain_graph is None else retain_graph
    grads = torch.autograd.grad(outs, ins, gouts, retain_graph=retain, create_graph=create_graph,
                                allow_unused=True)
    result = []
    for k, g in enumerate(grads):
        if g is None:
            if not allow_unused:
                raise ValueError(f"(InvalidArgument) The {k}-th input does not appear in the backward graph. "
                                 "Please check the input tensor or set allow_unused=True to get None result.")
            result.append(None)
        else:
            result.append(wrap(g))
    return result


def backward(tensors, grad_tensors=None, retain_graph=False, *, dump_backward_graph_path=None):
    ts = [to_torch(t) for t in _tensors(tensors)]
    if grad_tensors is None:
        gs = [torch.ones_like(t) for t in ts]
    else:
        gs = [torch.ones_like(t) if g is None else to_torch(g) for t, g in zip(ts, _tensors(grad_tensors))]
        if len(gs) != len(ts):
            raise ValueError("The length of grad_tensors must be equal to tensors.")
    torch.autograd.backward(ts, gs, retain_graph=retain_graph)
