"""The file format of a saved static Program: data-only JSON, read without running code from the file.

`paddle.save(program)`, `paddle.static.save` and `save_inference_model` write a program as JSON:

    {"format": "paddle_on_torch.static.program/2", "graph": [row, ...], "consts": {...}, ...}

A row is one fx node, `[op, name, target, args, kwargs, meta]`.  Every value is JSON or a one-key
tagged object (`{"tuple": [...]}`, `{"node": 3}`, `{"dtype": "float32"}`, `{"tensor": [dtype,
shape, base64]}`, ...), and a call's target is named, never pickled.  Loading resolves each name
through exact tables, and refuses anything else with UnsafePickleError:

* `{"op": [module, name]}`: a paddle_on_torch @op function (its torch implementation runs); the
  module must be one of the modules that define @ops (`_OP_MODULES`) and the object an @op wrapper;
* `{"torch": [namespace, name]}`: a torch function the static recorder can see, i.e. one of
  torch.overrides.get_overridable_functions() (torch, Tensor methods, torch.nn.functional, linalg,
  fft, special), minus the few that take callables or touch storage (hooks, `apply_`, `map_`, ...);
* `{"operator": name}` (`getitem` and arithmetic), `{"aten": name}` (`sym_size.int`);
* `{"symexpr": ...}`: a size expression over dynamic dims, rebuilt from a tree of sympy classes
  named in `_SYMPY` (no sympify, which evaluates strings);
* `{"cond": ...}` / `{"while": ...}`: control flow whose branches are sub-graphs in this same format.

The first format (`.../program/1`) pickled node targets and is refused: its unpickler had to admit
whole modules.  Re-save such a program with this version.
"""
import base64
import functools
import json
import operator

import numpy as np
import torch
import torch.fx

from ..framework.safe_pickle import UnsafePickleError

FORMAT = "paddle_on_torch.static.program/2"
_PREFIX = b'{"format": "paddle_on_torch.static.program/'

# The modules that define @op functions (tests/test_security.py checks that the list is complete).
_OP_MODULES = frozenset(f"paddle_on_torch.{m}" for m in (
    "audio.functional.functional", "fft", "geometric.math", "geometric.message_passing", "geometric.reindex",
    "geometric.sampling", "incubate.nn._transformer", "incubate.nn.functional", "incubate.operators",
    "metric.metrics", "nn.functional.activation", "nn.functional.common", "nn.functional.conv",
    "nn.functional.distance", "nn.functional.extension", "nn.functional.flash_attention", "nn.functional.input",
    "nn.functional.loss", "nn.functional.norm", "nn.functional.pooling", "nn.functional.vision",
    "nn.quant.quantized_linear", "signal", "special", "tensor.attribute", "tensor.creation", "tensor.linalg",
    "tensor.logic", "tensor.manipulation", "tensor.math", "tensor.random", "tensor.search", "tensor.stat",
    "text.viterbi_decode", "vision.ops", "vision.ops.box_coder", "vision.ops.deform_conv", "vision.ops.fpn",
    "vision.ops.image", "vision.ops.legacy_detection", "vision.ops.nms", "vision.ops.proposals", "vision.ops.roi",
    "vision.ops.yolo"))  # (vision.ops: programs saved before it became a package of modules)

_OPERATORS = frozenset(("getitem", "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "neg", "pos", "abs",
                        "eq", "ne", "lt", "le", "gt", "ge", "and_", "or_", "xor", "invert", "not_", "matmul"))
_ATEN = {"sym_size.int": torch.ops.aten.sym_size.int}

# Tensor methods the recorder could see that take callables or reach storage and hooks: never a node here
_DENIED_TORCH = frozenset(("__reduce_ex__", "__reduce__", "__setstate__", "__getstate__", "apply_", "map_", "map2_",
                           "module_load", "register_hook", "register_post_accumulate_grad_hook", "share_memory_",
                           "storage", "untyped_storage", "set_", "_typed_storage", "__torch_function__",
                           "__torch_dispatch__", "pin_memory"))


