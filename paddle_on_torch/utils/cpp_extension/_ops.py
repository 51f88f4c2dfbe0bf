"""A compiled custom-operator library as torch operators and Paddle-level Python functions.

The library (built by _build.py) describes its ops (PD_BUILD_OP / PD_BUILD_GRAD_OP / PD_BUILD_DOUBLE_GRAD_OP)
as JSON and defines them as torch operators in a namespace of their own (registry.cc):
`<ns>::<op>(inputs..., attrs...) -> Tensor[]`, functional (an in-place input is copied, its copy returned), and
`<ns>::<op>__infer`, the same on meta tensors for output shapes and dtypes.  Here each op gets

* a fake implementation (for torch.compile / to_static), from `__infer`: symbolic sizes are carried through
  where the infer-shape function's answer shows which input size an output size is,
* an autograd formula that calls the grad op (so gradients, and second derivatives through a double grad op,
  come from the user's kernels): the grad op's inputs named `X`, `Out`, `Grad("Out")` take the forward input,
  the forward output and the output's gradient, its outputs `Grad("X")` give the input's gradient,
* a Python function with Paddle's signature (inputs, then attributes, by position or keyword; names lower-case
  and without @-suffixes), taking and returning paddle Tensors; an in-place op writes into its input tensors.
"""
import ctypes
import itertools
import json
import keyword
import re
import threading
import types

import torch

from ... import _report

GRAD = "@GRAD"
NEW = "@NEW"
_lock = threading.Lock()
_libraries = {}  # realpath of a loaded .so -> OpLibrary
_namespaces = itertools.count()

# (attribute type, Python types accepted, converter); Paddle's eager API accepts an int for a float attribute
_ATTR_TYPES = {
    "bool": ((bool,), bool),
    "int": ((int,), int),
    "int64_t": ((int,), int),
    "float": ((int, float), float),
    "double": ((int, float), float),
    "std::string": ((str,), str),
    "std::vector<int>": ((int,), int),
    "std::vector<int64_t>": ((int,), int),
    "std::vector<float>": ((int, float), float),
    "std::vector<std::string>": ((str,), str),
}


class _Slot:
    """One input or output of an op: its Paddle name and whether it is a list (Vec) or optional."""

    def __init__(self, name):
        self.name = name
        self.vec = "@VECTOR" in name
        self.optional = "@OPTIONAL" in name
        self.inplace = None  # outputs: index of the input written in place
        self.count_of = None  # a grad op's list output: the input it has as many tensors as

    @property
    def param(self):
        """The Python parameter name Paddle's generated API uses."""
        return self.name.split("@")[0].lower()


def _strip_grad(name, double_grad):
    if double_grad and name.endswith(NEW):
        name = name[: -len(NEW)]
    return name[: -len(GRAD)] if name.endswith(GRAD) else name


class OpDef:
    """One level of an op (0: the op, 1: its grad op, 2: its double grad op), as the library describes it."""

    def __init__(self, d, ns):
        self.name, self.base, self.level = d["name"], d["base"], d["level"]
        self.inputs = [_Slot(n) for n in d["inputs"]]
        self.outputs = [_Slot(n) for n in d["outputs"]]
        self.attrs = []
        for a in d["attrs"]:
            name, _, typ = a.partition(":")
            self.attrs.append((name.strip(), typ.strip()))
        in_names = [s.name for s in self.inputs]
        for src, dst in d["inplace"].items():
            self.outputs[[s.name for s in self.outputs].index(dst)].inplace = in_names.index(src)
        for out in self.outputs:
            if out.vec and out.inplace is None and self.level > 0:
                out.count_of = in_names.index(_strip_grad(out.name, self.level == 2))
        self.op = getattr(getattr(torch.ops, ns), self.name).default
        self.infer = getattr(getattr(torch.ops, ns), self.name + "__infer").default
        self.grad = None  # the next level's OpDef

    def split_outputs(self, flat, args):
        """The flat output list as one entry per declared output (a tensor, a list, or None)."""
        res, k = [], 0
        for out in self.outputs:
            src = out.inplace if out.inplace is not None else out.count_of
            if out.vec:
                n = len(args[src]) if args[src] is not None else 0
                res.append(list(flat[k:k + n]))
                k += n
            else:
                missing = src is not None and self.inputs[src].optional and args[src] is None
                res.append(None if missing else flat[k])
                k += 1
        return res


