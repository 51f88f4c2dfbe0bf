"""paddle.jit.to_static and its switches, over torch.compile.

A call unwraps the paddle Tensors in the arguments, runs torch.compile on a generated entry that
wraps them back and calls the user's code (dynamo traces through the Tensor wrapper), and wraps the
torch result again outside the graph.  Argument mapping (backend, full_graph, input_spec,
build_strategy), the process-wide dynamo settings and the measured speed: docs/jit.md.
"""
import functools
import inspect
import itertools
import types
import weakref

import torch

from torch._C._dynamo.guards import DictGuardManager as _DictGuardManager
from torch._dynamo import convert_frame as _convert_frame
from torch._dynamo import eval_frame as _eval_frame
from torch._dynamo.eval_frame import _debug_get_cache_entry_list
from torch.utils._ordered_set import OrderedSet as _OrderedSet

from .. import _normalize
from ..nn.layer import layers as _layers

__all__ = ["to_static", "not_to_static", "ignore_module", "enable_to_static", "set_code_level", "set_verbosity",
           "StaticFunction"]

_state = {"enabled": True, "code_level": 100, "verbosity": 0}
_ignored_modules = []
_counter = itertools.count()
_BACKENDS = {None: "inductor", "CINN": "inductor", "PCC": "inductor", "PHI": "inductor"}


def _torch_backend(backend):
    if backend is None or callable(backend):
        return _BACKENDS[None] if backend is None else backend
    if not isinstance(backend, str):
        raise ValueError(f"Unknown backend {backend}. Only support 'CINN' or None for PHI.")
    if backend.upper() in _BACKENDS:
        return _BACKENDS[backend.upper()]
    if backend in torch._dynamo.list_backends(exclude_tags=()) or backend == "inductor":
        return backend
    raise ValueError(f"Unknown backend {backend}. Only support 'CINN' or None for PHI "
                     "(or a torch.compile backend name).")


# ------------------------------------------------------------------ pytrees of tensors
def _to_torch_tree(obj):
    """paddle Tensors -> torch tensors, through lists, tuples and dicts."""
    if isinstance(obj, _normalize.Tensor):
        return obj._t
    t = type(obj)
    if t is list or t is tuple:
        return t(_to_torch_tree(v) for v in obj)
    if t is dict:
        return {k: _to_torch_tree(v) for k, v in obj.items()}
    return obj


def _to_paddle_tree(obj):
    """torch tensors -> paddle Tensors, through lists, tuples and dicts."""
    if isinstance(obj, torch.Tensor):
        return _normalize.wrap(obj)
    t = type(obj)
    if t is list or t is tuple:
        return t(_to_paddle_tree(v) for v in obj)
    if t is dict:
        return {k: _to_paddle_tree(v) for k, v in obj.items()}
    return obj


def _flat_specs(spec):
    if isinstance(spec, (list, tuple)):
        return [s for v in spec for s in _flat_specs(v)]
    return [spec]


def _mark_dynamic(args, input_spec):
    from ..static.input import InputSpec

    for arg, spec in zip(args, input_spec):
        if isinstance(spec, (list, tuple)) and isinstance(arg, (list, tuple)):
            _mark_dynamic(arg, spec)
        elif isinstance(spec, InputSpec) and isinstance(arg, torch.Tensor):
            if len(spec.shape) != arg.dim():
                continue  # Paddle checks this when it builds the program; here the call decides
            for i, d in enumerate(spec.shape):
                if d == -1 and arg.shape[i] > 1:  # dynamo specialises sizes 0 and 1 anyway
                    torch._dynamo.mark_dynamic(arg, i)


# ------------------------------------------------------------------ graph-break errors
def _graph_break_error(e, name):
    """A dynamo Unsupported error -> a RuntimeError naming the construct and where it is."""
    msg = str(getattr(e, "msg", None) or e).strip()
    lines = [ln for ln in msg.splitlines() if ln.strip()]
    construct = getattr(e, "gb_type", None) or (lines[0] if lines else type(e).__name__)
    detail = ""
    for ln in lines:
        if ln.strip().startswith("Explanation:"):
            detail = ln.strip()[len("Explanation:"):].strip()
            break
    where = ""
    stack = getattr(e, "real_stack", None)
    if stack:
        fr = stack[-1]
        where = f"\n  at {fr.filename}:{fr.lineno} in {fr.name}: {(fr.line or '').strip()}"
    return RuntimeError(
        f"paddle.jit.to_static(full_graph=True) could not compile {name} as one graph: {construct}"
        f"{': ' + detail if detail and detail != construct else ''}{where}\n"
        "Rewrite that construct, or use full_graph=False so that it runs eagerly between compiled parts.")


