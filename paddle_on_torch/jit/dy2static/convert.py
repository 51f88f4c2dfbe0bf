"""Converting functions and Layers: source -> rewritten AST (transform.py) -> a function with the same
globals, closure cells, defaults and name, calling the run-time operators (operators.py).

`convert_function(fn)` returns the converted function, or `fn` itself where there is nothing to
convert or it cannot be converted (no source, a generator, a library function, not_to_static, a
decorated wrapper): such a function then runs as written, as Paddle's dy2static leaves it.
`convert_call(callee)` is what converted code calls its callees through: user functions, methods
and Layers are converted in turn (a Layer's forward through its class's function), everything else
is returned as it is.
"""
import ast
import functools
import inspect
import sys
import textwrap
import types
import warnings
import weakref

import torch

from . import transform

__all__ = ["convert_function", "convert_call", "converted_source", "is_library_module", "prepare"]

_code_cache = {}  # code object -> (transformed code object, source text) or None (not convertible)
_fn_cache = weakref.WeakKeyDictionary()  # function -> converted function (or itself)
_LIBRARY_ROOTS = {"paddle_on_torch", "paddle", "torch", "numpy", "scipy", "sympy", "typing_extensions", "triton",
                  "safetensors", "_pytest", "pytest"}


def is_library_module(value):
    """True for modules (and their functions / classes) that are never converted: the shim, torch,
    numpy, the standard library, and modules given to paddle.jit.ignore_module."""
    mod = value if isinstance(value, types.ModuleType) else inspect.getmodule(value)
    if mod is None:
        name = getattr(value, "__module__", None)
        if not isinstance(name, str):
            return True  # builtins and C objects
        mod_name = name
    else:
        mod_name = mod.__name__
    root = mod_name.split(".")[0]
    if root in _LIBRARY_ROOTS or root in sys.stdlib_module_names or root == "builtins":
        return True
    from ..api import _ignored_modules

    return any(mod_name == m.__name__ or mod_name.startswith(m.__name__ + ".") for m in _ignored_modules)


def _class_name(fn):
    parts = fn.__qualname__.split(".")
    if len(parts) >= 2 and parts[-2] != "<locals>":
        return parts[-2]
    return None


def _transformed_code(fn):
    """The rewritten code object for `fn`'s code, or None (nothing to convert / not convertible)."""
    code = fn.__code__
    if code in _code_cache:
        return _code_cache[code]
    _code_cache[code] = None
    if code.co_flags & (inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR):
        return None
    try:
        lines, lnum = inspect.getsourcelines(code)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    if not tree.body or not isinstance(tree.body[0], ast.FunctionDef) or tree.body[0].name != code.co_name:
        return None  # a lambda, or source that is not this function's
    fdef = tree.body[0]
    ast.increment_lineno(tree, lnum - 1)
    fdef.decorator_list = []
    fdef.returns = None
    args = fdef.args
    for a in args.posonlyargs + args.args + args.kwonlyargs + [x for x in (args.vararg, args.kwarg) if x]:
        a.annotation = None
    args.defaults, args.kw_defaults = [], [None] * len(args.kwonlyargs)  # taken from the function object
    tr = transform.Transformer(fdef, _class_name(fn), is_library_module, dict(fn.__globals__))
    tr.run()
    if not tr.changed:
        return None
    freevars = list(code.co_freevars)
    factory = ast.FunctionDef(
        name="_pot_factory",
        args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in freevars + [transform.JST]], vararg=None,
                           kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]),
        body=[fdef, ast.Return(value=ast.Name(id=fdef.name, ctx=ast.Load()))],
        decorator_list=[], returns=None, type_params=[])
    module = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(module)
    ns = {}
    exec(compile(module, code.co_filename, "exec"), ns)  # noqa: S102 - our own rewrite of the user's function
    inner = ns["_pot_factory"](*([None] * (len(freevars) + 1)))
    _code_cache[code] = (inner.__code__, ast.unparse(fdef), tr.called_globals, tr.called_self_attrs)
    from ..api import _state

    if _state.get("print_code"):  # paddle.jit.set_code_level
        print(f"# paddle.jit: {fn.__qualname__} converted ({code.co_filename}:{code.co_firstlineno})\n"
              f"{_code_cache[code][1]}\n")
    return _code_cache[code]


def convert_function(fn):
    """`fn` with its control flow converted (see the module docstring); `fn` when nothing is converted.

    Under dynamo only conversions made before are looked up (dynamo cannot trace the conversion itself):
    to_static(full_graph=True) converts the Layer tree and the functions it calls ahead (prepare)."""
    if not isinstance(fn, types.FunctionType) or "_pot_original" in fn.__dict__:  # converted already
        return fn
    if torch.compiler.is_dynamo_compiling():
        return _fn_cache.get(fn, fn)
    try:
        return _fn_cache[fn]
    except KeyError:
        pass
    _fn_cache[fn] = fn  # while converting: a recursive reference sees the function as it is
    result = fn
    if not getattr(fn, "_not_to_static", False) and not hasattr(fn, "__wrapped__") and not is_library_module(fn):
        try:
            entry = _transformed_code(fn)
        except Exception as e:  # noqa: BLE001 - a construct the rewrite does not handle: run it as written
            _code_cache[fn.__code__] = entry = None
            warnings.warn(f"paddle.jit: {fn.__qualname__} is run as written; its control flow could not be "
                          f"converted ({type(e).__name__}: {e})")
        if entry is not None:
            result = _build(fn, entry[0])
    _fn_cache[fn] = result
    if result is not fn:
        for name in entry[2]:  # global user functions it calls: converted now, for dynamo's sake
            v = fn.__globals__.get(name)
            if isinstance(v, types.FunctionType):
                convert_function(v)
    return result


