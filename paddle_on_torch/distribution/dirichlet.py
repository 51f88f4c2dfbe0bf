"""paddle.distribution.dirichlet (Paddle's module name for Dirichlet)."""
from .continuous import Dirichlet  # noqa: F401

__all__ = ["Dirichlet"]