class OpLibrary:
    """A loaded extension library: its ops registered with torch, and the Python functions for them."""

    def __init__(self, path):
        torch.ops.load_library(path)
        lib = ctypes.CDLL(path)
        try:
            describe, register = lib.paddle_on_torch_describe, lib.paddle_on_torch_register
        except AttributeError:
            raise ValueError(f"{path} is not a custom-operator library built by paddle.utils.cpp_extension") from None
        describe.restype = register.restype = ctypes.c_char_p
        register.argtypes = [ctypes.c_char_p]
        desc = json.loads(describe().decode())
        self.ns = f"paddle_custom_{next(_namespaces)}"
        err = register(self.ns.encode())
        if err is not None:
            raise _error_from_text(err.decode())
        self.path = path
        self.ops = {}  # base name -> level-0 OpDef
        defs = {}
        for d in desc["ops"]:
            op = OpDef(d, self.ns)
            defs[(op.base, op.level)] = op
            if op.level == 0:
                self.ops[op.base] = op
        for (base, level), op in defs.items():
            op.grad = defs.get((base, level + 1))
            _register_fake(op)
            if op.grad is not None:
                _register_autograd(op)
        self.functions = {name: _make_api(op) for name, op in self.ops.items()}

    def module(self, module_name):
        mod = types.ModuleType(module_name, f"Custom operators of {self.path}, built by paddle.utils.cpp_extension.")
        mod.__file__ = self.path
        for name, fn in self.functions.items():
            setattr(mod, name, fn)
        return mod


def load_library(path):
    """The OpLibrary of a built extension (loaded and registered once per process)."""
    import os

    real = os.path.realpath(path)
    with _lock:
        if real not in _libraries:
            _libraries[real] = OpLibrary(real)
        return _libraries[real]


# ---------------------------------------------------------------- errors
_MARK = re.compile(r"^\[paddle_on_torch:(\w+)\] ", re.M)
_PY_ERRORS = {"OSError": OSError, "ValueError": ValueError, "TypeError": TypeError, "IndexError": IndexError,
              "RuntimeError": RuntimeError, "MemoryError": MemoryError, "SystemError": SystemError,
              "NotImplementedError": NotImplementedError}


def _error_from_text(text):
    m = _MARK.search(text)
    if not m:
        return None
    cls = _PY_ERRORS.get(m.group(1), RuntimeError)
    msg = text[m.end():]
    # torch may append its own context lines after the kernel's message
    return cls(msg.split("\n\nException raised from")[0].rstrip())


def _translate(e):
    """The Python error Paddle raises for a failure inside a custom kernel (PD_CHECK / PD_THROW: OSError, the
    PADDLE_ENFORCE family: by error class), else None."""
    return _error_from_text(str(e))


# ---------------------------------------------------------------- fake implementations (shapes and dtypes)
def _register_fake(op):
    def fake(*args):
        metas, hints = _meta_args(op, args)
        with torch._subclasses.fake_tensor.unset_fake_temporarily():
            outs = op.infer(*metas)
        shapes = [list(o.shape) for o in outs]
        if hints is not None:
            shapes = _symbolic_shapes(op, args, hints, shapes)
        device = next((t.device for t in _tensors(args)), torch.device("cpu"))
        return [torch.empty(s, dtype=o.dtype, device=device) for s, o in zip(shapes, outs)]

    torch.library.register_fake(op.op, fake, lib=_keep_lib(op))


_fake_libs = {}


def _keep_lib(op):
    ns = op.op.namespace
    if ns not in _fake_libs:
        _fake_libs[ns] = torch.library.Library(ns, "FRAGMENT")
    return _fake_libs[ns]


def _tensors(args):
    for a in args:
        if isinstance(a, torch.Tensor):
            yield a
        elif isinstance(a, (list, tuple)):
            yield from (t for t in a if isinstance(t, torch.Tensor))


def _is_symbolic(v):
    return isinstance(v, torch.SymInt)


def _hint(d):
    """The example value behind a symbolic size (no guard)."""
    h = d.node.hint
    return int(h) if h is not None else int(d.node.shape_env.size_hint(d.node.expr))


