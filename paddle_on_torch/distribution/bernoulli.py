"""paddle.distribution.bernoulli (Paddle's module name for Bernoulli)."""
from .discrete import Bernoulli  # noqa: F401

__all__ = ["Bernoulli"]