# ------------------------------------------------------------------ guards over the Layer tree
# Dynamo guards every read a compiled forward makes through a Layer (its tables, each parameter's
# metadata): ~1500-3700 guard nodes per entry for the zoo's gpt / resnet, ~450 us per resnet call,
# the whole gap to torch.compile of the torch twin.  A Layer is no nn.Module, so dynamo's own shortcut
# for module trees does not apply.  Instead the Layer counts its own changes (layers.MUTATIONS) and a
# StaticFunction, while that count is what it was at the last call dynamo checked in full, asks dynamo
# to evaluate only a pruned guard tree: every guard except those below a Layer object (the Layer's own
# identity/type guards stay, as do guards that ever failed, i.e. those that tell cache entries apart).
# Dynamo's mechanism for that is its "differentiating guards" (the tree `skip_guard_eval_unsafe` runs);
# here its source set is chosen by us, so what is skipped is exactly what the change count covers.
def _children(node):
    if isinstance(node, _DictGuardManager):
        return [m for kv in node.get_key_value_managers().values() for m in kv if m is not None]
    return node.get_child_managers()


def _prune_guards(code, layer_cls):
    """Point every cache entry of `code` at a guard tree without the guards below Layer objects.

    Returns False if the code has no entry (nothing to prune)."""
    entries = _debug_get_cache_entry_list(code)
    if not entries:
        return False
    chosen = _OrderedSet()

    def walk(node, under_layer):
        typ = node.get_type_of_guarded_value()
        below = under_layer or (isinstance(typ, type) and issubclass(typ, layer_cls))
        keep = False
        for child in _children(node):
            keep |= walk(child, below)
        if keep or not under_layer or node.fail_count() > 0:
            chosen.add(node.get_source())
            return True
        return False

    for e in entries:
        walk(e.guard_manager.root, False)
    for e in entries:  # one source set for all entries, as dynamo does for its own differentiating guards
        gm = e.guard_manager
        gm.diff_guard_sources = _OrderedSet(chosen)
        gm.populate_diff_guard_manager()
    return True


def _has_graph_breaks(code):
    # dynamo continues after a graph break in a generated resume function, which has guards of its own
    return any(n.startswith("__resume_at") for e in _debug_get_cache_entry_list(code) for n in e.code.co_names)


# ------------------------------------------------------------------ StaticFunction
_ENTRY_SRC = """
def {name}(*args, **kwargs):
    args, kwargs = _to_paddle(args), _to_paddle(kwargs)
    return _to_torch(_fn(*args, **kwargs))
"""


_DEFAULT_STANCE = _eval_frame._stance
_NOT_RUN = object()
_PRUNED_GUARDS_STANCE = _eval_frame.DynamoStance(skip_guard_eval_unsafe=True)


