"""The one place where Paddle arguments become torch arguments.

API functions are written as thin implementations over torch tensors and
annotate each parameter with what it means to Paddle (the idea comes from
torch._numpy's normalizers):

    @op
    def sum(x: TensorLike, axis: AxisLike = None, dtype: DTypeLike = None,
            keepdim=False, name=None, *, out=None):
        return torch.sum(x, dim=axis, keepdim=keepdim, dtype=dtype)

`op` generates, once at import, a wrapper with the same signature that
converts each annotated argument (a paddle Tensor to its torch tensor, an
axis list to a tuple, 'float32' to torch.float32, ...), calls the
implementation and wraps torch tensors in the result back into paddle
Tensors.  The wrapper is straight-line code with no loops over parameters,
so the per-op cost stays near a plain Python call.  It also gives every op
Paddle 3.3's torch-style keyword aliases (`input=`, `dim=`, `other=`,
`keepdims=`) and the `out=` keyword where the signature has one.
"""
import inspect
import linecache
import numbers

import numpy as np
import torch

from ._errors import translate
from .amp import _state as _amp_state
from .framework import dtype as _dtypes

__all__ = ["op", "TensorLike", "OptionalTensor", "TensorSequence", "AxisLike", "DTypeLike",
           "ShapeLike", "ScalarOrTensor", "wrap", "unwrap", "to_torch", "wrap_result"]

# ----------------------------------------------------------------- markers
# Annotations only: they name the converter the generated wrapper calls.


class TensorLike:
    """A paddle Tensor (or something to_tensor accepts) -> torch.Tensor."""


class OptionalTensor:
    """None or a TensorLike."""


class TensorSequence:
    """A list/tuple of Tensors -> list of torch.Tensor."""


class AxisLike:
    """None, an int, a list/tuple of ints or a Tensor -> None, int or tuple of ints."""


class DTypeLike:
    """Any dtype spelling -> torch.dtype (None stays None)."""


class ShapeLike:
    """A list/tuple of ints or 1-element Tensors, or a 1-D Tensor -> list of ints."""


class ScalarOrTensor:
    """A Python number stays a number; a Tensor becomes a torch.Tensor."""


# ----------------------------------------------------------------- wrapping
# Filled in by paddle_on_torch.tensor.tensor (the Tensor class lives there);
# kept as module globals so the generated wrappers look them up directly.
Tensor = None
_new = object.__new__
# Every generated wrapper's globals: static mode swaps their `_impl` for a recording one while it is
# on (paddle_on_torch.static.program), so dynamic mode pays nothing for it.
_OP_NAMESPACES = []


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


def to_torch(x):
    """The converter behind TensorLike."""
    if type(x) is Tensor or isinstance(x, Tensor):
        return x._t
    if isinstance(x, torch.Tensor):
        return x
    return _tensor_from_data(x)


def _tensor_from_data(x, dtype=None):
    from .tensor.creation import _as_torch  # late: creation imports this module

    return _as_torch(x, dtype)


def _optional_tensor(x):
    return None if x is None else to_torch(x)


def _tensor_arg(x, api, name, pos):
    """TensorLike's converter for what is not a paddle Tensor (the wrappers inline that case): data that
    to_tensor takes becomes a tensor; None and other objects are Paddle's ValueError naming the argument."""
    if x is None or isinstance(x, (str, bytes, dict, set)):
        raise ValueError(f"(InvalidArgument) {api.rsplit('.', 1)[-1]}(): argument '{name}' (position {pos}) must be "
                         f"Tensor, but got {'None' if x is None else type(x).__name__}")
    return to_torch(x)


def _operand(x, api, name, pos):
    """The converter of a binary op's operand that is not a paddle Tensor: a number stays a number."""
    if x is None:
        _tensor_arg(x, api, name, pos)
    return _scalar_or_tensor(x)


def _tensor_sequence(xs):
    if isinstance(xs, Tensor):  # Paddle accepts a stacked Tensor where a list is expected
        return list(xs._t.unbind(0))
    return [v._t if type(v) is Tensor else to_torch(v) for v in xs]


