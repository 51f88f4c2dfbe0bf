"""paddle.incubate.autograd: functional vjp / jvp and lazy Jacobian / Hessian of a function
(dynamic mode), and the static-only prim switches and grad / forward_grad."""
from ... import _report
from .functional import Hessian, Jacobian, jvp, vjp
from .primapi import forward_grad, grad
from .utils import disable_prim, enable_prim, prim_enabled  # noqa: F401

__all__ = ["vjp", "jvp", "Jacobian", "Hessian", "enable_prim", "disable_prim", "forward_grad", "grad"]

__getattr__ = _report.module_getattr("paddle.incubate.autograd")
