"""The run-time side of the control-flow conversion (what converted code calls as `_jst.*`).

Each operator looks at its predicate: a Python value, or a Tensor holding a real value, runs the
Python statement as written (so a converted function called eagerly behaves as the original); a
Tensor being traced (by torch.export's non-strict tracer, which paddle.jit.save uses, or by dynamo
under to_static) becomes one structured control-flow op, torch.cond or torch.while_loop, through
paddle_on_torch.jit.dy2static.tracing.  Which values cross a branch or loop boundary, and how Python
values there become tensors, follows Paddle's dy2static rules (docs/jit.md, "Control flow").
"""
import operator

import torch

from ... import _normalize
from . import tracing

__all__ = ["UndefinedVar", "convert_ifelse", "convert_ifexp", "convert_while", "And", "Or", "Not",
           "convert_assert", "range_args", "range_cond", "for_sequence", "convert_len", "seq_item",
           "ConversionError"]


class ConversionError(RuntimeError):
    """Python control flow on a traced Tensor that has no structured equivalent here."""


class UndefinedVar:
    """A local not assigned yet (converted code binds every local the branches assign at entry).

    Using it is the UnboundLocalError that Python would have raised; a branch or loop that leaves
    it undefined keeps it undefined (Paddle's UndefinedVar)."""

    __slots__ = ("_name",)

    def __init__(self, name):
        object.__setattr__(self, "_name", name)

    def __repr__(self):
        return f"UndefinedVar({self._name!r})"

    def _fail(self, *args, **kwargs):
        raise UnboundLocalError(f"local variable '{object.__getattribute__(self, '_name')}' is used before it is "
                                "assigned (a converted if / loop assigns it on some paths only)")

    def __getattr__(self, item):
        if item.startswith("_"):  # protocol probing (hasattr, copy, pytree): not a use of the variable
            raise AttributeError(item)
        self._fail()

    __call__ = __bool__ = __len__ = __iter__ = __getitem__ = __index__ = __int__ = __float__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _fail
    __lt__ = __le__ = __gt__ = __ge__ = _fail


# ------------------------------------------------------------------ predicates
def _traced(pred):
    """True when `pred` is a value under tracing (its branch cannot be chosen now)."""
    if isinstance(pred, _normalize.Tensor):
        return tracing.is_traced(pred._t)
    if isinstance(pred, torch.Tensor):
        return tracing.is_traced(pred)
    if isinstance(pred, torch.SymBool):
        return tracing.symbolic_is_traced(pred)
    return False


def _as_bool_tensor(pred):
    """The predicate of a traced branch as a 1-element bool torch tensor (or a SymBool)."""
    if isinstance(pred, torch.SymBool):
        return pred
    t = pred._t if isinstance(pred, _normalize.Tensor) else pred
    if t.numel() != 1:
        raise ValueError(f"The condition of a converted `if` / `while` must have exactly one element, but its "
                         f"shape is {list(t.shape)}")
    if t.dtype != torch.bool:
        t = t != 0
    return t.reshape(())


# ------------------------------------------------------------------ if / else
def convert_ifelse(pred, true_fn, false_fn, args, names):
    """`if pred: ... else: ...` over the branch functions `true_fn(*args)` / `false_fn(*args)`.

    `names` are the variables the statement leaves behind (the branches return their values as a
    tuple), or None for an `if` whose branches `return` (their return value is the result)."""
    if not _traced(pred):
        return true_fn(*args) if pred else false_fn(*args)
    return tracing.cond(_as_bool_tensor(pred), true_fn, false_fn, args, names)


def convert_ifexp(pred, true_fn, false_fn):
    """`a if pred else b`."""
    if not _traced(pred):
        return true_fn() if pred else false_fn()
    return tracing.cond(_as_bool_tensor(pred), lambda: true_fn(), lambda: false_fn(), (), None)


# ------------------------------------------------------------------ while
def convert_while(cond_fn, body_fn, args, names):
    """`while cond_fn(*args): args = body_fn(*args)`; returns the final values of `names`."""
    pred = cond_fn(*args)
    while not _traced(pred):
        if not pred:
            return args
        args = body_fn(*args)
        pred = cond_fn(*args)
    # traced from the start, or from the iteration where the condition became a Tensor (a `break` under a
    # Tensor condition in a Python loop): the remaining iterations are one while_loop
    return tracing.while_loop(cond_fn, body_fn, args, names)


# ------------------------------------------------------------------ and / or / not
def _is_tensor(v):
    return isinstance(v, _normalize.Tensor) and _traced(v)


