"""GroupWiseWeightObserver: abs-max of each group of `group_size` input channels of a 2-D weight."""
import numpy as np

from ...tensor import math as _M
from ...tensor.search import where
from ...tensor.creation import zeros_like
from ..base_observer import BaseObserver
from ..factory import ObserverFactory


class GroupWiseWeightObserver(ObserverFactory):
    def __init__(self, quant_bits=8, group_size=128):
        # Paddle passes only quant_bits on: the layer always uses its default group_size (128)
        super().__init__(quant_bits=quant_bits)

    def _get_class(self):
        return GroupWiseWeightObserverLayer


class GroupWiseWeightObserverLayer(BaseObserver):
    def __init__(self, layer, quant_bits=8, group_size=128):
        super().__init__()
        self._quant_bits = quant_bits
        self.group_size = group_size
        self._layer = layer
        self._max = None
        self._scale = None
        self._zero_point = None

    def forward(self, inputs):
        self._max = self._cal_abs_max(inputs)
        return inputs

    def _cal_abs_max(self, inputs):
        shape = inputs.shape
        assert self.group_size == 64 or self.group_size == 128, "group_size only support 64 or 128"
        assert inputs.shape[0] % self.group_size == 0, "group_size must be a factor of input channels"
        assert len(inputs.shape) == 2, "Currently only support 2D tensor"
        grouped = inputs.transpose([1, 0]).reshape([shape[1], shape[0] // self.group_size, self.group_size])
        abs_max = _M.max(_M.abs(grouped), axis=2).cast("float32")
        abs_max = where(abs_max == np.float32(0), np.float32(1e-8), abs_max)
        return abs_max.transpose([1, 0])

    def min_value(self):
        return 0.0

    def max_value(self):
        return self._max

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
        if self._zero_point is None:
            self.cal_thresholds()
        return self._zero_point
