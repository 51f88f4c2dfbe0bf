"""paddle.static save / load / set_program_state / load_program_state / save_inference_model /
load_inference_model.

Parameters are written as Paddle writes them (`.pdparams` / `.pdopt`: a pickle of name -> numpy
array) and read back with the one restricted unpickler (framework/safe_pickle.py).  A program is
written as its fx Graph in a data-only JSON format (static/program_file.py: node targets by name,
resolved through exact tables), so `.json` / `.pdmodel` files made here load here without running
code from the file.  Paddle's own inference files (`.json` / `.pdmodel` made by Paddle) go through
paddle_on_torch.static.model_format.
"""
import functools
import os
import pickle

import numpy as np
import torch
import torch.fx

from .. import _normalize
from ..framework import safe_pickle
from ..framework.io import _AtomicWriter
from . import program as _prog
from . import program_file
from .executor import global_scope

__all__ = ["save", "load", "set_program_state", "load_program_state", "save_inference_model",
           "load_inference_model", "normalize_program"]


def _quietly(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with _prog.quiet():
            return fn(*args, **kwargs)

    return wrapper


def _write(path, data):
    with _AtomicWriter(path) as f:
        f.write(data)


is_program_file = program_file.is_program_file


@_quietly
def program_to_bytes(program):
    """paddle.save(program): the program's forward graph and constants (its parameters stay in the scope)."""
    return program_file.dumps(program.graph, program._consts).encode("ascii")


def program_from_bytes(data, what="paddle.load"):
    """paddle.load of a saved program: a Program running the same graph on the current scope."""
    graph, consts, _ = program_file.loads(data, what)
    prog = _prog.Program()
    prog.graph = graph
    prog._consts = consts
    for n in prog.graph.nodes:
        kind, name = n.meta.get("kind"), n.meta.get("pname")
        if kind == "feed":
            prog._feeds[name] = n
        elif kind == "param":
            prog._pnodes[name] = n
            if name in _prog._params:  # saved in this process: the parameter object is known
                prog._param_objs[name] = _prog._params[name]
    return prog


def _persistables(program):
    return [n for n in program._pnodes]


def _optimizers(program):
    return [n.target.opt for n in program.graph.nodes if n.meta.get("optimizer")]


def _opt_state(program):
    state = {}
    for opt in _optimizers(program):
        for accs in opt._accumulators.values():
            for var in accs.values():
                state[var.name] = var.numpy()
    return state


@_quietly
def save(program, model_path, protocol=4, **configs):
    """Write model_path.pdparams (parameters), .pdopt (optimizer state) and .json (the program)."""
    if not isinstance(protocol, int) or not 1 < protocol < 5:
        raise ValueError(f"Expected 1<'protocol'<5, but received protocol={protocol}")
    base = os.path.basename(model_path)
    if base == "":
        raise ValueError("The input model_path MUST be format of dirname/filename [dirname\\filename in Windows "
                         "system], but received filename is empty string.")
    d = os.path.dirname(model_path)
    if d:
        os.makedirs(d, exist_ok=True)
    scope = global_scope()
    params = {n: scope._get(n).detach().cpu().numpy() for n in _persistables(program) if scope._has(n)}
    _write(model_path + ".pdparams", pickle.dumps(params, protocol=protocol))
    _write(model_path + ".pdopt", pickle.dumps(_opt_state(program), protocol=protocol))
    _write(model_path + ".json", program_file.dumps(program.graph, program._consts).encode("ascii"))


def _read(path, what):
    """{name: numpy array} from a .pdparams / .pdopt / .pdiparams pickle, through the restricted unpickler."""
    with open(path, "rb") as f:
        state = safe_pickle.load(f, what=what)
    if not isinstance(state, dict):
        raise ValueError(f"{what}: {path} does not hold a dict of arrays (a {type(state).__name__} was saved)")
    return state


def load_program_state(model_path, var_list=None):
    """{name: numpy array} from model_path.pdparams (and .pdopt when present)."""
    path = model_path[:-len(".pdparams")] if model_path.endswith(".pdparams") else model_path
    if not os.path.exists(path + ".pdparams"):
        raise ValueError(f"Model saved directory '{os.path.dirname(path) or '.'}' is not exists.")
    state = dict(_read(path + ".pdparams", "paddle.static.load_program_state"))
    if os.path.exists(path + ".pdopt"):
        state.update(_read(path + ".pdopt", "paddle.static.load_program_state"))
    state.pop("StructuredToParameterName@@", None)
    if var_list is not None:
        names = {v if isinstance(v, str) else v.name for v in var_list}
        state = {k: v for k, v in state.items() if k in names}
    return state


@_quietly
def set_program_state(program, state_dict):
    """Put the values of state_dict into the scope for the program's parameters (and optimizer state)."""
    scope = global_scope()
    used = set()
    for name in _persistables(program):
        if name not in state_dict:
            continue
        value = np.asarray(state_dict[name])
        cur = scope._get(name)
        if cur is not None and list(cur.shape) != list(value.shape):
            raise RuntimeError(f"Shape mismatch, program needs a parameter with shape ({', '.join(map(str, cur.shape))}), "
                               f"but the stored parameter ({name}) has a shape of "
                               f"({', '.join(map(str, value.shape))}).")
        scope.var(name).get_tensor().set(value)
        used.add(name)
    for opt in _optimizers(program):
        for accs in opt._accumulators.values():
            for var in accs.values():
                if var.name in state_dict:
                    var.set_value(np.asarray(state_dict[var.name]))
                    used.add(var.name)
        rest = {k: v for k, v in state_dict.items() if k not in used and k not in program._param_objs}
        if rest and not opt._accumulators:
            opt._accumulators_holder.update(rest)
    return [k for k in state_dict if k not in used]


def load(program, model_path, executor=None, var_list=None):
    """Load parameters (and optimizer state) saved by paddle.static.save into the scope."""
    state = load_program_state(model_path, var_list)
    set_program_state(program, state)


# ------------------------------------------------------------------ inference models
def normalize_program(program, feed_vars, fetch_vars, **kwargs):
    """The inference program: cloned for test and pruned to what the fetch vars need."""
    feed_vars = list(feed_vars) if isinstance(feed_vars, (list, tuple)) else [feed_vars]
    fetch_vars = list(fetch_vars) if isinstance(fetch_vars, (list, tuple)) else [fetch_vars]
    if not isinstance(program, _prog.Program):
        raise TypeError(f"program type must be `paddle.static.Program`, but received `{type(program)}`")
    for v in feed_vars + fetch_vars:
        if not _prog.is_var(getattr(v, "_t", None)):
            raise TypeError("feed_vars and fetch_vars type must be a Variable or a list of Variables")
    infer = program.clone(for_test=True)
    keep = {infer._node_of(v) for v in fetch_vars}
    for n in reversed(list(infer.graph.nodes)):
        if n not in keep and not n.users and n.op != "placeholder":
            infer.graph.erase_node(n)
        elif n in keep or n.users:
            keep.update(n.all_input_nodes)
    live = set(infer.graph.nodes)
    infer._vars = {k: v for k, v in infer._vars.items() if v[1] in live}
    return infer



@_quietly
def save_inference_model(path_prefix, feed_vars, fetch_vars, executor, **kwargs):
    """Write path_prefix.json (the pruned inference program) and path_prefix.pdiparams (its parameters)."""
    if not isinstance(path_prefix, str) or not path_prefix or path_prefix.endswith(("/", os.sep)):
        raise ValueError(f"The path_prefix should be a string like 'dirname/filename', but received "
                         f"{path_prefix!r}.")
    feed_vars = list(feed_vars) if isinstance(feed_vars, (list, tuple)) else [feed_vars]
    fetch_vars = list(fetch_vars) if isinstance(fetch_vars, (list, tuple)) else [fetch_vars]
    for v in feed_vars + fetch_vars:
        if not _prog.is_var(getattr(v, "_t", None)):
            raise ValueError("'feed_vars' and 'fetch_vars' should be Variables (static-mode Tensors) of the program")
    program = kwargs.get("program") or _prog.default_main_program()
    infer = program.clone(for_test=True)
    feed_names = [infer._node_of(v).meta.get("pname") for v in feed_vars]
    fetch_nodes = [infer._node_of(v) for v in fetch_vars]
    g = infer.graph
    g.output(tuple(fetch_nodes))
    g.eliminate_dead_code()
    feed_nodes = {infer._node_of(v) for v in feed_vars}
    for n in list(g.nodes):
        if n.op == "placeholder" and not n.users and n not in feed_nodes:
            g.erase_node(n)
    if any(not n.users for n in feed_nodes):  # Paddle's message, word for word
        raise ValueError("The feed_var create by: 'pd_op.data' is not involved in the target_vars calculation"
                         "Please remove it from feed_vars .")
    # a data var the fetch vars need that feed_vars omit is a further feed, in program order (as Paddle saves it)
    feed_names += [n.meta.get("pname") for n in g.nodes if n.op == "placeholder" and n.meta.get("kind") == "feed"
                   and n.meta.get("pname") not in feed_names]
    used = {n.meta.get("pname") for n in g.nodes if n.op == "placeholder"}
    infer._pnodes = {k: v for k, v in infer._pnodes.items() if k in used}
    infer._feeds = {k: v for k, v in infer._feeds.items() if k in used}
    d = os.path.dirname(path_prefix)
    if d:
        os.makedirs(d, exist_ok=True)
    scope = global_scope()
    from . import pir_export

    try:  # Paddle 3.3's own files: a PIR program and the combined params, for real Paddle and for us
        program, params = pir_export.inference_files(infer, feed_names, scope)
    except Exception as e:  # noqa: BLE001 - an op without a Paddle form, or export failed: our own format
        import warnings

        detail = str(e) if isinstance(e, NotImplementedError) else f"{type(e).__name__}: {e}"
        warnings.warn(f"paddle.static.save_inference_model could not write Paddle's program (.json): {detail}; "
                      "it wrote paddle_on_torch's own program format, which paddle_on_torch loads and real Paddle "
                      "cannot", stacklevel=3)
    else:
        from ..jit.pir_writer import dumps

        _write(path_prefix + ".json", dumps(program))
        _write(path_prefix + ".pdiparams", params)
        return
    _write(path_prefix + ".json", program_file.dumps(g, infer._consts, feed_names=feed_names).encode("ascii"))
    _write(path_prefix + ".pdiparams",
           pickle.dumps({n: scope._get(n).detach().cpu().numpy() for n in infer._pnodes if scope._has(n)}, protocol=4))


class _InferenceProgram:
    """A loaded inference model: feed names, fetch targets and a GraphModule taking the feeds."""

    def __init__(self, gm, feed_names, fetch_names, params=None, param_names=()):
        self.gm, self.feed_names, self.fetch_names = gm, feed_names, fetch_names
        self._params, self._param_names = params or {}, list(param_names)

    def _run_imported(self, feed, fetch_list, return_numpy):
        args = []
        for n in self.gm.graph.nodes:
            if n.op != "placeholder":
                continue
            kind, name = n.meta.get("kind"), n.meta.get("pname", n.name)
            if kind == "param":
                args.append(self._params[name])
            else:
                if name not in feed:
                    raise KeyError(name)
                v = feed[name]
                args.append(v._t if _normalize.is_tensor(v) else torch.as_tensor(np.asarray(v)))
        with _prog.running(), torch.no_grad():
            outs = self.gm(*args)
        outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
        if fetch_list is not None:
            want = [f if isinstance(f, str) else getattr(f, "name", None) for f in fetch_list]
            if all(w in self.fetch_names for w in want):
                outs = [outs[self.fetch_names.index(w)] for w in want]
        return [o.detach().cpu().numpy() if return_numpy else _normalize.wrap(o.detach()) for o in outs]

    def global_block(self):
        return self

    def clone(self, for_test=False):
        return self


def _starts_program_file(path):
    with open(path, "rb") as f:
        return is_program_file(f.read(64))


class _FetchTarget:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"FetchTarget({self.name})"


def load_inference_model(path_prefix, executor, **kwargs):
    """[program, feed_target_names, fetch_targets] of a model saved by save_inference_model (here or by
    Paddle: Paddle's .json / .pdmodel files are read by paddle_on_torch.static.model_format)."""
    prefix = path_prefix
    for ext in (".pdmodel", ".json"):
        if prefix.endswith(ext):
            prefix = prefix[:-len(ext)]
    what = "paddle.static.load_inference_model"
    ours = os.path.exists(prefix + ".json") and _starts_program_file(prefix + ".json")
    if ours:
        with open(prefix + ".json", "rb") as f:
            graph, consts, d = program_file.loads(f.read(), what)
        feed_names = d.get("feed_names")
        outputs = [n for n in graph.nodes if n.op == "output"]
        if not isinstance(feed_names, list) or not all(isinstance(n, str) for n in feed_names) or \
                len(outputs) != 1 or not isinstance(outputs[0].args[0], tuple):
            raise ValueError(f"{what}: {prefix}.json is not an inference program (no feed names or outputs)")
        root = torch.nn.Module()
        for k, v in consts.items():
            setattr(root, k, v)
        gm = torch.fx.GraphModule(root, graph)
        params = {}
        for k, v in _read(prefix + ".pdiparams", what).items():
            if not isinstance(v, np.ndarray):
                raise ValueError(f"{what}: {prefix}.pdiparams holds a {type(v).__name__} for {k!r}, not an array")
            params[k] = torch.as_tensor(v)
        fetch = [f"fetch_{i}" for i in range(len(outputs[0].args[0]))]
        prog = _InferenceProgram(gm, feed_names, fetch, params)
        return [prog, list(feed_names), [_FetchTarget(n) for n in fetch]]
    if not (os.path.exists(prefix + ".pdmodel") or os.path.exists(prefix + ".json")):
        raise ValueError(f"The model file {prefix}.json or {prefix}.pdmodel does not exist.")
    from . import model_format  # Paddle's own files: the colleague's loader

    m = model_format.load(prefix)
    prog = _InferenceProgram(m.graph_module, list(m.feed_names), list(m.fetch_names))
    return [prog, list(m.feed_names), [_FetchTarget(n) for n in m.fetch_names]]