def _meta_args(op, args, sizes=None):
    """The op's arguments with every tensor as a meta tensor of concrete sizes (`sizes(dim)` maps a size to an
    int: its hint by default).  Also the hints if any size was symbolic (else None)."""
    symbolic = False

    def meta(t):
        nonlocal symbolic
        dims = []
        for d in t.shape:
            if _is_symbolic(d):
                symbolic = True
                dims.append(sizes(d) if sizes else _hint(d))
            else:
                dims.append(int(d))
        return torch.empty(dims, dtype=t.dtype, device="meta")

    out = []
    for a in args:
        if isinstance(a, torch.Tensor):
            out.append(meta(a))
        elif isinstance(a, (list, tuple)) and a and isinstance(a[0], torch.Tensor):
            out.append([meta(t) for t in a])
        else:
            out.append(a)
    return out, (True if symbolic else None)


def _primes_above(lo, n):
    """n primes larger than lo (distinct probe values for symbolic sizes)."""
    res, k = [], max(lo, 1000) + 1
    while len(res) < n:
        if all(k % p for p in range(2, int(k ** 0.5) + 1)):
            res.append(k)
        k += 1
    return res


def _symbolic_shapes(op, args, _, hint_shapes):
    """Output sizes in terms of the inputs' symbolic sizes.  The infer-shape function is run again with each
    symbol set to a distinct large prime: an output size equal to an input size (or to a product of symbols times
    a constant) is that expression; anything else falls back to the sizes of this trace (specialising on them)."""
    import sympy
    from torch.fx.experimental.symbolic_shapes import guard_int

    dims = [d for t in _tensors(args) for d in t.shape if _is_symbolic(d)]
    symbols = sorted({s for d in dims for s in d.node.expr.free_symbols}, key=str)
    hints = {d.node.expr: _hint(d) for d in dims}
    primes = dict(zip(symbols, _primes_above(max(hints.values(), default=0) * 4, len(symbols))))
    by_symbol = {d.node.expr: d for d in dims if d.node.expr in primes}  # a SymInt for each plain symbol

    def probe(d):
        return int(d.node.expr.xreplace(primes))

    try:
        metas, _ = _meta_args(op, args, sizes=probe)
        with torch._subclasses.fake_tensor.unset_fake_temporarily():
            probe_shapes = [list(o.shape) for o in op.infer(*metas)]
    except Exception:  # noqa: BLE001 - the infer function refused the probe sizes: specialise
        probe_shapes = None
    by_probe = {probe(d): d for d in dims}
    out = []
    for i, hs in enumerate(hint_shapes):
        ps = probe_shapes[i] if probe_shapes is not None and len(probe_shapes[i]) == len(hs) else None
        row = []
        for j, h in enumerate(hs):
            p = ps[j] if ps is not None else None
            expr = None
            if p is not None:
                if p == h:
                    expr = h
                elif p in by_probe:
                    expr = by_probe[p]
                else:
                    expr = _factor(p, h, primes, by_symbol, hints, sympy)
            if expr is None:  # specialise: the sizes of this trace, guarded
                for d in dims:
                    guard_int(d)
                expr = h
            row.append(expr)
        out.append(row)
    return out


def _factor(p, h, primes, by_symbol, hints, sympy):
    """p as c * prod(symbol**k) over the probe primes, checked against the hint value h; a SymInt or None."""
    rest, expr, hint = p, 1, 1
    for sym, prime in primes.items():
        k = 0
        while rest % prime == 0:
            rest //= prime
            k += 1
        if k:
            if sym not in by_symbol:
                return None
            expr = expr * by_symbol[sym] ** k
            hint *= hints[sym] ** k
    if expr == 1 or rest * hint != h:
        return None
    return expr * rest if rest != 1 else expr


