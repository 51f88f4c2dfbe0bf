"""paddle.static.nn: layers made of a parameter + ops (fc, conv2d, batch_norm, embedding) and control flow."""
from ... import _report
from .common import batch_norm, conv2d, embedding, fc, layer_norm, spectral_norm  # noqa: F401
from .control_flow import case, cond, switch_case, while_loop  # noqa: F401

__all__ = ["batch_norm", "conv2d", "embedding", "fc", "layer_norm", "spectral_norm", "case", "cond", "switch_case", "while_loop"]

__getattr__ = _report.module_getattr("paddle.static.nn")
