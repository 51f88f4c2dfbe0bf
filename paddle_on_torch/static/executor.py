"""Executor, Scope, CompiledProgram: a Program's fx Graph run as a GraphModule on real tensors.

The Scope holds every persistable value by name (parameters, batch-norm statistics, global vars);
a parameter placeholder reads it at run time.  The startup program's run writes each parameter's
initial value into the scope.
"""
import contextlib

import numpy as np
import torch
import torch.fx

from .. import _normalize
from .._core import dtype as _dtypes
from . import program as _prog

__all__ = ["Executor", "global_scope", "scope_guard", "Scope", "CompiledProgram", "BuildStrategy",
           "ExecutionStrategy"]


_quiet = _prog.quiet


class _TensorHandle:
    """scope.find_var(name).get_tensor(): Paddle's DenseTensor view of one scope value."""

    def __init__(self, scope, name):
        self._scope, self._name = scope, name

    def set(self, value, place=None):
        with _quiet():
            self._set(value)

    def _set(self, value):
        t = _to_torch(value)
        old = self._scope._vars.get(self._name)
        if old is not None and old.shape == t.shape:
            with torch.no_grad():
                old.copy_(t.to(old.dtype))
        else:
            new = t.detach().clone()
            if old is not None and old.requires_grad and new.is_floating_point():
                new.requires_grad_(True)
            new._st_param_name = self._name
            self._scope._vars[self._name] = new

    def _value(self):
        t = self._scope._vars.get(self._name)
        if t is None:
            raise RuntimeError(f"(PreconditionNotMet) Tensor of variable {self._name} holds no memory")
        return t

    def __array__(self, dtype=None, copy=None):
        with _quiet():
            a = self._value().detach().cpu().numpy().copy()
        return a if dtype is None else a.astype(dtype)

    def shape(self):
        return list(self._value().shape)

    def _dtype(self):
        return _dtypes._by_torch[self._value().dtype]

    def numpy(self):
        return self.__array__()

    def _is_initialized(self):
        return self._name in self._scope._vars

    def __reduce__(self):
        # paddle.save pickles a DenseTensor as its plain array (no name), as Paddle does
        return np.asarray(self).__reduce__()


class _ValueHandle(_TensorHandle):
    """A DenseTensor view of a value outside the scope (an optimizer's accumulator)."""

    def __init__(self, tensor, name):
        self._tensor, self._name = tensor, name

    def _set(self, value):
        self._tensor.set_value(np.asarray(value))

    def _value(self):
        return self._tensor._t

    def _is_initialized(self):
        return True


class _ScopeVar:
    def __init__(self, scope, name):
        self._scope, self._name = scope, name

    def get_tensor(self):
        return _TensorHandle(self._scope, self._name)

    def name(self):
        return self._name

    def is_int(self):
        return False


class Scope:
    """Name -> value of the persistable variables (parameters, statistics, global vars)."""

    def __init__(self, parent=None):
        self._vars, self._kids, self._parent = {}, [], parent

    def var(self, name):
        return _ScopeVar(self, name)

    def find_var(self, name):
        if name in self._vars:
            return _ScopeVar(self, name)
        return self._parent.find_var(name) if self._parent is not None else None

    def new_scope(self):
        kid = Scope(self)
        self._kids.append(kid)
        return kid

    def drop_kids(self):
        self._kids = []

    def local_var_names(self):
        return list(self._vars)

    def erase(self, names):
        for n in names:
            self._vars.pop(n, None)

    def _has(self, name):
        return name in self._vars or (self._parent is not None and self._parent._has(name))

    def _get(self, name):
        t = self._vars.get(name)
        if t is None and self._parent is not None:
            return self._parent._get(name)
        return t

    def _set(self, name, t):
        t._st_param_name = name
        self._vars[name] = t


_global = Scope()
_scope_stack = []


def global_scope():
    return _scope_stack[-1] if _scope_stack else _global


@contextlib.contextmanager
def scope_guard(scope):
    if not isinstance(scope, Scope):
        raise TypeError(f"scope_guard expects a Scope, but received {type(scope).__name__}.")
    _scope_stack.append(scope)
    try:
        yield
    finally:
        _scope_stack.pop()


