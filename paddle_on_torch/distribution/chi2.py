"""paddle.distribution.chi2 (Paddle's module name for Chi2)."""
from .continuous import Chi2  # noqa: F401

__all__ = ["Chi2"]