class StaticFunction:
    """What to_static returns for a function or a Layer method: calls run the torch.compile'd code."""

    def __init__(self, function, input_spec=None, build_strategy=None, backend=None, full_graph=False,
                 instance=None):
        self._dygraph_function = function
        self._input_spec = None if input_spec is None else list(input_spec) if isinstance(
            input_spec, (list, tuple)) else [input_spec]
        self._build_strategy = build_strategy
        self._backend = backend
        self._torch_backend = _torch_backend(backend)
        self._full_graph = bool(full_graph)
        self._instance = instance
        self._compiled = None
        self._bound = weakref.WeakKeyDictionary()
        self._last_inputs = None  # (args, kwargs) shapes/dtypes of the last call, for jit.save
        # fast path (see _prune_guards): layers.MUTATIONS at the last fully checked call, or None
        self._checked_at = None
        self._frames_seen = -1  # dynamo's frame counter when the guards were last pruned
        self._fast_ok = True  # False once the function graph-breaks (its resume functions are not pruned)
        functools.update_wrapper(self, function)

    # a StaticFunction defined in a class body binds to each instance (`@to_static def forward`)
    def __get__(self, instance, owner=None):
        if instance is None or self._instance is not None:
            return self
        bound = self._bound.get(instance)
        if bound is None:
            bound = StaticFunction(types.MethodType(self._dygraph_function, instance), self._input_spec,
                                   self._build_strategy, self._backend, self._full_graph, instance=instance)
            self._bound[instance] = bound
        return bound

    @property
    def dygraph_function(self):
        return self._dygraph_function

    @property
    def function_spec(self):
        return self._input_spec

    @property
    def _layer(self):
        if self._instance is not None:
            return self._instance
        owner = getattr(self._dygraph_function, "__self__", None)
        from ..nn.layer.layers import Layer

        return owner if isinstance(owner, Layer) else None

    def _compile(self):
        name = getattr(self._dygraph_function, "__name__", "fn")
        name = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
        entry_name = f"to_static_{name}_{next(_counter)}"
        ns = {"_fn": self._dygraph_function, "_to_paddle": _to_paddle_tree, "_to_torch": _to_torch_tree}
        exec(compile(_ENTRY_SRC.format(name=entry_name), f"<paddle.jit.to_static {name}>", "exec"), ns)
        # paddle.grad inside a static function is part of Paddle's program (PINNs differentiate twice in
        # it): let dynamo trace torch.autograd.grad into the graph instead of breaking there.  Set once,
        # globally: toggling dynamo's config around each call costs ~30 us.
        torch._dynamo.config.trace_autograd_ops = True
        # The same object reached through two sources (torch.Tensor through each op wrapper's globals, the
        # parameter class through each parameter's type) gets an aliasing guard.  A Layer is no nn.Module,
        # so dynamo's dict-tag shortcut never skips its subtree, and the default Python-lambda form of
        # these guards only costs: as C++ relational guards they evaluate ~12% faster (gpt 23.7 -> 20.4 us,
        # resnet 86.8 -> 76.0 us per call).  Same guards, same semantics; set once, globally.
        torch._dynamo.config.use_lamba_guard_for_object_aliasing = False
        return torch.compile(ns[entry_name], backend=self._torch_backend, fullgraph=self._full_graph)

    def __call__(self, *args, **kwargs):
        if not _state["enabled"]:
            return self._dygraph_function(*args, **kwargs)
        if self._compiled is None:
            self._compiled = self._compile()
        targs, tkwargs = _to_torch_tree(args), _to_torch_tree(kwargs)
        self._last_inputs = (targs, tkwargs)
        if self._input_spec is not None:
            _mark_dynamic(targs, self._input_spec)
        mutations = _layers.MUTATIONS[0]
        stance = _eval_frame._stance
        try:
            out = _NOT_RUN
            if mutations == self._checked_at and (stance is _DEFAULT_STANCE or stance == _DEFAULT_STANCE):
                _eval_frame._stance = _PRUNED_GUARDS_STANCE  # the compiled wrapper reads it on entry
                try:
                    out = self._compiled(*targs, **tkwargs)
                except RuntimeError as e:
                    # no entry passed the pruned guards: dynamo refuses to compile under this stance
                    # (before running anything), so check in full and compile as usual below
                    if "skip_guard_eval_unsafe" not in str(e):
                        raise
                finally:
                    _eval_frame._stance = stance
            if out is _NOT_RUN:
                out = self._compiled(*targs, **tkwargs)
        except torch._dynamo.exc.Unsupported as e:
            raise _graph_break_error(e, self._describe()) from None
        except torch._dynamo.exc.UserError as e:
            raise _graph_break_error(e, self._describe()) from None
        if _convert_frame.FRAME_COUNTER != self._frames_seen:  # something was compiled: prune again
            self._frames_seen = _convert_frame.FRAME_COUNTER
            code = self._compiled._torchdynamo_orig_callable.__code__
            if self._fast_ok and _has_graph_breaks(code):
                self._fast_ok = False
            if not (self._fast_ok and _prune_guards(code, _layers.Layer)):
                self._checked_at = None
                return _to_paddle_tree(out)
        # a call that changed the Layer tree itself (forward assigning attributes) is never fast
        self._checked_at = mutations if self._fast_ok and _layers.MUTATIONS[0] == mutations else None
        return _to_paddle_tree(out)

    def _describe(self):
        f = self._dygraph_function
        return getattr(f, "__qualname__", None) or repr(f)

    def __repr__(self):
        return f"<StaticFunction {self._describe()}>"

    # Paddle's StaticFunction API that has a meaning here
    def rollback(self):
        """Undo to_static: the Layer's forward (or the function) becomes the dygraph one again."""
        layer = self._layer
        if layer is not None and layer.__dict__.get("forward") is self:
            del layer.__dict__["forward"]
            return layer.forward
        return self._dygraph_function