def _to_torch(value, dtype=None):
    if _normalize.is_tensor(value):
        t = value._t
    elif isinstance(value, torch.Tensor):
        t = value
    elif isinstance(value, _TensorHandle):
        t = value._value()
    else:
        t = torch.as_tensor(np.asarray(value))
    return t if dtype is None or t.dtype == dtype else t.to(dtype)


class BuildStrategy:
    """Accepted for compatibility: its switches tune Paddle's graph passes, which torch does not have."""

    class ReduceStrategy:
        AllReduce, Reduce, _NoReduce = 0, 1, 2

    class GradientScaleStrategy:
        CoeffNumDevice, One, Customized = 0, 1, 2

    def __init__(self):
        self.__dict__.update(enable_inplace=True, memory_optimize=None, fuse_elewise_add_act_ops=False,
                             fuse_bn_act_ops=False, fuse_bn_add_act_ops=True, fuse_relu_depthwise_conv=False,
                             fuse_broadcast_ops=False, fuse_all_optimizer_ops=False, fuse_all_reduce_ops=False,
                             enable_auto_fusion=False, fuse_gemm_epilogue=False, fuse_adamw=False,
                             fused_attention=False, fused_feedforward=False, sequential_run=False,
                             build_cinn_pass=False, debug_graphviz_path="", reduce_strategy=0,
                             gradient_scale_strategy=0, enable_sequential_execution=False, sync_batch_norm=False,
                             num_trainers=1, trainer_id=0, enable_addto=False, allow_cuda_graph_capture=False)


class ExecutionStrategy:
    """Accepted for compatibility (thread counts and scope dropping are torch's business here)."""

    def __init__(self):
        self.num_threads, self.num_iteration_per_drop_scope = 1, 100
        self.num_iteration_per_run, self.use_thread_barrier = 1, False


class CompiledProgram:
    """A Program with a BuildStrategy; it runs as the Program does (optionally through torch.compile)."""

    def __init__(self, program_or_graph, build_strategy=None):
        if not isinstance(program_or_graph, _prog.Program):
            raise TypeError(f"The type of program_to_graph parameter is wrong, expected Graph or Program, but "
                            f"received {type(program_or_graph)}")
        self._program = program_or_graph
        self._build_strategy = build_strategy or BuildStrategy()

    def with_data_parallel(self, loss_name=None, build_strategy=None, exec_strategy=None, share_vars_from=None,
                           places=None):
        return self


def _fetch_key(f):
    return f if isinstance(f, str) else id(f._t if _normalize.is_tensor(f) else f)


def _effect(n):
    """Nodes that run for what they do, not what they return: optimizer / backward / control-flow nodes
    recorded without outputs, and in-place torch calls."""
    if n.op == "output" or n.meta.get("optimizer") or n.meta.get("effect"):
        return True
    return n.op == "call_function" and getattr(n.target, "__name__", "").endswith("_") and \
        not getattr(n.target, "__name__", "").endswith("__")


def _prune(g):
    """Drop what neither the fetch list nor a side effect needs (data vars nobody uses need no feed)."""
    live = set()
    for n in reversed(list(g.nodes)):
        if n in live or _effect(n):
            live.add(n)
            live.update(n.all_input_nodes)
    for n in reversed(list(g.nodes)):
        if n not in live:
            g.erase_node(n)


class _Runner:
    """One Program + fetch list compiled to a GraphModule; placeholders in graph order."""

    def __init__(self, prog, fetch_nodes):
        g = torch.fx.Graph()
        val_map = {}
        g.graph_copy(prog.graph, val_map)
        g.output(tuple(val_map[n] for n in fetch_nodes))
        _prune(g)
        for n in g.nodes:  # the fake values stay with the Program: compile/export make their own
            n.meta.pop("val", None)
        root = torch.nn.Module()
        for k, v in prog._consts.items():
            setattr(root, k, v)
        for k, v in getattr(prog, "_submodules", {}).items():
            setattr(root, k, v)
        self.gm = torch.fx.GraphModule(root, g)
        self.inputs = [n.meta for n in g.nodes if n.op == "placeholder"]
        self.needs_grad = any(n.meta.get("backward") for n in prog.graph.nodes)
        self._compiled = None

    def compiled(self):
        if self._compiled is None:
            self._compiled = torch.compile(self.gm)
        return self._compiled


