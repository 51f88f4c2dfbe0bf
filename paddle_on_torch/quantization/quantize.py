"""Quantization: the shared machinery of QAT and PTQ (swap layers for quanted ones, insert observers,
convert to quantize/dequantize layers for deployment)."""
import abc
import copy

from ..nn.quant.format import ConvertibleQuantedLayer, LinearQuanterDequanter
from .base_quanter import BaseQuanter


class Quantization(metaclass=abc.ABCMeta):
    def __init__(self, config):
        self._config = copy.deepcopy(config)

    @abc.abstractmethod
    def quantize(self, model, inplace=False):
        pass

    def convert(self, model, inplace=False, remain_weight=False):
        """Turn quanters into LinearQuanter/LinearDequanter pairs; weights are stored quantized (as integer
        values in their float dtype) unless remain_weight."""
        _model = model if inplace else copy.deepcopy(model)
        replaced = {}
        for name, child in _model.named_children():
            quant_dequant = None
            if isinstance(child, ConvertibleQuantedLayer):
                if child.converted:
                    continue
                if hasattr(child, "weight_quanter") and (child.weight_quanter is None
                                                         or child.weight_quanter.scales() is None):
                    continue
                child._convert(remain_weight=remain_weight)
            elif isinstance(child, BaseQuanter):
                quant_dequant = LinearQuanterDequanter.from_quanter(child)
            else:
                self.convert(child, inplace=True, remain_weight=remain_weight)
            if quant_dequant is not None:
                replaced[name] = quant_dequant
        for key, value in replaced.items():
            _model._sub_layers[key] = value
        return _model

    def _convert_to_quant_layers(self, model, config):
        replaced = {}
        for name, child in model.named_children():
            if config._is_quantifiable(child) and type(child) in config.qat_layer_mappings:
                replaced[name] = config._get_qat_layer(child)
            else:
                self._convert_to_quant_layers(child, config)
        for key, value in replaced.items():
            model._sub_layers[key] = value

    def _insert_activation_observers(self, model, config):
        replaced = {}
        for name, child in model.named_children():
            if config._need_observe(child):
                replaced[name] = config._get_observe_wrapper(child)
            elif (type(child) not in config._qat_layer_mapping.values()
                  and type(child) not in config._customized_qat_layer_mapping.values()):
                self._insert_activation_observers(child, config)
        for key, value in replaced.items():
            model._sub_layers[key] = value

    def _details(self):
        return self._config.details()

    def __str__(self):
        return self._details()

    def __repr__(self):
        return self.__str__()