def _error(what, detail):
    return UnsafePickleError(f"{what} refuses this program file: {detail} (see docs/security.md)")


# ===================================================================== exact tables
@functools.lru_cache(None)
def _torch_functions():
    """({(namespace, name): function}, {id(function): (namespace, name)}) over torch's overridable functions."""
    from torch.overrides import get_overridable_functions

    spaces = {torch: "torch", torch.Tensor: "Tensor", torch.functional: "torch.functional",
              torch.nn.functional: "torch.nn.functional", torch.linalg: "torch.linalg", torch.fft: "torch.fft",
              torch.special: "torch.special"}
    forward, reverse = {}, {}
    for ns, fns in get_overridable_functions().items():
        space = spaces.get(ns)
        if space is None:
            continue
        for f in fns:
            name = getattr(f, "__name__", None)
            if not isinstance(name, str) or not name.isidentifier() or name in _DENIED_TORCH:
                continue
            current = getattr(ns, name, None)
            forward[(space, name)] = current if current is not None else f
            for obj in (f, current):
                if obj is not None:
                    reverse.setdefault(id(obj), (space, name))
    return forward, reverse


@functools.lru_cache(None)
def _dtypes():
    return {str(v).removeprefix("torch."): v for v in vars(torch).values() if isinstance(v, torch.dtype)}


_MEMORY_FORMATS = {str(m).removeprefix("torch."): m for m in (torch.contiguous_format, torch.channels_last,
                                                                torch.channels_last_3d, torch.preserve_format)}
_LAYOUTS = {str(m).removeprefix("torch."): m for m in (torch.strided, torch.sparse_coo, torch.sparse_csr,
                                                         torch.sparse_csc, torch.sparse_bsr, torch.sparse_bsc,
                                                         torch._mkldnn)}


@functools.lru_cache(None)
def _sympy_classes():
    import sympy
    from torch.utils._sympy import functions as tf

    table = {f"sympy.{c.__name__}": c for c in (sympy.Add, sympy.Mul, sympy.Pow, sympy.Max, sympy.Min, sympy.Abs,
                                                  sympy.floor, sympy.ceiling, sympy.Mod)}
    for name in ("FloorDiv", "CeilDiv", "CleanDiv", "ModularIndexing", "PythonMod", "Mod", "FloorToInt",
                 "CeilToInt", "TruncToInt", "IntTrueDiv", "PowByNatural", "Max", "Min", "Identity"):
        c = getattr(tf, name, None)
        if c is not None:
            table[f"torch.{name}"] = c
    return table


def _sympy_key(cls):
    table = _sympy_classes()
    for key, c in table.items():
        if c is cls:
            return key
    return None


