"""paddle.nn.Layer and Parameter (the core of issue 3; this is its first slice).

A Parameter is a paddle Tensor whose torch tensor is a `torch.nn.Parameter`
(so torch optimisers, hooks and FSDP see ordinary parameters), plus Paddle's
attributes: `trainable`, `optimize_attr`, `regularizer`, `need_clip`.
"""
import collections
import re

import numpy as np
import torch

from ...framework import dtype as _dtypes
from ...framework import unique_name
from ...framework.param_attr import ParamAttr
from ...tensor.tensor import Tensor

__all__ = ["Layer", "Parameter"]


class Parameter(Tensor):
    """Paddle's EagerParamBase: a trainable Tensor (stop_gradient=False by default)."""

    def __init__(self, t, name=None, trainable=True, optimize_attr=None, regularizer=None, need_clip=True):
        self._t = t if isinstance(t, torch.nn.Parameter) else torch.nn.Parameter(t, requires_grad=trainable)
        self.name = name or unique_name.generate("param")
        self.persistable = True
        self.optimize_attr = optimize_attr or {"learning_rate": 1.0}
        self.regularizer, self.need_clip = regularizer, need_clip

    @property
    def trainable(self):
        return self._t.requires_grad

    @trainable.setter
    def trainable(self, value):
        self._t.requires_grad_(bool(value))

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__


def _default_initializer(is_bias):
    from ..initializer import Constant, XavierUniform

    return Constant(0.0) if is_bias else XavierUniform()


def _create_parameter(shape, dtype=None, name=None, attr=None, is_bias=False, default_initializer=None,
                      prefix=None):
    attr = ParamAttr._to_attr(attr)
    if attr is False:
        return None
    shape = [int(s) for s in shape]
    if any(s < 0 for s in shape):
        raise ValueError(f"Each dimension of 'shape' in create_parameter must be non-negative, got {shape}")
    tdtype = _dtypes.to_torch_dtype(dtype) or _dtypes.default_float_torch()
    init = attr.initializer or default_initializer or _default_initializer(is_bias)
    data = torch.empty(shape, dtype=tdtype)
    with torch.no_grad():
        init._init(data)
    if prefix is None:
        prefix = unique_name.generate("create_parameter")
    pname = attr.name or name or unique_name.generate(f"{prefix}.{'b' if is_bias else 'w'}")
    return Parameter(data, name=pname, trainable=attr.trainable,
                     optimize_attr={"learning_rate": attr.learning_rate}, regularizer=attr.regularizer,
                     need_clip=attr.need_clip)


