"""paddle.distribution.exponential_family (Paddle's module name for ExponentialFamily)."""
from .distribution import ExponentialFamily  # noqa: F401

__all__ = ["ExponentialFamily"]
