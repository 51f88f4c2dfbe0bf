"""Paddle's deployment format written from torch: an exported program (aten level) -> a Paddle 3.3 PIR program.

`program_json(ep, params, inputs)` turns the torch.export program that `paddle.jit.save` traced into the
`.json` program Paddle 3.3's `paddle.jit.save` writes (PIR serialisation version 4), so that real Paddle's
`paddle.jit.load` and `paddle.inference.create_predictor` run what paddle_on_torch saved; the `.pdiparams`
beside it is the one jit.save already writes (Paddle's combined layout, sorted by parameter name).  It is
the way back of `paddle_on_torch.static.model_format`, which reads such programs and lowers them to torch.

What is written, as Paddle writes it (checked against programs real Paddle 3.3.1 wrote, tests/data/pir_writer):
- one region, one block: a compressed `builtin.parameter` op ("p") per weight, in the .pdiparams order, then one
  `pd_op.data` per input, the ops, and one `pd_op.fetch` per output (`fetch_name_<i>`);
- value ids count up from 1 over the whole program; block arguments (a while loop's carried values) count down
  from -1; 0 is the absent optional input;
- op names compressed by dialect ("0." builtin, "1." pd_op, "2." cf), attributes as {"#": type, "D": value}
  ("VD" holds the non-finite floats), every op's result `stop_gradient` flags under "OA";
- control flow: torch.cond -> pd_op.if (two regions ending in cf.yield, reading outer values directly),
  torch.while_loop -> pd_op.while (the condition computed before the loop and again at the end of the body).

One table (`_TABLE`, filled by the families of `pir_ops/`) maps each aten op to the PIR ops that compute it, with Paddle's attributes and types.  An
exported program using an op the table lacks is refused as a whole (`unsupported`, naming every such op), so
jit.save never writes a program that would compute something else; it writes the torch artifact and says so.
"""
import math
import operator

import numpy as np
import torch

from .._report import unsupported

__all__ = ["program_json", "dumps", "missing_ops", "PIR_VERSION"]

PIR_VERSION = 4  # what Paddle 3.3.1 writes
_MAX_CONSTANT_ELEMENTS = 1 << 20  # lifted constant tensors are written inline (assign_value_ values)
_INT32_MAX = 2147483647

_DTYPES = {  # torch dtype -> (PIR type suffix, Paddle dtype name)
    torch.float32: ("f32", "float32"), torch.float64: ("f64", "float64"), torch.float16: ("f16", "float16"),
    torch.bfloat16: ("bf16", "bfloat16"), torch.int8: ("i8", "int8"), torch.uint8: ("ui8", "uint8"),
    torch.int16: ("i16", "int16"), torch.int32: ("i32", "int32"), torch.int64: ("i64", "int64"),
    torch.bool: ("bool", "bool"), torch.complex64: ("c64", "complex64"), torch.complex128: ("c128", "complex128"),
}
_BY_NAME = {v[1]: k for k, v in _DTYPES.items()}
_FLOATS = {"float32", "float64", "float16", "bfloat16", "complex64", "complex128"}


def dumps(obj):
    """The program as Paddle writes it: compact JSON."""
    import json

    return json.dumps(obj, separators=(",", ":"), allow_nan=False).encode("utf-8")


# ===================================================================== attribute and type encoding
def _f(x, single):
    x = float(np.float32(x)) if single else float(x)
    return x


def _float_attr(tag, x, single):
    x = float(x)
    if math.isnan(x):
        return {"#": tag, "VD": "NAN"}
    if math.isinf(x):
        return {"#": tag, "VD": "INF" if x > 0 else "-INF"}
    return {"#": tag, "D": _f(x, single)}


def a_bool(v):
    return {"#": "0.a_bool", "D": bool(v)}


def a_i32(v):
    return {"#": "0.a_i32", "D": int(v)}


def a_i64(v):
    return {"#": "0.a_i64", "D": int(v)}


def a_f32(v):
    return _float_attr("0.a_f32", v, True)


def a_f64(v):
    return _float_attr("0.a_f64", v, False)


def a_str(v):
    return {"#": "0.a_str", "D": str(v)}


def a_arr(items):
    return {"#": "0.a_array", "D": list(items)}


def a_i32s(vs):
    return a_arr(a_i32(v) for v in vs)


def a_i64s(vs):
    return a_arr(a_i64(v) for v in vs)


def a_intarray(vs):
    return {"#": "1.a_intarray", "D": [int(v) for v in vs]}


def a_dtype(name):
    return {"#": "1.a_dtype", "D": name}


