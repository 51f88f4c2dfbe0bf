"""paddle.linalg (being filled in; names Paddle has and we lack raise NotImplementedError)."""
from . import _report

__all__ = []

__getattr__ = _report.module_getattr("paddle.linalg")