class patched_forwards:
    """Within the block, every sublayer of `root` whose forward converts runs the converted forward also when
    library code calls it (a Sequential, a LayerList loop): its instance `forward` is the converted method, as
    Paddle's convert_call leaves it.  jit.save uses this around its trace; to_static(full_graph=True) keeps it
    (`keep=True`) until rollback()."""

    _MISSING = object()

    def __init__(self, root, keep=False):
        self.root, self.keep, self.saved = root, keep, []

    def __enter__(self):
        from ..api import StaticFunction

        for layer in self.root.sublayers():
            current = layer.__dict__.get("forward", self._MISSING)
            if isinstance(current, StaticFunction) or getattr(current, "_pot_original", None) is not None:
                continue
            fn = _forward_function(layer)
            conv = convert_function(fn) if isinstance(fn, types.FunctionType) else fn
            if conv is fn:
                continue
            bound = types.MethodType(conv, layer)
            self.saved.append((layer, current))
            layer.__dict__["forward"] = bound
        return self

    def __exit__(self, *exc):
        if not self.keep:
            self.restore()

    def restore(self):
        for layer, prev in reversed(self.saved):
            if prev is self._MISSING:
                layer.__dict__.pop("forward", None)
            else:
                layer.__dict__["forward"] = prev
        self.saved = []


def prepare(obj):
    """Convert ahead what calls from `obj` (a function, method or Layer) may reach: every sublayer's forward
    and the methods they call on self (dynamo looks conversions up but cannot make them)."""
    from ...nn.layer.layers import Layer

    if isinstance(obj, Layer):
        layers = [obj] + list(obj.sublayers())
    else:
        layers = []
        owner = getattr(obj, "__self__", None)
        if isinstance(owner, Layer):
            layers = [owner] + list(owner.sublayers())
        convert_call(obj)
    for layer in layers:
        todo = [_forward_function(layer)]
        seen = set()
        while todo:
            f = todo.pop()
            if not isinstance(f, types.FunctionType) or f in seen:
                continue
            seen.add(f)
            convert_function(f)
            entry = _code_cache.get(f.__code__)
            for name in entry[3] if entry else ():
                todo.append(getattr(type(layer), name, None))


def _build(fn, code):
    from . import jst

    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    closure = tuple(cells[n] if n in cells else types.CellType(jst) for n in code.co_freevars)
    new = types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__, closure)
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__qualname__, new.__module__, new.__doc__ = fn.__qualname__, fn.__module__, fn.__doc__
    new.__dict__.update(fn.__dict__)
    new._pot_original = fn
    return new


def converted_source(fn):
    """The rewritten source of `fn` (for set_code_level and debugging), or None."""
    fn = getattr(fn, "__func__", fn)
    entry = _transformed_code(fn) if isinstance(fn, types.FunctionType) else None
    return None if entry is None else entry[1]


# ------------------------------------------------------------------ calls from converted code
def _forward_function(layer):
    """The plain function behind a Layer's forward (its class's, or a to_static one's)."""
    from ..api import StaticFunction

    fwd = layer.__dict__.get("forward")
    if isinstance(fwd, StaticFunction):
        fwd = fwd._dygraph_function
    if fwd is None:
        fwd = type(layer).forward
        if isinstance(fwd, StaticFunction):
            fwd = fwd._dygraph_function
    return getattr(fwd, "__func__", fwd)


class _ConvertedLayerCall:
    """Calls a Layer with its forward converted: Layer.__call__'s hooks still run around it."""

    __slots__ = ("layer", "forward")

    def __init__(self, layer, forward):
        self.layer, self.forward = layer, forward

    def __call__(self, *args, **kwargs):
        from ...nn.layer.layers import Layer

        layer = self.layer
        d = layer.__dict__
        if not d["_forward_pre_hooks"] and not d["_forward_post_hooks"] and (
                d["_built"] or type(layer)._build_once is Layer._build_once):
            return self.forward(layer, *args, **kwargs)
        missing = object()
        prev = d.get("forward", missing)
        d["forward"] = types.MethodType(self.forward, layer)
        try:
            return layer(*args, **kwargs)
        finally:
            if prev is missing:
                del d["forward"]
            else:
                d["forward"] = prev


def convert_call(callee):
    """The callable converted code calls in place of `callee`."""
    from ...nn.layer.layers import Layer
    from ..api import StaticFunction

    if isinstance(callee, Layer):
        fn = _forward_function(callee)
        conv = convert_function(fn) if isinstance(fn, types.FunctionType) else fn
        return callee if conv is fn else _ConvertedLayerCall(callee, conv)
    if isinstance(callee, StaticFunction):
        return convert_call(callee._dygraph_function)
    if isinstance(callee, types.MethodType):
        conv = convert_function(callee.__func__)
        if conv is callee.__func__:
            return callee
        if torch.compiler.is_dynamo_compiling():  # dynamo cannot build a bound method; a partial it can
            return functools.partial(conv, callee.__self__)
        return types.MethodType(conv, callee.__self__)
    if isinstance(callee, types.FunctionType):
        return convert_function(callee)
    return callee