def a_place(kind):  # 0: undefined (data ops, ops placed by the executor), 1: CPU (constants)
    return {"#": "1.a_place", "D": [kind, 0, ""]}


UNDEFINED_DTYPE = "Undefined(ALL_DTYPE)"


def _tensor_type(dtype, shape):
    return {"#": "0.t_dtensor", "D": [{"#": "0.t_" + _DTYPES[_BY_NAME[dtype]][0]}, [int(d) for d in shape],
                                      "NCHW", [], 0]}


def _encode_type(t):
    if isinstance(t, list):
        return {"#": "0.t_vec", "D": [_encode_type(x) for x in t]}
    return _tensor_type(*t)


# ===================================================================== the program being written
class Value(int):
    """A value id of the program (Python numbers among an op's arguments stay plain ints)."""
    __slots__ = ()


def _is_value(v):
    return isinstance(v, Value)


class _Sym:
    """A SymInt of the exported program (a size computed at run time): written as a 0-d int64 value on use."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class _Block:
    def __init__(self, args=()):
        self.args, self.ops, self.syms = list(args), [], {}


class Writer:
    """Builds the program's ops; value ids, types and stop_gradient flags are kept per value."""

    def __init__(self):
        self._next, self._next_arg = 1, -1
        self.types, self.sg = {}, {}
        self.blocks = [_Block()]
        self.symbols = {}  # sympy symbol name -> (value id, dim) it is read from
        self.values = {}  # sympy symbol name -> the value id it was read from (item / int() of a tensor)
        self.layer_training = False  # jit.save of a Layer in train mode: Paddle's batch_norm_ then says so
        self._counts = {}
        self.scalars = {}  # value id of a one-element `full` -> its Python value
        self.unsqueezed = {}  # value id of a one-element tensor reshaped to 0-d -> the tensor

    # ------------------------------------------------------------------ values
    def type(self, vid):
        return self.types[vid]

    def dtype(self, vid):
        return self.types[vid][0]

    def shape(self, vid):
        return self.types[vid][1]

    def emit(self, name, ins, attrs=(), outs=(), sg=None, regions=None):
        """Append op `name` (a full name: pd_op.x / builtin.x / cf.x) to the current block; returns its result
        ids.  `outs`: (dtype, shape) per result (a list of those for a vector); `sg`: the stop_gradient flags
        (default: True for non-float results, else True only when every input is)."""
        ids = []
        for t in outs:
            vid = Value(self._next)
            self._next += 1
            self.types[vid] = t
            ids.append(vid)
        if sg is None:
            ins_sg = all(self.sg.get(i, True) for i in _flat_ids(ins))
            sg = [ins_sg or not _is_float(t) for t in outs]
        for vid, s in zip(ids, sg):
            self.sg[vid] = bool(s)
        op = {"name": name, "ins": list(ins), "attrs": list(attrs), "outs": ids, "regions": regions}
        self.blocks[-1].ops.append(op)
        return ids

    def op1(self, name, ins, attrs=(), out=None, **kw):
        return self.emit("pd_op." + name, ins, attrs, [out], **kw)[0]

    def parameter(self, name, t, persistable=True):
        """A `builtin.parameter` op at the top of the program (a non-persistable one is not in .pdiparams)."""
        vid = Value(self._next)
        self._next += 1
        self.types[vid], self.sg[vid] = t, True
        op = {"name": "builtin.parameter", "ins": [], "attrs": [("parameter_name", name)], "outs": [vid],
              "regions": None, "trainable": False, "persistable": persistable}
        self.blocks[0].ops.insert(0, op)
        return vid

    def count(self, kind):
        self._counts[kind] = self._counts.get(kind, -1) + 1
        return self._counts[kind]

    def block_arg(self, t, sg):
        vid = Value(self._next_arg)
        self._next_arg -= 1
        self.types[vid] = t
        self.sg[vid] = sg
        return vid

    # ------------------------------------------------------------------ constants
    def full(self, shape, value, dtype, place=1):
        """Paddle's `full`: one per use, as Paddle's to_static writes them (place 1, the CPU, for the constants
        an op needs; 0, undefined, for the user's own `paddle.full` and Python numbers in comparisons)."""
        v = self.op1("full", [], [("shape", a_intarray(shape)), ("value", a_f64(_f(value, dtype == "float32"))),
                                  ("dtype", a_dtype(dtype)), ("place", a_place(place))], (dtype, list(shape)),
                     sg=[True])
        if int(np.prod(shape)) == 1:
            self.scalars[v] = value
        return v

    def int_array(self, values):
        return self.op1("full_int_array", [], [("value", a_i64s(values)), ("dtype", a_dtype("int64")),
                                               ("place", a_place(1))], ("int64", [len(values)]), sg=[True])

    def ints(self, values, like=None):
        """A list of ints and run-time sizes as an int64 vector value (Paddle's IntArray input)."""
        if all(isinstance(v, int) for v in values):
            return self.int_array(values)
        parts = [self.sym(v) if isinstance(v, _Sym) else self.full([], v, "int64") for v in values]
        vec = self.emit("builtin.combine", parts, outs=[[self.type(p) for p in parts]], sg=[True])[0]
        return self.op1("stack", [vec], [("axis", a_i32(0))], ("int64", [len(values)]), sg=[True])

    # ------------------------------------------------------------------ run-time sizes
    def sym(self, s):
        """The 0-d int64 value of a SymInt (or a plain int) in the current block."""
        if isinstance(s, _Sym):
            s = s.value
        if isinstance(s, int):
            return self.full([], s, "int64")
        return self._expr(s.node.expr)

    def _expr(self, e):
        """The 0-d int64 value of a size expression, written with the ops Paddle writes for the same Python
        arithmetic on `x.shape[i]` (a number added or multiplied: `scale`; `//`: floor_divide; `%`: remainder)."""
        import sympy

        key = str(e)
        for b in reversed(self.blocks):
            if key in b.syms:
                return b.syms[key]
        kind = type(e).__name__
        if isinstance(e, sympy.Integer):
            v = self.full([], int(e), "int64")
        elif isinstance(e, sympy.Symbol):
            v = self._symbol(key)
        elif isinstance(e, sympy.Add):
            const = sum(int(a) for a in e.args if isinstance(a, sympy.Integer))
            terms = [a for a in e.args if not isinstance(a, sympy.Integer)]
            v = self._expr(terms[0])
            for a in terms[1:]:
                v = self._int_op("add", v, self._expr(a))
            if const:
                v = self._int_scale(v, 1, const)
        elif isinstance(e, sympy.Mul):
            coeff = int(np.prod([int(a) for a in e.args if isinstance(a, sympy.Integer)] or [1]))
            terms = [a for a in e.args if not isinstance(a, sympy.Integer)]
            v = self._expr(terms[0])
            for a in terms[1:]:
                v = self._int_op("multiply", v, self._expr(a))
            if coeff != 1:
                v = self._int_scale(v, coeff, 0)
        elif isinstance(e, sympy.Pow) and isinstance(e.args[1], sympy.Integer) and int(e.args[1]) > 0:
            base = self._expr(e.args[0])
            v = base
            for _ in range(int(e.args[1]) - 1):
                v = self._int_op("multiply", v, base)
        elif kind == "FloorDiv":
            v = self._int_op("floor_divide", self._expr(e.args[0]), self._operand(e.args[1]))
        elif kind in ("Mod", "PythonMod"):
            v = self._int_op("remainder", self._expr(e.args[0]), self._operand(e.args[1]))
        elif kind in ("Max", "Min"):
            v = self._expr(e.args[0])
            for a in e.args[1:]:
                v = self._int_op("maximum" if kind == "Max" else "minimum", v, self._expr(a))
        elif kind == "CeilToInt" or kind == "FloorToInt" or kind == "TruncToInt" or kind == "Identity":
            v = self._expr(e.args[0])
        else:
            raise unsupported(_api(), f" (Paddle program): the run-time size expression {key}")
        self.blocks[-1].syms[key] = v
        return v

    def _symbol(self, key):
        """A size symbol: an input's dimension (shape64 + slice, as Paddle reads `x.shape[i]`), or a value the
        program computed and read as a number (`int(t)`, `t.item()`, a Tensor in a shape list)."""
        if key in self.values:
            vid = self.values[key]
            if self.shape(vid) != []:
                vid = self.op1("reshape", [vid, self.int_array([])], [], (self.dtype(vid), []))
            return self.cast(vid, "int64")
        if key not in self.symbols:
            raise unsupported(_api(), f" (Paddle program): the run-time size {key} is not an input's dimension")
        src, dim = self.symbols[key]
        shape = self._shape_of(src)
        return self.op1("slice", [shape, self.int_array([dim]), self.int_array([dim + 1])],
                        [("axes", a_i64s([0])), ("infer_flags", a_i64s([1])), ("decrease_axis", a_i64s([0]))],
                        ("int64", []), sg=[True])

    def _operand(self, e):
        """The right operand of `//` / `%`: a number is the `full` Paddle writes for a Python int (place 0)."""
        import sympy

        return self.full([], int(e), "int64", place=0) if isinstance(e, sympy.Integer) else self._expr(e)

    def _int_op(self, name, a, b):
        return self.op1(name, [a, b], [], ("int64", []), sg=[True])

    def _int_scale(self, v, scale, bias):
        return self.op1("scale", [v, self.full([1], scale, "float32")],
                        [("bias", a_f32(bias)), ("bias_after_scale", a_bool(True))], ("int64", []), sg=[True])

    def _shape_of(self, vid):
        key = ("shape64", vid)
        for b in reversed(self.blocks):
            if key in b.syms:
                return b.syms[key]
        v = self.op1("shape64", [vid], [], ("int64", [len(self.shape(vid))]), sg=[True])
        self.blocks[-1].syms[key] = v
        return v

    # ------------------------------------------------------------------ helpers for the table
    def cast(self, vid, dtype):
        if self.dtype(vid) == dtype:
            return vid
        return self.op1("cast", [vid], [("dtype", a_dtype(dtype))], (dtype, self.shape(vid)))

    def scalar_tensor(self, value, dtype):
        return self.full([], value, dtype)


