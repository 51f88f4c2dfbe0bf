"""FakeQuanterWithAbsMaxObserver: moving-average abs-max scale + fake quantize-dequantize (Paddle's
fake_quantize_dequantize_moving_average_abs_max with round_type=1)."""
import torch

from ...framework.param_attr import ParamAttr
from ...nn.quant.format import _inverse, _round_half_away_
from ...nn.initializer import Constant
from ..._normalize import wrap
from ...utils import unique_name
from ..base_quanter import BaseQuanter
from ..factory import QuanterFactory


class _FakeQuantDequant(torch.autograd.Function):
    """clip(x, -s, s) -> round(bin_cnt / s * x) * s / bin_cnt; the gradient is straight-through (Paddle's
    straight_through_estimator_grad copies dout to dx, without masking the clipped elements)."""

    @staticmethod
    def forward(ctx, x, s, bin_cnt):
        s = s.reshape(())  # the [1] scale must not widen a 0-D input
        v = torch.clamp(x, -s, s).mul_(bin_cnt * _inverse(s))
        return _round_half_away_(v).mul_(s).div_(bin_cnt)

    @staticmethod
    def backward(ctx, grad):
        return grad, None, None


class FakeQuanterWithAbsMaxObserver(QuanterFactory):
    """Factory of FakeQuanterWithAbsMaxObserverLayer: state = rate*state + 1, accum = rate*accum + max|x|,
    scale = accum / state; out = round(x / scale * (2^(bits-1) - 1)) * scale / (2^(bits-1) - 1)."""

    def __init__(self, moving_rate=0.9, bit_length=8, dtype="float32", name=None):
        super().__init__(name=name, moving_rate=moving_rate, bit_length=bit_length, dtype=dtype)

    def _get_class(self):
        return FakeQuanterWithAbsMaxObserverLayer


class FakeQuanterWithAbsMaxObserverLayer(BaseQuanter):
    def __init__(self, layer, name=None, moving_rate=0.9, bit_length=8, dtype="float32"):
        super().__init__()
        self._moving_rate = moving_rate
        self._bit_length = bit_length
        # Paddle initialises scale 0.001, state 1, accum 1 (so the first step's scale is (rate + max) / (rate + 1))
        for key, init in (("scale", 0.001), ("state", 1), ("accum", 1)):
            prefix = f"{name}.{key}" if name else f"quant_dequant.{key}"
            attr = ParamAttr(name=unique_name.generate(prefix), initializer=Constant(init), trainable=False)
            p = self.create_parameter(shape=[1], attr=attr, dtype=dtype)
            p.stop_gradient = True
            setattr(self, f"_{key}", p)

    def forward(self, input):
        x = input._t
        if x.dtype != torch.float32:
            raise RuntimeError(f"(NotFound) The kernel of `fake_quantize_dequantize_moving_average_abs_max` is not "
                               f"registered for {input.dtype}: Paddle supports float32 only.")
        scale = self._scale._t
        if self.training:
            with torch.no_grad():
                r = self._moving_rate
                state, accum = self._state._t, self._accum._t
                state.mul_(r).add_(1)
                accum.mul_(r).add_(x.detach().abs().max())
                scale.copy_(accum / state)
            if not input.stop_gradient and self._scale.stop_gradient and not torch.compiler.is_compiling():
                # Paddle's assign_out_ of the op's outputs hands the input's stop_gradient on to the three
                # (a flag only: skipped under to_static, where dynamo cannot trace requires_grad_)
                for p in (self._scale, self._state, self._accum):
                    p.stop_gradient = False
        bin_cnt = (1 << (self._bit_length - 1)) - 1
        return wrap(_FakeQuantDequant.apply(x, scale.detach(), bin_cnt))

    def bit_length(self):
        return self._bit_length

    def quant_axis(self):
        return -1

    def scales(self):
        return self._scale

    def zero_points(self):
        return None
