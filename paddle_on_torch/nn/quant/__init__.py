"""paddle.nn.quant: weight-only / LLM.int8 quantization functions and the quantization stubs."""
from ... import _report
from .quantized_linear import llm_int8_linear, weight_dequantize, weight_only_linear, weight_quantize  # noqa: F401
from .stub import QuantStub, Stub  # noqa: F401

__all__ = ["Stub", "weight_only_linear", "llm_int8_linear", "weight_quantize", "weight_dequantize"]

__getattr__ = _report.module_getattr("paddle.nn.quant")