def _flat_ids(ins):
    for i in ins:
        if isinstance(i, list):
            yield from _flat_ids(i)
        elif _is_value(i):
            yield i


def _is_float(t):
    if isinstance(t, list):
        return any(_is_float(x) for x in t)
    return t[0] in _FLOATS


# ===================================================================== meta of fx nodes
def _meta_type(val):
    if isinstance(val, torch.Tensor):
        if val.dtype not in _DTYPES:
            raise unsupported(_api(), f" (Paddle program): a tensor of dtype {val.dtype}")
        return (_DTYPES[val.dtype][1], [static_dim(d) for d in val.shape])
    if isinstance(val, (list, tuple)):
        return [_meta_type(v) for v in val]
    return None


def static_dim(d):
    """A dim of a traced shape as the program's type writes it: its size, or -1 when it is read at run time (a
    dim declared dynamic that the code fixed, `x @ w` fixing x's last dim, is a SymInt equal to a number)."""
    if isinstance(d, int):
        return d
    fixed = d.node.maybe_as_int()
    return -1 if fixed is None else int(fixed)


def _out(node):
    return _meta_type(node.meta["val"])


def _shape(node_or_val):
    val = node_or_val.meta["val"] if isinstance(node_or_val, torch.fx.Node) else node_or_val
    return list(val.shape)


