"""paddle.autograd (first slice: backward; paddle.grad lives here too).  Issue 5 completes it:
jacobian, hessian, PyLayer, saved_tensors_hooks."""
from .. import _report
from .backward import backward, grad  # noqa: F401

__all__ = ["backward"]

__getattr__ = _report.module_getattr("paddle.autograd")
