"""paddle.static save / load / set_program_state / load_program_state / save_inference_model /
load_inference_model.

Parameters are written as Paddle writes them (`.pdparams` / `.pdopt`: a pickle of name -> numpy
array).  A program is written as its fx Graph: a list of nodes whose targets are pickled by
reference (an @op implementation by the name of its public wrapper), so `.pdmodel` files made here
load here.  Paddle's own inference files (`.json` / `.pdmodel` made by Paddle) go through
paddle_on_torch.static.model_format.
"""
import base64
import functools
import io
import json
import os
import pickle

import numpy as np
import torch
import torch.fx

from . import program as _prog
from .executor import global_scope

__all__ = ["save", "load", "set_program_state", "load_program_state", "save_inference_model",
           "load_inference_model", "normalize_program"]

_FORMAT = "paddle_on_torch.static.program/1"


def _quietly(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with _prog.quiet():
            return fn(*args, **kwargs)

    return wrapper


def _program_json(payload):
    """Paddle 3.3 names its program files .json: ours is JSON too, wrapping the pickled fx graph."""
    buf = io.BytesIO()
    _Pickler(buf, protocol=4).dump(payload)
    return json.dumps({"format": _FORMAT, "program": base64.b64encode(buf.getvalue()).decode("ascii")})


def _write_program(path, payload):
    with open(path, "w") as f:
        f.write(_program_json(payload))


def is_program_file(data):
    """Do these bytes (a file's start will do) hold a program written here?"""
    return data[:64].startswith(b'{"format": "' + _FORMAT.encode())


@_quietly
def program_to_bytes(program):
    """paddle.save(program): the program's forward graph and constants (its parameters stay in the scope)."""
    return _program_json({"graph": _dump_graph(program.graph), "consts": program._consts}).encode("ascii")


def program_from_bytes(data):
    """paddle.load of a saved program: a Program running the same graph on the current scope."""
    d = json.loads(data)
    payload = _ProgramUnpickler(io.BytesIO(base64.b64decode(d["program"]))).load()
    prog = _prog.Program()
    prog.graph = _load_graph(payload["graph"])
    prog._consts = dict(payload["consts"])
    for n in prog.graph.nodes:
        kind, name = n.meta.get("kind"), n.meta.get("pname")
        if kind == "feed":
            prog._feeds[name] = n
        elif kind == "param":
            prog._pnodes[name] = n
            if name in _prog._params:  # saved in this process: the parameter object is known
                prog._param_objs[name] = _prog._params[name]
    return prog


def _read_program(path):
    """Our payload, or None when the file is not one of ours (a Paddle program)."""
    try:
        with open(path) as f:
            d = json.load(f)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    if not isinstance(d, dict) or d.get("format") != _FORMAT:
        return None
    return pickle.loads(base64.b64decode(d["program"]))


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
    with open(model_path + ".pdparams", "wb") as f:
        pickle.dump(params, f, protocol=protocol)
    with open(model_path + ".pdopt", "wb") as f:
        pickle.dump(_opt_state(program), f, protocol=protocol)
    _write_program(model_path + ".json", {"graph": _dump_graph(program.graph), "consts": program._consts})


def _read(path):
    with open(path, "rb") as f:
        return pickle.load(f, encoding="latin1")


def load_program_state(model_path, var_list=None):
    """{name: numpy array} from model_path.pdparams (and .pdopt when present)."""
    path = model_path[:-len(".pdparams")] if model_path.endswith(".pdparams") else model_path
    if not os.path.exists(path + ".pdparams"):
        raise ValueError(f"Model saved directory '{os.path.dirname(path) or '.'}' is not exists.")
    state = dict(_read(path + ".pdparams"))
    if os.path.exists(path + ".pdopt"):
        state.update(_read(path + ".pdopt"))
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


# ------------------------------------------------------------------ programs as bytes
def _resolve_impl(module, name):
    import importlib

    if not module.startswith("paddle_on_torch."):
        raise pickle.UnpicklingError(f"not an op of paddle_on_torch: {module}.{name}")
    return importlib.import_module(module).__dict__[name].__wrapped_impl__


def _tensor_from(data, dtype, shape):
    return torch.frombuffer(bytearray(data), dtype=torch.uint8).view(dtype).reshape(shape).clone() if data else \
        torch.empty(shape, dtype=dtype)


def _op_overload(packet, overload):
    namespace, name = packet.split("::")
    return getattr(getattr(getattr(torch.ops, namespace), name), overload)


_METHOD_OWNERS = (torch._C.TensorBase, torch._C._VariableFunctionsClass)


def _method(owner, name):
    """getattr for a program file: torch's functions and Tensor methods, nothing else."""
    if owner not in _METHOD_OWNERS:
        raise pickle.UnpicklingError(f"a program file may not reach attributes of {owner!r}")
    return getattr(owner, name)


class _ProgramUnpickler(pickle.Unpickler):
    """What paddle.load admits in a program file: the node targets a program holds (paddle_on_torch's
    static-mode classes and ops, torch functions, methods, dtypes), so loading runs no other code."""

    _EXACT = {("paddle_on_torch.static.io", n) for n in ("_NodeRef", "_load_graph_module", "_resolve_impl",
                                                         "_tensor_from", "_op_overload")} | {
        ("collections", "OrderedDict"), ("torch._C", "TensorBase"), ("torch._C", "_VariableFunctionsClass"),
        ("torch", "Size")}

    def find_class(self, module, name):
        if (module, name) in self._EXACT:
            return super().find_class(module, name)
        if (module, name) == ("builtins", "getattr"):
            return _method
        if module in ("operator", "_operator") and name not in ("attrgetter", "methodcaller"):
            return super().find_class(module, name)
        if module == "torch" and isinstance(getattr(torch, name, None), torch.dtype):
            return getattr(torch, name)
        if module in ("torch.nn.functional", "torch.fx.immutable_collections") or (
                module.startswith("paddle_on_torch.static.") and module != "paddle_on_torch.static.io"):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"paddle.load does not admit {module}.{name} in a program file")


