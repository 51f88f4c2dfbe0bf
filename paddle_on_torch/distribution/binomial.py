"""paddle.distribution.binomial (Paddle's module name for Binomial)."""
from .discrete import Binomial  # noqa: F401

__all__ = ["Binomial"]
