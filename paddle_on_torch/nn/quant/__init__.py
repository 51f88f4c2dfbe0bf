"""paddle.nn.quant: weight-only / LLM.int8 quantization functions and the quantization stubs."""
from ... import _report
from .functional_layers import (  # noqa: F401
    FloatFunctionalLayer, add, concat, divide, flatten, matmul, multiply, reshape, subtract, transpose)
from .quantized_linear import (  # noqa: F401
    apply_per_channel_scale, llm_int8_linear, weight_dequantize, weight_only_linear, weight_quantize)
from .stub import QuantStub, Stub  # noqa: F401

__all__ = ["Stub", "weight_only_linear", "llm_int8_linear", "weight_quantize", "weight_dequantize"]

__getattr__ = _report.module_getattr("paddle.nn.quant")