class _Pickler(pickle.Pickler):
    """Pickles an @op implementation as a reference to its public wrapper."""

    def reducer_override(self, obj):
        if callable(obj) and not isinstance(obj, type):
            mod, name = getattr(obj, "__module__", None), getattr(obj, "__name__", None)
            if mod and name and mod.startswith("paddle_on_torch"):
                import importlib

                try:
                    owner = importlib.import_module(mod).__dict__.get(name)
                except ImportError:
                    owner = None
                if owner is not obj and getattr(owner, "__wrapped_impl__", None) is obj:
                    return _resolve_impl, (mod, name)
        if isinstance(obj, torch.Tensor) and type(obj) in (torch.Tensor, torch.nn.Parameter):  # raw bytes
            t = obj.detach().cpu().contiguous()
            return _tensor_from, (t.view(-1).view(torch.uint8).numpy().tobytes() if t.numel() else b"", t.dtype,
                                  tuple(t.shape))
        if isinstance(obj, torch._ops.OpOverload):
            return _op_overload, (obj._schema.name, obj._overloadname)
        if isinstance(obj, torch.fx.GraphModule):
            return _load_graph_module, (_dump_graph(obj.graph), {k: v for k, v in obj.named_buffers()})
        return NotImplemented


def _training_nodes(graph):
    dead = set()
    for n in graph.nodes:
        if n.meta.get("backward") or n.meta.get("optimizer") or any(a in dead for a in n.all_input_nodes):
            dead.add(n)
    return dead


