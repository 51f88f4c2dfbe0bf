"""paddle.distribution.multinomial (Paddle's module name for Multinomial)."""
from .discrete import Multinomial  # noqa: F401

__all__ = ["Multinomial"]
