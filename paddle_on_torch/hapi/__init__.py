"""paddle.hapi: the high-level API (paddle.Model, paddle.summary, paddle.flops, paddle.callbacks)."""
from . import callbacks, progressbar  # noqa: F401
from .dynamic_flops import flops  # noqa: F401
from .model import Model  # noqa: F401
from .model_summary import summary  # noqa: F401

__all__ = []

# Paddle's other hapi submodules (logger; static_flops) are not provided here; hub loads on first touch
from .. import _report  # noqa: E402

_unsupported_getattr = _report.module_getattr("paddle.hapi")


def __getattr__(name):
    if name == "hub":
        import importlib

        return importlib.import_module(f"{__name__}.hub")
    return _unsupported_getattr(name)
