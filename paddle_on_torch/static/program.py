"""Paddle's Program on one torch.fx Graph, and the recorder that fills it.

In static mode a Variable is a paddle Tensor whose `_t` is a FakeTensor (symbolic sizes for Paddle's
-1 dims).  Every API call that touches a Variable is appended to the current Program's fx Graph as a
`call_function` node and computed on fake tensors for its shape and dtype:

* an `@op` API (paddle.add, F.conv2d, ...) becomes one node whose target is the op's torch
  implementation, called with torch-level arguments: the Graph reads like Paddle's program, one node
  per API call, and `training=` flags stay visible for `Program.clone(for_test=True)`;
* any other torch call on a Variable's tensor (Tensor methods written directly on torch, indexing)
  is caught by a TorchFunctionMode and becomes a node with the torch function as target.

Data vars and parameters are placeholders (bound at run time to the feed and to the Scope), other
real tensors the code passes in are constants (get_attr).  The Executor copies the Graph, adds an
output node for the fetch list and runs it as a GraphModule on real tensors, so a Program runs on
torch eager, and (forward programs) on torch.compile and torch.export.
"""
import contextlib
import copy
import itertools
import operator
import re

import torch
import torch.fx
from torch._subclasses.fake_tensor import FakeTensor, FakeTensorMode
from torch.fx.experimental.symbolic_shapes import (DimDynamic, GuardOnDataDependentSymNode, ShapeEnv,
                                                   StatelessSymbolicContext)
from torch.overrides import TorchFunctionMode
from torch.utils._pytree import tree_flatten, tree_unflatten

from .. import _normalize
from ..base import framework as _fw
from ..framework import unique_name
from .._report import unsupported

__all__ = ["Program", "program_guard", "default_main_program", "default_startup_program", "name_scope",
           "Variable", "is_var", "current_program"]

_HINT = 7  # the example size behind a -1 dim (fake tensors need one; the graph never bakes it in)
_RANDOM_MODULES = ("paddle_on_torch.tensor.random", "paddle_on_torch.tensor.creation")
_NO_RECORD = {"create_parameter", "create_tensor", "to_tensor"}  # to_tensor: a constant, made eagerly


def is_var(t):
    """A static-mode Variable: a fake tensor of static mode's own fake mode (torch.export / torch.compile trace with
    fake tensors of their own, which are not Variables even after static mode has been on)."""
    return isinstance(t, FakeTensor) and _state is not None and t.fake_mode is _state.fake_mode


class _State:
    """What static mode needs while it is on: the fake mode, the program stack, the recorder."""

    def __init__(self):
        self.fake_mode = FakeTensorMode(allow_non_fake_inputs=True, shape_env=ShapeEnv(duck_shape=False))
        self.suspended = 0
        self.blocks = []  # sub-graphs being recorded (cond / while_loop bodies), innermost last
        self.mode = _Recorder()
        self.checks = None  # a _ValueChecks while an op runs on fake values

    @contextlib.contextmanager
    def suspend(self):
        self.suspended += 1
        try:
            yield
        finally:
            self.suspended -= 1

    def current(self):
        return self.blocks[-1] if self.blocks else _main


_state = None  # a _State while static mode is on (also kept after disable_static for old Variables)


