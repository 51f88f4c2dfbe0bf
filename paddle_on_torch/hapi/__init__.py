"""paddle.hapi: the high-level API (paddle.Model, paddle.summary, paddle.flops, paddle.callbacks)."""
from . import callbacks, progressbar  # noqa: F401
from .dynamic_flops import flops  # noqa: F401
from .model import Model  # noqa: F401
from .model_summary import summary  # noqa: F401

__all__ = []

# Paddle's other hapi submodules (hub: models from GitHub / Gitee; logger; static_flops) are not provided here
from .. import _report  # noqa: E402

__getattr__ = _report.module_getattr("paddle.hapi")