def graph_module(program, fetch_list):
    """The program as a torch.fx GraphModule returning the fetch list, and the names of its inputs
    (data vars by name, then parameters by name, as the scope holds them)."""
    fetch_list = _prog.flatten_fetch_list(fetch_list)
    runner = _Runner(program, [program._node_of(f) for f in fetch_list])
    return runner.gm, [m.get("pname") for m in runner.inputs]


_RUNNING = []  # the Programs Executors are running, innermost last


def running_program():
    """The Program an Executor is running now (None outside a run): its random_seed is the seed Paddle gave the
    random ops built into it (a recorded op's body runs again in the run, after program_guard has been left)."""
    return _RUNNING[-1] if _RUNNING else None


class Executor:
    """Runs Programs: `exe.run(program, feed={name: array}, fetch_list=[var, ...])`."""

    def __init__(self, place=None):
        self.place = place

    def close(self):
        pass

    def run(self, program=None, feed=None, fetch_list=None, feed_var_name="feed", fetch_var_name="fetch",
            scope=None, return_numpy=True, use_program_cache=False, use_prune=False):
        program = _prog.default_main_program() if program is None else program
        use_compile = False
        if isinstance(program, CompiledProgram):  # Paddle's CINN switch: run through torch.compile
            use_compile = bool(getattr(program._build_strategy, "build_cinn_pass", False))
            program = program._program
        if hasattr(program, "_run_imported"):  # a loaded inference model
            return program._run_imported(feed or {}, fetch_list, return_numpy)
        if not isinstance(program, _prog.Program):
            raise TypeError(f"Executor requires Program as its Parameter. But you passed in {type(program)}")
        scope = global_scope() if scope is None else scope
        if program._startup:
            self._run_startup(program, scope)
        fetch_list = _prog.flatten_fetch_list(fetch_list)
        if feed is None:
            feed = {}
        if not isinstance(feed, dict):
            raise TypeError(f"feed requires dict as its Parameter. But you passed in {type(feed)}")
        key = (program._version, tuple(_fetch_key(f) for f in fetch_list))
        runner = program._runners.get(key)
        if runner is None:
            runner = _Runner(program, [program._node_of(f) for f in fetch_list])
            program._runners = {key: runner}
        with _prog.running():
            args = [self._input(meta, feed, scope) for meta in runner.inputs]
            _RUNNING.append(program)
            try:
                with torch.set_grad_enabled(runner.needs_grad):
                    outs = runner.compiled()(*args) if use_compile else runner.gm(*args)
            finally:
                _RUNNING.pop()
            return [self._output(o, return_numpy) for o in outs]

    @staticmethod
    def _input(meta, feed, scope):
        kind, name = meta.get("kind"), meta.get("pname")
        if kind == "feed":
            if name not in feed:
                raise KeyError(name)
            value, dtype = feed[name], meta["dtype"]
            have = getattr(value, "dtype", None)
            if isinstance(value, np.ndarray) and have != torch.empty((), dtype=dtype).numpy().dtype:
                raise ValueError(f"The data type of fed Variable '{name}' must be '{_dtypes.dtype_name(dtype)}', "
                                 f"but received '{have}'")
            return _to_torch(value, dtype)
        t = scope._get(name)
        if t is None:
            raise RuntimeError(f"(NotFound) Cannot find {name} in scope.\n  [Hint: var should not be null.] (run "
                               "the startup program first)")
        return t

    @staticmethod
    def _output(t, return_numpy):
        if t is None:
            return None
        if return_numpy:
            return t.detach().cpu().resolve_conj().numpy().copy()
        return _normalize.wrap(t.detach())

    @staticmethod
    def _run_startup(program, scope):
        with _prog.running(), torch.no_grad():
            for name, p in program._startup.items():
                snap = program._snapshots.get(name)
                if snap is None:
                    snap = program._snapshots[name] = p._t.detach().clone()
                t = snap.clone()
                if p._t.requires_grad:
                    t.requires_grad_(True)
                scope._set(name, t)