class _Recorder(TorchFunctionMode):
    """Records torch calls on Variables that no @op wrapper recorded (the catch-all)."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        st = _state
        if func is _BOOL and st.checks is not None:
            return st.checks.decide(func, args)
        if st.suspended or _fw._static is None or not _has_var(args, kwargs) or _initializes(func, args):
            return func(*args, **kwargs)
        if func is torch.Tensor.cuda:  # a copy to the GPU: sized as a copy here, done (or refused) when run
            return _record(func, args, kwargs, compute=lambda t, *a, **k: t.clone())
        if func is _SETITEM:
            return _record_setitem(*args)
        return _record(func, args, kwargs)


_SETITEM = torch.Tensor.__setitem__


def _written(t, index, value):
    """`t[index] = value` as a value: the written copy (what a Variable names after the assignment)."""
    t = t.clone()
    t[index] = value
    return t


def _record_setitem(t, index, value):
    """`x[index] = value` on a Variable: recorded as the written value, which the Variable names from then on
    (Paddle's set_value op; torch's in-place write returns None, so it was not recorded at all)."""
    out = _record(_written, (t, index, value), {})
    prog = _state.current()
    prog._vars[id(t)] = (t, prog._lookup(out)[1])


_BOOL = torch.Tensor.__bool__


class _ValueChecks:
    """The answers given to `bool(t)` on fake values while an op's output is sized.

    An op that checks its input values in Python (`if bool((label >= C).any()): raise ...`) asks for a
    value a Variable does not have; torch raises GuardOnDataDependentSymNode.  The op's node runs the
    check for real when the Executor runs it, so recording only needs the path on which the checks
    pass: undecidable bools answer False first, and an attempt that raises flips its last False to
    True (a depth-first search over at most _MAX_CHECKS answers per attempt)."""

    def __init__(self, answers):
        self.answers, self.given = answers, []

    def decide(self, func, args):
        try:
            return func(*args)
        except GuardOnDataDependentSymNode:
            if len(self.given) >= _MAX_CHECKS:
                raise
            i = len(self.given)
            self.given.append(self.answers[i] if i < len(self.answers) else False)
            return self.given[-1]


_MAX_CHECKS = 6


def _run_checked(fn, args, kwargs):
    """fn on fake values, answering the value checks it makes so that they pass (see _ValueChecks)."""
    answers, first = [], None
    while True:
        _state.checks = checks = _ValueChecks(answers)
        try:
            return fn(*args, **kwargs)
        except Exception as e:  # noqa: BLE001 - a failed path: try the next one, else the first error
            first = first or e
            given = checks.given
            while given and given[-1]:
                given.pop()
            if not given:
                raise first from None
            answers = given[:-1] + [True]
        finally:
            _state.checks = None


def _has_var(args, kwargs):
    """Does a call touch a Variable: a fake tensor, or a parameter made in static mode (which lives in the
    scope, so ops on it alone are program ops too)?"""
    for a in tree_flatten((args, kwargs))[0]:
        if isinstance(a, torch.Tensor):
            if isinstance(a, FakeTensor) or hasattr(a, "_st_param_name"):
                return True
        elif isinstance(a, torch.SymInt):  # a size read off a Variable (torch.zeros(x.shape[0], ...))
            return True
    return False


def _initializes(func, args):
    """An in-place torch call on a real parameter is its initializer running at creation: not an op."""
    if not args or isinstance(args[0], FakeTensor) or not hasattr(args[0], "_st_param_name"):
        return False
    name = getattr(func, "__name__", "")
    return name.endswith("_") and not name.endswith("__") or name == "__set__"


def fake_of(t):
    """The fake twin of a real tensor (memoised by the fake mode)."""
    with _state.suspend():
        return _state.fake_mode.from_tensor(t, static_shapes=True)


def _fake_arg(a):
    """An argument as the fake run takes it: real tensors (bare or in a paddle Tensor) by their fake twins."""
    if isinstance(a, torch.Tensor) and not isinstance(a, FakeTensor):
        return fake_of(a)
    if _normalize.is_tensor(a) and isinstance(a._t, torch.Tensor) and not isinstance(a._t, FakeTensor):
        return _normalize.wrap(fake_of(a._t))
    return a


def _record(target, args, kwargs, compute=None, meta=None, force=False):
    prog = _state.current()
    flat, spec = tree_flatten((args, kwargs))
    fakes = [_fake_arg(a) for a in flat]
    fargs, fkwargs = tree_unflatten(fakes, spec)
    # (guards suppressed: a size check in the op must not specialise a -1 dim to its example size)
    with _state.suspend(), _state.fake_mode, _state.fake_mode.shape_env.suppress_guards():
        try:
            out = _run_checked(compute or target, fargs, fkwargs)
        except RuntimeError as e:
            if "symbolic" not in str(e):
                raise
            out = _with_example_sizes(compute or target, fargs, fkwargs)
    oflat = tree_flatten(out)[0]
    reads = not any(isinstance(o, torch.Tensor) for o in oflat) and any(_is_read_value(o) for o in oflat)
    if not force and not reads and not any(isinstance(o, torch.Tensor) for o in oflat):
        return out
    nodes, in_ids = [], set()
    for a in flat:
        if isinstance(a, torch.Tensor):
            f, n = prog._lookup(a)
            in_ids.add(id(f))
        elif _normalize.is_tensor(a):  # a paddle Tensor an implementation takes as it is (put_along_axis' values)
            f, n = prog._lookup(a._t)
            in_ids.add(id(f))
            n = prog.graph.call_function(_normalize.wrap, (n,))
        elif isinstance(a, torch.SymInt):
            n = prog._sym(a)
        else:
            n = a
        nodes.append(n)
    nargs, nkwargs = tree_unflatten(nodes, spec)
    node = prog.graph.call_function(target, tuple(nargs), nkwargs)
    if reads:  # values read off a Variable (`s.tolist()` of a shape tensor): later ops may use them as sizes
        for i, o in enumerate(oflat):
            if _is_read_value(o):
                prog._values[o.node.expr] = prog.graph.call_function(_leaf, (node, i))
        return out
    if meta:
        node.meta.update(meta)
    if force:
        node.meta["effect"] = True
    prog._bind(out, node, in_ids)
    prog._version += 1
    return out


def _is_read_value(v):
    """A number the fake run read off a Variable's values (an unbacked symbol: it has no size to come from)."""
    return isinstance(v, torch.SymInt) and v.node.expr.is_Symbol and str(v.node.expr).startswith("u")


