"""paddle.quantization.quanters: fake quanters for quantization-aware training."""
from .abs_max import FakeQuanterWithAbsMaxObserver

__all__ = ["FakeQuanterWithAbsMaxObserver"]
