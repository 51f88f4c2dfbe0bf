"""paddle.base.libpaddle: Paddle's C++ extension module.  paddle.base.core re-exports it; here it is the other way
round, and `libpaddle.pir` is paddle.pir."""
import importlib

from . import core as _core


def __getattr__(name):
    if name == "pir":
        return importlib.import_module("paddle_on_torch.pir")
    try:
        return getattr(_core, name)
    except AttributeError as e:
        if type(e) is AttributeError:  # (an UnsupportedAPIError names the API; keep it)
            raise AttributeError(f"module 'paddle.base.libpaddle' has no attribute '{name}'") from None
        raise
