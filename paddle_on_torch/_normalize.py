"""The one place where Paddle arguments become torch arguments.

API functions are written as thin implementations over torch tensors and
annotate each parameter with what it means to Paddle (the idea comes from
torch._numpy's normalizers):

    @op
    def sum(x: TensorLike, axis: AxisLike = None, dtype: DTypeLike = None,
            keepdim=False, name=None, *, out=None):
        return torch.sum(x, dim=axis, keepdim=keepdim, dtype=dtype)

`op` makes, at import, a wrapper with the same signature; its first call
generates the wrapper's code, which converts each annotated argument (a paddle Tensor to its torch tensor, an
axis list to a tuple, 'float32' to torch.float32, ...), calls the
implementation and wraps torch tensors in the result back into paddle
Tensors.  The wrapper is straight-line code with no loops over parameters,
so the per-op cost stays near a plain Python call.  It also gives every op
Paddle 3.3's torch-style keyword aliases (`input=`, `dim=`, `other=`,
`keepdims=`) and the `out=` keyword where the signature has one.
"""
import dis
import inspect
import linecache
import numbers
import types

import numpy as np
import torch

from ._errors import translate
from .amp import _state as _amp_state
from .framework import dtype as _dtypes

__all__ = ["op", "TensorLike", "OptionalTensor", "TensorSequence", "AxisLike", "DTypeLike",
           "ShapeLike", "ShapeArgs", "ScalarOrTensor", "ScalarLike", "IntLike", "PlaceLike", "OptionalPlace",
           "ValuesLike", "RequiresGrad", "wrap", "unwrap", "is_tensor", "to_torch", "wrap_result"]

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


class ShapeArgs:
    """A ShapeLike that may also come as separate ints (`paddle.ones(2, 3)`: every positional argument is a size
    when the first is an int) or as `size=`: Paddle's size_args_decorator, for the first parameter of a factory."""


class ScalarOrTensor:
    """A Python number stays a number; a Tensor becomes a torch.Tensor."""


class ValuesLike:
    """An attribute Paddle also takes as a Tensor (a pad list, an output size): a Tensor -> its Python value
    (`tolist()`), a list / tuple holding Tensors -> the same with each one's number; anything else unchanged."""


class ScalarLike:
    """A Python number, a numpy scalar or a 1-element Tensor -> a Python number (None stays None)."""


class IntLike:
    """An int or a 1-element Tensor -> int (None stays None where None is the default); a float, a string or
    None otherwise is Paddle's TypeError."""


class RequiresGrad:
    """A factory's `requires_grad=` (a bool): the wrapper makes the result require grad, so the implementation
    gets it only when its code reads it."""


class PlaceLike:
    """A Place, a device string ('cpu', 'gpu:0'), a torch.device, or None (the current device) -> torch.device."""


class OptionalPlace:
    """None stays None (the op picks, say an input's device); anything else as PlaceLike."""


# ----------------------------------------------------------------- wrapping
# Registered by paddle_on_torch.tensor.tensor (the Tensor class lives there, see register_tensor);
# kept as module globals so the generated wrappers look them up directly.
Tensor = None
_SET_STATIC_VIEW = None
_new = object.__new__
# Every generated wrapper's globals ("_impl": what it calls, "_plain": the implementation itself).
_OP_NAMESPACES = []

# ----------------------------------------------------------------- hooks of the code generator
# What changes every op at once is switched here, never by patching wrappers from outside:
# - static mode (paddle.static) records ops instead of running them: `set_impl_hook(make)` makes each
#   wrapper call `make(impl)` (ops defined while it is on included), `set_impl_hook(None)` the plain
#   implementations again; dynamic mode pays nothing for it; its `view=` is how Variables print (given to the
#   Tensor class through the hook it registered, register_tensor);
# - paddle.amp.auto_cast: the wrappers cast their tensor inputs while `amp._state._state` is set (one check);
# - to_static's guards: MUTATIONS counts Tensors given another torch tensor (`rebind`) and Layer changes.
_IMPL_HOOK = None


def register_tensor(cls, set_static_view):
    """The paddle Tensor class, registered once by tensor/tensor.py at import: what every wrapper makes, and
    `set_static_view(view)`, how set_impl_hook gives it static mode's view of a Variable."""
    global Tensor, _SET_STATIC_VIEW
    Tensor, _SET_STATIC_VIEW = cls, set_static_view


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


def _scalar(v):
    """The converter behind ScalarLike."""
    if isinstance(v, Tensor):
        v = v._t
    if isinstance(v, torch.Tensor):
        if v.numel() != 1:
            raise ValueError(f"(InvalidArgument) expected a number or a 1-element Tensor, but got a Tensor of "
                             f"shape {list(v.shape)}")
        return v.reshape(-1)[0].item()
    return v.item() if isinstance(v, np.generic) else v


