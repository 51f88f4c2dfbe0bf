"""paddle.hapi: the high-level API (paddle.Model, paddle.summary, paddle.flops, paddle.callbacks)."""
from . import callbacks, progressbar  # noqa: F401
from .dynamic_flops import flops  # noqa: F401
from .model import Model  # noqa: F401
from .model_summary import summary  # noqa: F401

__all__ = []
