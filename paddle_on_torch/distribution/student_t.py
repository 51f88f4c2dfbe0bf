"""paddle.distribution.student_t (Paddle's module name for StudentT)."""
from .continuous import StudentT  # noqa: F401

__all__ = ["StudentT"]
