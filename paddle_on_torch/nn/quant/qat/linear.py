"""QuantedLinear: Linear whose input and weight pass through quanters."""
from ... import functional as F
from ._base import _QuantedLayer


class QuantedLinear(_QuantedLayer):
    def __init__(self, layer, q_config):
        super().__init__()
        self.weight = layer.weight
        self.bias = layer.bias
        self.name = layer.name
        self._set_quanters(layer, q_config)

    def forward(self, input):
        return self._linear_forward(*self._quantized_inputs(input))

    def _linear_forward(self, input, weight):
        return F.linear(x=input, weight=weight, bias=self.bias, name=self.name)
