"""paddle.incubate.nn: the fused functional ops and the fused layers.

The layers load on first touch: paddle.nn.functional imports this package's functional module (for swiglu)
while paddle.nn is still initialising, so the layer modules (which need paddle.nn.Layer) cannot load here.
"""
import importlib as _importlib

from ... import _report
from . import functional  # noqa: F401

__all__ = ["FusedMultiHeadAttention", "FusedFeedForward", "FusedTransformerEncoderLayer", "FusedLinear",
           "FusedBiasDropoutResidualLayerNorm", "FusedDropoutAdd"]
_LAYERS = set(__all__) | {"FusedDropout"}
_unsupported_getattr = _report.module_getattr("paddle.incubate.nn")


def __getattr__(name):
    if name in _LAYERS:
        return getattr(_importlib.import_module(f"{__name__}.layer"), name)
    if name == "layer":
        return _importlib.import_module(f"{__name__}.layer")
    return _unsupported_getattr(name)


def __dir__():
    return sorted(set(globals()) | _LAYERS)
