"""QAT: prepare a model for quantization-aware training (fake quanters on weights and activations)."""
import copy

from .quantize import Quantization


class QAT(Quantization):
    def __init__(self, config):
        super().__init__(config)

    def quantize(self, model, inplace=False):
        assert model.training, ("Quantization-Aware Training should work on training models. Please set "
                                "training mode by model.train().")
        _model = model if inplace else copy.deepcopy(model)
        self._config._specify(_model)
        self._convert_to_quant_layers(_model, self._config)
        self._insert_activation_observers(_model, self._config)
        return _model
