"""paddle.nn.Layer and Parameter (issue 3's Layer contract).

A Parameter is a paddle Tensor whose torch tensor is a `torch.nn.Parameter` (so torch optimisers,
hooks and FSDP see ordinary parameters), plus Paddle's attributes: `name`, `trainable`,
`optimize_attr`, `regularizer`, `do_model_average`, `need_clip`, `is_distributed`.

Layer follows Paddle's layers.py: parameters, sublayers and buffers live in three ordered dicts and
are reached as attributes; `state_dict` keys are structured names (`fc.weight`), parameter names come
from the name generator (`linear_0.w_0`); hooks, modes, dtype/device casts and the repr are Paddle's.
"""
import collections
import copy
import re
import warnings

import numpy as np
import torch

from ..._core import dtype as _dtypes
from ...framework import unique_name
from ...base import framework as _fw
from ...base.dygraph.base import in_declarative_mode  # noqa: F401  (Paddle's modeling code imports it from here)
from ...framework.param_attr import ParamAttr
from ...tensor.tensor import Tensor

__all__ = ["Layer", "Parameter"]

_DIFFERENTIABLE = (torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64,
                   torch.complex128)


# ------------------------------------------------------------------ change count
# paddle.jit's StaticFunction skips dynamo's guards over the Layer tree (thousands of attribute reads
# per call) while this process-wide count is unchanged, and runs the full guard check once after any
# change (docs/jit.md, "Speed").  Everything a compiled forward can depend on bumps it: Layer attribute
# writes (`training` included), the parameter / buffer / sublayer / hook tables, dtype and device
# casts, a parameter's stop_gradient and any rebinding of a parameter's torch tensor (`p._t = ...`,
# as sharding, the planner, static mode's optimizer node and paddle.assign(output=p) do), and every
# `_normalize.rebind` (`out=`, paddle.assign, shape-changing in-place ops on any Tensor).  Code that
# rebinds a buffer's torch tensor by hand must call `note_change()`.
from ..._normalize import MUTATIONS  # noqa: E402 - the one counter, also bumped by _normalize.rebind


def note_change():
    MUTATIONS[0] += 1


class _Table(collections.OrderedDict):
    """A Layer's parameter / buffer / sublayer / hook table: an OrderedDict whose writes bump MUTATIONS
    (reads stay C-level dict reads)."""

    __slots__ = ()

    def __setitem__(self, key, value):
        MUTATIONS[0] += 1
        super().__setitem__(key, value)

    def __delitem__(self, key):
        MUTATIONS[0] += 1
        super().__delitem__(key)

    def pop(self, *args):
        MUTATIONS[0] += 1
        return super().pop(*args)

    def popitem(self, last=True):
        MUTATIONS[0] += 1
        return super().popitem(last)

    def clear(self):
        MUTATIONS[0] += 1
        super().clear()

    def update(self, *args, **kwargs):
        MUTATIONS[0] += 1
        super().update(*args, **kwargs)

    def setdefault(self, key, default=None):
        MUTATIONS[0] += 1
        return super().setdefault(key, default)

    def move_to_end(self, key, last=True):
        MUTATIONS[0] += 1
        super().move_to_end(key, last)


