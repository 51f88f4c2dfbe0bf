"""paddle.nn.quant.Stub and QuantStub (Paddle's MovingAverageAbsMaxScale)."""
import torch

from ...framework.param_attr import ParamAttr
from ..initializer import Constant
from ..layer.layers import Layer


class Stub(Layer):
    """An identity placeholder that paddle.quantization replaces by an observer (`observer` kept as given)."""

    def __init__(self, observer=None):
        super().__init__()
        self._observer = observer

    def forward(self, input):
        return input


class QuantStub(Layer):
    """Identity that tracks the output scale while training (Paddle's MovingAverageAbsMaxScale):
    state = rate * state + 1, accum = rate * accum + max|x|, scale = accum / state."""

    def __init__(self, name=None, moving_rate=0.9, dtype="float32", reduce_type=None):
        super().__init__()
        self._moving_rate = moving_rate
        self._reduce_type = reduce_type
        for key in ("scale", "state", "accum"):
            prefix = f"{name}.{key}" if name else f"outscale.{key}"
            from ...utils import unique_name

            p = self.create_parameter([1], attr=ParamAttr(name=unique_name.generate(prefix), initializer=Constant(0),
                                                          trainable=False), dtype=dtype)
            p.stop_gradient = True
            setattr(self, f"_{key}", p)

    def forward(self, input):
        if self.training:
            if self._reduce_type == "max":
                from ... import distributed

                distributed.all_reduce(self._scale, op=distributed.ReduceOp.MAX)
            with torch.no_grad():
                r = self._moving_rate
                st, ac, sc = self._state._t, self._accum._t, self._scale._t
                st.mul_(r).add_(1)
                ac.mul_(r).add_(input._t.detach().abs().max().to(ac.dtype))
                sc.copy_(ac / st)
        return input
from .qat.stub import QuanterStub  # noqa: E402,F401  (paddle.quantization; Paddle defines it here)