def _leaf(value, i):
    """The i-th number of a value a recorded read returned (a list of ints, or one int)."""
    return tree_flatten(value)[0][i]


def _with_example_sizes(fn, args, kwargs):
    """Shapes for a kernel fake tensors cannot run with symbolic sizes (torch's fused RNNs): run it on
    example sizes, then give the output dims that came out as the example size fresh symbols.  Those
    have no source in the graph, so code that passes them on as sizes fails loudly in _sym."""
    flat, spec = tree_flatten((args, kwargs))
    mode = _state.fake_mode
    flat = [mode.from_tensor(torch.empty([int(d) for d in a.shape], dtype=a.dtype), static_shapes=True)
            .requires_grad_(a.requires_grad) if isinstance(a, FakeTensor) and not _static_shape(a) else a
            for a in flat]
    args, kwargs = tree_unflatten(flat, spec)
    out = fn(*args, **kwargs)

    def resym(t):
        if not isinstance(t, torch.Tensor) or _HINT not in t.shape:
            return t
        dyn = [DimDynamic.DYNAMIC if d == _HINT else DimDynamic.STATIC for d in t.shape]
        with mode.shape_env.suppress_guards():
            r = mode.from_tensor(torch.empty(list(t.shape), dtype=t.dtype),
                                 symbolic_context=StatelessSymbolicContext(dynamic_sizes=dyn))
        return r.requires_grad_(t.requires_grad) if t.dtype.is_floating_point else r

    o, ospec = tree_flatten(out)
    return tree_unflatten([resym(t) for t in o], ospec)


def _static_shape(t):
    return all(isinstance(d, int) for d in t.shape)


def _keywords(fn):
    """A signature binder that turns an impl's arguments into keywords (so `training=` stays findable)."""
    import inspect

    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.POSITIONAL_ONLY) for p in sig.parameters.values()):
        return None
    return sig


def _make_impl_recorder(fn):
    """The `_impl` an @op wrapper calls while static mode is on."""
    mod = getattr(fn, "__module__", "") or ""
    creates = mod in _RANDOM_MODULES and getattr(fn, "__name__", "") not in _NO_RECORD
    sig = []

    def impl(*args, **kwargs):
        st = _state
        if st is None or st.suspended or _fw._static is None:
            return fn(*args, **kwargs)
        if creates or _has_var(args, kwargs):
            if not sig:
                sig.append(_keywords(fn))
            if sig[0] is not None and args:
                kwargs = dict(sig[0].bind(*args, **kwargs).arguments)
                args = ()
            return _record(fn, args, kwargs)
        return fn(*args, **kwargs)

    impl.__name__ = getattr(fn, "__name__", "impl")
    impl.__qualname__ = getattr(fn, "__qualname__", impl.__name__)
    return impl


def enable():
    global _state
    if _fw._static is not None:
        return
    if _state is None:
        _state = _State()
    _normalize.set_impl_hook(_make_impl_recorder, view=_static_view)  # every op wrapper records (later ones too)
    _state.mode.__enter__()
    _fw._static = _state
    unique_name.leave_dygraph()