class EagerParamBase(Tensor):
    """Paddle's parameter class (paddle.nn.Parameter): `Parameter(shape, dtype, **attrs)` or `Parameter(tensor, requires_grad=True)`.

    Its `_t` is a torch.nn.Parameter; `trainable` is `not stop_gradient`.
    """

    def __init__(self, *args, **kwargs):
        if (args and isinstance(args[0], (list, tuple))) or "shape" in kwargs:
            self._init_by_shape(*args, **kwargs)
        else:
            self._init_by_tensor(*args, **kwargs)

    def __setattr__(self, name, value):
        # a compiled forward was traced for the old tensor's shape, dtype and requires_grad: every
        # rebinding of `_t`, whoever does it, counts as a change (reads of `_t` stay slot reads)
        if name == "_t":
            MUTATIONS[0] += 1
        object.__setattr__(self, name, value)

    @classmethod
    def from_tensor(cls, tensor, **kwargs):
        """A parameter over `tensor`'s storage (Paddle's EagerParamBase.from_tensor); kwargs are the parameter
        attributes (trainable, name, ...)."""
        if kwargs.pop("process_mesh", None) is not None and kwargs.pop("placements", None) is not None:
            from ..._report import unsupported

            raise unsupported("paddle.base.framework.EagerParamBase.from_tensor", " with process_mesh / placements")
        kwargs.pop("placements", None)
        p = cls.__new__(cls)
        p._setup(tensor._t.detach(), kwargs.pop("trainable", True), **kwargs)
        return p

    def _init_by_shape(self, shape, dtype, **kwargs):
        if shape is None:
            raise ValueError("The shape of Parameter should not be None")
        if dtype is None:
            raise ValueError("The dtype of Parameter should not be None")
        _check_dims(shape)
        t = torch.empty([int(s) for s in shape], dtype=_dtypes.to_torch_dtype(dtype),
                        device=_current_device())
        self._setup(t, kwargs.pop("trainable", True), **kwargs)

    def _init_by_tensor(self, data=None, requires_grad=True, **kwargs):
        if data is None:
            t = torch.empty([0], dtype=_dtypes.default_float_torch())
        elif isinstance(data, torch.Tensor):
            t = data
        elif isinstance(data, Tensor):
            t = data._t
        else:
            from ..._normalize import to_torch

            t = to_torch(data)
        _check_dims(t.shape)
        self._setup(t.detach(), requires_grad, **kwargs)

    def _setup(self, t, trainable=True, name=None, optimize_attr=None, regularizer=None, do_model_average=None,
               need_clip=True, is_distributed=False, **_ignored):
        grad_ok = t.dtype in _DIFFERENTIABLE
        self._t = t if isinstance(t, torch.nn.Parameter) else torch.nn.Parameter(t, requires_grad=grad_ok)
        self.name = unique_name.generate("_eager_param_base") if name is None else name
        self.persistable = True
        self.stop_gradient = not trainable
        self.optimize_attr = {"learning_rate": 1.0} if optimize_attr is None else optimize_attr
        self.regularizer, self.do_model_average = regularizer, do_model_average
        self.need_clip, self.is_distributed = need_clip, is_distributed
        if _fw._static is not None:  # static mode: the parameter belongs to the startup program
            from ...static.program import on_parameter

            on_parameter(self)

    @property
    def stop_gradient(self):
        return Tensor.stop_gradient.fget(self)

    @stop_gradient.setter
    def stop_gradient(self, value):
        MUTATIONS[0] += 1  # a compiled forward was traced for the old requires_grad
        Tensor.stop_gradient.fset(self, value)

    def _copy_to(self, place, blocking=True):
        """A parameter copy on `place` with this one's name and attributes (Paddle's EagerParamBase._copy_to)."""
        copy = Tensor._copy_to(self, place, blocking)
        return type(self).from_tensor(copy, trainable=self.trainable, name=self.name, optimize_attr=self.optimize_attr,
                                      regularizer=self.regularizer, do_model_average=self.do_model_average,
                                      need_clip=self.need_clip, is_distributed=self.is_distributed)

    @property
    def trainable(self):
        return not self.stop_gradient

    @trainable.setter
    def trainable(self, value):
        if not isinstance(value, bool):
            raise ValueError(f"The type of trainable MUST be bool, but the type is {type(value)}")
        self.stop_gradient = not value

    @property
    def is_parameter(self):
        # a static-mode Variable's attribute (Paddle's eager parameters do not have it)
        if not hasattr(self._t, "_st_param_name"):
            raise AttributeError("'EagerParamBase' object has no attribute 'is_parameter'")
        return True

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def initialize(self):
        """Allocate a parameter made under paddle.LazyGuard and run its initializer (once)."""
        self._materialize(run_initializer=True)

    def _materialize(self, run_initializer):
        pending = self.__dict__.pop("_lazy_init", None)
        if pending is None:
            return
        initializer, device = pending
        meta = self._t  # a meta tensor cannot take real data in place: swap in a fresh nn.Parameter
        if type(meta).__name__ == "DTensor":  # placed by dist.shard_tensor while lazy
            from ...distributed.auto_parallel.api import materialize_lazy

            return materialize_lazy(self, initializer if run_initializer else None, device)
        self._t = torch.nn.Parameter(torch.empty(meta.shape, dtype=meta.dtype, device=device),
                                     requires_grad=meta.requires_grad)
        if run_initializer:
            initializer(self)

    def set_value(self, value):
        self._materialize(run_initializer=False)  # a lazily created parameter gets its memory here
        super().set_value(value)

    def _is_initialized(self):
        return "_lazy_init" not in self.__dict__

    @property
    def block(self):
        """The global block of the default main program, as Paddle's parameters report it (PaddleSeg's initializers
        are called as init(param, param.block))."""
        from ...static import default_main_program

        return default_main_program().global_block()

    @property
    def _init_func(self):
        """Paddle's pending initializer of a LazyGuard parameter, called as f(param, block); None once it ran
        (PaddleNLP's AutoTrainer checks it before initialize())."""
        if "_lazy_init" not in self.__dict__:
            return None
        return lambda param, block=None: param._materialize(run_initializer=True)

    def __deepcopy__(self, memo):
        state = {k: copy.deepcopy(v, memo) for k, v in self.__dict__.items() if k not in ("name", "_claims_grad")}
        new = object.__new__(type(self))
        new._setup(self._t.detach().clone(), not self.stop_gradient,
                   name=self.name + unique_name.generate("_deepcopy"))
        new.__dict__.update({k: v for k, v in state.items() if k != "persistable"})
        memo[id(self)] = new
        return new


Parameter = EagerParamBase


def _check_dims(shape):
    for each in shape:
        if each < 0:
            raise ValueError(f"Each dimension of shape for Parameter must be greater than 0, but received "
                             f"{list(shape)}")


def _current_device():
    from ..._core.place import current_torch_device

    return current_torch_device()


_DEFAULT_INIT_DTYPES = (torch.float16, torch.float32, torch.float64, torch.bfloat16, torch.int8)


