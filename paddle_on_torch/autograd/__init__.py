"""paddle.autograd: backward, jacobian / hessian, PyLayer (alias Function), saved_tensors_hooks;
paddle.grad and the grad-mode switches are re-exported here as in Paddle."""
from .. import _report
from ..framework.grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled  # noqa: F401
from . import backward_mode  # noqa: F401
from .autograd import hessian, jacobian
from .backward import backward, grad  # noqa: F401
from .py_layer import PyLayer, PyLayerContext
from .saved_tensors_hooks import saved_tensors_hooks

Function = PyLayer

__all__ = ["jacobian", "hessian", "backward", "PyLayer", "Function", "PyLayerContext", "saved_tensors_hooks"]

__getattr__ = _report.module_getattr("paddle.autograd")
