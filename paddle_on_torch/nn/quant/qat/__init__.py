"""paddle.nn.quant.qat: the layers QAT / PTQ swap in (their inputs and weights pass through quanters)."""
from .conv import QuantedConv2D  # noqa: F401
from .linear import QuantedLinear  # noqa: F401
