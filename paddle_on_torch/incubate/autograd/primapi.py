"""paddle.incubate.autograd.grad / forward_grad: static-graph APIs in Paddle.  In dynamic mode they
raise Paddle's AssertionError; static graphs are not part of paddle_on_torch yet."""
from ... import _report
from .utils import static_only

__all__ = ["grad", "forward_grad"]


def forward_grad(outputs, inputs, grad_inputs=None):
    static_only("forward_grad")
    raise _report.unsupported("paddle.incubate.autograd.forward_grad", " (static-graph programs)")


def grad(outputs, inputs, grad_outputs=None):
    static_only("grad")
    raise _report.unsupported("paddle.incubate.autograd.grad", " (static-graph programs)")
