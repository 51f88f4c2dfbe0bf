"""paddle.distribution.gamma (Paddle's module name for Gamma)."""
from .continuous import Gamma  # noqa: F401

__all__ = ["Gamma"]
