"""paddle.jit.to_static and its switches, over torch.compile.

A call unwraps the paddle Tensors in the arguments, runs torch.compile on a generated entry that
wraps them back and calls the user's code (dynamo traces through the Tensor wrapper), and wraps the
torch result again outside the graph.  Calls skip dynamo's guards over an unchanged Layer tree
(_guards.py), and a one-graph function returning a scalar loss also gets a joint loss + gradients
program (_joint.py).  Argument mapping (backend, full_graph, input_spec, build_strategy), the
process-wide dynamo settings and the measured speed: docs/jit.md.
"""
import functools
import inspect
import itertools
import os
import types
import weakref

import torch

from .. import _normalize
from ._frames import inline_only
from ._guards import CompiledEntry
from ._joint import Joint

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
    if stack:  # the innermost user frame (not the control-flow converter's operators)
        here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dy2static")
        user = [f for f in stack if not os.path.abspath(f.filename).startswith(here)]
        fr = (user or list(stack))[-1]
        where = f"\n  at {fr.filename}:{fr.lineno} in {fr.name}: {(fr.line or '').strip()}"
    return RuntimeError(
        f"paddle.jit.to_static(full_graph=True) could not compile {name} as one graph: {construct}"
        f"{': ' + detail if detail and detail != construct else ''}{where}\n"
        "Rewrite that construct, or use full_graph=False so that it runs eagerly between compiled parts.")


# ------------------------------------------------------------------ StaticFunction
_ENTRY_SRC = """
def {name}(*args, **kwargs):
    args, kwargs = _to_paddle(args), _to_paddle(kwargs)
    return _to_torch(_fn(*args, **kwargs))
"""


