"""paddle.nn containers: Sequential, LayerList, LayerDict, ParameterList, ParameterDict (Paddle's semantics)."""
import collections
import itertools
from collections.abc import Iterable, Mapping

import torch

from ...tensor.tensor import Tensor
from .layers import Layer, Parameter, _Table

__all__ = ["Sequential", "LayerList", "LayerDict", "ParameterList", "ParameterDict"]


def _alias(value, alias, name):
    """Paddle 3.3 accepts torch's argument name (`modules=`) beside its own (`sublayers=`)."""
    if alias is not None:
        if value is not None:
            raise TypeError(f"got multiple values for argument '{name}'")
        return alias
    return value


class Sequential(Layer):
    """Layers called in order: Sequential(l1, l2), Sequential(('a', l1), ('b', l2)) or Sequential(OrderedDict)."""

    def __init__(self, *layers):
        super().__init__()
        if len(layers) == 1 and isinstance(layers[0], collections.OrderedDict):
            for name, layer in layers[0].items():
                self.add_sublayer(name, layer)
        elif len(layers) > 0 and isinstance(layers[0], (list, tuple)):
            for name, layer in layers:
                self.add_sublayer(name, layer)
        else:
            for idx, layer in enumerate(layers):
                self.add_sublayer(str(idx), layer)

    def __getitem__(self, name):
        if isinstance(name, slice):
            return self.__class__(*(list(self._sub_layers.values())[name]))
        if isinstance(name, str):
            return self._sub_layers[name]
        n = len(self._sub_layers)
        if name >= n or name < -n:
            raise IndexError(f"index {name} is out of range")
        return list(self._sub_layers.values())[name]

    def __setitem__(self, name, layer):
        assert isinstance(layer, Layer)
        setattr(self, str(name), layer)

    def __delitem__(self, name):
        name = str(name)
        assert name in self._sub_layers
        del self._sub_layers[name]

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers.values())

    def forward(self, input):
        for layer in self._sub_layers.values():
            input = layer(input)
        return input

    def append(self, module):
        self.add_sublayer(str(len(self)), module)
        return self

    def insert(self, index, module):
        if not isinstance(module, Layer):
            raise AssertionError(f"module should be of type: {Layer}")
        n = len(self._sub_layers)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        if index < 0:
            index += n
        for i in range(n, index, -1):
            self._sub_layers[str(i)] = self._sub_layers[str(i - 1)]
        self._sub_layers[str(index)] = module
        return self

    def extend(self, sequential):
        for layer in sequential:
            self.append(layer)
        return self


class LayerList(Layer):
    """A list of sublayers, registered under the names '0', '1', ..."""

    def __init__(self, sublayers=None, *, modules=None):
        super().__init__()
        sublayers = _alias(sublayers, modules, "sublayers")
        if sublayers is not None:
            for idx, layer in enumerate(sublayers):
                self.add_sublayer(str(idx), layer)

    def _get_abs_idx(self, idx):
        if isinstance(idx, int):
            if not -len(self) <= idx < len(self):
                raise IndexError(f"index {idx} is out of range, should be an integer in range "
                                 f"[{-len(self)}, {len(self)})")
            if idx < 0:
                idx += len(self)
        return idx

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(list(self._sub_layers.values())[idx])
        return self._sub_layers[str(self._get_abs_idx(idx))]

    def __setitem__(self, idx, sublayer):
        setattr(self, str(self._get_abs_idx(idx)), sublayer)

    def __delitem__(self, idx):
        if isinstance(idx, slice):
            for k in range(len(self._sub_layers))[idx]:
                delattr(self, str(k))
        else:
            delattr(self, str(self._get_abs_idx(idx)))
        self.__dict__["_sub_layers"] = _Table(
            (str(i), layer) for i, layer in enumerate(self._sub_layers.values()))

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers.values())

    def __iadd__(self, modules):
        return self.extend(modules)

    def __add__(self, other):
        combined = LayerList()
        for i, module in enumerate(itertools.chain(self, other)):
            combined.add_module(str(i), module)
        return combined

    def __dir__(self):
        return [k for k in super().__dir__() if not k.isdigit()]

    def append(self, sublayer=None, *, module=None):
        sublayer = _alias(sublayer, module, "sublayer")
        self.add_sublayer(str(len(self)), sublayer)
        return self

    def insert(self, index, sublayer=None, *, module=None):
        sublayer = _alias(sublayer, module, "sublayer")
        n = len(self._sub_layers)
        assert isinstance(index, int) and -n <= index <= n, \
            f"index should be an integer in range [{-len(self)}, {len(self)}]"
        if index < 0:
            index += len(self)
        for i in range(n, index, -1):
            self._sub_layers[str(i)] = self._sub_layers[str(i - 1)]
        self._sub_layers[str(index)] = sublayer

    def extend(self, sublayers=None, *, modules=None):
        sublayers = _alias(sublayers, modules, "sublayers")
        offset = len(self)
        for i, sublayer in enumerate(sublayers):
            self.add_sublayer(str(offset + i), sublayer)
        return self

    def pop(self, key):
        v = self[key]
        del self[key]
        return v