def _create_parameter(shape, dtype=None, name=None, attr=None, is_bias=False, default_initializer=None,
                      prefix=None, device=None):
    """The parameter factory behind Layer.create_parameter and paddle.create_parameter.

    `prefix` is the owner's name (`linear_0`); without one, a `create_parameter_N` name is made as
    paddle.create_parameter does.
    """
    from ..initializer import Constant, XavierUniform, _global_initializer

    if prefix is None:  # paddle.create_parameter
        prefix = name if name is not None else unique_name.generate("create_parameter")
        if attr is None:
            attr = ParamAttr(name=name)
    attr = ParamAttr._to_attr(copy.deepcopy(attr))
    if not attr:
        return None
    shape = [int(s) for s in shape]
    for i, size in enumerate(shape):
        if size < 0:
            raise AssertionError(f"Expected every dim's size to be larger than or equal to 0, but the size of the "
                                 f"{i}-th dim is {size}")
    tdtype = _dtypes.to_torch_dtype(dtype) if dtype else _dtypes.default_float_torch()
    default_initializer = _global_initializer(is_bias) or default_initializer
    if attr.name is None:
        attr.name = unique_name.generate(f"{prefix}.{'b' if is_bias else 'w'}")
    if default_initializer is None and attr.initializer is None:
        if tdtype not in _DEFAULT_INIT_DTYPES:
            raise TypeError("Can not create parameter with default initializer when dtype is not ['float16', "
                            "'float32', 'float64', 'bfloat16', 'float'] type. Set default_initializer to fit the "
                            "parameter dtype!")
        attr._set_default_initializer(Constant(0.0) if is_bias else XavierUniform())
    else:
        attr._set_default_initializer(default_initializer)
    if unique_name.dygraph_parameter_name_checker(attr.name):
        raise ValueError(f"parameter name [{attr.name}] have be been used. In dygraph mode, the name of parameter "
                         "can't be same.Please check the parameter attr value passed to self.create_parameter or "
                         "constructor of dygraph Layers")
    kwargs = attr._to_kwargs()
    from ..._core.place import to_torch_device

    from ..initializer.lazy_init import lazy_init_enabled

    lazy = lazy_init_enabled()
    data = torch.empty(shape, dtype=tdtype, device="meta" if lazy else to_torch_device(device))
    param = Parameter(data, kwargs.pop("trainable"), **kwargs)
    if lazy:  # paddle.LazyGuard: no memory until param.initialize()
        param._lazy_init = (attr.initializer, to_torch_device(device))
    else:
        attr.initializer(param)
    return param


class _HookRemoveHelper:
    """The handle a hook registration returns: `remove()` takes the hook out again."""

    next_hook_id = 0

    def __init__(self, hooks, extra_hook_dict=()):
        import weakref

        self._hooks_ref = weakref.ref(hooks)
        self._extra_refs = tuple(weakref.ref(d) for d in extra_hook_dict)
        self._hook_id = _HookRemoveHelper.next_hook_id
        _HookRemoveHelper.next_hook_id += 1

    def remove(self):
        for ref in (self._hooks_ref,) + self._extra_refs:
            d = ref()
            if d is not None:
                d.pop(self._hook_id, None)


HookRemoveHelper = _HookRemoveHelper


