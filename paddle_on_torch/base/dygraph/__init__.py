"""paddle.base.dygraph: the dynamic-graph switches of Paddle 1.x/2.x scripts."""
from . import base  # noqa: F401
from .base import disable_dygraph, enable_dygraph, enabled, grad, guard, no_grad, no_grad_  # noqa: F401


def __getattr__(name):
    if name in ("tracer", "Tracer"):
        import importlib

        tracer = importlib.import_module(f"{__name__}.tracer")
        return tracer if name == "tracer" else tracer.Tracer
    from ... import _report

    return _report.module_getattr("paddle.base.dygraph")(name)
