"""paddle.distribution.laplace (Paddle's module name for Laplace)."""
from .continuous import Laplace  # noqa: F401

__all__ = ["Laplace"]
