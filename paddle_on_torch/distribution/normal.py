"""paddle.distribution.normal (Paddle's module name for Normal)."""
from .continuous import Normal  # noqa: F401

__all__ = ["Normal"]
