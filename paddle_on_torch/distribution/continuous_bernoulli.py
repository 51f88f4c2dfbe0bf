"""paddle.distribution.continuous_bernoulli (Paddle's module name for ContinuousBernoulli)."""
from .discrete import ContinuousBernoulli  # noqa: F401

__all__ = ["ContinuousBernoulli"]
