"""paddle.distribution.independent (Paddle's module name for Independent)."""
from .transformed_distribution import Independent  # noqa: F401

__all__ = ["Independent"]
