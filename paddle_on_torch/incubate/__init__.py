"""paddle.incubate: the parts paddle_on_torch provides (submodules load on first touch)."""
import importlib as _importlib

from .. import _report

_SUBMODULES = {"autograd", "nn"}
_unsupported_getattr = _report.module_getattr("paddle.incubate")


def __getattr__(name):
    if name in _SUBMODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    return _unsupported_getattr(name)
