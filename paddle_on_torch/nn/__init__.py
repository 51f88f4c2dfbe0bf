"""paddle.nn: layers, functional ops, initializers and utilities."""
from .. import _report
from . import decode, functional, initializer, utils  # noqa: F401
from .layer import *  # noqa: F401,F403
from .layer.layers import Layer, Parameter  # noqa: F401
from .clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue  # noqa: F401

# torch-style names Paddle 3.3 gives the same classes
Module = Layer
ModuleList = LayerList  # noqa: F405
ModuleDict = LayerDict  # noqa: F405

_unsupported_getattr = _report.module_getattr("paddle.nn")


def __getattr__(name):
    if name in ("quant", "init", "attention", "modules", "parameter"):  # load on first touch, as an import would
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    return _unsupported_getattr(name)


def _accept_recorded_aliases():
    import sys

    from .layer._aliases import accept_recorded_aliases, refuse_forbidden_keywords

    accept_recorded_aliases(sys.modules[__name__], "paddle.nn")
    refuse_forbidden_keywords(sys.modules[__name__], "paddle.nn")


_accept_recorded_aliases()
