"""paddle.base.libpaddle: Paddle's C++ extension module.  paddle.base.core re-exports it; here it is the other way
round, and `libpaddle.pir` is paddle.pir."""
import importlib

from .. import _report
from . import core as _core

_missing = _report.module_getattr("paddle.base.libpaddle")


def __getattr__(name):
    if name == "pir":
        return importlib.import_module("paddle_on_torch.pir")
    try:
        return getattr(_core, name)
    except AttributeError as e:
        if type(e) is AttributeError:  # (an UnsupportedAPIError names the API; keep it)
            return _missing(name)
        raise
