"""paddle.distribution.gumbel (Paddle's module name for Gumbel)."""
from .continuous import Gumbel  # noqa: F401

__all__ = ["Gumbel"]
