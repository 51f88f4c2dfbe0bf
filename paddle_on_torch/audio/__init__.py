"""paddle.audio: feature layers, functional helpers, and WAV load / save / info through paddle.audio.backends.

The datasets (TESS, ESC50) download their data and are not provided.
"""
from .. import _report
from . import backends, features, functional  # noqa: F401
from .backends.backend import info, load, save  # noqa: F401

__all__ = ["functional", "features", "backends", "load", "info", "save"]

# paddle.audio.datasets raises UnsupportedAPIError naming itself
__getattr__ = _report.module_getattr("paddle.audio")
