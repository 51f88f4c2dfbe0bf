"""paddle.incubate.autograd.grad / forward_grad: static-graph APIs in Paddle (in dynamic mode they raise Paddle's
AssertionError).  With the prim switch off (the default), grad is paddle.static.gradients, as in Paddle; the
primitive-operator transforms behind the switch (orig2prim, linearize, transpose) are not part of
paddle_on_torch."""
from collections.abc import Sequence

from ... import _report
from .utils import _prim, static_only

__all__ = ["grad", "forward_grad"]


def forward_grad(outputs, inputs, grad_inputs=None):
    static_only("forward_grad")
    if not _prim["enabled"]:
        raise RuntimeError("forward_grad must be running on primitiveoperators, use enable_prim to turn it on.")
    raise _report.unsupported("paddle.incubate.autograd.forward_grad", " (primitive-operator programs)")


def grad(outputs, inputs, grad_outputs=None):
    static_only("grad")
    if _prim["enabled"]:
        raise _report.unsupported("paddle.incubate.autograd.grad", " with enable_prim (primitive-operator programs)")
    from ...static.backward import gradients

    gs = gradients(outputs, inputs, grad_outputs)
    single = not isinstance(inputs, Sequence)  # a Variable: its gradient alone, as Paddle returns it
    return gs[0] if single and gs else gs
