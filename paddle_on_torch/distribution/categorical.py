"""paddle.distribution.categorical (Paddle's module name for Categorical)."""
from .discrete import Categorical  # noqa: F401

__all__ = ["Categorical"]
