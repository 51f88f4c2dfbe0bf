"""paddle.distribution.geometric (Paddle's module name for Geometric)."""
from .discrete import Geometric  # noqa: F401

__all__ = ["Geometric"]