def disable():
    if _fw._static is None:
        return
    _fw._static = None
    _state.mode.__exit__(None, None, None)
    _normalize.set_impl_hook(None)
    unique_name.enter_dygraph()


def quiet():
    """Work on scope values (tagged like parameters) that is not a program op: reading, saving, loading."""
    return _state.suspend() if _state is not None else contextlib.nullcontext()


@contextlib.contextmanager
def running():
    """Real computation while static mode is on (the Executor): no recording, no mode on the stack."""
    if _fw._static is None:
        yield
        return
    saved = _fw._static
    _state.mode.__exit__(None, None, None)
    _fw._static = None
    try:
        with _state.suspend():
            yield
    finally:
        _fw._static = saved
        _state.mode.__enter__()


# ------------------------------------------------------------------ what a Variable shows
def _static_view(tensor, what):
    """Tensor.shape / repr of a Variable (hooked from tensor.py): -1 for dynamic dims, as Paddle prints."""
    t = tensor._t
    if type(t) is torch.Tensor or not is_var(t):
        return None
    shape = [d if isinstance(d, int) else -1 for d in t.shape]
    if what == "shape":
        from ..tensor.tensor import Size

        return Size(shape)
    if what == "name":
        return _var_name(t)
    from .._core import dtype as _dtypes

    dt = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16", "int64": "i64",
          "int32": "i32", "int16": "i16", "int8": "i8", "uint8": "ui8", "bool": "b"}.get(
        _dtypes.dtype_name(t.dtype), _dtypes.dtype_name(t.dtype))
    node = _node_name(t)
    dims = "x".join(str(d) for d in shape)
    return (f"Value(define_op_name={node}, index=0, dtype=tensor<{dims + 'x' if dims else ''}{dt}>, "
            f"stop_gradient={not t.requires_grad})")


_tmp_ids = itertools.count()


def _var_name(t):
    """A Paddle-style name (`matmul_3.tmp_0`) for an op output, kept on its node so fetching by it works."""
    prog = current_program()
    hit = prog._vars.get(id(t))
    if hit is None:
        return None
    node = hit[1]
    if "name" not in node.meta:
        if node.op == "placeholder":
            node.meta["name"] = node.meta.get("pname", node.name)
        else:
            base = getattr(node.target, "__name__", "tmp").strip("_")
            node.meta["name"] = f"{base}_{next(_tmp_ids)}.tmp_0"
    return node.meta["name"]


def _node_name(t):
    for prog in [*(_state.blocks if _state else []), _main]:
        hit = prog._vars.get(id(t))
        if hit is not None:
            n = hit[1]
            if n.op == "placeholder":
                return "pd_op.data" if n.meta.get("kind") == "feed" else "builtin.parameter"
            target = getattr(n.target, "__name__", str(n.target))
            return f"pd_op.{target}"
    return "pd_op.unknown"


def flatten_fetch_list(fetch_list):
    """Executor.run's fetch_list as Paddle reads it: one entry, or a list / tuple whose entries are Variables,
    names, or lists / tuples of Variables (the result of an op returning several values, fetched as one entry:
    `fetch_list=[paddle.linalg.eigh(x)]`), flattened one level; deeper nesting is Paddle's TypeError."""
    if fetch_list is None:
        return []
    if not isinstance(fetch_list, (list, tuple)):
        return [fetch_list]
    out = []
    for f in fetch_list:
        if isinstance(f, (list, tuple)):
            for g in f:
                if isinstance(g, (list, tuple)):
                    raise TypeError(f"Require fetch_list's items to be one of (Value, str) or a list of Values, but "
                                    f"received a {type(g).__name__} nested inside a {type(f).__name__}.")
            out.extend(f)
        else:
            out.append(f)
    return out


# ------------------------------------------------------------------ parameters
_params = {}  # name -> the paddle parameter object made in static mode


def on_parameter(param):
    """Called for every parameter made while static mode is on: it lives in the startup program."""
    param._t._st_param_name = param.name
    _params[param.name] = param
    default_startup_program()._startup[param.name] = param
    prog = _main
    prog._param_objs[param.name] = param