# ===================================================================== the table: aten op -> PIR ops
# The entries live in `pir_ops/<family>.py` (elementwise, matmul, norm, conv, shape, index, resample, rnn, pad,
# scatter, reduce, creation), which register themselves here with `@pir(...)` when `_table()` first imports
# them; the run-time size nodes and control flow stay below.
_TABLE = {}
_API = ["paddle.jit.save"]  # the API writing the program, for error messages


def _api():
    return _API[-1]


def _table():
    """The full table: importing `pir_ops` registers every family's entries (done once, on first use)."""
    from . import pir_ops  # noqa: F401 - imported for its registrations

    return _TABLE


def pir(*targets):
    def deco(fn):
        for t in targets:
            _TABLE[t] = fn
        return fn
    return deco


def _aten(name):
    pkt, _, overload = name.partition(".")
    return getattr(getattr(torch.ops.aten, pkt), overload or "default")


def _register(names, fn):
    for n in names:
        try:
            _TABLE[_aten(n)] = fn
        except AttributeError:  # an overload this torch does not have
            pass


def _ndim(w, vid):
    return len(w.shape(vid))


def _axis(d, n):
    return d + n if d < 0 else d


def _operand(w, v, dtype):
    """A tensor operand of `dtype`: Python numbers become 0-d constants, tensors are cast."""
    if isinstance(v, _Sym):
        return w.cast(w.sym(v), dtype)
    if _is_value(v):
        return w.cast(v, dtype)
    if isinstance(v, (bool, int, float)):
        return w.full([], v, dtype, place=0)
    raise unsupported(_api(), f" (Paddle program): an operand {v!r}")



# ------------------------------------------------------------------ sizes
@pir(torch.ops.aten.sym_size.int)
def _sym_size(w, node, args):
    return _Sym(node.meta["val"])


@pir(torch.ops.aten.sym_numel.default)
def _sym_numel(w, node, args):
    return _Sym(node.meta["val"])


# arithmetic and comparisons on sizes: the result is a size expression, written where an op reads it (the
# comparisons only feed torch's run-time asserts, which Paddle's programs do not have)
for _op in (operator.mul, operator.add, operator.sub, operator.floordiv, operator.mod, operator.neg, operator.pow,
            operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge, torch.sym_int,
            torch.sym_max, torch.sym_min, torch.sym_not):
    _TABLE[_op] = _sym_size


