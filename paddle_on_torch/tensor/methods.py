"""Bind the `paddle.*` functions onto Tensor as methods, and the Python operators.

A method *is* its function (`Tensor.sum is paddle.sum`): the function's
first parameter takes the tensor, so the two can never drift apart.  Which
functions become methods is Paddle's own list (`tensor_methods` in
_paddle_api.json, recorded from paddle.tensor.tensor_method_func).
In-place methods (`x.add_(y)`) come from `inplace.py`.
"""
import torch

from .. import _normalize
from .._api import paddle_api
import importlib

from . import indexing, inplace, logic, math
from .tensor import Tensor

# Where Tensor methods come from: each family's `__all__` (also exported as paddle.*) and its
# `__tensor_methods__` (methods only).  Earlier families win a name.  (Imported by module path:
# `paddle.tensor.einsum` is the function, as in Paddle, so the attribute is not the module.)
_FAMILIES = tuple(importlib.import_module(f"{__package__}.{name}") for name in (
    "attribute", "creation", "einsum", "linalg", "logic", "manipulation", "math", "random", "search", "stat", "sparse_methods"))


def _rfloordiv(self, other):
    # Paddle turns the scalar into a shape-[1] tensor here (so a 0-D operand gives shape [1])
    if not _normalize.is_tensor(other):
        other = _normalize.wrap(torch.tensor([other], device=self._t.device))
    return math.floor_divide(other, self)


def _operators():
    m, lg = math, logic
    forward = {"__add__": m.add, "__sub__": m.subtract, "__mul__": m.multiply, "__truediv__": m.divide,
               "__floordiv__": m.floor_divide, "__mod__": m.remainder, "__pow__": m.pow, "__and__": lg.bitwise_and,
               "__or__": lg.bitwise_or, "__xor__": lg.bitwise_xor, "__lshift__": m.bitwise_left_shift,
               "__rshift__": m.bitwise_right_shift, "__eq__": lg.equal, "__ne__": lg.not_equal,
               "__lt__": lg.less_than, "__le__": lg.less_equal, "__gt__": lg.greater_than,
               "__ge__": lg.greater_equal}
    reflected = {"__radd__": m.add, "__rsub__": m.subtract, "__rmul__": m.multiply, "__rtruediv__": m.divide,
                 "__rmod__": m.remainder, "__rpow__": m.pow, "__rand__": lg.bitwise_and, "__ror__": lg.bitwise_or,
                 "__rxor__": lg.bitwise_xor}
    # Operators whose function's implementation is exactly one torch call (tests/test_properties.py
    # checks operator == function): the operator calls it directly.
    direct = {"__add__": torch.add, "__sub__": torch.sub, "__mul__": torch.mul, "__truediv__": torch.true_divide,
              "__eq__": torch.eq, "__ne__": torch.ne, "__lt__": torch.lt, "__le__": torch.le, "__gt__": torch.gt,
              "__ge__": torch.ge}
    ops = {k: _normalize.binary_operator(fn, k, torch_op=direct.get(k)) for k, fn in forward.items()}
    ops.update({k: _normalize.binary_operator(fn, k, reflected=True) for k, fn in reflected.items()})
    ops.update({"__rfloordiv__": _rfloordiv, "__matmul__": m.matmul_operator,
                "__rmatmul__": lambda self, other: m.matmul(other, self), "__neg__": m.neg, "__pos__": m.positive,
                "__abs__": m.abs, "__invert__": lg.bitwise_not})
    return ops


def bind(lenders, package_namespace):
    """Attach every implemented Tensor method; called once, by paddle_on_torch/__init__.  `lenders`: the
    namespaces above the tensor layer whose functions are methods too (paddle.linalg, signal, special: x.det(),
    x.stft(), x.softmax(), Paddle's Tensor.softmax being the torch-style paddle.special one);
    `package_namespace`: the paddle module's names, the out-of-place twins of the in-place methods."""
    api = paddle_api()
    # Paddle's method list, plus the functions Paddle patches on as methods beyond it (astype, ...)
    wanted = set(api["tensor_methods"]) | set(api["tensor_attributes"])
    sources = [(fam, list(fam.__all__) + list(getattr(fam, "__tensor_methods__", ()))) for fam in _FAMILIES]
    sources += [(ns, ns.__all__) for ns in lenders]
    for module, names in sources:
        for name in names:
            if name in wanted and name not in Tensor.__dict__:
                setattr(Tensor, name, getattr(module, name))
    for name, fn in _operators().items():
        setattr(Tensor, name, fn)
    Tensor.__getitem__, Tensor.__setitem__ = indexing.getitem, indexing.setitem
    Tensor.__hash__ = lambda self: id(self)  # defining __eq__ would otherwise drop hashing
    inplace.bind(Tensor, package_namespace)