class LayerDict(Layer):
    """An ordered dict of sublayers."""

    def __init__(self, sublayers=None, *, modules=None):
        super().__init__()
        sublayers = _alias(sublayers, modules, "sublayers")
        if sublayers is not None:
            self.update(sublayers)

    def __getitem__(self, key):
        return self._sub_layers[key]

    def __setitem__(self, key, sublayer):
        return self.add_sublayer(key, sublayer)

    def __delitem__(self, key):
        del self._sub_layers[key]

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers)

    def __contains__(self, key):
        return key in self._sub_layers

    def clear(self):
        self._sub_layers.clear()

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def keys(self):
        return self._sub_layers.keys()

    def items(self):
        return self._sub_layers.items()

    def values(self):
        return self._sub_layers.values()

    def update(self, sublayers=None, *, modules=None):
        sublayers = _alias(sublayers, modules, "sublayers")
        assert isinstance(sublayers, Iterable), ("The type of sublayers is not iterable of key/value pairs, the "
                                                 "type of sublayers is " + type(sublayers).__name__)
        if isinstance(sublayers, (collections.OrderedDict, LayerDict, Mapping)):
            for key, layer in sublayers.items():
                self.add_sublayer(key, layer)
            return
        for i, kv in enumerate(sublayers):
            if len(kv) != 2:
                raise ValueError(f"The length of the {i}'s element in sublayers is {len(kv)}, which must be 2.")
            self.add_sublayer(kv[0], kv[1])


class ParameterList(Layer):
    """A list of Parameters, registered under the names '0', '1', ..."""

    def __init__(self, parameters=None):
        super().__init__()
        if parameters is not None:
            for idx, param in enumerate(parameters):
                assert isinstance(param, Parameter)
                self.add_parameter(str(idx), param)

    def __getitem__(self, idx):
        return self._parameters[str(idx)]

    def __setitem__(self, idx, param):
        if not isinstance(param, Tensor):
            raise TypeError(f"param should be 'Parameter' or 'Tensor', but received {type(param)}")
        target = getattr(self, str(idx))
        with torch.no_grad():  # paddle.assign(param, target): the existing parameter takes the new values
            if target._t.shape == param._t.shape and target._t.dtype == param._t.dtype:
                target._t.copy_(param._t)
            else:  # ... and their shape and dtype
                target._t.data = param._t.detach().clone()

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters.values())

    def append(self, parameter):
        self.add_parameter(str(len(self._parameters)), parameter)
        return self


class ParameterDict(Layer):
    """An ordered dict of Parameters."""

    def __init__(self, parameters=None):
        super().__init__()
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key):
        return self._parameters[key]

    def __setitem__(self, key, param):
        assert isinstance(param, Parameter)
        setattr(self, key, param)

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters)

    def update(self, parameters):
        assert isinstance(parameters, Iterable), ("The type of parameters is not iterable of key/value pairs, the "
                                                  "type of sublayers is " + type(parameters).__name__)
        if isinstance(parameters, (collections.OrderedDict, ParameterDict, Mapping)):
            for key, parameter in parameters.items():
                self.add_parameter(key, parameter)
            return
        for i, kv in enumerate(parameters):
            if len(kv) != 2:
                raise ValueError(f"The length of the {i}'s element in parameters is {len(kv)}, which must be 2.")
            self.add_parameter(kv[0], kv[1])
