"""paddle.distribution.cauchy (Paddle's module name for Cauchy)."""
from .continuous import Cauchy  # noqa: F401

__all__ = ["Cauchy"]
