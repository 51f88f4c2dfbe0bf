"""paddle.distribution.exponential (Paddle's module name for Exponential)."""
from .continuous import Exponential  # noqa: F401

__all__ = ["Exponential"]