# ===================================================================== writing
class _Encoder:
    """Python values of a graph -> JSON, refusing (at save time) anything the reader could not rebuild."""

    def __init__(self, ids):
        self.ids = ids  # fx node -> row index

    def value(self, v):
        if v is None or isinstance(v, (bool, str)) or type(v) is int:
            return v
        if type(v) is float:
            return v
        if isinstance(v, torch.fx.Node):
            return {"node": self.ids[v]}
        if isinstance(v, list):  # (fx keeps arguments as immutable_list / immutable_dict)
            return [self.value(x) for x in v]
        if type(v) is torch.Size:
            return {"size": [int(d) for d in v]}
        if isinstance(v, tuple):
            return {"tuple": [self.value(x) for x in v]}
        if isinstance(v, dict):
            return {"dict": [[self.value(k), self.value(x)] for k, x in v.items()]}
        if isinstance(v, torch.dtype):
            return {"dtype": str(v).removeprefix("torch.")}
        if isinstance(v, torch.device):
            return {"device": str(v)}
        if isinstance(v, torch.memory_format):
            return {"memory_format": str(v).removeprefix("torch.")}
        if isinstance(v, torch.layout):
            return {"layout": str(v).removeprefix("torch.")}
        if type(v) is slice:
            return {"slice": [self.value(v.start), self.value(v.stop), self.value(v.step)]}
        if v is Ellipsis:
            return {"ellipsis": None}
        if type(v) is complex:
            return {"complex": [v.real, v.imag]}
        if isinstance(v, (bytes, bytearray)):
            return {"bytes": base64.b64encode(bytes(v)).decode("ascii")}
        if isinstance(v, np.generic) and not v.dtype.hasobject:
            return {"npscalar": [v.dtype.str, base64.b64encode(v.tobytes()).decode("ascii")]}
        if isinstance(v, torch.Tensor) and type(v) in (torch.Tensor, torch.nn.Parameter):
            return {"tensor": tensor_record(v)}
        if isinstance(v, torch.fx.GraphModule):
            return {"graph": graph_record(v.graph, dict(v.named_buffers()))}
        raise ValueError(f"paddle.save cannot store a program holding a {type(v).__module__}.{type(v).__qualname__} "
                         f"({v!r:.80}) in the data-only program format")

    def target(self, n):
        t = n.target
        if n.op != "call_function":
            return t
        if type(t).__name__ == "_SymExpr":
            return {"symexpr": [_sym_record(t.expr), [str(s) for s in t.symbols]]}
        if type(t).__name__ == "_Cond":
            return {"cond": [graph_record(t.true_gm.graph), graph_record(t.false_gm.graph), t.n_true]}
        if type(t).__name__ == "_While":
            return {"while": [graph_record(t.cond_gm.graph), graph_record(t.body_gm.graph), t.n_vars, t.n_cond]}
        for key, op in _ATEN.items():
            if t is op:
                return {"aten": key}
        if getattr(operator, getattr(t, "__name__", ""), None) is t and t.__name__ in _OPERATORS:
            return {"operator": t.__name__}
        hit = _torch_functions()[1].get(id(t))
        if hit is not None:
            return {"torch": list(hit)}
        mod, name = getattr(t, "__module__", None), getattr(t, "__name__", None)
        if mod in _OP_MODULES and name:
            import importlib

            owner = importlib.import_module(mod).__dict__.get(name)
            if owner is not t and getattr(owner, "__wrapped_impl__", None) is t:
                return {"op": [mod, name]}
        raise ValueError(f"paddle.save cannot store a program calling {mod}.{name} in the data-only program format")


def tensor_record(t):
    t = t.detach().cpu().contiguous()
    data = t.reshape(-1).view(torch.uint8).numpy().tobytes() if t.numel() else b""
    return [str(t.dtype).removeprefix("torch."), list(t.shape), base64.b64encode(data).decode("ascii")]


def _sym_record(e):
    import sympy

    if isinstance(e, sympy.Symbol):
        return {"sym": str(e)}
    if isinstance(e, sympy.Integer):
        return {"int": int(e)}
    if isinstance(e, sympy.Rational):
        return {"rat": [int(e.p), int(e.q)]}
    key = _sympy_key(type(e))
    if key is None:
        raise ValueError(f"paddle.save cannot store the size expression {e} (it uses {type(e).__name__})")
    return {"fn": [key, [_sym_record(a) for a in e.args]]}


def training_nodes(graph):
    dead = set()
    for n in graph.nodes:
        if n.meta.get("backward") or n.meta.get("optimizer") or any(a in dead for a in n.all_input_nodes):
            dead.add(n)
    return dead


_META_KEYS = ("kind", "pname", "name", "dtype", "shape")