@pir(torch.ops.aten.item.default, torch.ops.aten._local_scalar_dense.default)
def _item(w, node, args):
    """A tensor's value read as a number (`int(t)`, a Tensor in a shape list): torch names it with a new size
    symbol; where a size uses that symbol the program reads the tensor itself."""
    val = node.meta["val"]
    if isinstance(val, torch.SymInt):
        w.values[str(val.node.expr)] = args[0]
        return _Sym(val)
    if isinstance(val, (int, float, bool)):
        return val
    raise unsupported(_api(), " (Paddle program): a tensor read as a floating-point number (Tensor.item())")


def _drop(w, node, args):
    return None


for _n in ("_assert_scalar.default", "sym_constrain_range_for_size.default", "sym_constrain_range.default",
           "_assert_async.msg", "_assert_async.default"):
    _register([_n], _drop)


@pir(operator.getitem)
def _getitem(w, node, args):
    return args[0][args[1]]


# ------------------------------------------------------------------ control flow
def _cond_target():
    from torch._higher_order_ops.cond import cond_op

    return cond_op


def _while_target():
    from torch._higher_order_ops.while_loop import while_loop_op

    return while_loop_op


def _bool_pred(w, pred):
    if isinstance(pred, _Sym):
        raise unsupported(_api(), " (Paddle program): a branch on a run-time size")
    if not _is_value(pred):
        return w.full([], bool(pred), "bool")
    pred = w.unsqueezed.get(pred, pred)  # Paddle's if / while take a [1] condition as it is
    return w.cast(pred, "bool")


def _lower_cond(w, node, args):
    pred, true_gm, false_gm, operands = args[0], node.args[1], node.args[2], list(args[3])
    gm = w.graph_owner
    t_out = _out(node)
    types = t_out if isinstance(t_out, list) else [t_out]
    p = _bool_pred(w, pred)
    regions, yields = [], []
    for sub in (true_gm, false_gm):
        block = _Block()
        w.blocks.append(block)
        try:
            outs = w.run_graph(getattr(gm, sub.target), operands)
            ys = [_operand(w, v, t[0]) for v, t in zip(outs, types)]
            w.emit("cf.yield", ys, outs=[])
        finally:
            w.blocks.pop()
        regions.append(block)
        yields.append(ys)
    sg = [all(w.sg.get(y[k], True) for y in yields) or not _is_float(types[k]) for k in range(len(types))]
    return w.emit("pd_op.if", [p], outs=types, regions=regions, sg=sg)


def _lower_while(w, node, args):
    cond_gm, body_gm = node.args[0], node.args[1]
    carried, extra = list(args[2]), list(args[3])
    gm = w.graph_owner
    c0 = _bool_pred(w, w.run_graph(getattr(gm, cond_gm.target), carried + extra)[0])
    types = [w.type(v) for v in carried]
    block = _Block()
    block_args = [w.block_arg(t, w.sg.get(v, True)) for t, v in zip(types, carried)]
    block.args = block_args
    w.blocks.append(block)
    try:
        new = w.run_graph(getattr(gm, body_gm.target), block_args + extra)
        new = [w.cast(v, t[0]) for v, t in zip(new, types)]
        c = _bool_pred(w, w.run_graph(getattr(gm, cond_gm.target), new + extra)[0])
        w.emit("cf.yield", [c] + new, outs=[])
    finally:
        w.blocks.pop()
    return w.emit("pd_op.while", [c0] + carried, outs=types, regions=[block])


# ===================================================================== walking the graph
def _targets_in(gm, out):
    for node in gm.graph.nodes:
        if node.op == "call_function":
            out.add(node.target)
    for _, sub in gm.named_children():
        if isinstance(sub, torch.fx.GraphModule):
            _targets_in(sub, out)
    return out


def _op_name(target):
    return getattr(target, "__name__", None) if not hasattr(target, "_schema") else str(target).replace(
        "aten.", "aten::", 1) if False else (str(target) if hasattr(target, "_schema") else
                                             getattr(target, "__name__", str(target)))


def missing_ops(gm):
    """The exported program's ops that the table has no Paddle form for, by name (sorted)."""
    control = {_cond_target(), _while_target()}
    missing = set()
    for t in _targets_in(gm, set()):
        if t in _table() or t in control:
            continue
        missing.add(_op_name(t))
    return sorted(missing)


