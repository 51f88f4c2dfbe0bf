"""paddle.distribution.beta (Paddle's module name for Beta)."""
from .continuous import Beta  # noqa: F401

__all__ = ["Beta"]