def _scalar_or_tensor(x):
    if isinstance(x, Tensor):
        return x._t
    if isinstance(x, (bool, int, float, complex)):
        return x
    if isinstance(x, np.generic):
        return x.item()
    return to_torch(x)


def _axis(axis):
    if axis is None or type(axis) is int:
        return axis
    if isinstance(axis, Tensor):
        axis = axis._t.tolist()
        return axis if isinstance(axis, int) else tuple(axis)
    if isinstance(axis, (list, tuple)):
        for a in axis:
            if type(a) is not int:
                return tuple(int(a) for a in axis)
        return tuple(axis)
    if isinstance(axis, numbers.Integral):
        return int(axis)
    raise TypeError(f"The type of 'axis' must be int, list or tuple, but received {type(axis).__name__}.")


def int_arg(v, err=TypeError, api=None):
    """An int from an int or a 1-element tensor (Paddle accepts Tensors for most integer attributes); a float, a
    string or None is Paddle's error for an integer attribute (TypeError for most ops, ValueError for some)."""
    if isinstance(v, torch.Tensor):
        return int(v.item())
    if isinstance(v, Tensor):
        return int(v._t.item())
    if isinstance(v, (float, str, bytes)) or v is None:
        kind = "InvalidType" if err is TypeError else "InvalidArgument"
        raise err(f"({kind}) {api + '(): ' if api else ''}an integer argument (an axis, a size, a count) must be int, "
                  f"but got {type(v).__name__}")
    return int(v)


# DTypeLike for a string spelling ('float32', 'bool', 'paddle.int64', 'float'): the torch dtype, memoised, as a
# name always means the same dtype (unlike the Python type `float`, which follows the default dtype)
_DTYPE_BY_NAME = {}


def _dtype_by_name(name):
    t = _dtypes.to_torch_dtype(name)  # (an unknown name raises here and is not remembered)
    _DTYPE_BY_NAME[name] = t
    return t


def _shape(shape):
    t = type(shape)
    if t is list or t is tuple:  # the common case: plain ints, checked without a per-element call
        for v in shape:
            if type(v) is not int and not isinstance(v, torch.SymInt):  # (symbolic sizes stay symbolic)
                break
        else:
            return list(shape)
    if isinstance(shape, Tensor):
        return [int(v) for v in shape._t.reshape(-1).tolist()]
    if isinstance(shape, (list, tuple)):
        for i, v in enumerate(shape):
            if isinstance(v, (float, str)) or v is None:
                raise TypeError(f"(InvalidType) the shape must be a list of int, but got {type(v).__name__} at "
                                f"position {i}: {list(shape)}")
        return [int(v._t.item()) if isinstance(v, Tensor) else int(v) for v in shape]
    if isinstance(shape, numbers.Integral):
        return [int(shape)]
    raise TypeError(f"The type of 'shape' must be list, tuple or Tensor, but received {type(shape).__name__}.")


_CONVERTERS = {
    TensorLike: "_to_torch",
    OptionalTensor: "_optional_tensor",
    TensorSequence: "_tensor_sequence",
    AxisLike: "_axis",
    DTypeLike: "_to_torch_dtype",
    ShapeLike: "_shape",
    ScalarOrTensor: "_scalar_or_tensor",
}

# Paddle 3.3 accepts torch's keyword names beside its own.
ALIASES = {"input": "x", "other": "y", "dim": "axis", "keepdims": "keepdim"}
class _MissingType(type):
    def __repr__(cls):
        return "<required>"


# A class, not an instance of a throwaway class: dynamo can rebuild it from an op's defaults.
_MISSING = _MissingType("_MISSING", (), {})


def _write_out(out, r):
    """Paddle's `out=`: the values land in `out`; the function still returns its own result."""
    t = r._t
    if out._t.shape == t.shape and out._t.dtype == t.dtype:
        with torch.no_grad():
            out._t.copy_(t)
    else:
        rebind(out, t.detach())
    return r