# ---------------------------------------------------------------- autograd from the grad op
def _register_autograd(op):
    grad = op.grad
    n_in = len(op.inputs)
    in_names = [s.name for s in op.inputs]
    out_names = [s.name for s in op.outputs]
    double = grad.level == 2
    # what each grad-op input is: ("in", i) a forward input, ("out", k) a forward output, ("grad", k) the
    # gradient of forward output k
    sources = []
    for s in grad.inputs:
        if s.name in in_names:
            sources.append(("in", in_names.index(s.name)))
        elif s.name in out_names:
            sources.append(("out", out_names.index(s.name)))
        elif s.name.endswith(GRAD) and s.name[: -len(GRAD)] in out_names:
            sources.append(("grad", out_names.index(s.name[: -len(GRAD)])))
        else:
            raise ValueError(f"(InvalidArgument) The input tensor name `{s.name}` of custom grad operator {grad.name} "
                             "is invalid, expected it is the input or output of forward operator.")
    targets = []  # grad-op output -> forward input index
    for s in grad.outputs:
        fwd = _strip_grad(s.name, double)
        if fwd not in in_names:
            raise ValueError(f"(InvalidArgument) The output tensor name `{s.name}` of custom grad operator "
                             f"{grad.name} is not the gradient of an input of {op.name}.")
        targets.append(in_names.index(fwd))
    attr_pos = {name: n_in + i for i, (name, _) in enumerate(op.attrs)}
    for name, _ in grad.attrs:
        if name not in attr_pos:
            raise ValueError(f"(InvalidArgument) The attribute `{name}` of custom grad operator {grad.name} is not "
                             f"an attribute of {op.name}.")
    inplace_out = {s.inplace: k for k, s in enumerate(op.outputs) if s.inplace is not None}

    def setup_context(ctx, inputs, output):
        saved, layout = [], []
        per_output = op.split_outputs(output, inputs)
        for kind, k in sources:
            if kind == "in" and k in inplace_out:  # an in-place input: its value after the op, as in Paddle
                v = per_output[inplace_out[k]]
            elif kind == "in":
                v = inputs[k]
            elif kind == "out":
                v = per_output[k]
            else:
                layout.append(None)
                continue
            if v is None:
                layout.append(("none",))
            elif isinstance(v, list):
                layout.append(("list", len(saved), len(v)))
                saved.extend(v)
            else:
                layout.append(("one", len(saved)))
                saved.append(v)
        ctx.save_for_backward(*saved)
        ctx.layout = layout
        ctx.attrs = [inputs[attr_pos[name]] for name, _ in grad.attrs]
        ctx.inputs_meta = [(None if v is None else len(v) if isinstance(v, list) else 1) for v in inputs[:n_in]]
        ctx.outputs_like = [(o.shape, o.dtype, o.device) for o in output]
        # torch wants the gradients in the inputs' structure: a list for every list argument that holds tensors
        # or nothing (an empty attribute list too)
        ctx.empty_lists = [isinstance(v, (list, tuple)) and not v for v in inputs[n_in:]]

    def backward(ctx, grads):
        saved = ctx.saved_tensors
        flat_like = ctx.outputs_like
        grads = [g if g is not None else torch.zeros(s, dtype=d, device=dev) for g, (s, d, dev) in zip(grads, flat_like)]
        # the output structure needs the list sizes of the forward inputs: rebuild a stand-in argument list
        stand_in = [None if m is None else ([0] * m if op.inputs[i].vec else 0) for i, m in enumerate(ctx.inputs_meta)]
        per_output = op.split_outputs(grads, stand_in)
        args = []
        for (kind, k), lay in zip(sources, ctx.layout):
            if kind == "grad":
                args.append(per_output[k])
            elif lay[0] == "none":
                args.append(None)
            elif lay[0] == "list":
                args.append(list(saved[lay[1]:lay[1] + lay[2]]))
            else:
                args.append(saved[lay[1]])
        flat = grad.op(*args, *ctx.attrs)
        per_grad_output = grad.split_outputs(flat, args)
        result = [None if m is None or not op.inputs[i].vec else [None] * m for i, m in enumerate(ctx.inputs_meta)]
        result += [[] if empty else None for empty in ctx.empty_lists]
        for g, i in zip(per_grad_output, targets):
            if ctx.inputs_meta[i] is None:
                continue  # an optional input that was None
            result[i] = g
        return tuple(result)

    torch.library.register_autograd(op.op, backward, setup_context=setup_context, lib=_keep_lib(op))


# ---------------------------------------------------------------- the Python functions
def _check_attr(op, name, typ, value, pos):
    kinds, conv = _ATTR_TYPES[typ]
    if typ.startswith("std::vector"):
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, kinds) for v in value):
            raise TypeError(f"(InvalidType) {op}(): argument '{name}' (position {pos}) must be list of "
                            f"{kinds[-1].__name__}, but got {type(value).__name__}")
        return [conv(v) for v in value]
    if not isinstance(value, kinds) or (bool not in kinds and isinstance(value, bool) and typ != "bool"):
        if not (isinstance(value, bool) and int in kinds):  # Paddle reads a bool as an int
            raise TypeError(f"(InvalidType) {op}(): argument '{name}' (position {pos}) must be "
                            f"{kinds[-1].__name__}, but got {type(value).__name__}")
    return conv(value)