class _GraphWriter(Writer):
    def __init__(self):
        super().__init__()
        self.env = None
        self.graph_owner = None
        self.shape_vals = {}  # value id -> torch's sizes (ints / SymInts), to recognise copied dims
        self._counts = {}

    def node_count(self, node):
        return len(node.users) if isinstance(node, torch.fx.Node) else 0

    def run_graph(self, gm, inputs):
        """Write the nodes of `gm` with its placeholders bound to `inputs`; returns its outputs."""
        saved_env, saved_owner = self.env, self.graph_owner
        env = {}
        self.env, self.graph_owner = env, gm
        try:
            placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
            for n, v in zip(placeholders, inputs):
                env[n] = v
                self._note_shape(n, v)
            for node in gm.graph.nodes:
                if node.op in ("placeholder",):
                    continue
                if node.op == "output":
                    return [_resolve(env, a) for a in _as_list(node.args[0])]
                if node.op == "get_attr":
                    env[node] = getattr(gm, node.target)
                    if isinstance(env[node], torch.Tensor):
                        env[node] = self.constant(env[node])
                    continue
                args = _resolve(env, list(node.args))
                if node.target is _cond_target():
                    value = _lower_cond(self, node, args)
                elif node.target is _while_target():
                    value = _lower_while(self, node, args)
                else:
                    value = _table()[node.target](self, node, args)
                env[node] = value
                if _is_value(value):
                    self._note_shape(node, value)
        finally:
            self.env, self.graph_owner = saved_env, saved_owner
        return []

    def _note_shape(self, node, vid):
        val = node.meta.get("val") if isinstance(node, torch.fx.Node) else None
        if isinstance(val, torch.Tensor) and isinstance(vid, int):
            self.shape_vals[vid] = list(val.shape)

    def constant(self, tensor):
        """A constant tensor of the program (a lifted constant): a 0-d / 1-element one as `full`, others as
        `assign_value_` with the values inline, as Paddle writes `paddle.to_tensor(...)` in to_static code."""
        t = tensor.detach().cpu()
        dtype = _DTYPES.get(t.dtype, (None, None))[1]
        if dtype is None:
            raise unsupported(_api(), f" (Paddle program): a constant tensor of dtype {t.dtype}")
        shape = list(t.shape)
        if t.numel() == 1:
            return self.full(shape, t.reshape(()).item(), dtype)
        if t.numel() > _MAX_CONSTANT_ELEMENTS:
            raise unsupported(_api(), f" (Paddle program): a constant tensor of {t.numel()} elements "
                                                 "(make it a parameter or buffer)")
        if dtype in ("complex64", "complex128", "float16", "bfloat16"):
            t32 = t.to(torch.float32)
            v = self._assign_value(t32, "float32", shape)
            return self.cast(v, dtype)
        return self._assign_value(t, dtype, shape)

    def _assign_value(self, t, dtype, shape):
        base = self.full(shape, 0, dtype, place=0)
        values = [a_f64(float(x)) if dtype != "bool" else a_f64(float(bool(x))) for x in t.reshape(-1).tolist()]
        return self.op1("assign_value_", [base], [("shape", a_i32s(shape)), ("dtype", a_dtype(dtype)),
                                                  ("values", a_arr(values)), ("place", a_place(0))],
                        (dtype, shape), sg=[True])


def _resolve(env, a):
    if isinstance(a, torch.fx.Node):
        return env[a]
    if isinstance(a, (list, tuple)):
        return type(a)(_resolve(env, x) for x in a)
    if isinstance(a, dict):
        return {k: _resolve(env, v) for k, v in a.items()}
    return a


def _as_list(v):
    return list(v) if isinstance(v, (list, tuple)) else [v]


# ===================================================================== the program
def program_json(ep, params, inputs, api="paddle.jit.save", training=False):
    """Paddle 3.3's PIR program (a JSON-able dict) for `ep`, the ExportedProgram jit.save traced.

    `params`: [(Paddle name, torch tensor, trainable)] in the order of the program's weight inputs (the
    .pdiparams order, names sorted); `inputs`: [{"name", "program_shape", "dtype", "stop_gradient"}] of the
    user inputs after them.  Raises `unsupported(...)` (a NotImplementedError) naming every op without a
    Paddle form."""
    user = [("param", name, trainable) for name, _, trainable in params] + [("data", spec) for spec in inputs]
    return program_for_inputs(ep, user, api, training)


