"""paddle.quantization: Paddle 3.x's QAT / PTQ API (QuantConfig, quanters, observers) on torch.

The legacy 2.x imperative API (ImperativeQuantAware, ImperativePTQ, PTQConfig, the *Quantizer classes)
is not implemented: touching one of its names raises NotImplementedError naming it.
"""
from .. import _report
from .base_observer import BaseObserver
from .base_quanter import BaseQuanter
from .config import QuantConfig
from .factory import quanter
from .ptq import PTQ
from .qat import QAT

__all__ = ["QuantConfig", "BaseQuanter", "BaseObserver", "quanter", "QAT", "PTQ"]

# Paddle re-exports these from paddle.quantization.imperative (the 2.x dygraph quantization API)
_LEGACY = {"ImperativePTQ", "PTQConfig", "default_ptq_config", "SUPPORT_ACT_QUANTIZERS", "SUPPORT_WT_QUANTIZERS",
           "AbsmaxQuantizer", "BaseQuantizer", "HistQuantizer", "KLQuantizer", "PerChannelAbsmaxQuantizer",
           "PTQRegistry", "ImperativeQuantAware"}
_module_getattr = _report.module_getattr("paddle.quantization")


def __getattr__(name):
    if name in _LEGACY:
        raise _report.unsupported(f"paddle.quantization.{name}", " (the legacy imperative quantization API; "
                                  "use paddle.quantization.QAT / PTQ)")
    if name == "imperative":
        import importlib

        return importlib.import_module(f"{__name__}.imperative")
    return _module_getattr(name)
