"""paddle.distribution.lognormal (Paddle's module name for LogNormal)."""
from .continuous import LogNormal  # noqa: F401

__all__ = ["LogNormal"]