def _values(v):
    """The converter behind ValuesLike."""
    if isinstance(v, (list, tuple)):
        for e in v:
            if type(e) is not int and isinstance(e, Tensor):
                return type(v)(e._t.item() if isinstance(e, Tensor) else e for e in v)
        return v
    return v._t.tolist() if isinstance(v, Tensor) else v


def _int(v, api):
    """The converter behind IntLike."""
    return v if type(v) is int else int_arg(v, TypeError, api.rsplit(".", 1)[-1])


_CONVERTERS = {
    ScalarLike: "_scalar",
    IntLike: "_int",
    PlaceLike: "_place",
    OptionalPlace: "_optional_place",
    TensorLike: "_to_torch",
    OptionalTensor: "_optional_tensor",
    TensorSequence: "_tensor_sequence",
    AxisLike: "_axis",
    DTypeLike: "_to_torch_dtype",
    ShapeLike: "_shape",
    ShapeArgs: "_shape",
    ValuesLike: "_values",
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


def _spread_sizes(api, shape, extra, given, defaults):
    """ShapeArgs when more than one positional argument came: ints are all sizes (`paddle.ones(2, 3)`); after a
    list, the extra ones are the parameters that follow, as Python would bind them (`given`: their values now,
    all defaults unless also passed by keyword; `defaults`: their (name, default))."""
    if isinstance(shape, int) and not isinstance(shape, bool):
        return (list((shape,) + extra),) + given
    fn = api.rsplit(".", 1)[-1]
    if len(extra) > len(given):
        raise TypeError(f"{fn}() takes from 1 to {len(given) + 1} positional arguments but {len(extra) + 1} were "
                        "given")
    for v, (name, default) in zip(given[:len(extra)], defaults):
        if v is not default:
            raise TypeError(f"{fn}() got multiple values for argument '{name}'")
    return (shape,) + extra + given[len(extra):]


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


# ----------------------------------------------------------------- the code generator
# A wrapper is made in two steps.  At import, `op` builds only a function object with the wrapper's exact
# signature (its code object made from `_template`'s, no compile): `inspect.signature`, defaults and identity
# (`Tensor.sum is paddle.sum`) are final from the start.  Its first call generates the wrapper's source,
# compiles it and puts the compiled code into that same function object (`__code__`), then runs it; later
# calls run the generated code directly, with nothing of the lazy step left on the path.  About 540 wrappers
# exist and a program calls a few dozen, so `import paddle` skips most of the compiling.
_PENDING = {}  # wrappers not generated yet (their code is still the template's) -> their _Stub
_VARARGS, _VARKEYWORDS = inspect.CO_VARARGS, inspect.CO_VARKEYWORDS


def _template():
    return _generate_and_call(locals())  # noqa: F821  (each stub's globals provide it)


def _define(src, filename, ns):
    """Compile generated source with `ns` as its globals, registered with linecache so tracebacks and inspect
    show its lines; the function it defines."""
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    local = {}
    exec(compile(src, filename, "exec"), ns, local)
    return next(iter(local.values()))


class _Stub:
    """A wrapper's parameters (`params`: (name, kind, default) in header order) and its lazy function."""

    __slots__ = ("params", "generate", "fn", "ns", "filename")

    def __init__(self, name, qualname, params, ns, filename, generate):
        self.params, self.ns, self.filename, self.generate = params, ns, filename, generate
        pos = [p for p in params if p[1] == "pos"]
        kwonly = [p for p in params if p[1] == "kwonly"]
        var = [p for p in params if p[1] == "var"]
        varkw = [p for p in params if p[1] == "varkw"]
        flags = _template.__code__.co_flags | (_VARARGS if var else 0) | (_VARKEYWORDS if varkw else 0)
        code = _template.__code__.replace(
            co_argcount=len(pos), co_posonlyargcount=0, co_kwonlyargcount=len(kwonly), co_flags=flags,
            co_varnames=tuple(p[0] for p in pos + kwonly + var + varkw), co_nlocals=len(params),
            co_name=name, co_qualname=qualname)  # (its file and lines stay _template's: a traceback through the
        # first call shows that call, then the generated code's own lines)
        defaults = tuple(p[2] for p in pos if p[2] is not _NO_DEFAULT)
        ns["_generate_and_call"] = self
        self.fn = types.FunctionType(code, ns, name, defaults or None)
        self.fn.__kwdefaults__ = {p[0]: p[2] for p in kwonly if p[2] is not _NO_DEFAULT} or None
        _PENDING[self.fn] = self

    def materialize(self):
        """Give the function its generated code (once; a second thread doing it too is harmless)."""
        if _PENDING.pop(self.fn, None) is not None:
            self.fn.__code__ = _define(self.generate(), self.filename, self.ns).__code__
        return self.fn

    def __call__(self, bound):
        """The first call: generate, then call again with the same arguments (`bound`: the stub's locals)."""
        fn = self.materialize()
        args, kwargs = [], {}
        for name, kind, _ in self.params:
            if kind == "pos":
                args.append(bound[name])
            elif kind == "var":
                args.extend(bound[name])
            elif kind == "kwonly":
                kwargs[name] = bound[name]
            else:
                kwargs.update(bound[name])
        return fn(*args, **kwargs)


_NO_DEFAULT = inspect.Parameter.empty


def generate_all():
    """Generate every wrapper not generated yet: torch.compile (to_static) traces the Python code of the ops it
    meets, and must meet the generated code, not the first-call step (which compiles source: dynamo cannot
    trace that)."""
    for stub in list(_PENDING.values()):
        stub.materialize()


def _impl_params(fn):
    """fn's parameters as (name, kind, default), kind pos / var / kwonly / varkw: read from its code object
    (inspect.signature costs ~20x more, which at import, for every op, was most of the lazy wrappers' cost)."""
    if type(fn) is not types.FunctionType or hasattr(fn, "__wrapped__") or hasattr(fn, "__signature__"):
        kinds = {inspect.Parameter.VAR_POSITIONAL: "var", inspect.Parameter.KEYWORD_ONLY: "kwonly",
                 inspect.Parameter.VAR_KEYWORD: "varkw"}
        return [(p.name, kinds.get(p.kind, "pos"), p.default) for p in inspect.signature(fn).parameters.values()]
    code = fn.__code__
    npos, nkw = code.co_argcount, code.co_kwonlyargcount
    names = code.co_varnames
    defaults = fn.__defaults__ or ()
    kwdefaults = fn.__kwdefaults__ or {}
    first_default = npos - len(defaults)
    out = [(names[i], "pos", defaults[i - first_default] if i >= first_default else _NO_DEFAULT)
           for i in range(npos)]
    at = npos + nkw
    if code.co_flags & _VARARGS:
        out.append((names[at], "var", _NO_DEFAULT))
        at += 1
    out += [(n, "kwonly", kwdefaults.get(n, _NO_DEFAULT)) for n in names[npos:npos + nkw]]
    if code.co_flags & _VARKEYWORDS:
        out.append((names[at], "varkw", _NO_DEFAULT))
    return out


def _params(impl_params, alias_map):
    """The wrapper's header: (name, kind, default) with kind pos / var / kwonly / varkw, in the order a `def`
    lists them; required parameters that follow an aliased one (or a defaulted one) default to _MISSING."""
    out = []
    aliased_targets = set(alias_map.values())
    seen_default = False
    for name, kind, default in impl_params:
        if kind == "var":
            out.append((name, "var", _NO_DEFAULT))
        elif kind == "varkw":
            continue  # added last, after the alias keywords
        elif kind == "kwonly":
            out.append((name, "kwonly", default if default is not _NO_DEFAULT
                        else _MISSING if name in aliased_targets else _NO_DEFAULT))
        elif default is not _NO_DEFAULT:
            out.append((name, "pos", default))
            seen_default = True
        elif name in aliased_targets or seen_default:
            out.append((name, "pos", _MISSING))
            seen_default = True
        else:
            out.append((name, "pos", _NO_DEFAULT))
    out += [(alias, "kwonly", _MISSING) for alias in alias_map]
    out += [(name, "varkw", _NO_DEFAULT) for name, kind, _ in impl_params if kind == "varkw"]
    return out


def op(fn=None, *, aliases=None, binary=None):
    """Make a Paddle API function from an annotated torch implementation.

    `binary=("x", "y")` names two operands that follow Paddle's elementwise
    promotion rule (see `binary_operands`).
    """
    if fn is None:
        return lambda f: op(f, aliases=aliases, binary=binary)
    assert Tensor is not None, "paddle_on_torch.tensor.tensor must be imported before any @op is defined"
    impl_params = _impl_params(fn)
    names = [p[0] for p in impl_params]
    spread = bool(names) and getattr(fn, "__annotations__", {}).get(names[0]) is ShapeArgs
    if spread:
        aliases = {**(aliases or {}), "size": names[0]}
    alias_map = {a: t for a, t in {**ALIASES, **(aliases or {})}.items() if t in names and a not in names}
    params = _params(impl_params, alias_map)
    if spread:
        params = _spread_header(params)
    ns = _register(fn)
    stub = _Stub(fn.__name__, fn.__qualname__, params, ns, f"<paddle_on_torch.op {fn.__module__}.{fn.__name__}>",
                 lambda: _op_source(fn, inspect.signature(fn), params, alias_map, binary, ns))
    wrapper = stub.fn
    wrapper.__module__ = fn.__module__
    wrapper.__doc__ = fn.__doc__
    wrapper.__wrapped_impl__ = fn
    wrapper.__binary__ = binary
    if spread:  # the header's `*_sizes` and `size=` are the wrapper's: the signature is the implementation's
        kinds = {"pos": inspect.Parameter.POSITIONAL_OR_KEYWORD, "var": inspect.Parameter.VAR_POSITIONAL,
                 "kwonly": inspect.Parameter.KEYWORD_ONLY, "varkw": inspect.Parameter.VAR_KEYWORD}
        wrapper.__signature__ = inspect.Signature([inspect.Parameter(n, kinds[k], default=d)
                                                   for n, k, d in impl_params])
    return wrapper


def _spread_header(params):
    """ShapeArgs' header: the first parameter, `*_sizes` for further positional arguments, then the other
    positional parameters (keyword-only in the header: the generated code binds `_sizes` to them)."""
    pos = [p for p in params[1:] if p[1] == "pos"]
    assert all(p[2] is not _NO_DEFAULT for p in pos), "ShapeArgs: the parameters after the shape need defaults"
    return [params[0], ("_sizes", "var", _NO_DEFAULT)] + [(n, "kwonly", d) for n, _, d in pos] + \
        [p for p in params[1:] if p[1] != "pos"]


def _wrapper_only(fn, sig_params):
    """Which of `name` / `out` (defaulting to None) and the RequiresGrad parameter the wrapper keeps from the
    implementation: those its code never reads (`name` is Paddle's graph-naming argument, `out` and
    requires_grad are applied by the wrapper)."""
    code = getattr(fn, "__code__", None)
    if type(fn) is not types.FunctionType or code is None or hasattr(fn, "__wrapped__") \
            or "locals" in code.co_names:
        return ()
    kinds = {p.name: p for p in sig_params}
    if any(p.kind is p.VAR_POSITIONAL or p.kind is p.POSITIONAL_ONLY for p in sig_params):
        return ()
    read = {ins.argval for ins in dis.get_instructions(code) if ins.opname.startswith("LOAD_")}
    return {n for n, p in kinds.items() if (n in ("name", "out") and p.default is None or p.annotation is RequiresGrad)
            and n not in read and n not in code.co_cellvars}


def _op_source(fn, sig, params, alias_map, binary, ns):
    """The generated wrapper's source (its globals, `ns`, get what it refers to): one line per converted
    parameter, the call and an inline wrap of the result."""
    ns.update({"_wrap_result": wrap_result, "_Tensor": Tensor, "_TT": torch.Tensor, "_new": _new,
               "_MISSING": _MISSING, "_write_out": _write_out, "_to_torch": to_torch,
               "_optional_tensor": _optional_tensor, "_tensor_sequence": _tensor_sequence, "_axis": _axis,
               "_to_torch_dtype": _dtypes.to_torch_dtype, "_shape": _shape, "_DTYPE_BY_NAME": _DTYPE_BY_NAME,
               "_dtype_by_name": _dtype_by_name, "_scalar_or_tensor": _scalar_or_tensor,
               "_binary_operands": binary_operands, "_tensor_arg": _tensor_arg, "_operand": _operand,
               "_translate": translate, "_api": public_name(fn), "_scalar": _scalar, "_int": _int,
               "_values": _values})
    from .framework.place import to_torch_device  # (loaded by now: the first call comes after the import)

    ns["_place"] = ns["_optional_place"] = to_torch_device
    sig_params = list(sig.parameters.values())
    names = [p.name for p in sig_params]
    header, body, call = [], [], []
    star = False
    for name, kind, default in params:
        if kind == "var":
            header.append(f"*{name}")
            star = True
        elif kind == "varkw":
            header.append(f"**{name}")
            continue
        else:
            if kind == "kwonly" and not star:
                header.append("*")
                star = True
            if default is _NO_DEFAULT:
                header.append(name)
            elif default is _MISSING:
                header.append(f"{name}=_MISSING")
            else:
                ns[f"_d_{name}"] = default
                header.append(f"{name}=_d_{name}")
    # `name=` and `out=` are the wrapper's business: the implementation gets them only if its code reads them
    wrapper_only = _wrapper_only(fn, sig_params)
    by_keyword = False  # once a positional parameter is left out, the ones after it go by keyword
    for p in sig_params:
        if p.name in wrapper_only:
            by_keyword = True
        elif p.kind is p.VAR_POSITIONAL:
            call.append(f"*{p.name}")
        elif p.kind is p.VAR_KEYWORD:
            call.append(f"**{p.name}")
        elif p.kind is p.KEYWORD_ONLY or by_keyword:
            call.append(f"{p.name}={p.name}")
        else:
            call.append(p.name)
    if sig_params and sig_params[0].annotation is ShapeArgs:  # (see _spread_header)
        first, rest = names[0], [p.name for p in sig_params[1:] if p.kind is p.POSITIONAL_OR_KEYWORD]
        ns["_spread_sizes"] = _spread_sizes
        ns["_spread_defaults"] = tuple((p.name, p.default) for p in sig_params[1:]
                                       if p.kind is p.POSITIONAL_OR_KEYWORD)
        body.append(f"if _sizes: {', '.join([first] + rest)} = _spread_sizes(_api, {first}, _sizes, "
                    f"({''.join(n + ', ' for n in rest)}), _spread_defaults)")
    required = {name for name, _, default in params if default is _MISSING}
    for alias, target in alias_map.items():
        if target in required:  # given twice (`paddle.zeros([2], size=[3])`): Python's error, as in Paddle
            body.append(f"if {alias} is not _MISSING:")
            body.append(f"    if {target} is not _MISSING: raise TypeError(\"{fn.__name__}() got multiple values "
                        f"for argument '{target}'\")")
            body.append(f"    {target} = {alias}")
        else:
            body.append(f"if {alias} is not _MISSING: {target} = {alias}")
    for name, kind, default in params:
        if default is _MISSING and name not in alias_map:
            body.append(f"if {name} is _MISSING: raise TypeError(\"{fn.__name__}() missing required "
                        f"argument '{name}'\")")
    for p in sig_params:
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
        elif conv == "_scalar":  # (a Python number, the common case, needs no call)
            line = f"if type({n}) is not float and type({n}) is not int: {n} = _scalar({n})"
        elif conv == "_values":  # (an int, the common case, needs no call)
            line = f"if {n} is not None and type({n}) is not int: {n} = _values({n})"
        elif conv == "_int":
            line = (f"if {n + ' is not None and ' if p.default is None else ''}type({n}) is not int: "
                    f"{n} = _int({n}, _api)")
        else:
            line = f"{n} = {conv}({n})"
        if p.default is None and conv not in ("_optional_tensor", "_axis", "_to_torch_dtype", "_place", "_int",
                                              "_values", "_scalar"):
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
    amp_args = [p.name for p in sig_params if _CONVERTERS.get(p.annotation) in ("_to_torch", "_optional_tensor",
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
    for p in sig_params:
        if p.annotation is RequiresGrad:  # (as Tensor.stop_gradient = False: an integer result claims grad too)
            body.append(f"    if {p.name}: o.stop_gradient = False")
    body.append("    return o if out is None else _write_out(out, o)" if "out" in names else "    return o")
    # torch's RuntimeError -> Paddle's ValueError/TypeError; costs nothing unless something raised
    body.append("except (RuntimeError, IndexError, MemoryError) as e:")
    body.append("    t = _translate(e, _api)")
    body.append("    if t is None: raise")
    body.append("    raise t from None")
    return f"def {fn.__name__}({', '.join(header)}):\n" + "".join(f"    {line}\n" for line in body)


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
    ns = _register(fn.__wrapped_impl__ if torch_op is None else torch_op)
    params = [("self", "pos", _NO_DEFAULT), ("other", "pos", _NO_DEFAULT)]
    method = _Stub(name, f"Tensor.{name}", params, ns, f"<paddle_on_torch.operator {name}>",
                   lambda: _operator_source(fn, name, reflected, ns)).fn
    method.__doc__ = f"`{'other ' if reflected else 'self '}{fn.__name__} {'self' if reflected else 'other'}`: " \
                     f"paddle.{fn.__name__} as an operator."
    return method


def _operator_source(fn, name, reflected, ns):
    ns.update({"_Tensor": Tensor, "_TT": torch.Tensor, "_new": _new, "_translate": translate,
               "_scalar_or_tensor": _scalar_or_tensor, "_binary_operands": binary_operands,
               "_scalar_operand": _scalar_operand, "_wrap_result": wrap_result, "_amp": _amp_state,
               "_api": public_name(fn)})
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
    return f"def {name}(self, other):\n" + "".join(f"    {line}\n" for line in body)


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
