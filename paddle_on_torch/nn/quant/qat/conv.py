"""QuantedConv2D: Conv2D whose input and weight pass through quanters."""
from ... import functional as F
from ._base import _QuantedLayer


class QuantedConv2D(_QuantedLayer):
    def __init__(self, layer, q_config):
        super().__init__()
        self._groups = layer._groups
        self._stride = layer._stride
        self._padding = layer._padding
        self._padding_mode = layer._padding_mode
        if self._padding_mode != "zeros":
            self._reversed_padding_repeated_twice = layer._reversed_padding_repeated_twice
        self._dilation = layer._dilation
        self._data_format = layer._data_format
        self.weight = layer.weight
        self.bias = layer.bias
        self._set_quanters(layer, q_config)

    def forward(self, input):
        return self._conv_forward(*self._quantized_inputs(input))

    def _conv_forward(self, inputs, weights):
        if self._padding_mode != "zeros":
            inputs = F.pad(inputs, self._reversed_padding_repeated_twice, mode=self._padding_mode,
                           data_format=self._data_format)
            self._padding = 0
        return F.conv2d(inputs, weights, bias=self.bias, padding=self._padding, stride=self._stride,
                        dilation=self._dilation, groups=self._groups, data_format=self._data_format)
