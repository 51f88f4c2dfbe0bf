"""paddle.nn: layers, functional ops, initializers and utilities."""
from .. import _report
from . import functional, initializer, utils  # noqa: F401
from .layer import *  # noqa: F401,F403
from .layer.layers import Layer, Parameter  # noqa: F401
from .clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue  # noqa: F401

__getattr__ = _report.module_getattr("paddle.nn")