def graph_record(graph, buffers=None):
    """The graph as rows `[op, name, target, args, kwargs, meta]`; backward and optimizer nodes are left
    out (they hold the optimizer object; a loaded program is for running forward)."""
    skip = training_nodes(graph)
    ids = {n: i for i, n in enumerate(n for n in graph.nodes if n not in skip)}
    enc = _Encoder(ids)
    rows = []
    for n in graph.nodes:
        if n in skip:
            continue
        meta = {k: enc.value(v) for k, v in n.meta.items() if k in _META_KEYS}
        if "val" in n.meta and isinstance(n.meta["val"], torch.Tensor):
            v = n.meta["val"]
            meta["spec"] = enc.value(([d if isinstance(d, int) else -1 for d in v.shape], v.dtype))
        rows.append([n.op, n.name, enc.target(n), enc.value(n.args), enc.value(n.kwargs), meta])
    out = {"rows": rows}
    if buffers:
        out["buffers"] = {k: tensor_record(v) for k, v in buffers.items()}
    return out


def dumps(graph, consts, **extra):
    """A program file's text: the graph, its constants (real tensors) and JSON-able extras."""
    d = {"format": FORMAT, "graph": graph_record(graph),
         "consts": {k: tensor_record(v) for k, v in consts.items()}}
    d.update(extra)
    return json.dumps(d, allow_nan=True)


# ===================================================================== reading
def is_program_file(data):
    """Do these bytes (a file's start will do) hold a program written by paddle_on_torch?"""
    return data[:64].startswith(_PREFIX)