def size_args(fn):
    """Paddle's size_args_decorator: `paddle.ones(2, 3)` means shape [2, 3], and `size=` means `shape=`."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if args and (type(args[0]) is list or type(args[0]) is tuple) and "size" not in kwargs:
            for d in args[0]:  # the common paddle.ones([2, 3]): only the float check below
                if isinstance(d, float):
                    raise TypeError(f"(InvalidType) the shape must be a list of int, but received {args[0]}.")
            return fn(*args, **kwargs)
        if "size" in kwargs:
            kwargs["shape"] = kwargs.pop("size")
        elif args and isinstance(args[0], int) and not isinstance(args[0], bool):
            kwargs["shape"] = list(args)
            args = ()
        shape = kwargs["shape"] if "shape" in kwargs else args[0] if args else None
        if isinstance(shape, (list, tuple)) and any(isinstance(d, float) for d in shape):
            raise TypeError(f"(InvalidType) the shape must be a list of int, but received {shape}.")
        return fn(*args, **kwargs)

    wrapper.__wrapped_impl__ = getattr(fn, "__wrapped_impl__", fn)
    return wrapper


def public_name(fn):
    """The name a Paddle user knows a function by: paddle_on_torch.tensor.math.add -> paddle.add."""
    from ._api import paddle_names

    mod = fn.__module__.split(".")
    if mod[:2] == ["paddle_on_torch", "tensor"]:  # the families: paddle.X, else paddle.linalg.X or a method
        for ns in ("paddle", "paddle.linalg", "paddle.fft"):
            if fn.__name__ in paddle_names(ns):
                return f"{ns}.{fn.__name__}"
        return f"paddle.Tensor.{fn.__name__}"
    if mod[-1] not in ("functional",) and len(mod) > 2 and mod[-2] == "functional":
        mod = mod[:-1]  # nn/functional/conv.py -> paddle.nn.functional
    return ".".join(["paddle"] + mod[1:] + [fn.__name__])


def _define(src, filename, ns):
    """Run generated source into `ns`, registered with linecache so tracebacks and inspect show its lines."""
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    exec(compile(src, filename, "exec"), ns)


def op(fn=None, *, aliases=None, binary=None):
    """Make a Paddle API function from an annotated torch implementation.

    `binary=("x", "y")` names two operands that follow Paddle's elementwise
    promotion rule (see `binary_operands`).
    """
    if fn is None:
        return lambda f: op(f, aliases=aliases, binary=binary)
    sig = inspect.signature(fn)
    params = list(sig.parameters.values())
    names = [p.name for p in params]
    alias_map = {a: t for a, t in {**ALIASES, **(aliases or {})}.items() if t in names and a not in names}

    assert Tensor is not None, "paddle_on_torch.tensor.tensor must be imported before any @op is defined"
    ns = {"_impl": fn, "_wrap_result": wrap_result, "_Tensor": Tensor, "_TT": torch.Tensor, "_new": _new, "_MISSING": _MISSING, "_write_out": _write_out,
          "_to_torch": to_torch, "_optional_tensor": _optional_tensor, "_tensor_sequence": _tensor_sequence,
          "_axis": _axis, "_to_torch_dtype": _dtypes.to_torch_dtype, "_shape": _shape,
          "_DTYPE_BY_NAME": _DTYPE_BY_NAME, "_dtype_by_name": _dtype_by_name,
          "_scalar_or_tensor": _scalar_or_tensor, "_binary_operands": binary_operands,
          "_tensor_arg": _tensor_arg, "_operand": _operand, "_translate": translate, "_api": public_name(fn)}
    header, body, call = [], [], []
    aliased_targets = set(alias_map.values())
    required = []  # required parameters that had to get a default (they follow an aliased one)
    seen_kwonly = False
    seen_default = False
    for p in params:
        dname = f"_d_{p.name}"
        if p.kind is p.VAR_POSITIONAL:
            header.append(f"*{p.name}")
            seen_kwonly = True
            call.append(f"*{p.name}")
            continue
        if p.kind is p.VAR_KEYWORD:
            continue  # added last, after the alias keywords
        if p.kind is p.KEYWORD_ONLY and not seen_kwonly:
            header.append("*")
            seen_kwonly = True
        if p.default is not p.empty:
            ns[dname] = p.default
            header.append(f"{p.name}={dname}")
            seen_default = True
        elif p.name in aliased_targets or (seen_default and not seen_kwonly):
            header.append(f"{p.name}=_MISSING")
            required.append(p.name)
            seen_default = True
        else:
            header.append(p.name)
        call.append(p.name if p.kind is not p.KEYWORD_ONLY else f"{p.name}={p.name}")
    if alias_map:
        if not seen_kwonly:
            header.append("*")
        for alias, target in alias_map.items():
            header.append(f"{alias}=_MISSING")
            body.append(f"if {alias} is not _MISSING: {target} = {alias}")
    for target in required:
        body.append(f"if {target} is _MISSING: raise TypeError(\"{fn.__name__}() missing required "
                    f"argument '{target}'\")")
    var_kw = [p for p in params if p.kind is p.VAR_KEYWORD]
    if var_kw:
        header.append(f"**{var_kw[0].name}")
        call.append(f"**{var_kw[0].name}")
    for p in params:
        conv = _CONVERTERS.get(p.annotation)
        if conv is None:
            continue
        n = p.name
        # the hot cases, inlined; isinstance (not `type() is`): as fast for a Tensor and it keeps a Parameter
        # (a Tensor subclass: every layer weight) out of to_torch's extra call
        pos = names.index(n)
        if conv == "_to_torch":
            line = f"{n} = {n}._t if isinstance({n}, _Tensor) else _tensor_arg({n}, _api, {n!r}, {pos})"
        elif conv == "_optional_tensor":
            line = (f"if {n} is not None: {n} = {n}._t if isinstance({n}, _Tensor) else "
                    f"_tensor_arg({n}, _api, {n!r}, {pos})")
        elif conv == "_axis":
            line = f"if {n} is not None and type({n}) is not int: {n} = _axis({n})"
        elif conv == "_to_torch_dtype":  # a dtype spelled as a string ('float32') is looked up in a memo
            line = (f"if {n} is not None: {n} = (_DTYPE_BY_NAME.get({n}) or _dtype_by_name({n})) "
                    f"if type({n}) is str else _to_torch_dtype({n})")
        else:
            line = f"{n} = {conv}({n})"
        if p.default is None and conv not in ("_optional_tensor", "_axis", "_to_torch_dtype"):
            line = f"if {n} is not None: {line}"
        body.append(line)
    if binary:
        a, b = binary
        # inlined fast path of binary_operands: two paddle Tensors of one dtype, or a Tensor and a number
        body.append(f"{a} = {a}._t if type({a}) is _Tensor else _operand({a}, _api, {a!r}, {names.index(a)})")
        body.append(f"{b} = {b}._t if type({b}) is _Tensor else _operand({b}, _api, {b!r}, {names.index(b)})")
        body.append(f"if type({a}) is _TT and type({b}) is _TT and {a}.dtype is not {b}.dtype: "
                    f"_binary_operands({a}, {b})")
    # paddle.amp.auto_cast: cast the op's tensor inputs by Paddle's lists (one check when AMP is off)
    amp_args = [p.name for p in params if _CONVERTERS.get(p.annotation) in ("_to_torch", "_optional_tensor",
                                                                            "_tensor_sequence")]
    amp_args += [n for n in (binary or ()) if n not in amp_args]
    if amp_args:
        ns["_amp"] = _amp_state
        body.append(f"if _amp._state is not None: {', '.join(amp_args)}, = _amp.cast_inputs(_api, "
                    f"({', '.join(amp_args)},))")
    body.append("try:")
    body.append(f"    r = _impl({', '.join(call)})")
    body.append("    if type(r) is _TT:")
    body.append("        o = _new(_Tensor)")
    body.append("        o._t = r")
    body.append("    else:")
    body.append("        o = _wrap_result(r)")
    body.append("    return o if out is None else _write_out(out, o)" if "out" in names else "    return o")
    # torch's RuntimeError -> Paddle's ValueError/TypeError; costs nothing unless something raised
    body.append("except (RuntimeError, IndexError, MemoryError) as e:")
    body.append("    t = _translate(e, _api)")
    body.append("    if t is None: raise")
    body.append("    raise t from None")
    src = f"def {fn.__name__}({', '.join(header)}):\n" + "".join(f"    {line}\n" for line in body)
    _define(src, f"<paddle_on_torch.op {fn.__module__}.{fn.__name__}>", ns)
    _OP_NAMESPACES.append(ns)
    wrapper = ns[fn.__name__]
    wrapper.__module__ = fn.__module__
    wrapper.__qualname__ = fn.__qualname__
    wrapper.__doc__ = fn.__doc__
    wrapper.__wrapped_impl__ = fn
    wrapper.__binary__ = binary
    return wrapper


def _scalar_operand(v, like):
    """A Python scalar on the left of an operator (`2 - x`) becomes a 0-D tensor of its own dtype."""
    if isinstance(v, Tensor):
        return v._t
    if isinstance(v, np.generic):
        v = v.item()
    return torch.as_tensor(v, device=like.device)


def binary_operator(fn, name, reflected=False, torch_op=None):
    """The Python operator method (`x + y`, or `2 + x` when reflected) for a binary @op.

    The same implementation and promotion rule as the function, minus keyword handling: operators
    are the hottest path of all, so the generated code is as short as it can be.  `torch_op` (when the
    function's implementation is exactly that torch call) saves one more Python frame.
    """
    impl = fn.__wrapped_impl__ if torch_op is None else torch_op
    ns = {"_impl": impl, "_Tensor": Tensor, "_TT": torch.Tensor, "_new": _new, "_translate": translate,
          "_scalar_or_tensor": _scalar_or_tensor, "_binary_operands": binary_operands,
          "_scalar_operand": _scalar_operand, "_wrap_result": wrap_result, "_amp": _amp_state,
          "_api": public_name(fn)}
    if reflected:
        head = ["y = self._t", "x = _scalar_operand(other, y)"]
    else:
        head = ["x = self._t",
                "y = other._t if type(other) is _Tensor else other if type(other) is float or type(other) is int "
                "else _scalar_or_tensor(other)"]
    body = head + [
        "if type(y) is _TT and type(x) is _TT and x.dtype is not y.dtype: _binary_operands(x, y)",
        "if _amp._state is not None: x, y = _amp.cast_inputs(_api, (x, y))",
        "try:",
        "    r = _impl(x, y)",
        "except (RuntimeError, IndexError) as e:",
        "    t = _translate(e)",
        "    if t is None: raise",
        "    raise t from None",
        "if type(r) is _TT:",
        "    o = _new(_Tensor)",
        "    o._t = r",
        "    return o",
        "return _wrap_result(r)",
    ]
    src = f"def {name}(self, other):\n" + "".join(f"    {line}\n" for line in body)
    _define(src, f"<paddle_on_torch.operator {name}>", ns)
    _OP_NAMESPACES.append(ns)
    method = ns[name]
    method.__qualname__ = f"Tensor.{name}"
    method.__doc__ = f"`{'other ' if reflected else 'self '}{fn.__name__} {'self' if reflected else 'other'}`: " \
                     f"paddle.{fn.__name__} as an operator."
    return method


# ----------------------------------------------------------------- binary operands
def _promotable(a, b):
    return (a.is_floating_point and b.is_floating_point) or a.is_complex or b.is_complex


def binary_operands(x, y):
    """Paddle's rule for two tensor operands of an elementwise op.

    torch's promotion agrees with Paddle's except that Paddle refuses to mix
    an integer or bool tensor with a tensor of another dtype when neither is
    0-D (it promotes only between floating-point types, and complex with
    real).  Python scalars follow torch's (and Paddle's) scalar rules.
    """
    if isinstance(x, Tensor):
        x = x._t
    elif not isinstance(x, torch.Tensor):
        x = _scalar_or_tensor(x)
    if isinstance(y, Tensor):
        y = y._t
    elif not isinstance(y, torch.Tensor):
        y = _scalar_or_tensor(y)
    if (isinstance(x, torch.Tensor) and isinstance(y, torch.Tensor) and x.dtype is not y.dtype
            and x.dim() and y.dim() and not _promotable(x.dtype, y.dtype)):
        raise TypeError("(InvalidType) Type promotion only support calculations between floating-point numbers "
                        "and between complex and real numbers. But got different data type x: "
                        f"{_dtypes.dtype_name(x.dtype)}, y: {_dtypes.dtype_name(y.dtype)}.")
    return x, y
