"""paddle Tensor <-> torch tensor: wrapping results, unwrapping arguments, and the switches (hooks) that
change every op at once."""
import torch

from .._core import amp_state as _amp_state

# Registered by paddle_on_torch.tensor.tensor (the Tensor class lives there, see register_tensor);
# kept as module globals so the generated wrappers look them up directly.
Tensor = None
_SET_STATIC_VIEW = None
_FROM_DATA = None  # data (lists, numpy, scalars) -> torch tensor: tensor/creation.py's, see register_data_converter
_new = object.__new__
# Every generated wrapper's globals ("_impl": what it calls, "_plain": the implementation itself).
_OP_NAMESPACES = []

# ----------------------------------------------------------------- hooks of the code generator
# What changes every op at once is switched here, never by patching wrappers from outside:
# - static mode (paddle.static) records ops instead of running them: `set_impl_hook(make)` makes each
#   wrapper call `make(impl)` (ops defined while it is on included), `set_impl_hook(None)` the plain
#   implementations again; dynamic mode pays nothing for it; its `view=` is how Variables print (given to the
#   Tensor class through the hook it registered, register_tensor);
# - paddle.amp.auto_cast: the wrappers cast their tensor inputs while `_core.amp_state._state` is set (one check);
# - to_static's guards: MUTATIONS counts Tensors given another torch tensor (`rebind`) and Layer changes.
_IMPL_HOOK = None


def register_tensor(cls, set_static_view):
    """The paddle Tensor class, registered once by tensor/tensor.py at import: what every wrapper makes, and
    `set_static_view(view)`, how set_impl_hook gives it static mode's view of a Variable.  (The package's
    register_tensor calls this and gives the class to the other modules of the layer too.)"""
    global Tensor, _SET_STATIC_VIEW
    Tensor, _SET_STATIC_VIEW = cls, set_static_view


def register_data_converter(fn):
    """`fn(data, dtype)`: what paddle.to_tensor does to data that is not a Tensor, registered by
    tensor/creation.py at import (it stands on this layer)."""
    global _FROM_DATA
    _FROM_DATA = fn


def set_impl_hook(make, view=None):
    """Make every op wrapper call `make(implementation)` instead of its implementation (None: undo).  `view`
    (static mode's): `view(tensor, what)` is how a Variable shows its "shape", "name" and "repr" (kept once set:
    Variables made in static mode still print as Variables after it)."""
    global _IMPL_HOOK
    _IMPL_HOOK = make
    if view is not None:
        _SET_STATIC_VIEW(view)
    for ns in _OP_NAMESPACES:
        ns["_impl"] = ns["_plain"] if make is None else make(ns["_plain"])


def _register(impl):
    """A new wrapper's globals, with the hook in force applied."""
    ns = {"_plain": impl, "_impl": impl if _IMPL_HOOK is None else _IMPL_HOOK(impl)}
    _OP_NAMESPACES.append(ns)
    return ns


def static_mode():
    """Whether ops are being recorded into a static Program (paddle.enable_static): Paddle checks some arguments
    in Python there, with other errors than its dynamic kernels'."""
    return _IMPL_HOOK is not None


def plain_mode():
    """Ops run their implementations as written: no static-mode recording, no auto_cast."""
    return _IMPL_HOOK is None and _amp_state._state is None


# Bumped whenever a Tensor is given another torch tensor (rebind) or a Layer changes (nn/layer/layers.py):
# to_static skips the guards inside Layers while it stays the same (jit/_guards.py).
MUTATIONS = [0]


def rebind(x, t):
    """Give paddle Tensor x another torch tensor (another shape, dtype or history), as `out=`, paddle.assign
    and shape-changing in-place ops do."""
    x._t = t
    MUTATIONS[0] += 1


def wrap(t):
    """torch.Tensor -> paddle Tensor, sharing storage and autograd history."""
    obj = _new(Tensor)
    obj._t = t
    return obj


def wrap_result(r):
    """Wrap every torch tensor in a result (a tensor, tuple, list or namedtuple)."""
    if type(r) is torch.Tensor:
        obj = _new(Tensor)
        obj._t = r
        return obj
    if isinstance(r, torch.Tensor):  # Parameter, DTensor, ...
        return wrap(r)
    if isinstance(r, (tuple, list)):  # (split, unbind, topk, ...: plain tensors, wrapped inline)
        out = []
        for v in r:
            if type(v) is torch.Tensor:
                obj = _new(Tensor)
                obj._t = v
                out.append(obj)
            else:
                out.append(wrap_result(v))
        return out if isinstance(r, list) else tuple(out)
    return r


def unwrap(x):
    """paddle Tensor -> torch.Tensor; anything else unchanged (recursing into lists)."""
    if isinstance(x, Tensor):
        return x._t
    if isinstance(x, (list, tuple)):
        return type(x)(unwrap(v) for v in x)
    if isinstance(x, dict):
        return {k: unwrap(v) for k, v in x.items()}
    return x


def is_tensor(x):
    """Whether x is a paddle Tensor (a Parameter included): the test for code outside the generated wrappers."""
    return isinstance(x, Tensor)


def to_torch(x):
    """The converter behind TensorLike."""
    if type(x) is Tensor or isinstance(x, Tensor):
        return x._t
    if isinstance(x, torch.Tensor):
        return x
    return _tensor_from_data(x)


def _tensor_from_data(x, dtype=None):
    return _FROM_DATA(x, dtype)
