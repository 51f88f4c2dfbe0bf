"""QuantConfig: which quanter/observer each layer of a model gets (global, by type, by name, by layer)."""
import copy

from .. import nn
from ..nn.layer.layers import Layer
from ..nn.quant.qat import QuantedConv2D, QuantedLinear
from ..nn.quant.qat.stub import QuanterStub
from ..nn.quant.stub import Stub
from .wrapper import ObserveWrapper

DEFAULT_QAT_LAYER_MAPPINGS = {Stub: QuanterStub, nn.Linear: QuantedLinear, nn.Conv2D: QuantedConv2D}

DEFAULT_LEAVES = [nn.ReLU, nn.AvgPool2D]


class SingleLayerConfig:
    """The activation and weight quanter factories of one layer."""

    def __init__(self, activation, weight):
        self._activation = activation
        self._weight = weight

    @property
    def activation(self):
        return self._activation

    @property
    def weight(self):
        return self._weight

    def __str__(self):
        return f"activation: {self._activation}\nweight: {self._weight}"


class QuantConfig:
    """Maps each layer of a model to a SingleLayerConfig.  Priority, low to high: global config, the parent's
    config, `add_type_config`, `add_name_config` / `add_layer_config` (by the layer's full name)."""

    def __init__(self, activation, weight):
        self._global_config = None if activation is None and weight is None else SingleLayerConfig(activation, weight)
        self._layer2config = {}
        self._prefix2config = {}
        self._type2config = {}
        self._model = None
        self._qat_layer_mapping = copy.deepcopy(DEFAULT_QAT_LAYER_MAPPINGS)
        self._customized_qat_layer_mapping = {}
        self._customized_leaves = []

    def add_layer_config(self, layer, activation=None, weight=None):
        if isinstance(layer, list):
            for element in layer:
                self.add_layer_config(element, activation=activation, weight=weight)
        else:
            self.add_name_config(layer.full_name(), activation=activation, weight=weight)

    def add_name_config(self, layer_name, activation=None, weight=None):
        if isinstance(layer_name, str):
            self._prefix2config[layer_name] = SingleLayerConfig(activation, weight)
        if isinstance(layer_name, list):
            for element in layer_name:
                self.add_name_config(element, activation=activation, weight=weight)

    def add_type_config(self, layer_type, activation=None, weight=None):
        if isinstance(layer_type, type) and issubclass(layer_type, Layer):
            self._type2config[layer_type] = SingleLayerConfig(activation, weight)
        if isinstance(layer_type, list):
            for element in layer_type:
                self.add_type_config(element, activation=activation, weight=weight)

    def add_qat_layer_mapping(self, source, target):
        assert isinstance(source, type) and issubclass(source, Layer), \
            "The source layer to be placed should be a subclass of paddle.nn.Layer"
        assert isinstance(target, type) and issubclass(target, Layer), \
            "The target layer should be a subclass of paddle.nn.qat.Layer"
        self._qat_layer_mapping[source] = target
        self._customized_qat_layer_mapping[source] = target

    def add_customized_leaf(self, layer_type):
        self._customized_leaves.append(layer_type)

    @property
    def customized_leaves(self):
        return self._customized_leaves

    def _need_observe(self, layer):
        return self._is_leaf(layer) and self._has_observer_config(layer)

    def _get_qat_layer(self, layer):
        q_config = self._get_config_by_layer(layer)
        target_type = self._customized_qat_layer_mapping.get(type(layer), self.qat_layer_mappings.get(type(layer)))
        return target_type(layer, q_config)

    def _has_observer_config(self, layer):
        config = self._get_config_by_layer(layer)
        return config is not None and config.activation is not None

    def _is_leaf(self, layer):
        return self._is_default_leaf(layer) or self._is_real_leaf(layer) or self._is_customized_leaf(layer)

    def _is_default_leaf(self, layer):
        return type(layer) in DEFAULT_LEAVES

    def _is_real_leaf(self, layer):
        return layer._sub_layers is None or len(layer._sub_layers) == 0

    def _is_customized_leaf(self, layer):
        return type(layer) in self.customized_leaves

    def _get_observer(self, layer):
        config = self._get_config_by_layer(layer)
        observer = None if config is None else config.activation
        return None if observer is None else observer._instance(layer)

    def _get_observe_wrapper(self, layer):
        return ObserveWrapper(self._get_observer(layer), layer)

    @property
    def qat_layer_mappings(self):
        return self._qat_layer_mapping

    @property
    def default_qat_layer_mapping(self):
        return DEFAULT_QAT_LAYER_MAPPINGS

    @property
    def global_config(self):
        return self._global_config

    def _get_config_by_layer(self, layer):
        return self._layer2config.get(layer, None)

    def _is_quantifiable(self, layer):
        return layer in self._layer2config

    def _specify(self, model):
        self._model = model
        self._specify_helper(self._model)

    def _specify_helper(self, model):
        for child in model.children():
            config = self._layer2config.get(model, self.global_config)
            config = self._type2config.get(type(child), config)
            config = self._prefix2config.get(child.full_name(), config)
            if config is not None:
                self._layer2config[child] = config
            self._specify_helper(child)
        return self

    def details(self):
        if self._model is None:
            return self.__str__()
        return self._details_helper(self._model)

    def _details_helper(self, layer):
        sublayer_lines = []
        for name, sublayer in layer.named_children():
            sublayer_str = self._addindent(self._details_helper(sublayer), 2)
            if sublayer in self._layer2config:
                sublayer_lines.append("(" + name + "): " + sublayer_str + ", " + str(self._layer2config[sublayer]))
        final_str = layer.__class__.__name__ + "("
        if sublayer_lines:
            final_str += "\n  " + "\n  ".join(sublayer_lines) + "\n"
        return final_str + ")"

    def _addindent(self, string, indent):
        lines = string.split("\n")
        if len(lines) == 1:
            return string
        return lines[0] + "\n" + "\n".join(indent * " " + line for line in lines[1:])

    def __str__(self):
        result = f"Global config:\n{self._global_config}\n"
        if len(self._type2config) > 0:
            result += f"Layer type config:\n{self._type2config}\n"
        if len(self._prefix2config) > 0:
            result += f"Layer prefix config: \n{self._prefix2config}\n"
        return result
