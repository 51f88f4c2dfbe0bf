"""paddle.static: static-graph mode is not built yet (issue 9); InputSpec, which dynamic code uses
for jit and hapi, is here.  Every other Paddle name raises NotImplementedError naming it."""
from .. import _report
from .input import InputSpec  # noqa: F401

__all__ = ["InputSpec"]

__getattr__ = _report.module_getattr("paddle.static")