def _make_api(op):
    from ..._normalize import wrap
    from ...tensor.tensor import Tensor

    params = [s.param for s in op.inputs] + [a[0].split("@")[0].lower() for a in op.attrs]
    n_in = len(op.inputs)
    differentiable = op.grad is not None

    def unwrap(slot, v, pos):
        if slot.vec:
            if v is None and slot.optional:
                return None
            if not isinstance(v, (list, tuple)) or not all(isinstance(t, Tensor) for t in v):
                raise ValueError(f"(InvalidArgument) {op.name}(): argument '{slot.param}' (position {pos}) must be "
                                 f"list of Tensor, but got {type(v).__name__}")
            return [t._t for t in v]
        if v is None and slot.optional:
            return None
        if not isinstance(v, Tensor):
            raise ValueError(f"(InvalidArgument) {op.name}(): argument '{slot.param}' (position {pos}) must be "
                             f"Tensor, but got {type(v).__name__}")
        return v._t

    def fn(*args, **kwargs):
        if len(args) > len(params):
            raise TypeError(f"{op.name}() takes {len(params)} positional arguments but {len(args)} were given")
        values = list(args) + [None] * (len(params) - len(args))
        given = [True] * len(args) + [False] * (len(params) - len(args))
        for k, v in kwargs.items():
            if k not in params:
                raise TypeError(f"{op.name}() got an unexpected keyword argument '{k}'")
            i = params.index(k)
            if given[i]:
                raise TypeError(f"{op.name}() got multiple values for argument '{k}'")
            values[i], given[i] = v, True
        missing = [p for p, g in zip(params, given) if not g]
        if missing:
            names = " and ".join(f"'{m}'" for m in missing) if len(missing) < 3 else \
                ", ".join(f"'{m}'" for m in missing[:-1]) + f", and '{missing[-1]}'"
            raise TypeError(f"{op.name}() missing {len(missing)} required positional argument"
                            f"{'s' if len(missing) > 1 else ''}: {names}")  # Python's words, as Paddle's op function
        targs = [unwrap(s, values[i], i) for i, s in enumerate(op.inputs)]
        attrs = [_check_attr(op.name, name, typ, values[n_in + i], n_in + i) for i, (name, typ) in enumerate(op.attrs)]
        try:
            if differentiable:
                flat = op.op(*targs, *attrs)
            else:  # Paddle's outputs of an op without a grad op do not require gradients
                with torch.no_grad():
                    flat = op.op(*targs, *attrs)
        except RuntimeError as e:
            err = _translate(e)
            if err is None:
                raise
            raise err from None
        outs = op.split_outputs(flat, targs)
        # Paddle: every output of an op with a grad op wants gradients when an input does, integer ones too
        claims = differentiable and torch.is_grad_enabled() and any(
            t.requires_grad for t in _tensors(targs))
        res = []
        for out, v in zip(op.outputs, outs):
            if out.inplace is not None and values[out.inplace] is not None:
                res.append(_write_back(values[out.inplace], v))
            elif isinstance(v, list):
                res.append([_claim(wrap(t), claims) for t in v])
            else:
                res.append(None if v is None else _claim(wrap(v), claims))
        return res[0] if len(res) == 1 else res

    fn.__name__ = fn.__qualname__ = op.name
    fn.torch_op = op.op  # the torch operator (functional: returns the outputs as one list)
    fn.__doc__ = (f"Custom operator {op.name}({', '.join(params)}) (inputs {[s.name for s in op.inputs]}, "
                  f"attributes {[f'{n}: {t}' for n, t in op.attrs]}, outputs {[s.name for s in op.outputs]}).")
    import inspect

    fn.__signature__ = inspect.Signature([inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD)
                                          for p in params])
    return fn


def _claim(t, claims):
    if claims and not t._t.requires_grad:
        t.stop_gradient = False  # an integer output: recorded as wanting gradients, as Paddle shows it
    return t


def _write_back(target, value):
    """An in-place op's output: the new values written into the caller's tensor(s), which are returned."""
    if isinstance(target, (list, tuple)):
        for t, v in zip(target, value):
            _write_back(t, v)
        return list(target)
    t = target._t
    if t.requires_grad and t.is_leaf and torch.is_grad_enabled():
        raise ValueError(f"(InvalidArgument) Leaf Var ({getattr(target, 'name', '')}) that doesn't stop gradient "
                         "can't use inplace strategy.")
    t.copy_(value)
    from ..._normalize import wrap

    return wrap(t)  # a new Tensor over the caller's tensor, as Paddle returns


__all__ = ["load_library", "OpLibrary"]