def program_for_inputs(ep, user, api="paddle.jit.save", training=False):
    """The PIR program of `ep` whose user inputs are, in order, `user`: ("param", Paddle name, trainable) or
    ("data", {"name", "program_shape", "dtype", "stop_gradient"}).  Parameters are written first, by name (the
    .pdiparams order), then the data ops in their order."""
    ep = functional(ep)
    gm = ep.graph_module
    missing = missing_ops(gm)
    if missing:
        raise unsupported(api, f": the Paddle program (.json) cannot be written for the torch op(s) "
                               f"{', '.join(missing)} (no PIR mapping in paddle_on_torch.jit.pir_writer)")
    _API.append(api)
    try:
        return _write_program(ep, user, api, training)
    finally:
        _API.pop()


def _mutates(gm):
    return any(getattr(getattr(t, "_schema", None), "is_mutable", False) for t in _targets_in(gm, set()))


def functional(ep):
    """`ep` without in-place ops.  torch.export's graph keeps them (`x[:, 0] = v` as fill_ on a view, copy_ into a
    slice, detach_ of a to_tensor constant); Paddle's programs are written value by value, so such a graph is
    functionalized first (run_decompositions with an empty table keeps every op and rewrites the mutations as
    slice_scatter / select_scatter / copy / index_put)."""
    if not _mutates(ep.graph_module):
        return ep
    return ep.run_decompositions({})


def _write_program(ep, user, api, training=False):
    from torch.export.graph_signature import InputKind

    gm = ep.graph_module
    w = _GraphWriter()
    w.layer_training = bool(training)
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    specs = ep.graph_signature.input_specs
    nodes = [n for n, s in zip(placeholders, specs) if s.kind == InputKind.USER_INPUT]
    if len(nodes) != len(user):
        raise ValueError(f"{api}: the exported program has {len(nodes)} inputs, expected {len(user)}")
    values = {}
    for node, (_, name, trainable) in sorted(((n, u) for n, u in zip(nodes, user) if u[0] == "param"),
                                             key=lambda nu: nu[1][1]):
        vid = w.emit("builtin.parameter", [], [("parameter_name", name)], [_meta_type(node.meta["val"])],
                     sg=[not trainable])[0]
        w.blocks[-1].ops[-1]["trainable"] = bool(trainable)
        values[node] = vid
    for node, (_, spec) in ((n, u) for n, u in zip(nodes, user) if u[0] == "data"):
        dtype = spec["dtype"]
        shape = [int(d) for d in spec["program_shape"]]
        vid = w.op1("data", [], [("name", a_str(spec["name"])), ("shape", a_intarray(shape)),
                                 ("dtype", a_dtype(dtype)), ("place", a_place(0))], (dtype, shape),
                    sg=[bool(spec.get("stop_gradient", True))])
        values[node] = vid
        val = node.meta.get("val")
        if isinstance(val, torch.Tensor):
            for d, s in enumerate(val.shape):
                if not isinstance(s, int):
                    w.symbols.setdefault(str(s.node.expr), (vid, d))
    for node, spec in zip(placeholders, specs):
        if spec.kind in (InputKind.CONSTANT_TENSOR, InputKind.BUFFER, InputKind.PARAMETER):
            tensor = ep.constants.get(spec.target) if spec.kind == InputKind.CONSTANT_TENSOR else \
                ep.state_dict.get(spec.target)
            if tensor is None:
                tensor = ep.constants.get(spec.target)
            values[node] = ("const", tensor)
        elif spec.kind != InputKind.USER_INPUT:
            raise unsupported(api, f" (Paddle program): an exported input of kind {spec.kind}")
    inputs_in_order = []
    for node in placeholders:
        v = values[node]
        if isinstance(v, tuple) and v[0] == "const":
            v = w.constant(v[1])
        inputs_in_order.append(v)
    outs = w.run_graph(gm, inputs_in_order)
    from torch.export.graph_signature import OutputKind

    kinds = [o.kind for o in ep.graph_signature.output_specs]
    if len(kinds) == len(outs) and any(k != OutputKind.USER_OUTPUT for k in kinds):  # mutated buffers / inputs
        outs = [v for v, k in zip(outs, kinds) if k == OutputKind.USER_OUTPUT]
    for i, v in enumerate(outs):
        if not _is_value(v):
            raise unsupported(_api(), f" (Paddle program): output {i} is not a tensor of the program")
        w.emit("pd_op.fetch", [v], [("name", a_str(f"fetch_name_{i}")), ("col", a_i32(i))], [w.type(v)],
               sg=[w.sg.get(v, True)])
        w.blocks[-1].ops[-1]["persistable"] = True
    _eliminate_dead_ops(w.blocks[0])
    return _serialize(w)