class Program:
    """A Paddle Program: one torch.fx Graph plus its feeds, parameters and constants."""

    _ids = itertools.count()

    def __init__(self):
        self.graph = torch.fx.Graph()
        self._vars = {}  # id(fake) -> (fake, node)
        self._feeds = {}  # data name -> placeholder
        self._pnodes = {}  # parameter name -> placeholder
        self._param_objs = {}  # parameter name -> paddle parameter
        self._consts = {}  # attribute name -> real tensor
        self._const_ids = {}  # id(real tensor) -> (tensor, node)
        self._syms = {}  # sympy symbol -> (placeholder, dim)
        self._values = {}  # sympy symbol -> the node reading it off a Variable's values (a shape fed as a Tensor)
        self._startup = {}  # (startup programs) parameter name -> parameter
        self._snapshots = {}  # (startup programs) parameter name -> initial value
        self._version = 0
        self._for_test = False
        self._parent = None
        self._captures = []  # (sub-graphs) outer nodes, one per capture placeholder
        self.random_seed = 0
        self._seq = next(Program._ids)
        self._runners = {}

    # -------------------------------------------------------------- nodes
    def _placeholder(self, name):
        name = re.sub(r"\W", "_", name)
        if not name or name[0].isdigit():
            name = "v_" + name
        first = next((n for n in self.graph.nodes if n.op != "placeholder"), None)
        if first is None:
            node = self.graph.placeholder(name)
        else:
            with self.graph.inserting_before(first):
                node = self.graph.placeholder(name)
        node.target = node.name  # a redefined data var gets its own argument name (x_1)
        return node

    def _data(self, name, shape, dtype):
        dyn = [DimDynamic.DYNAMIC if d == -1 else DimDynamic.STATIC for d in shape]
        real = torch.empty([_HINT if d == -1 else d for d in shape], dtype=dtype)
        with _state.suspend():
            fake = _state.fake_mode.from_tensor(real, symbolic_context=StatelessSymbolicContext(dynamic_sizes=dyn))
        node = self._placeholder(name)
        node.meta.update(kind="feed", pname=name, val=fake, dtype=dtype, shape=list(shape))
        self._feeds[name] = node
        self._vars[id(fake)] = (fake, node)
        for i, d in enumerate(fake.shape):
            if isinstance(d, torch.SymInt):
                self._syms[d.node.expr] = (node, i)
        self._version += 1
        return fake

    def _lookup(self, t):
        """(fake, node) for a tensor an op was given."""
        hit = self._vars.get(id(t))
        if hit is not None and hit[0] is t:
            return hit
        if self._parent is not None:  # a sub-graph captures what its parent knows
            f, outer = self._parent._lookup(t)
            node = self._placeholder(f"capture_{len(self._captures)}")
            node.meta.update(kind="capture", val=f)
            self._captures.append(outer)
            self._vars[id(f)] = (f, node)
            if f is not t:
                self._vars[id(t)] = (f, node)
            return f, node
        if isinstance(t, FakeTensor):
            raise ValueError("A Variable used here does not belong to the current Program (build each program "
                             "inside its own program_guard).")
        name = getattr(t, "_st_param_name", None)
        if name is not None:
            node = self._pnodes.get(name)
            f = fake_of(t)
            if node is None:
                node = self._placeholder(name)
                node.meta.update(kind="param", pname=name, val=f)
                self._pnodes[name] = node
                if name in _params:
                    self._param_objs.setdefault(name, _params[name])
            self._vars[id(t)] = self._vars[id(f)] = (f, node)
            return f, node
        hit = self._const_ids.get(id(t))
        if hit is not None and hit[0] is t:
            return fake_of(t), hit[1]
        attr = f"_const_{len(self._consts)}"
        self._consts[attr] = t.detach()
        first = next((n for n in self.graph.nodes if n.op != "placeholder"), None)
        if first is None:
            node = self.graph.get_attr(attr)
        else:
            with self.graph.inserting_before(first):
                node = self.graph.get_attr(attr)
        f = fake_of(t)
        node.meta["val"] = f
        self._const_ids[id(t)] = (t, node)
        self._vars[id(f)] = (f, node)
        return f, node

    def _sym(self, s):
        """A node computing a size the fake run saw as a SymInt (from the placeholders' real sizes)."""
        expr = s.node.expr
        free = sorted(expr.free_symbols, key=str)
        sizes = []
        for sym in free:
            if sym in self._values:
                sizes.append(self._values[sym])
                continue
            src, prog = None, self
            while src is None and prog is not None:
                src, prog = prog._syms.get(sym), prog._parent
            if src is None:
                raise unsupported("paddle.static", f" for a size derived from {expr}: it cannot be recorded")
            node = self._lookup(src[0].meta["val"])[1] if src[0].graph is not self.graph else src[0]
            sizes.append(self.graph.call_function(torch.ops.aten.sym_size.int, (node, src[1])))
        if len(free) == 1 and expr == free[0]:
            return sizes[0]
        return self.graph.call_function(_SymExpr(expr, free), tuple(sizes))

    def _bind(self, out, node, in_ids):
        if isinstance(out, torch.Tensor):
            if id(out) not in in_ids:
                self._vars[id(out)] = (out, node)
            node.meta["val"] = out
            return
        if isinstance(out, (tuple, list)):
            for i, o in enumerate(out):
                if isinstance(o, (torch.Tensor, tuple, list)):
                    sub = self.graph.call_function(operator.getitem, (node, i))
                    self._bind(o, sub, in_ids)

    def _node_of(self, var):
        """The node of a fetch-list entry (see flatten_fetch_list): a Variable, a parameter or a name."""
        if isinstance(var, str):
            if var in self._feeds:
                return self._feeds[var]
            if var in self._pnodes:
                return self._pnodes[var]
            for n in self.graph.nodes:  # an op output named when it was read (a loaded program keeps them)
                if n.meta.get("name") == var:
                    return n
            if var in _params:
                return self._lookup(_params[var]._t)[1]
            raise ValueError(f"fetch variable '{var}' is not found in the program")
        t = var._t if _normalize.is_tensor(var) else var
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"Require fetch_list's items to be one of (Value, str), but received {type(var).__name__}.")
        return self._lookup(t)[1]

    # -------------------------------------------------------------- Paddle's Program API
    def global_block(self):
        return _Block(self)

    def block(self, index):
        return _Block(self)

    @property
    def blocks(self):
        return [_Block(self)]

    def current_block(self):
        return _Block(self)

    @property
    def num_blocks(self):
        return 1

    def num_ops(self):
        return sum(1 for n in self.graph.nodes if n.op == "call_function")

    def all_parameters(self):
        return [p for _, p in sorted(self._param_objs.items())]  # Paddle lists them by name

    def list_vars(self):
        return [_normalize.wrap(f) for f, _ in self._vars.values()]

    def state_dict(self, mode="all", scope=None):
        """name -> DenseTensor view of the persistable values: "param" the program's parameters and
        statistics (from the scope), "opt" its optimizers' accumulators, "all" both."""
        from .executor import Scope, _TensorHandle, _ValueHandle, global_scope

        if scope is not None and not isinstance(scope, Scope):
            raise TypeError(f"`scope` should be None or `paddle.static.Scope'` type, but received {type(scope)}.")
        if mode not in ("param", "opt", "all"):
            raise ValueError("(InvalidArgument) The mode is not supported.")
        scope = scope or global_scope()
        out = {}
        if mode != "opt":
            names = dict.fromkeys([*self._param_objs, *self._pnodes])  # creation order, as Paddle lists them
            out.update((n, _TensorHandle(scope, n)) for n in names if scope._has(n))
        if mode != "param":
            for n in self.graph.nodes:
                if n.meta.get("optimizer"):
                    for accs in n.target.opt._accumulators.values():
                        out.update((v.name, _ValueHandle(v, v.name)) for v in accs.values())
        return out  # (Paddle's order for "opt" / "all" is its hash map's)

    def set_state_dict(self, state_dict, scope=None):
        from .io import set_program_state

        set_program_state(self, {k: (v.numpy() if hasattr(v, "numpy") else v) for k, v in state_dict.items()})

    def clone(self, for_test=False):
        """A copy of the program; `for_test=True` drops backward and optimizer nodes and switches
        dropout / batch_norm to inference, as Paddle's clone does."""
        new = copy.copy(self)
        new.graph = torch.fx.Graph()
        val_map = {}
        new.graph.graph_copy(self.graph, val_map)
        remap = lambda d: {k: (f, val_map[n]) for k, (f, n) in d.items() if n in val_map}  # noqa: E731
        new._vars = remap(self._vars)
        new._const_ids = remap(self._const_ids)
        new._feeds = {k: val_map[n] for k, n in self._feeds.items()}
        new._pnodes = {k: val_map[n] for k, n in self._pnodes.items()}
        new._syms = {k: (val_map[n], i) for k, (n, i) in self._syms.items()}
        new._values = {k: val_map[n] for k, n in self._values.items()}
        new._param_objs = dict(self._param_objs)
        new._consts = dict(self._consts)
        new._runners = {}
        new._seq = next(Program._ids)
        new._version = 0
        if for_test:
            new._for_test = True
            _to_inference(new)
        return new

    def _prune_for_test(self):
        _to_inference(self)

    def __repr__(self):
        return f"Program(\n{self.graph}\n)"

    __str__ = __repr__

    def to_string(self, throw_on_error=False, with_details=False):
        return str(self.graph)