class _IncompatibleKeys(collections.namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    __slots__ = ()

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


_VALID_DTYPES = ("bfloat16", "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
                 "complex64", "complex128", "bool")
_DTYPE_ERROR = ("dtype value error, must be 'bfloat16', 'float16', 'float32', 'float64', 'int8', 'int16', 'int32', "
                "'int64', 'uint8', 'complex64', 'complex128', 'bool', or paddle.dtype, numpy.dtype, but receive ")


def _checked_dtype(dtype):
    if isinstance(dtype, (_dtypes.dtype, np.dtype)) or (type(dtype) is str and dtype in _VALID_DTYPES):
        return _dtypes.convert_dtype(dtype)
    raise ValueError(_DTYPE_ERROR + str(dtype))


# Paddle Layer methods not provided here (static-graph variables, distributed checkpoints, XPU):
# touching one raises UnsupportedAPIError (a NotImplementedError and an AttributeError).
_UNSUPPORTED_METHODS = frozenset({"create_tensor", "create_variable", "sharded_state_dict", "full", "xpu",
                                  "get_extra_state", "_startup_program", "_set_op_attrs"})


class Layer:
    """Paddle's Layer: parameters, buffers and sublayers as attributes, `forward`, hooks, modes."""

    def __init__(self, name_scope=None, dtype="float32"):
        d = self.__dict__
        d["training"] = True
        if name_scope is None:
            name_scope = _convert_camel_to_snake(type(self).__name__)
            name_scope = {"row_parallel_linear": "linear", "column_parallel_linear": "linear",
                          "vocab_parallel_embedding": "embedding"}.get(name_scope, name_scope)
        d["_full_name"] = unique_name.generate(name_scope)
        d["_built"] = False
        d["_dtype"] = dtype
        d["_parameters"] = _Table()
        d["_buffers"] = _Table()
        d["_non_persistable_buffer_names_set"] = set()
        d["_sub_layers"] = _Table()
        d["_loaddict_holder"] = _Table()
        d["_forward_pre_hooks"] = _Table()
        d["_forward_post_hooks"] = _Table()
        d["_forward_pre_hooks_with_kwargs_flag"] = _Table()
        d["_forward_post_hooks_with_kwargs_flag"] = _Table()
        d["_forward_post_hooks_always_called"] = _Table()
        d["_state_dict_hooks"] = _Table()
        d["_casted_by_pure_fp16"] = False
        d["_cast_to_low_precision"] = True

    # ---------------------------------------------------------------- attributes
    def __getstate__(self):
        return self.__dict__

    def __setstate__(self, state):
        MUTATIONS[0] += 1
        self.__dict__.update(state)

    def __getattr__(self, name):
        d = self.__dict__
        # the three tables, unrolled (each layer's forward reads its weights through here)
        t = d.get("_parameters")
        if t is not None and name in t:
            return t[name]
        t = d.get("_sub_layers")
        if t is not None and name in t:
            return t[name]
        t = d.get("_buffers")
        if t is not None and name in t:
            return t[name]
        if name in _UNSUPPORTED_METHODS:
            from ... import _report

            raise _report.unsupported(f"paddle.nn.Layer.{name}")
        return object.__getattribute__(self, name)

    # Paddle's attribute tables, in the order __setattr__ consults them (a Parameter is also a Tensor)
    _SETATTR_TABLES = (("_parameters", "parameter", "Parameter"), ("_sub_layers", "sublayer", "Layer"),
                       ("_buffers", "buffers", "core.DenseTensor"))

    def __setattr__(self, name, value):
        MUTATIONS[0] += 1
        d = self.__dict__
        if isinstance(getattr(type(self), name, None), property):
            object.__setattr__(self, name, value)
            return
        kinds = {"_parameters": Parameter, "_sub_layers": Layer, "_buffers": Tensor}
        for table, what, type_name in self._SETATTR_TABLES:
            entries = d.get(table)
            if isinstance(value, kinds[table]):
                if entries is None:
                    raise ValueError("super().__init__() should be called first")
                for other in (d, *(d[t] for t, _, _ in self._SETATTR_TABLES if t != table)):
                    other.pop(name, None)
                if table == "_buffers" and name not in entries:
                    # a Tensor assigned as an attribute is a buffer, non-persistable unless register_buffer made it
                    d["_non_persistable_buffer_names_set"].add(name)
                entries[name] = value
                return
            if entries is not None and name in entries:
                if value is not None:
                    raise TypeError(f"assignment to {what} '{name}' should be of type {type_name} or None, but "
                                    f"got '{type(value).__name__}'")
                entries[name] = None
                return
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        MUTATIONS[0] += 1
        d = self.__dict__
        if name in d["_parameters"]:
            del d["_parameters"][name]
        elif name in d["_sub_layers"]:
            del d["_sub_layers"][name]
        elif name in d["_buffers"]:
            del d["_buffers"][name]
            d["_non_persistable_buffer_names_set"].discard(name)
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        return (dir(self.__class__) + list(self.__dict__) + list(self._parameters) + list(self._sub_layers)
                + list(self._buffers))

    # ---------------------------------------------------------------- construction
    def create_parameter(self, shape, attr=None, dtype=None, is_bias=False, default_initializer=None, device=None):
        if isinstance(attr, str) and attr == "":
            attr = None
        return _create_parameter(shape, dtype, attr=attr, is_bias=is_bias, default_initializer=default_initializer,
                                 prefix=self._full_name, device=device)

    def _check_new_name(self, table, name, what):
        if table not in self.__dict__:
            raise RuntimeError("super().__init__() should be called firstly.") if what == "parameter" else \
                ValueError("super().__init__() should be called first")
        if not isinstance(name, str):
            raise TypeError(f"The name of {what} should be a string, but received {type(name).__name__}.")
        if "." in name:
            raise KeyError(f"The name of {what} can not contain `.`, because when you access the newly added "
                           f"{what} in the form of `self.**.**`, it will cause AttributeError.")
        if name == "":
            raise KeyError(f"The name of {what} can not be empty.")
        if hasattr(self, name) and name not in self.__dict__[table]:
            raise KeyError(f"The parameter '{name}' already exists." if what == "parameter"
                           else f"attribute '{name}' already exists.")

    def add_parameter(self, name, parameter):
        self._check_new_name("_parameters", name, "parameter")
        if parameter is not None and not isinstance(parameter, Parameter):
            raise TypeError(f"The parameter to be added should be a Parameter, but received "
                            f"{type(parameter).__name__}.")
        self._parameters[name] = parameter
        return parameter

    def register_parameter(self, name, param):
        self.add_parameter(name, param)

    def add_sublayer(self, name, sublayer):
        assert isinstance(sublayer, Layer) or sublayer is None
        self._sub_layers[name] = sublayer
        return sublayer

    def add_module(self, name, module):
        self.add_sublayer(name, module)

    register_module = add_module

    def register_buffer(self, name, tensor, persistable=True):
        self._check_new_name("_buffers", name, "buffer")
        if tensor is not None and type(tensor) is not Tensor:
            raise TypeError(f"The registered buffer should be a Paddle.Tensor, but received "
                            f"{type(tensor).__name__}.")
        self._buffers[name] = tensor
        if persistable:
            self._non_persistable_buffer_names_set.discard(name)
        else:
            self._non_persistable_buffer_names_set.add(name)

    def full_name(self):
        return self._full_name

    # ---------------------------------------------------------------- lookup by dotted name
    def get_sublayer(self, target):
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(f"{type(mod).__name__} has no attribute `{item}`")
            mod = getattr(mod, item)
            if not isinstance(mod, Layer):
                raise AttributeError(f"`{item}` is not an nn.Layer")
        return mod

    get_submodule = get_sublayer

    def set_sublayer(self, target, layer, strict=False):
        if target == "":
            raise ValueError("Cannot set the sublayer without a target name!")
        atoms = target.split(".")
        if not isinstance(layer, Layer):
            raise ValueError(f"`module` is not an nn.Layer, found {type(layer)}")
        parent = self if len(atoms) == 1 else self.get_sublayer(".".join(atoms[:-1]))
        if strict and not hasattr(parent, atoms[-1]):
            raise AttributeError(f"{type(parent).__name__} has no attribute `{atoms[-1]}`")
        if hasattr(parent, atoms[-1]) and not isinstance(getattr(parent, atoms[-1]), Layer):
            raise AttributeError(f"`{atoms[-1]}` is not an nn.Layer")
        setattr(parent, atoms[-1], layer)

    set_submodule = set_sublayer

    def get_parameter(self, target):
        module_path, _, name = target.rpartition(".")
        mod = self.get_sublayer(module_path)
        if not hasattr(mod, name):
            raise AttributeError(f"{type(mod).__name__} has no attribute `{name}`")
        param = getattr(mod, name)
        if not isinstance(param, Tensor):
            raise AttributeError(f"`{name}` is not an nn.Parameter")
        return param

    def get_buffer(self, target):
        module_path, _, name = target.rpartition(".")
        mod = self.get_sublayer(module_path)
        if not hasattr(mod, name):
            raise AttributeError(f"{type(mod).__name__} has no attribute `{name}`")
        if name not in mod._buffers:
            raise AttributeError(f"`{name}` is not a buffer")
        return getattr(mod, name)

    # ---------------------------------------------------------------- traversal
    def named_sublayers(self, prefix="", include_self=False, layers_set=None, remove_duplicate=True):
        if layers_set is None:
            layers_set = set()
        if include_self and self not in layers_set:
            if remove_duplicate:
                layers_set.add(self)
            yield prefix, self
        for key, layer in self._sub_layers.items():
            if layer is None:
                continue
            yield from layer.named_sublayers(prefix + ("." if prefix else "") + key, True, layers_set,
                                             remove_duplicate)

    def sublayers(self, include_self=False):
        return [layer for _, layer in self.named_sublayers(include_self=include_self)]

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        return self.named_sublayers(prefix=prefix, include_self=True, layers_set=memo,
                                    remove_duplicate=remove_duplicate)

    def modules(self):
        for _, layer in self.named_modules():
            yield layer

    def named_children(self):
        memo = set()
        for name, layer in self._sub_layers.items():
            if layer is not None and layer not in memo:
                memo.add(layer)
                yield name, layer

    def children(self):
        for _, layer in self.named_children():
            yield layer

    def _named_members(self, table, prefix, include_sublayers, remove_duplicate):
        seen = set()
        layers = (self.named_sublayers(prefix=prefix, include_self=True, remove_duplicate=remove_duplicate)
                  if include_sublayers else [(prefix, self)])
        for layer_prefix, layer in layers:
            for key, value in layer.__dict__[table].items():
                if value is None or value in seen:
                    continue
                if remove_duplicate:
                    seen.add(value)
                yield layer_prefix + ("." if layer_prefix else "") + key, value

    def named_parameters(self, prefix="", include_sublayers=True, remove_duplicate=True, *, recurse=None):
        if recurse is not None:
            include_sublayers = recurse
        return self._named_members("_parameters", prefix, include_sublayers, remove_duplicate)

    def parameters(self, include_sublayers=True, *, recurse=None):
        if recurse is not None:
            include_sublayers = recurse
        return [p for _, p in self.named_parameters(include_sublayers=include_sublayers)]

    def named_buffers(self, prefix="", include_sublayers=True, remove_duplicate=True, *, recurse=None):
        if recurse is not None:
            include_sublayers = recurse
        return self._named_members("_buffers", prefix, include_sublayers, remove_duplicate)

    def buffers(self, include_sublayers=True, *, recurse=None):
        if recurse is not None:
            include_sublayers = recurse
        return [b for _, b in self.named_buffers(include_sublayers=include_sublayers)]

    def apply(self, fn):
        for layer in self.children():
            layer.apply(fn)
        fn(self)
        return self

    # ---------------------------------------------------------------- modes and gradients
    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for layer in self.sublayers():
            layer.training = mode
        return self

    def eval(self):
        return self.train(False)

    def clear_gradients(self, set_to_zero=True):
        # runs every training step: one plain walk over the tree (no generators) and one foreach zero for
        # the plain gradients; others (DTensor, ...) and set_to_zero=False go through clear_gradient
        layers, seen, plain = [self], {id(self)}, []
        for layer in layers:  # grows while it is walked
            for sub in layer._sub_layers.values():
                if sub is not None and id(sub) not in seen:
                    seen.add(id(sub))
                    layers.append(sub)
        for layer in layers:
            for p in layer._parameters.values():
                # (a tensor that requires grad is trainable: the trainable property is asked only otherwise)
                if p is None or p._t.grad is None or (not p._t.requires_grad and not p.trainable):
                    continue
                if set_to_zero and type(p._t.grad) is torch.Tensor:
                    plain.append(p._t.grad)
                else:
                    p.clear_gradient(set_to_zero)
        if plain:
            torch._foreach_zero_(plain)

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            if p._t.grad is not None:
                p.clear_gradient(not set_to_none)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.stop_gradient = not requires_grad
        return self

    # ---------------------------------------------------------------- state
    def register_state_dict_hook(self, hook):
        helper = _HookRemoveHelper(self._state_dict_hooks)
        self._state_dict_hooks[helper._hook_id] = hook
        return helper

    def _state_dict_impl(self, destination=None, include_sublayers=True, structured_name_prefix="",
                         include_non_persistable_buffer=False, use_hook=True, keep_vars=True):
        if destination is None:
            destination = collections.OrderedDict()
        for name, p in self._parameters.items():
            if p is not None:
                destination[structured_name_prefix + name] = p if keep_vars else p.detach()
        for name, b in self._buffers.items():
            if b is not None and (include_non_persistable_buffer
                                  or name not in self._non_persistable_buffer_names_set):
                destination[structured_name_prefix + name] = b if keep_vars else b.detach()
        if include_sublayers:
            for layer_name, layer in self._sub_layers.items():
                if layer is not None:
                    layer._state_dict_impl(destination, include_sublayers, structured_name_prefix + layer_name + ".",
                                           include_non_persistable_buffer, use_hook, keep_vars)
        if use_hook:
            for hook in self._state_dict_hooks.values():
                r = hook(destination)
                if r is not None:
                    destination = r
        return destination

    def state_dict(self, *args, **kwargs):
        """Paddle's state_dict(destination, include_sublayers, structured_name_prefix, use_hook, keep_vars),
        or torch's state_dict(destination, prefix, keep_vars) when `prefix` is given."""
        if (len(args) >= 2 and isinstance(args[1], str)) or "prefix" in kwargs:
            for key, value in zip(("destination", "prefix", "keep_vars"), args):
                if key in kwargs:
                    raise TypeError(f"got multiple values for argument '{key}'")
                kwargs[key] = value
            return self._state_dict_impl(destination=kwargs.get("destination"), include_sublayers=True,
                                         structured_name_prefix=kwargs.get("prefix", ""),
                                         include_non_persistable_buffer=False, use_hook=True,
                                         keep_vars=kwargs.get("keep_vars", False))
        return self._state_dict_impl(*args, **kwargs)

    def to_static_state_dict(self, destination=None, include_sublayers=True, structured_name_prefix="",
                             use_hook=True, keep_vars=True):
        return self._state_dict_impl(destination, include_sublayers, structured_name_prefix,
                                     include_non_persistable_buffer=True, use_hook=use_hook, keep_vars=keep_vars)

    def set_state_dict(self, state_dict, use_structured_name=True):
        """Load values by structured name (or parameter name); returns (missing_keys, unexpected_keys)."""
        missing, matched, pairs = [], set(), []
        for key, param in self._state_dict_impl(use_hook=False).items():
            key_name = key if use_structured_name else param.name
            state = state_dict.get(key_name, None)
            if state is None:
                missing.append(key_name)
                warnings.warn(f"Skip loading for {key}. {key_name} is not found in the provided dict.")
                continue
            if isinstance(state, (dict, list)):
                ok, got, want = len(state) == len(param), len(state), len(param)
                msg = f"{key_name} receives the length of {got}, but the expected shape is {want}"
            else:
                shape = state.shape() if callable(state.shape) else state.shape
                ok = list(shape) == list(param.shape)
                msg = f"{key_name} receives a shape {list(shape)}, but the expected shape is {list(param.shape)}."
            if not ok:
                missing.append(key_name)
                warnings.warn(f"Skip loading for {key}. " + msg)
                continue
            matched.add(key_name)
            pairs.append((param, state))
        unexpected = [k for k in state_dict.keys() if k not in matched]
        for param, state in pairs:
            param.set_value(state)
        return missing, unexpected

    set_dict = set_state_dict
    load_dict = set_state_dict

    def load_state_dict(self, state_dict, strict=True, assign=False):
        missing, unexpected = self.set_state_dict(state_dict, use_structured_name=True)
        msgs = []
        if strict:
            if unexpected:
                msgs.insert(0, "Unexpected key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                msgs.insert(0, "Missing key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in missing)))
        if msgs:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(type(self).__name__,
                                                                                 "\n\t".join(msgs)))
        return _IncompatibleKeys(missing, unexpected)

    # ---------------------------------------------------------------- dtype / device
    def to(self, device=None, dtype=None, blocking=None, non_blocking=None):
        return self._to_impl(device=device, dtype=dtype, blocking=blocking, non_blocking=non_blocking,
                             include_sublayers=True, floating_only=False)

    def _to_impl(self, device=None, dtype=None, blocking=None, non_blocking=None, include_sublayers=True,
                 floating_only=False):
        from ..._core.place import Place, to_torch_device

        if device is None and dtype is None and blocking is None and non_blocking is None:
            return self
        if device is not None and not isinstance(device, (str, Place)):
            raise ValueError("device should be type of str, paddle.CPUPlace, paddle.CUDAPlace, "
                             "paddle.CUDAPinnedPlace, paddle.XPUPlace, or paddle.base.libpaddle.Place, but got "
                             f"{type(device).__name__}")
        assert blocking is None or isinstance(blocking, bool), "blocking value error, must be the True, False or None"
        assert non_blocking is None or isinstance(non_blocking, bool), \
            "non_blocking value error, must be the True, False or None"
        tdev = None if device is None else to_torch_device(device)
        tdtype = None if dtype is None else _dtypes.to_torch_dtype(dtype)

        def convert(t):
            if floating_only and not (t.is_floating_point() or t.is_complex()):
                return t
            return t.to(device=tdev if tdev is not None else t.device, dtype=tdtype or t.dtype)

        layers = self.sublayers(include_self=True) if include_sublayers else [self]
        MUTATIONS[0] += 1  # parameters and buffers change dtype / device in place
        for layer in layers:
            for p in layer._parameters.values():
                if p is not None:
                    pt, stop_gradient = p._t, p.stop_gradient
                    with torch.no_grad():
                        pt.requires_grad_(False)  # torch refuses integer data under requires_grad
                        data, grad = convert(pt.data), None if pt.grad is None else convert(pt.grad)
                        # `.data =` keeps the tensor's identity, but only between tensors of one TensorImpl
                        # kind: a move to an out-of-tree device (PrivateUse1) gets a new leaf, as in
                        # torch.nn.Module._apply
                        if not torch._has_compatible_shallow_copy_type(pt, data):
                            pt = p._t = data
                        else:
                            pt.data = data
                        pt.grad = grad
                    p.stop_gradient = stop_gradient
            for b in layer._buffers.values():
                if b is not None:
                    b._t = convert(b._t)
            layer._dtype = dtype
        return self

    def astype(self, dtype=None):
        """As in Paddle 3.3.1: records `dtype` on this layer and its sublayers; parameter data stay as they are."""
        dtype = _checked_dtype(dtype)
        for layer in self.sublayers(include_self=True):
            layer._dtype = dtype
        return self

    def type(self, dst_type):
        dst_type = _checked_dtype(dst_type)
        return self._to_impl(dtype=dst_type, include_sublayers=True)

    def double(self):
        return self.type(_dtypes.float64)

    def half(self):
        return self.type(_dtypes.float16)

    def _cast_floating(self, dtype, excluded_layers):
        if excluded_layers is None:
            excluded_layers = []
        if isinstance(excluded_layers, type):
            excluded_layers = [excluded_layers]
        elif isinstance(excluded_layers, (list, tuple)):
            excluded_layers = list(excluded_layers)
        else:
            raise TypeError(f"excluded_layers should be type nn.Layer or list, but got "
                            f"{type(excluded_layers).__name__}.")

        def layer_trans(layer):
            if type(layer) not in excluded_layers:
                layer._to_impl(dtype=dtype, floating_only=True, include_sublayers=False)

        return self.apply(layer_trans)

    def float(self, excluded_layers=None):
        return self._cast_floating(_dtypes.float32, excluded_layers)

    def float16(self, excluded_layers=None):
        return self._cast_floating(_dtypes.float16, _default_excluded(excluded_layers))

    def bfloat16(self, excluded_layers=None):
        return self._cast_floating(_dtypes.bfloat16, _default_excluded(excluded_layers))

    def cpu(self):
        return self._to_impl(device="cpu")

    def cuda(self, device=None):
        from ..._core.place import CUDAPlace, Place

        if device is None or isinstance(device, int):
            device = CUDAPlace(device or 0)
        elif not isinstance(device, Place):
            raise TypeError(f"device must be int, paddle.CUDAPlace or None, got {type(device)}")
        return self._to_impl(device=device)

    # ---------------------------------------------------------------- calling
    def forward(self, *inputs, **kwargs):
        raise NotImplementedError

    def backward(self, *inputs):
        raise ValueError("Layer shouldn't implement backward")

    def _build_once(self, *args, **kwargs):
        pass

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        helper = _HookRemoveHelper(self._forward_pre_hooks, [self._forward_pre_hooks_with_kwargs_flag])
        self._forward_pre_hooks[helper._hook_id] = hook
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs_flag[helper._hook_id] = True
        if prepend:
            self._forward_pre_hooks.move_to_end(helper._hook_id, last=False)
        return helper

    def register_forward_post_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        helper = _HookRemoveHelper(self._forward_post_hooks, [self._forward_post_hooks_with_kwargs_flag,
                                                               self._forward_post_hooks_always_called])
        self._forward_post_hooks[helper._hook_id] = hook
        if with_kwargs:
            self._forward_post_hooks_with_kwargs_flag[helper._hook_id] = True
        if always_call:
            self._forward_post_hooks_always_called[helper._hook_id] = True
        if prepend:
            self._forward_post_hooks.move_to_end(helper._hook_id, last=False)
        return helper

    register_forward_hook = register_forward_post_hook

    def __call__(self, *inputs, **kwargs):
        d = self.__dict__
        if not d["_forward_pre_hooks"] and not d["_forward_post_hooks"] and (
                d["_built"] or type(self)._build_once is Layer._build_once):
            return self.forward(*inputs, **kwargs)
        return self._call_with_hooks(inputs, kwargs)

    def _call_with_hooks(self, inputs, kwargs):
        outputs, called = None, set()
        try:
            for hook_id, hook in self._forward_pre_hooks.items():
                if hook_id in self._forward_pre_hooks_with_kwargs_flag:
                    r = hook(self, inputs, kwargs)
                    if r is not None:
                        if not (isinstance(r, tuple) and len(r) == 2):
                            raise RuntimeError("forward pre-hook must return None or a tuple of (new_args, "
                                               f"new_kwargs), but got {r}.")
                        inputs, kwargs = r
                else:
                    r = hook(self, inputs)
                    if r is not None:
                        inputs = r if isinstance(r, tuple) else (r,)
            if not self._built:
                self._build_once(*inputs, **kwargs)
                self._built = True
            outputs = self.forward(*inputs, **kwargs)
            for hook_id, hook in self._forward_post_hooks.items():
                if hook_id in self._forward_post_hooks_always_called:
                    called.add(hook_id)
                if hook_id in self._forward_post_hooks_with_kwargs_flag:
                    r = hook(self, inputs, kwargs, outputs)
                else:
                    r = hook(self, inputs, outputs)
                if r is not None:
                    outputs = r
            return outputs
        except Exception:
            for hook_id, hook in self._forward_post_hooks.items():
                if hook_id in self._forward_post_hooks_always_called and hook_id not in called:
                    try:
                        if hook_id in self._forward_post_hooks_with_kwargs_flag:
                            r = hook(self, inputs, kwargs, outputs)
                        else:
                            r = hook(self, inputs, outputs)
                        if r is not None:
                            outputs = r
                    except Exception as e:
                        warnings.warn("forward hook with ``always_call=True`` raised an exception that was silenced "
                                      f"as another error was raised in forward: {e!s}")
            raise

    # ---------------------------------------------------------------- repr
    def extra_repr(self):
        return ""

    def __repr__(self):
        extra_lines = self.extra_repr().split("\n")
        sublayer_lines = [f"({name}): " + _addindent(repr(layer), 2) for name, layer in self._sub_layers.items()]
        s = type(self).__name__ + "("
        if len(extra_lines) > 1:
            s += "\n  " + "\n  ".join(extra_lines) + "\n"
        else:
            s += extra_lines[0]
        if sublayer_lines:
            s += "\n  " + "\n  ".join(sublayer_lines) + "\n"
        return s + ")"

    def _get_name(self):
        return type(self).__name__


