"""paddle.incubate.nn: the fused functional ops (layers are not provided yet)."""
from ... import _report
from . import functional  # noqa: F401

__getattr__ = _report.module_getattr("paddle.incubate.nn")