def _dump_graph(graph):
    """The graph as rows of (op, name, target, args, kwargs, meta); the backward and optimizer nodes
    are left out (they hold the optimizer object; a loaded program is for running forward)."""
    skip = _training_nodes(graph)
    ids = {n: i for i, n in enumerate(n for n in graph.nodes if n not in skip)}

    def ref(a):
        return torch.fx.node.map_arg(a, lambda n: _NodeRef(ids[n]))

    rows = []
    for n in graph.nodes:
        if n in skip:
            continue
        meta = {k: v for k, v in n.meta.items() if k in ("kind", "pname", "backward", "optimizer", "name", "dtype",
                                                         "shape")}
        if "val" in n.meta and isinstance(n.meta["val"], torch.Tensor):
            v = n.meta["val"]
            meta["spec"] = ([d if isinstance(d, int) else -1 for d in v.shape], v.dtype)
        rows.append((n.op, n.name, n.target, ref(n.args), ref(n.kwargs), meta))
    return rows


class _NodeRef:
    def __init__(self, i):
        self.i = i


def _load_graph(rows):
    g = torch.fx.Graph()
    nodes = []

    def deref(a):
        if isinstance(a, _NodeRef):
            return nodes[a.i]
        if isinstance(a, (list, tuple)):
            return type(a)(deref(x) for x in a)
        if isinstance(a, dict):
            return {k: deref(v) for k, v in a.items()}
        return a

    for op, name, target, args, kwargs, meta in rows:
        n = g.create_node(op, target, deref(args), deref(kwargs), name)
        n.meta.update(meta)
        nodes.append(n)
    return g


def _load_graph_module(rows, buffers):
    root = torch.nn.Module()
    for k, v in buffers.items():
        setattr(root, k, v)
    return torch.fx.GraphModule(root, _load_graph(rows))


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
    used = {n.meta.get("pname") for n in g.nodes if n.op == "placeholder"}
    infer._pnodes = {k: v for k, v in infer._pnodes.items() if k in used}
    infer._feeds = {k: v for k, v in infer._feeds.items() if k in used}
    d = os.path.dirname(path_prefix)
    if d:
        os.makedirs(d, exist_ok=True)
    _write_program(path_prefix + ".json", {"graph": _dump_graph(g), "consts": infer._consts,
                                           "feed_names": feed_names})
    scope = global_scope()
    with open(path_prefix + ".pdiparams", "wb") as f:
        pickle.dump({n: scope._get(n).detach().cpu().numpy() for n in infer._pnodes if scope._has(n)}, f,
                    protocol=4)


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
                args.append(v._t if hasattr(v, "_t") else torch.as_tensor(np.asarray(v)))
        with _prog.running(), torch.no_grad():
            outs = self.gm(*args)
        outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
        if fetch_list is not None:
            want = [f if isinstance(f, str) else getattr(f, "name", None) for f in fetch_list]
            if all(w in self.fetch_names for w in want):
                outs = [outs[self.fetch_names.index(w)] for w in want]
        from .. import _normalize

        return [o.detach().cpu().numpy() if return_numpy else _normalize.wrap(o.detach()) for o in outs]

    def global_block(self):
        return self

    def clone(self, for_test=False):
        return self


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
    d = _read_program(prefix + ".json") if os.path.exists(prefix + ".json") else None
    if d is not None:
        root = torch.nn.Module()
        for k, v in d["consts"].items():
            setattr(root, k, v)
        gm = torch.fx.GraphModule(root, _load_graph(d["graph"]))
        params = {k: torch.as_tensor(v) for k, v in _read(prefix + ".pdiparams").items()}
        n_out = len(next(n for n in gm.graph.nodes if n.op == "output").args[0])
        fetch = [f"fetch_{i}" for i in range(n_out)]
        prog = _InferenceProgram(gm, d["feed_names"], fetch, params)
        return [prog, list(d["feed_names"]), [_FetchTarget(n) for n in fetch]]
    if not (os.path.exists(prefix + ".pdmodel") or os.path.exists(prefix + ".json")):
        raise ValueError(f"The model file {prefix}.json or {prefix}.pdmodel does not exist.")
    from . import model_format  # Paddle's own files: the colleague's loader

    m = model_format.load(prefix)
    prog = _InferenceProgram(m.graph_module, list(m.feed_names), list(m.fetch_names))
    return [prog, list(m.feed_names), [_FetchTarget(n) for n in m.fetch_names]]