# ------------------------------------------------------------------ public API
def _check_build_strategy(build_strategy):
    # paddle.static.BuildStrategy (issue 9) is not implemented here, so only None can pass
    if build_strategy is not None and type(build_strategy).__name__ != "BuildStrategy":
        raise TypeError("Required type(build_strategy) shall be `paddle.static.BuildStrategy`, but received "
                        f"{type(build_strategy).__name__}")


def to_static(function=None, input_spec=None, build_strategy=None, backend=None, **kwargs):
    """Compile a function, a Layer or a Layer method with torch.compile (see the module docstring)."""
    full_graph = kwargs.pop("full_graph", None)
    kwargs.pop("property", None)
    if kwargs:
        raise TypeError(f"to_static() got unexpected keyword arguments {sorted(kwargs)}")
    _check_build_strategy(build_strategy)
    _torch_backend(backend)  # validate now, as Paddle does
    full_graph = bool(full_graph)

    def decorated(fn):
        if isinstance(fn, StaticFunction):
            fn = fn._dygraph_function
        if not _state["enabled"]:
            return fn
        if getattr(fn, "_not_to_static", False):
            return fn
        return functools.update_wrapper(
            StaticFunction(fn, input_spec, build_strategy, backend, full_graph), fn, updated=())

    if function is not None:
        from ..nn.layer.layers import Layer

        if isinstance(function, Layer):
            fwd = function.forward
            if isinstance(fwd, StaticFunction):
                fwd = fwd._dygraph_function
            if not _state["enabled"]:
                return function
            sf = StaticFunction(fwd, input_spec, build_strategy, backend, full_graph, instance=function)
            function.__dict__["forward"] = sf
            return function
        return decorated(function)
    return decorated


def not_to_static(func=None):
    """Keep `func` out of the compiled graph: it runs eagerly between compiled parts (a graph break).

    Under full_graph=True a call to it cannot be in the one graph and is reported as such.
    """
    if func is None:
        return not_to_static
    wrapped = torch.compiler.disable(func, recursive=True)
    try:
        wrapped._not_to_static = True
    except AttributeError:
        pass
    return wrapped


def ignore_module(modules):
    """Paddle: functions of these modules are called as they are, not transcribed.

    Dynamo never rewrites Python source, so every module's functions already run as written (their
    tensor ops are traced); the list is recorded for Paddle's bookkeeping.
    """
    if not isinstance(modules, (list, tuple)):
        modules = [modules]
    for m in modules:
        if not isinstance(m, types.ModuleType):
            raise TypeError(f"ignore_module expects modules, but received {type(m).__name__}.")
        if m not in _ignored_modules:
            _ignored_modules.append(m)


def enable_to_static(enable_to_static_bool):
    """The global switch: with False, to_static returns the plain callable and StaticFunctions run eagerly."""
    if not isinstance(enable_to_static_bool, bool):
        raise TypeError("The type of 'enable_to_static_bool' in paddle.jit.enable_to_static must be bool, but "
                        f"received {type(enable_to_static_bool)}.")
    _state["enabled"] = enable_to_static_bool


def set_code_level(level=100, also_to_stdout=False):
    """Paddle prints the transformed code; dynamo's equivalent is its bytecode / graph log.

    level > 0 turns on torch's `graph_code` log (the code of each captured graph), 0 turns it off.
    """
    if not isinstance(level, int):
        raise TypeError(f"level must be int, but received {type(level).__name__}")
    _state["code_level"] = level
    torch._logging.set_logs(graph_code=level > 0)


def set_verbosity(level=0, also_to_stdout=False):
    """Paddle's dy2static log verbosity; > 0 turns on torch's graph-break and recompile logs."""
    if not isinstance(level, int):
        raise TypeError(f"level must be int, but received {type(level).__name__}")
    _state["verbosity"] = level
    torch._logging.set_logs(graph_breaks=level > 0, recompiles=level > 0)
