"""paddle.distribution.uniform (Paddle's module name for Uniform)."""
from .continuous import Uniform  # noqa: F401

__all__ = ["Uniform"]