class _SymExpr:
    """Evaluates a size expression over dynamic dims (s0 * 784, Max(1, s0), ...) with the run's sizes."""

    def __init__(self, expr, symbols):
        self.__name__ = self.__qualname__ = "sym_expr"  # (the node name fx gives the call)
        self.expr, self.symbols = expr, symbols

    def __call__(self, *sizes):
        return int(self.expr.xreplace(dict(zip(self.symbols, sizes))))


def _to_inference(prog):
    """Drop backward and optimizer nodes (and what uses them); dropout / batch_norm go to inference."""
    g = prog.graph
    dead = set()
    for n in g.nodes:
        if n.meta.get("backward") or n.meta.get("optimizer") or any(a in dead for a in n.all_input_nodes):
            dead.add(n)
        elif n.op == "call_function" and "training" in n.kwargs:
            n.kwargs = {**n.kwargs, "training": False}
    for n in reversed(list(g.nodes)):
        if n in dead:
            g.erase_node(n)
    live = set(g.nodes)
    prog._vars = {k: v for k, v in prog._vars.items() if v[1] in live}


class _Block:
    """Paddle's Block, which is the whole program here (sub-blocks are sub-graphs of nodes)."""

    def __init__(self, program):
        self.program = program
        self.idx = 0

    def all_parameters(self):
        return self.program.all_parameters()

    @property
    def ops(self):
        return [n for n in self.program.graph.nodes if n.op == "call_function"]

    def var(self, name):
        node = self.program._node_of(name)
        return _normalize.wrap(node.meta["val"])

    def has_var(self, name):
        try:
            self.program._node_of(name)
            return True
        except ValueError:
            return False

    @property
    def vars(self):
        return {n: self.var(n) for n in [*self.program._feeds, *self.program._pnodes]}

    def create_parameter(self, *args, **kwargs):
        from ..tensor.creation import create_parameter

        return create_parameter(*args, **kwargs)


_main = Program()
_startup = Program()


def default_main_program():
    return _main


def default_startup_program():
    return _startup


def current_program():
    return _state.current() if _state is not None else _main


@contextlib.contextmanager
def program_guard(main_program, startup_program=None):
    global _main, _startup
    if not isinstance(main_program, Program):
        raise TypeError(f"The type of 'main_program' in paddle.static.program_guard must be {Program}, but received "
                        f"{type(main_program)}.")
    if startup_program is not None and not isinstance(startup_program, Program):
        raise TypeError(f"The type of 'startup_program' in paddle.static.program_guard must be {Program}, but "
                        f"received {type(startup_program)}.")
    old = _main, _startup
    _main = main_program
    if startup_program is not None:
        _startup = startup_program
    try:
        yield
    finally:
        _main, _startup = old


_scopes = []


@contextlib.contextmanager
def name_scope(prefix=None):
    """Paddle's name_scope only decorates op names; nodes here keep their own names."""
    _scopes.append(prefix)
    try:
        yield
    finally:
        _scopes.pop()


# paddle.static.Variable answers isinstance as Paddle 3.3 does (every Tensor in dynamic mode; static mode's values
# are paddle.pir.Value, see paddle_on_torch/pir)
Variable = _fw.Variable