class _Decoder:
    def __init__(self, what):
        self.what = what
        self.nodes = None  # the nodes made so far (row index -> fx node)

    def fail(self, detail):
        return _error(self.what, detail)

    def value(self, v):
        if v is None or isinstance(v, (bool, int, float, str)):
            return v
        if isinstance(v, list):
            return [self.value(x) for x in v]
        if not isinstance(v, dict) or len(v) != 1:
            raise self.fail(f"malformed value {v!r:.80}")
        (tag, x), = v.items()
        if tag == "node":
            if type(x) is not int or self.nodes is None or not 0 <= x < len(self.nodes):
                raise self.fail(f"a reference to node {x!r} that is not defined before its use")
            return self.nodes[x]
        if tag == "tuple":
            return tuple(self.value(list(self._list(x))))
        if tag == "size":
            return torch.Size([self._int(d) for d in self._list(x)])
        if tag == "dict":
            return {self._key(self.value(k)): self.value(val) for k, val in (self._pair(p) for p in self._list(x))}
        if tag == "dtype":
            return self._lookup(_dtypes(), x, "dtype")
        if tag == "memory_format":
            return self._lookup(_MEMORY_FORMATS, x, "memory format")
        if tag == "layout":
            return self._lookup(_LAYOUTS, x, "layout")
        if tag == "device":
            if not isinstance(x, str):
                raise self.fail("a malformed device")
            try:
                return torch.device(x)
            except (RuntimeError, ValueError):
                raise self.fail(f"the device {x!r:.40}") from None
        if tag == "slice":
            a, b, c = self._list(x, 3)
            return slice(self.value(a), self.value(b), self.value(c))
        if tag == "ellipsis":
            return Ellipsis
        if tag == "complex":
            re_, im = self._list(x, 2)
            return complex(float(re_), float(im))
        if tag == "bytes":
            return self._b64(x)
        if tag == "npscalar":
            dt, data = self._list(x, 2)
            try:
                dtype = np.dtype(dt) if isinstance(dt, str) else None
            except TypeError:
                dtype = None
            if dtype is None or dtype.hasobject:
                raise self.fail(f"the numpy scalar type {dt!r:.40}")
            raw = self._b64(data)
            if len(raw) != dtype.itemsize:
                raise self.fail("a numpy scalar of the wrong size")
            return np.frombuffer(raw, dtype)[0]
        if tag == "tensor":
            return self.tensor(x)
        if tag == "graph":
            return _load_graph_module(x, self.what)
        raise self.fail(f"the value tag {tag!r:.40}")

    def _list(self, x, n=None):
        if not isinstance(x, list) or (n is not None and len(x) != n):
            raise self.fail(f"malformed data {x!r:.80}")
        return x

    def _pair(self, p):
        return self._list(p, 2)

    def _int(self, d):
        if type(d) is not int:
            raise self.fail(f"a size {d!r:.40} that is not an integer")
        return d

    def _key(self, k):
        try:
            hash(k)
        except TypeError:
            raise self.fail("an unhashable dict key") from None
        return k

    def _lookup(self, table, x, kind):
        if not isinstance(x, str) or x not in table:
            raise self.fail(f"the {kind} {x!r:.40}")
        return table[x]

    def _b64(self, x):
        if not isinstance(x, str):
            raise self.fail("malformed base64 data")
        try:
            return base64.b64decode(x, validate=True)
        except ValueError:
            raise self.fail("malformed base64 data") from None

    def tensor(self, x):
        dt, shape, data = self._list(x, 3)
        dtype = self._lookup(_dtypes(), dt, "dtype")
        shape = [self._int(d) for d in self._list(shape)]
        if any(d < 0 for d in shape):
            raise self.fail(f"a tensor of shape {shape}")
        raw = self._b64(data)
        numel = int(np.prod(shape)) if shape else 1
        itemsize = torch.empty((), dtype=dtype).element_size()
        if len(raw) != numel * itemsize:
            raise self.fail(f"a {dt} tensor of shape {shape} with {len(raw)} bytes of data")
        if not raw:
            return torch.empty(shape, dtype=dtype)
        return torch.frombuffer(bytearray(raw), dtype=torch.uint8).view(dtype).reshape(shape).clone()

    # ------------------------------------------------------------- targets
    def target(self, op, t):
        if op != "call_function":
            if not isinstance(t, str):
                raise self.fail(f"a {op} node with target {t!r:.40}")
            return t
        if not isinstance(t, dict) or len(t) != 1:
            raise self.fail(f"the call target {t!r:.80}")
        (tag, x), = t.items()
        if tag == "op":
            return self._op(*self._list(x, 2))
        if tag == "torch":
            space, name = self._list(x, 2)
            fn = _torch_functions()[0].get((space, name)) if isinstance(space, str) and isinstance(name, str) \
                else None
            if fn is None:
                raise self.fail(f"the call target '{space}.{name}' (not a torch function a program records)")
            return fn
        if tag == "operator":
            if x not in _OPERATORS:
                raise self.fail(f"the call target 'operator.{x}'")
            return getattr(operator, x)
        if tag == "aten":
            if x not in _ATEN:
                raise self.fail(f"the call target 'aten.{x}'")
            return _ATEN[x]
        if tag == "symexpr":
            return self._symexpr(*self._list(x, 2))
        if tag == "cond":
            from .nn.control_flow import _Cond

            tg, fg, n_true = self._list(x, 3)
            return _Cond(_load_graph_module(tg, self.what), _load_graph_module(fg, self.what), self._int(n_true))
        if tag == "while":
            from .nn.control_flow import _While

            cg, bg, n_vars, n_cond = self._list(x, 4)
            return _While(_load_graph_module(cg, self.what), _load_graph_module(bg, self.what), self._int(n_vars),
                          self._int(n_cond))
        raise self.fail(f"the call target tag {tag!r:.40}")

    def _op(self, module, name):
        if module not in _OP_MODULES or not isinstance(name, str) or not name.isidentifier():
            raise self.fail(f"the call target '{module}.{name}' (not a paddle_on_torch op)")
        import importlib

        wrapper = importlib.import_module(module).__dict__.get(name)
        impl = getattr(wrapper, "__wrapped_impl__", None)
        if impl is None:
            raise self.fail(f"the call target '{module}.{name}' (not a paddle_on_torch op)")
        return impl

    def _symexpr(self, tree, symbols):
        import sympy

        syms = {}
        for s in self._list(symbols):
            if not isinstance(s, str) or not s.isidentifier():
                raise self.fail(f"the size symbol {s!r:.40}")
            syms[s] = sympy.Symbol(s, integer=True, positive=True)
        table = _sympy_classes()

        def build(e, depth=0):
            if depth > 64 or not isinstance(e, dict) or len(e) != 1:
                raise self.fail("a malformed size expression")
            (tag, x), = e.items()
            if tag == "sym":
                if x not in syms:
                    raise self.fail(f"the size symbol {x!r:.40}")
                return syms[x]
            if tag == "int":
                return sympy.Integer(self._int(x))
            if tag == "rat":
                p, q = self._list(x, 2)
                return sympy.Rational(self._int(p), self._int(q))
            if tag == "fn":
                key, args = self._list(x, 2)
                if key not in table:
                    raise self.fail(f"the size function {key!r:.40}")
                return table[key](*[build(a, depth + 1) for a in self._list(args)])
            raise self.fail("a malformed size expression")

        from .program import _SymExpr

        return _SymExpr(build(tree), [syms[s] for s in symbols])

    # ------------------------------------------------------------- graphs
    def graph(self, record, attrs):
        if not isinstance(record, dict) or not isinstance(record.get("rows"), list):
            raise self.fail("a malformed graph")
        g = torch.fx.Graph()
        saved, self.nodes = self.nodes, []
        try:
            for row in record["rows"]:
                op, name, target, args, kwargs, meta = self._list(row, 6)
                if op not in ("placeholder", "get_attr", "call_function", "output"):
                    raise self.fail(f"a node of kind {op!r:.40}")
                if not isinstance(name, str) or not name.isidentifier():
                    raise self.fail(f"the node name {name!r:.40}")
                tgt = self.target(op, target)
                if op == "get_attr" and tgt not in attrs:
                    raise self.fail(f"a constant {tgt!r:.40} the file does not hold")
                args, kwargs = self.value(args), self.value(kwargs)
                if not isinstance(args, tuple) or not isinstance(kwargs, dict) or \
                        not all(isinstance(k, str) for k in kwargs):
                    raise self.fail("malformed node arguments")
                if not isinstance(meta, dict):
                    raise self.fail("malformed node metadata")
                n = g.create_node(op, tgt, args, kwargs, name)
                n.meta.update({k: self.value(v) for k, v in meta.items() if k in _META_KEYS + ("spec",)})
                self.nodes.append(n)
        finally:
            self.nodes = saved
        return g


