"""paddle.nn.utils (being filled in)."""
from ... import _report

__all__ = []

__getattr__ = _report.module_getattr("paddle.nn.utils")