class Layer:
    """Paddle's Layer: parameters, buffers and sublayers as attributes, `forward`, hooks, modes."""

    def __init__(self, name_scope=None, dtype="float32"):
        object.__setattr__(self, "_parameters", collections.OrderedDict())
        object.__setattr__(self, "_sub_layers", collections.OrderedDict())
        object.__setattr__(self, "_buffers", collections.OrderedDict())
        object.__setattr__(self, "_non_persistable_buffer_names_set", set())
        object.__setattr__(self, "_forward_pre_hooks", collections.OrderedDict())
        object.__setattr__(self, "_forward_post_hooks", collections.OrderedDict())
        self.training = True
        self._dtype = dtype
        scope = name_scope or _snake(type(self).__name__)
        self._full_name = unique_name.generate(scope)

    # ---------------------------------------------------------------- attributes
    def __setattr__(self, name, value):
        d = self.__dict__
        if isinstance(value, Parameter):
            if "_parameters" not in d:
                raise ValueError("super().__init__() should be called first")
            for table in ("_sub_layers", "_buffers"):
                d[table].pop(name, None)
            d.pop(name, None)
            d["_parameters"][name] = value
        elif isinstance(value, Layer):
            if "_sub_layers" not in d:
                raise ValueError("super().__init__() should be called first")
            d["_parameters"].pop(name, None)
            d.pop(name, None)
            d["_sub_layers"][name] = value
        elif "_parameters" in d and name in d["_parameters"]:
            if value is not None:
                raise TypeError(f"assignment to parameter '{name}' should be of type Parameter or None, but got "
                                f"'{type(value).__name__}'")
            d["_parameters"][name] = None
        elif "_buffers" in d and name in d["_buffers"]:
            d["_buffers"][name] = value
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name):
        d = self.__dict__
        for table in ("_parameters", "_sub_layers", "_buffers"):
            t = d.get(table)
            if t is not None and name in t:
                return t[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        for table in ("_parameters", "_sub_layers", "_buffers"):
            if name in self.__dict__[table]:
                del self.__dict__[table][name]
                return
        object.__delattr__(self, name)

    # ---------------------------------------------------------------- construction
    def create_parameter(self, shape, attr=None, dtype=None, is_bias=False, default_initializer=None):
        return _create_parameter(shape, dtype or self._dtype, attr=attr, is_bias=is_bias,
                                 default_initializer=default_initializer, prefix=self._full_name)

    def add_parameter(self, name, parameter):
        if parameter is not None and not isinstance(parameter, Parameter):
            raise TypeError(f"parameter should be Parameter, but got {type(parameter).__name__}")
        self._parameters[name] = parameter
        return parameter

    def add_sublayer(self, name, sublayer):
        if not (isinstance(sublayer, Layer) or sublayer is None):
            raise TypeError("The sublayer to add must be a Layer")
        self._sub_layers[name] = sublayer
        return sublayer

    def register_buffer(self, name, tensor, persistable=True):
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"The registered buffer should be a Paddle.Tensor, but received "
                            f"{type(tensor).__name__}.")
        self._buffers[name] = tensor
        if persistable:
            self._non_persistable_buffer_names_set.discard(name)
        else:
            self._non_persistable_buffer_names_set.add(name)

    def full_name(self):
        return self._full_name

    # ---------------------------------------------------------------- traversal
    def named_sublayers(self, prefix="", include_self=False, layers_set=None):
        layers_set = set() if layers_set is None else layers_set
        if include_self and id(self) not in layers_set:
            layers_set.add(id(self))
            yield prefix, self
        for key, layer in self._sub_layers.items():
            if layer is None or id(layer) in layers_set:
                continue
            p = prefix + ("." if prefix else "") + key
            layers_set.add(id(layer))
            yield p, layer
            yield from layer.named_sublayers(p, False, layers_set)

    def sublayers(self, include_self=False):
        return [layer for _, layer in self.named_sublayers(include_self=include_self)]

    def named_children(self):
        seen = set()
        for name, layer in self._sub_layers.items():
            if layer is not None and id(layer) not in seen:
                seen.add(id(layer))
                yield name, layer

    def children(self):
        return (layer for _, layer in self.named_children())

    def named_parameters(self, prefix="", include_sublayers=True, remove_duplicate=True):
        seen = set()
        layers = self.named_sublayers(prefix=prefix, include_self=True) if include_sublayers else [(prefix, self)]
        for lp, layer in layers:
            for name, p in layer._parameters.items():
                if p is None or (remove_duplicate and id(p) in seen):
                    continue
                seen.add(id(p))
                yield lp + ("." if lp else "") + name, p

    def parameters(self, include_sublayers=True):
        return [p for _, p in self.named_parameters(include_sublayers=include_sublayers)]

    def named_buffers(self, prefix="", include_sublayers=True):
        seen = set()
        layers = self.named_sublayers(prefix=prefix, include_self=True) if include_sublayers else [(prefix, self)]
        for lp, layer in layers:
            for name, b in layer._buffers.items():
                if b is None or id(b) in seen:
                    continue
                seen.add(id(b))
                yield lp + ("." if lp else "") + name, b

    def buffers(self, include_sublayers=True):
        return [b for _, b in self.named_buffers(include_sublayers=include_sublayers)]

    def apply(self, fn):
        for layer in self.children():
            layer.apply(fn)
        fn(self)
        return self

    # ---------------------------------------------------------------- modes
    def train(self):
        for layer in self.sublayers(include_self=True):
            layer.training = True
        return self

    def eval(self):
        for layer in self.sublayers(include_self=True):
            layer.training = False
        return self

    # ---------------------------------------------------------------- state
    def state_dict(self, destination=None, include_sublayers=True, structured_name_prefix="",
                   use_hook=True, keep_vars=True):
        out = collections.OrderedDict() if destination is None else destination
        for name, p in self.named_parameters(include_sublayers=include_sublayers):
            out[structured_name_prefix + name] = p
        layers = self.named_sublayers(include_self=True) if include_sublayers else [("", self)]
        for lp, layer in layers:
            for name, b in layer._buffers.items():
                if b is not None and name not in layer._non_persistable_buffer_names_set:
                    out[structured_name_prefix + lp + ("." if lp else "") + name] = b
        return out

    def set_state_dict(self, state_dict, use_structured_name=True):
        own = self.state_dict()
        missing, unexpected = [], [k for k in state_dict if k not in own]
        for key, target in own.items():
            if key not in state_dict:
                missing.append(key)
                continue
            value = state_dict[key]
            src = value._t if isinstance(value, Tensor) else torch.as_tensor(np.asarray(value))
            if list(src.shape) != list(target._t.shape):
                raise ValueError(f"{key} receives a shape {list(src.shape)}, but the expected shape is "
                                 f"{list(target._t.shape)}.")
            with torch.no_grad():
                target._t.copy_(src.to(target._t.dtype))
        return missing, unexpected

    set_dict = load_dict = set_state_dict

    # ---------------------------------------------------------------- dtype / device
    def to(self, device=None, dtype=None, blocking=None):
        from ...framework.place import to_torch_device

        tdev = None if device is None else to_torch_device(device)
        tdtype = _dtypes.to_torch_dtype(dtype)
        for t in self.parameters() + self.buffers():
            new = t._t.data
            if tdtype is not None and new.is_floating_point():
                new = new.to(tdtype)
            if tdev is not None:
                new = new.to(tdev)
            t._t.data = new
        return self

    def astype(self, dtype=None):
        return self.to(dtype=dtype)

    def float(self, excluded_layers=None):
        return self.to(dtype="float32")

    def clear_gradients(self, set_to_zero=True):
        for p in self.parameters():
            if p.trainable:
                p.clear_gradient(set_to_zero)

    # ---------------------------------------------------------------- calling
    def forward(self, *inputs, **kwargs):
        raise NotImplementedError(f"Layer {type(self).__name__} does not define forward()")

    def register_forward_pre_hook(self, hook):
        return _HookHandle(self._forward_pre_hooks, hook)

    def register_forward_post_hook(self, hook):
        return _HookHandle(self._forward_post_hooks, hook)

    def __call__(self, *inputs, **kwargs):
        for hook in self._forward_pre_hooks.values():
            r = hook(self, inputs)
            if r is not None:
                inputs = r if isinstance(r, tuple) else (r,)
        out = self.forward(*inputs, **kwargs)
        for hook in self._forward_post_hooks.values():
            r = hook(self, inputs, out)
            if r is not None:
                out = r
        return out

    # ---------------------------------------------------------------- repr
    def extra_repr(self):
        return ""

    def __repr__(self):
        lines = []
        extra = self.extra_repr()
        if extra:
            lines = extra.split("\n")
        children = [f"({name}): " + _indent(repr(layer), 2) for name, layer in self._sub_layers.items()]
        body = lines + children
        if not body:
            return f"{type(self).__name__}()"
        if len(body) == 1 and not children:
            return f"{type(self).__name__}({body[0]})"
        return f"{type(self).__name__}(\n  " + "\n  ".join(body) + "\n)"

    def __dir__(self):
        return list(super().__dir__()) + list(self._parameters) + list(self._sub_layers) + list(self._buffers)


class _HookHandle:
    _next_id = 0

    def __init__(self, table, hook):
        self._table, self.id = table, _HookHandle._next_id
        _HookHandle._next_id += 1
        table[self.id] = hook

    def remove(self):
        self._table.pop(self.id, None)


def _indent(s, n):
    lines = s.split("\n")
    return lines[0] + "".join("\n" + " " * n + line for line in lines[1:])


def _snake(name):
    """Paddle's layer-name rule: RMSNorm -> rms_norm, MyLayer -> my_layer."""
    s = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z0-9])([A-Z])", r"\1_\2", s).lower()