def And(x_fn, y_fn):  # noqa: N802 - Paddle's _jst.And
    """`x and y`: Python's short circuit, or paddle.logical_and when both sides are traced Tensors."""
    x = x_fn()
    if not _is_tensor(x):
        return x and y_fn()
    y = y_fn()
    if not _is_tensor(y):
        return y and x  # Paddle's rule for a Python right-hand side
    return _logical(torch.logical_and, x, y)


def Or(x_fn, y_fn):  # noqa: N802 - Paddle's _jst.Or
    """`x or y`, as And."""
    x = x_fn()
    if not _is_tensor(x):
        return x or y_fn()
    y = y_fn()
    if not _is_tensor(y):
        return y or x
    return _logical(torch.logical_or, x, y)


def Not(x):  # noqa: N802 - Paddle's _jst.Not
    """`not x`: paddle.logical_not of a traced Tensor, Python's `not` otherwise."""
    if _is_tensor(x):
        return _normalize.wrap(torch.logical_not(x._t.to(torch.bool)))
    if isinstance(x, torch.SymBool):
        return not x  # stays symbolic
    return not x


def _logical(fn, x, y):
    return _normalize.wrap(fn(x._t.to(torch.bool), y._t.to(torch.bool)))


def convert_assert(test, msg_fn=None):
    """`assert test, msg`: checked now, or recorded in the traced program as a run-time check."""
    if _traced(test):
        msg = "assertion failed" if msg_fn is None else str(msg_fn())
        torch._assert_async(_as_bool_tensor(test), msg)
        return
    if not test:
        if msg_fn is None:
            raise AssertionError
        raise AssertionError(msg_fn())


# ------------------------------------------------------------------ for loops (converted to while)
def range_args(*args):
    """range(...)'s (start, stop, step), any of which may be a Tensor (Paddle's convert_range)."""
    if len(args) == 1:
        start, stop, step = 0, args[0], 1
    elif len(args) == 2:
        start, stop, step = args[0], args[1], 1
    elif len(args) == 3:
        start, stop, step = args
    else:
        raise TypeError(f"range expected at most 3 arguments, got {len(args)}")
    if not any(isinstance(a, _normalize.Tensor) for a in (start, stop, step)):
        for a in (start, stop, step):
            operator.index(a)  # Python's TypeError for floats and the like
        if step == 0:
            raise ValueError("range() arg 3 must not be zero")
    return start, stop, step


def range_cond(i, stop, step):
    """The loop test of a converted `for i in range(...)` (also of `for x in seq`, over its length)."""
    if isinstance(step, _normalize.Tensor):
        if _traced(step):
            raise ConversionError("`for ... in range(start, stop, step)` with a traced Tensor step is not "
                                  "supported; use a Python int step")
        step = int(step.item())
    if isinstance(i, _normalize.Tensor) and isinstance(stop, (torch.SymInt, int)):
        # a traced loop counter against a Python or symbolic length: compared in torch (a SymInt is no Tensor)
        t = i._t
        return _normalize.wrap(t < stop if step > 0 else t > stop)
    return i < stop if step > 0 else i > stop


def for_sequence(obj):
    """What a converted `for x in obj` indexes: a Tensor (along its first dim) or a Python sequence."""
    if isinstance(obj, _normalize.Tensor):
        if obj.ndim == 0:
            raise TypeError("iteration over a 0-D tensor")
        return obj
    if isinstance(obj, (list, tuple)):
        return obj
    return list(obj)  # dicts, zip, enumerate of Python values, LayerLists, generators


def convert_len(obj):
    """len() that stays symbolic for a traced Tensor whose first dim is dynamic."""
    if isinstance(obj, _normalize.Tensor):
        n = obj._t.shape[0]
        if isinstance(n, torch.SymInt) and tracing.is_traced(obj._t):
            return n
        return int(n)
    return len(obj)


def seq_item(seq, i):
    """seq[i] for the converted `for` loop (i may be a traced int64 Tensor inside a while_loop)."""
    if isinstance(i, _normalize.Tensor):
        if not isinstance(seq, _normalize.Tensor):
            raise ConversionError("A `for` loop over a Python sequence cannot run inside a loop whose condition is "
                                  "a traced Tensor")
        idx = i._t.reshape(()).to(torch.int64)
        return _normalize.wrap(torch.index_select(seq._t, 0, idx.reshape(1)).squeeze(0))
    if isinstance(i, torch.SymInt):
        return seq[i] if not isinstance(seq, _normalize.Tensor) else _normalize.wrap(seq._t[i])
    return seq[i]