def parameter_pair(layer, a, b):
    """`(layer.<a>, layer.<b>)` -- the two weights a layer's forward reads (`weight`, `bias`) -- without the
    two failed attribute lookups.  A read that falls through to Layer.__getattr__ costs about 0.65 us on
    Python 3.11 (most of it raising and dropping an AttributeError first), a tenth of a small Linear's
    call.  The answer is the same: the parameter table is read only when the ordinary lookup would have
    ended there (no instance or class attribute of either name, neither __getattribute__ nor
    __getattr__ overridden); anything else takes the ordinary lookup."""
    cls = type(layer)
    d = layer.__dict__
    if a not in d and b not in d and cls.__getattr__ is _LAYER_GETATTR and cls.__getattribute__ is _GETATTRIBUTE:
        for c in cls.__mro__:
            cd = c.__dict__
            if a in cd or b in cd:
                break
        else:
            t = d.get("_parameters")
            if t is not None and a in t and b in t:
                return t[a], t[b]
    return getattr(layer, a), getattr(layer, b)


_LAYER_GETATTR = Layer.__getattr__
_GETATTRIBUTE = object.__getattribute__


def _default_excluded(excluded_layers):
    if excluded_layers is not None:
        return excluded_layers
    try:  # Paddle keeps nn.BatchNorm's parameters in float32 by default
        from .norm import BatchNorm
    except ImportError:
        return []
    return [BatchNorm]


def _addindent(s, indent):
    lines = s.split("\n")
    if len(lines) == 1:
        return s
    return lines[0] + "\n" + "\n".join(" " * indent + line for line in lines[1:])

_first_cap_re = re.compile("(.)([A-Z][a-z]+)")
_all_cap_re = re.compile("([a-z])([A-Z])")


def _convert_camel_to_snake(name):
    """Paddle's layer-name rule: RMSNorm -> rms_norm, MyLayer -> my_layer."""
    return _all_cap_re.sub(r"\1_\2", _first_cap_re.sub(r"\1_\2", name)).lower()