def load_graph(record, attrs, what):
    return _Decoder(what).graph(record, attrs)


def _load_graph_module(record, what):
    dec = _Decoder(what)
    if not isinstance(record, dict):
        raise dec.fail("a malformed sub-graph")
    buffers = {k: dec.tensor(v) for k, v in (record.get("buffers") or {}).items()}
    root = torch.nn.Module()
    for k, v in buffers.items():
        if not k.isidentifier():
            raise dec.fail(f"the buffer name {k!r:.40}")
        root.register_buffer(k, v)
    return torch.fx.GraphModule(root, dec.graph(record, buffers))


def loads(data, what="paddle.load"):
    """(graph, consts, the file's dict) of a program file; refuses anything the tables above do not name."""
    try:
        d = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{what}: not a valid program file ({e})") from None
    if not isinstance(d, dict) or not isinstance(d.get("format"), str):
        raise ValueError(f"{what}: not a paddle_on_torch program file")
    if d["format"] != FORMAT:
        if d["format"] == "paddle_on_torch.static.program/1":
            raise _error(what, "it is in the first program format (paddle_on_torch.static.program/1), which stored "
                               "Python objects as a pickle that could run code; save the program again with this "
                               "version")
        raise ValueError(f"{what}: unknown program format {d['format']!r:.60}")
    dec = _Decoder(what)
    consts = d.get("consts")
    if not isinstance(consts, dict) or not all(isinstance(k, str) and k.isidentifier() for k in consts):
        raise dec.fail("malformed constants")
    consts = {k: dec.tensor(v) for k, v in consts.items()}
    graph = dec.graph(d.get("graph"), consts)
    return graph, consts, d
