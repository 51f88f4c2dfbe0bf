"""AbsmaxObserver: per-tensor running max of |x| (the scale once cal_thresholds freezes it)."""
from ...tensor import math as _M
from ...tensor.creation import to_tensor, zeros_like
from ..base_observer import BaseObserver
from ..factory import ObserverFactory


class AbsmaxObserver(ObserverFactory):
    def __init__(self, quant_bits=8):
        super().__init__(quant_bits=quant_bits)

    def _get_class(self):
        return AbsmaxObserverLayer


class AbsmaxObserverLayer(BaseObserver):
    INIT_ABS_MAX = 1e-7

    def __init__(self, layer, quant_bits=8):
        super().__init__()
        self._quant_bits = quant_bits
        self.abs_max_val = to_tensor(AbsmaxObserverLayer.INIT_ABS_MAX)
        self._max = None
        self._scale = None
        self._zero_point = None

    def forward(self, input):
        self._min, self._max = self.cal_min_max(input)
        return input

    def cal_min_max(self, inputs):
        abs_max_val = _M.max(_M.abs(inputs))
        if self._max is not None:
            abs_max_val = _M.maximum(abs_max_val, self._max.cast(inputs.dtype))
        return 0, abs_max_val

    def bit_length(self):
        return self._quant_bits

    def quant_axis(self):
        return -1

    def cal_thresholds(self):
        if self._scale is None:
            self._scale = self._max
        self._zero_point = zeros_like(self._scale)

    def scales(self):
        if self._scale is None:
            self.cal_thresholds()
        return self._scale

    def zero_points(self):
        return self._zero_point