def _set_dynamo_config(key, value):
    """Set a dynamo option where this torch has it (an older torch, such as the XLA lane's 2.9, lacks some)."""
    if hasattr(torch._dynamo.config, key):
        setattr(torch._dynamo.config, key, value)


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
        self._compiled = None  # a _guards.CompiledEntry
        self._entry_fn = None  # the entry it compiles (the joint program calls it too)
        self._joint = None  # _joint.Joint, or False where that pattern does not apply; None: not known yet
        self._bound = weakref.WeakKeyDictionary()
        self._last_inputs = None  # (args, kwargs) shapes/dtypes of the last call, for jit.save
        self._patches = None  # full_graph: the sublayer forwards converted for the compile (dy2static)
        self._converted = False  # full_graph: compiling the control-flow-converted function (see _with_conversion)
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
        fn = self._dygraph_function
        if self._converted:  # Paddle's AST mode: Python control flow on Tensors becomes torch.cond / while_loop
            from .dy2static import convert_call, patched_forwards, prepare

            prepare(self._layer if self._layer is not None else fn)
            if self._layer is not None:  # sublayers called by library code (Sequential) run converted too
                self._patches = patched_forwards(self._layer, keep=True).__enter__()
            fn = convert_call(fn)
        ns = {"_fn": fn, "_to_paddle": _to_paddle_tree, "_to_torch": _to_torch_tree}
        exec(compile(_ENTRY_SRC.format(name=entry_name), f"<paddle.jit.to_static {name}>", "exec"), ns)
        # paddle.grad inside a static function is part of Paddle's program (PINNs differentiate twice in
        # it): let dynamo trace torch.autograd.grad into the graph instead of breaking there.  Set once,
        # globally: toggling dynamo's config around each call costs ~30 us.
        _set_dynamo_config("trace_autograd_ops", True)
        # The same object reached through two sources (torch.Tensor through each op wrapper's globals, the
        # parameter class through each parameter's type) gets an aliasing guard.  A Layer is no nn.Module,
        # so dynamo's dict-tag shortcut never skips its subtree, and the default Python-lambda form of
        # these guards only costs: as C++ relational guards they evaluate ~12% faster (gpt 23.7 -> 20.4 us,
        # resnet 86.8 -> 76.0 us per call).  Same guards, same semantics; set once, globally.
        _set_dynamo_config("use_lamba_guard_for_object_aliasing", False)
        inline_only()  # the shim's own functions are never frames of their own (_frames.py)
        self._entry_fn = ns[entry_name]
        return CompiledEntry(self._entry_fn, self._torch_backend, self._full_graph)

    def __call__(self, *args, **kwargs):
        if not _state["enabled"]:
            return self._dygraph_function(*args, **kwargs)
        if self._compiled is None:
            self._compiled = self._compile()
        targs, tkwargs = _to_torch_tree(args), _to_torch_tree(kwargs)
        self._last_inputs = (targs, tkwargs)
        if self._input_spec is not None:
            _mark_dynamic(targs, self._input_spec)
        joint = self._joint
        try:
            if joint and joint.fits(targs):
                try:
                    return _to_paddle_tree(joint(targs, tkwargs))
                except torch._dynamo.exc.TorchDynamoException:
                    self._joint = joint = False  # the joint program does not trace: the plain one does
            out = self._compiled(*targs, **tkwargs)
        except torch._dynamo.exc.Unsupported as e:
            if self._full_graph and not self._converted:
                return self._with_conversion(args, kwargs)
            raise _graph_break_error(e, self._describe()) from None
        except torch._dynamo.exc.UserError as e:
            if self._full_graph and not self._converted:
                return self._with_conversion(args, kwargs)
            raise _graph_break_error(e, self._describe()) from None
        except RuntimeError as e:  # (after UserError, a RuntimeError too)
            if self._full_graph or "does not currently support double backward" not in str(e):
                raise
            return self._without_aot(args, kwargs)
        # one graph (full_graph, or no graph break happened) that returns a scalar loss: see _joint.py
        if joint is not False and torch.is_grad_enabled() and (self._full_graph or self._compiled.fast_ok):
            # (re)learn the loss's leaves: first call, a Layer changed, or the arguments' requires_grad
            if joint is None:
                joint = Joint(self, self._entry_fn) if Joint.applies(out) else False
            self._joint = joint if joint and joint.learn(out, targs, tkwargs) else False
        return _to_paddle_tree(out)

    # A function that breaks dynamo's graph (a .item(), library code dynamo cannot trace) and takes a
    # create_graph=True gradient of a compiled part's outputs after the break (a PINN's residual: u_xx from
    # paddle.grad, ppsci's train_forward) needs the double backward that AOT-compiled graphs do not have:
    # torch raises when that gradient is taken.  That call runs again eagerly (what ran before the raise,
    # a forward, ran twice: a BatchNorm there would update its statistics twice on that one call), and
    # the function is compiled from then on with dynamo's "eager" backend, whose captured graphs run as
    # plain torch ops (any number of backwards).  Functions that never do this keep their compiled graphs.
    def _without_aot(self, args, kwargs):
        self._compiled = CompiledEntry(self._entry_fn, "eager", False)
        self._joint = False
        return self._dygraph_function(*args, **kwargs)

    def _with_conversion(self, args, kwargs):
        """full_graph=True code that does not trace as one graph as written (Python control flow on a Tensor):
        compiled again from the converted source (jit/dy2static), Paddle's AST mode.  Code that traces as
        written keeps its own, smaller set of guards (the conversion adds ~25% per call on a small MLP)."""
        self._converted = True
        self._joint = None
        self._compiled = self._compile()
        return self(*args, **kwargs)

    def _describe(self):
        f = self._dygraph_function
        return getattr(f, "__qualname__", None) or repr(f)

    def __repr__(self):
        return f"<StaticFunction {self._describe()}>"

    # Paddle's StaticFunction API that has a meaning here
    def rollback(self):
        """Undo to_static: the Layer's forward (or the function) becomes the dygraph one again."""
        layer = self._layer
        if self._patches is not None:
            self._patches.restore()
            self._patches = None
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
    """Paddle prints the transformed code of each function it converts.

    level > 0: the control-flow conversion (jit/dy2static) prints each function it rewrites, to stdout, and
    torch's `graph_code` log shows the code of each captured graph; 0 turns both off.
    """
    if not isinstance(level, int):
        raise TypeError(f"level must be int, but received {type(level).__name__}")
    _state["code_level"] = level
    _state["print_code"] = level > 0
    torch._logging.set_logs(graph_code=level > 0)


def set_verbosity(level=0, also_to_stdout=False):
    """Paddle's dy2static log verbosity; > 0 turns on torch's graph-break and recompile logs."""
    if not isinstance(level, int):
        raise TypeError(f"level must be int, but received {type(level).__name__}")
    _state["verbosity"] = level
    torch._logging.set_logs(graph_breaks=level > 0, recompiles=level > 0)
