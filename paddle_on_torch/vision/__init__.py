"""paddle.vision: models, ops, datasets and transforms, loaded on first touch.

As in Paddle, the names of `models`, `datasets` and `transforms` are also reachable as
`paddle.vision.<name>` (`paddle.vision.resnet18`, `paddle.vision.MNIST`, `paddle.vision.ToTensor`).
"""
import importlib as _importlib

from .. import _report
from .image import get_image_backend, image_load, set_image_backend  # noqa: F401

__all__ = ["set_image_backend", "get_image_backend", "image_load"]

_SUBMODULES = ("models", "ops", "datasets", "transforms", "image")
_REEXPORTED_FROM = ("models", "datasets", "transforms")
_missing = _report.module_getattr("paddle.vision")


def __getattr__(name):
    if name in _SUBMODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    if not name.startswith("_"):
        for sub in _REEXPORTED_FROM:
            try:
                mod = _importlib.import_module(f"{__name__}.{sub}")
            except ModuleNotFoundError as e:
                if e.name != f"{__name__}.{sub}":
                    raise
                continue
            if name in getattr(mod, "__all__", ()):
                return getattr(mod, name)
    return _missing(name)
