"""paddle.distribution.poisson (Paddle's module name for Poisson)."""
from .discrete import Poisson  # noqa: F401

__all__ = ["Poisson"]
