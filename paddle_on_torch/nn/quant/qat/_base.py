"""What QuantedConv2D and QuantedLinear share: quanters made from the config, applied to the input and weight."""
from ..format import ConvertibleQuantedLayer


class _QuantedLayer(ConvertibleQuantedLayer):
    def _set_quanters(self, layer, q_config):
        # weight before activation: Paddle's sublayer order (it shows in the repr)
        self.weight_quanter = None if q_config.weight is None else q_config.weight._instance(layer)
        self.activation_quanter = None if q_config.activation is None else q_config.activation._instance(layer)

    def _quantized_inputs(self, input):
        """(input, weight) after their quanters."""
        if self.activation_quanter is not None:
            input = self.activation_quanter(input)
        weight = self.weight if self.weight_quanter is None else self.weight_quanter(self.weight)
        return input, weight

    def weights_to_quanters(self):
        return [("weight", "weight_quanter")]

    def activation_quanters(self):
        return ["activation_quanter"]