# ===================================================================== dead code and serialisation
_KEEP = {"builtin.parameter", "pd_op.data", "pd_op.fetch", "cf.yield"}


def _uses(block, counts):
    for op in block.ops:
        for i in _flat_ids(op["ins"]):
            counts[i] = counts.get(i, 0) + 1
        for r in op["regions"] or ():
            _uses(r, counts)
    return counts


def _eliminate_dead_ops(top):
    """Drop ops whose results nothing reads (a size computed for a dim written as 0, a shape value unused)."""
    changed = True
    while changed:
        counts = _uses(top, {})
        changed = _sweep(top, counts)


def _sweep(block, counts):
    changed = False
    kept = []
    for op in block.ops:
        for r in op["regions"] or ():
            changed |= _sweep(r, counts)
    for op in reversed(block.ops):
        if op["name"] not in _KEEP and op["outs"] and not any(counts.get(o, 0) for o in op["outs"]):
            changed = True
            continue
        kept.append(op)
    block.ops = kept[::-1]
    return changed


def _compress(name):
    dialect, _, op = name.partition(".")
    return {"builtin": "0", "pd_op": "1", "cf": "2"}[dialect] + "." + op


def _serialize(w):
    counter = [0]

    def block_json(block):
        counter[0] += 1
        bid = counter[0] - 1
        return {"#": f"block_{bid}", "args": [{"#": a, "TT": _encode_type(w.types[a])} for a in block.args],
                "ops": [op_json(op) for op in block.ops]}

    region_counter = [0]

    def region_json(block):
        region_counter[0] += 1
        rid = region_counter[0] - 1
        return {"#": f"region_{rid}", "blocks": [block_json(block)]}

    def op_json(op):
        if op["name"] == "builtin.parameter":
            vid = op["outs"][0]
            trainable = op.get("trainable", True)
            return {"#": "p", "A": [0, 1, 1, op["attrs"][0][1]], "DA": [],
                    "O": {"%": vid, "TT": _encode_type(w.types[vid])},
                    "OA": [int(op.get("persistable", True)), int(not trainable), int(trainable)], "QA": []}
        out = {"#": _compress(op["name"]),
               "A": [{"AT": a, "N": n} for n, a in op["attrs"]],
               "I": [{"%": i} for i in op["ins"]],
               "O": [{"%": o, "TT": _encode_type(w.types[o])} for o in op["outs"]]}
        oa = []
        if op.get("persistable"):
            oa.append({"AT": a_arr([a_bool(True)]), "N": "persistable"})
        if op["outs"]:
            oa.append({"AT": a_arr([a_bool(w.sg.get(o, True)) for o in op["outs"]]), "N": "stop_gradient"})
        out["OA"] = oa
        if op["regions"]:
            out["regions"] = [region_json(b) for b in op["regions"]]
        return out

    region_counter[0] = 1
    top = {"#": "region_0", "blocks": [block_json(w.blocks[0])]}
    return {"base_code": {"magic": "pir", "trainable": True, "version": PIR_VERSION}, "program": {"regions": [top]}}


def for_jit_save(ep, params, inputs, fallback=False, training=False):
    """The PIR program for paddle.jit.save.  When it cannot be written: the writer's NotImplementedError (naming
    every torch op without a Paddle form, or the construct it cannot write), with how to keep the torch program
    instead; or, with `fallback` (jit.save's torch_fallback=True), None and a warning (jit.save then writes the
    torch program and the weights only, which paddle_on_torch's jit.load reads and real Paddle cannot)."""
    import warnings

    try:
        return program_json(ep, params, inputs, training=training)
    except Exception as e:  # noqa: BLE001 - whatever stops the writer, the user decides what happens next
        detail = str(e) if isinstance(e, NotImplementedError) else \
            f"paddle.jit.save could not write the Paddle program (.json): {type(e).__name__}: {e}"
        if not fallback:
            hint = (".  Nothing was written.  paddle.jit.save(..., torch_fallback=True) writes the torch program "
                    "instead (path.pt2 + path.pt2.manifest + path.pdiparams): paddle_on_torch's jit.load reads it, "
                    "real Paddle cannot")
            if isinstance(e, NotImplementedError):
                e.args = (detail + hint,) + tuple(e.args[1:])
                raise
            raise unsupported("paddle.jit.save", f": the Paddle program (.json) could not be written "
                                                 f"({type(e).__name__}: {e}){hint}") from e
        warnings.warn(f"{detail}; the torch program (.pt2, .pt2.manifest) and the weights (.pdiparams) were written "
                      "instead: paddle_on_torch's jit.load reads them, real Paddle cannot load this model", stacklevel=3)
        return None
