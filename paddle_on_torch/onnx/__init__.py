"""paddle.onnx: export a Layer to ONNX (on torch.onnx's dynamo exporter; see export.py)."""
from .. import _report
from .export import export

__all__ = ["export"]

__getattr__ = _report.module_getattr("paddle.onnx")
