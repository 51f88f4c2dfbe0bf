"""paddle.nn: layers, functional ops and initializers (issue 3 completes this namespace)."""
from .. import _report
from . import initializer  # noqa: F401
from .layer.layers import Layer, Parameter  # noqa: F401

__getattr__ = _report.module_getattr("paddle.nn")
