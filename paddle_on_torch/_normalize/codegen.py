"""The @op wrapper generator: a Paddle API function from an annotated torch implementation (see the
package docstring), and the Python operator methods of Tensor."""
import dis
import inspect
import linecache
import types
import warnings

import numpy as np
import torch

from .._core import amp_state as _amp_state
from .._core import dtype as _dtypes
from .._errors import translate
from .converters import (_CONVERTERS, ALIASES, _DTYPE_BY_NAME, _MISSING, _axis, _dtype_by_name, _int,
                         _operand, _optional_tensor, _scalar, _scalar_or_tensor, _shape, _spread_sizes,
                         _tensor_arg, _tensor_sequence, _values, _write_out)
from . import fastpath
from .markers import RequiresGrad, ShapeArgs
from .promotion import binary_operands
from .wrapping import _new, _register, to_torch, wrap_result

Tensor = None  # the paddle Tensor class, set by the package's register_tensor

def public_name(fn):
    """The name a Paddle user knows a function by: paddle_on_torch.tensor.math.add -> paddle.add."""
    from .._api import paddle_names

    mod = fn.__module__.split(".")
    if mod[:2] == ["paddle_on_torch", "tensor"]:  # the families: paddle.X, else paddle.linalg.X or a method
        for ns in ("paddle", "paddle.linalg", "paddle.fft"):
            if fn.__name__ in paddle_names(ns):
                return f"{ns}.{fn.__name__}"
        return f"paddle.Tensor.{fn.__name__}"
    if len(mod) > 2 and mod[-2] in ("functional", "ops"):
        mod = mod[:-1]  # nn/functional/conv.py -> paddle.nn.functional, vision/ops/nms.py -> paddle.vision.ops
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
    trace that).  (The C++ fast path is switched off around each trace: fastpath.suspended.)"""
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


def _recorded_aliases(fn):
    """The keyword aliases Paddle 3.3.1 accepts for this op (recorded: _api.paddle_aliases), under its public name
    and, for a tensor-family function, as a Tensor method too (they are one function here)."""
    from .._api import paddle_aliases

    api = public_name(fn)
    if api.startswith("paddle.") and fn.__module__.startswith("paddle_on_torch.tensor"):
        return paddle_aliases(api, f"paddle.Tensor.{fn.__name__}")
    return paddle_aliases(api)


# the factories whose out= Paddle returns itself (they fill it in place: fill_constant); the others return their
# own result and copy it into out
OUT_IS_RESULT = frozenset({"paddle.ones", "paddle.zeros", "paddle.full"})
# ops whose Python code ends `paddle.assign(result, out); return out`: out= is the very Tensor returned
OUT_RETURNED = frozenset({"paddle.quantile", "paddle.msort", "paddle.nn.functional.normalize"})
# ops that take out= and leave it untouched in dygraph (Paddle 3.3's _bitwise_op returns the _C_ops result and never
# writes out): the result is a new Tensor
OUT_IGNORED = frozenset({"paddle.bitwise_and", "paddle.bitwise_or", "paddle.bitwise_xor", "paddle.bitwise_not",
                         "paddle.bitwise_invert", "paddle.bitwise_left_shift", "paddle.bitwise_right_shift"})
# the factories that read requires_grad= as a truth value; Paddle's others set stop_gradient only for
# `requires_grad is True` (requires_grad=1 or a numpy bool leaves it set)
TRUTHY_REQUIRES_GRAD = frozenset({"paddle.arange", "paddle.range", "paddle.linspace"})


# Paddle 3.3's ForbidKeywordsDecorator: torch's keywords these functions refuse (their torch twins differ), with
# Paddle's TypeError pointing at the paddle.compat function and, the first time, its UserWarning (the guide's page)
FORBIDDEN_KEYWORDS = {
    "paddle.max": (("dim", "input", "other"), "paddle.compat.max", "torch.max"),
    "paddle.min": (("dim", "input", "other"), "paddle.compat.min", "torch.min"),
    "paddle.sort": (("dim", "input"), "paddle.compat.sort", "torch.sort"),
    "paddle.split": (("dim", "split_size_or_sections", "tensor"), "paddle.compat.split", "torch.split"),
}
_FORBIDDEN_WARNED = set()


def refuse_keywords(api, given, keys_and_names=None):
    """Paddle's error for the forbidden keywords among `given` ({keyword: value or _MISSING})."""
    _keys, correct, guide = keys_and_names or FORBIDDEN_KEYWORDS[api]
    found = sorted(k for k, v in given.items() if v is not _MISSING)
    if api not in _FORBIDDEN_WARNED:
        _FORBIDDEN_WARNED.add(api)
        warnings.warn(f"The API '{api}' may behave differently from its PyTorch counterpart. Refer to the "
                      "compatibility guide for details:\nhttps://www.paddlepaddle.org.cn/documentation/docs/en/"
                      "develop/guides/model_convert/convert_from_pytorch/api_difference/invok_only_diff/"
                      f"{guide}.html", UserWarning, stacklevel=3)
    raise TypeError(f"{api}() received unexpected keyword argument{'s' if len(found) > 1 else ''} "
                    f"{', '.join(repr(k) for k in found)}. \nDid you mean to use {correct}() instead?")


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
    recorded = _recorded_aliases(fn)
    alias_map = {a: t for a, t in {**ALIASES, **recorded, **(aliases or {})}.items() if t in names and a not in names}
    params = _params(impl_params, alias_map)
    forbidden = FORBIDDEN_KEYWORDS.get(public_name(fn), ((),))[0]
    if forbidden:  # the header takes them too, so that the wrapper refuses them with Paddle's error first
        at = len(params) - sum(1 for p in params if p[1] == "varkw")
        params[at:at] = [(k, "kwonly", _MISSING) for k in forbidden if k not in names and k not in alias_map]
    if recorded.get("out") == "out" and "out" not in names:  # Paddle takes out= here: the wrapper writes it
        at = len(params) - (params[-1][1] == "varkw" if params else 0)
        params.insert(at, ("out", "kwonly", None))
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
    from .._core.place import to_torch_device  # (loaded by now: the first call comes after the import)

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
    body += fastpath.prologue(ns["_api"], params, ns)  # the C++ fast path first, where it has this op
    forbidden = FORBIDDEN_KEYWORDS.get(ns["_api"], ((),))[0]
    if forbidden:
        ns["_refuse_keywords"] = refuse_keywords
        body.append(f"if {' or '.join(f'{k} is not _MISSING' for k in forbidden)}: _refuse_keywords(_api, "
                    f"{{{', '.join(f'{k!r}: {k}' for k in forbidden)}}})")
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
        if default is _MISSING and name not in alias_map and name not in forbidden:
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
    grad_flags = [p.name for p in sig_params if p.annotation is RequiresGrad]
    claim = "" if public_name(fn) in TRUTHY_REQUIRES_GRAD else " is True"
    for flag in grad_flags:  # (as Tensor.stop_gradient = False: an integer result claims grad too)
        body.append(f"    if {flag}{claim}: o.stop_gradient = False")
    takes_out = ("out" in names or any(p[0] == "out" for p in params)) and public_name(fn) not in OUT_IGNORED
    if takes_out and grad_flags:  # a factory's out= claims grad as its result does (Paddle sets it on both)
        body.append("    if out is None: return o")
        if public_name(fn) in OUT_IS_RESULT:  # Paddle's fill_constant check (its message lacks the f-prefix)
            body.append("    if out._t.dtype != o._t.dtype: raise TypeError('Required out.dtype == dtype if "
                        "specifying out, but received f{out.dtype} != f{dtype}')")
        body.append("    _write_out(out, o)")
        body.extend(f"    if {flag}{claim}: out.stop_gradient = False" for flag in grad_flags)
        body.append("    return out" if public_name(fn) in OUT_IS_RESULT else "    return o")
    elif takes_out and public_name(fn) in OUT_RETURNED:
        body.append("    if out is None: return o")
        body.append("    _write_out(out, o)")
        body.append("    return out")
    else:
        body.append("    return o if out is None else _write_out(out, o)" if takes_out else "    return o")
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


