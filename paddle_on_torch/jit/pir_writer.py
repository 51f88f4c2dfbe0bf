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

One table (`_TABLE`) maps each aten op to the PIR ops that compute it, with Paddle's attributes and types.  An
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
        import sympy

        key = str(e)
        for b in reversed(self.blocks):
            if key in b.syms:
                return b.syms[key]
        if isinstance(e, sympy.Integer):
            v = self.full([], int(e), "int64")
        elif isinstance(e, sympy.Symbol):
            if key not in self.symbols:
                raise unsupported(_api(), f" (Paddle program): the run-time size {key} is not an input's "
                                                     "dimension")
            src, dim = self.symbols[key]
            shape = self._shape_of(src)
            v = self.op1("slice", [shape, self.int_array([dim]), self.int_array([dim + 1])],
                         [("axes", a_i64s([0])), ("infer_flags", a_i64s([1])), ("decrease_axis", a_i64s([0]))],
                         ("int64", []), sg=[True])
        elif isinstance(e, (sympy.Add, sympy.Mul)):
            args = list(e.args)
            v = self._expr(args[0])
            for a in args[1:]:
                v = self.op1("add" if isinstance(e, sympy.Add) else "multiply", [v, self._expr(a)], [],
                             ("int64", []), sg=[True])
        elif type(e).__name__ == "FloorDiv":
            v = self.op1("floor_divide", [self._expr(e.args[0]), self._expr(e.args[1])], [], ("int64", []), sg=[True])
        else:
            raise unsupported(_api(), f" (Paddle program): the run-time size expression {key}")
        self.blocks[-1].syms[key] = v
        return v

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
        return (_DTYPES[val.dtype][1], [d if isinstance(d, int) else -1 for d in val.shape])
    if isinstance(val, (list, tuple)):
        return [_meta_type(v) for v in val]
    return None


def _out(node):
    return _meta_type(node.meta["val"])


def _shape(node_or_val):
    val = node_or_val.meta["val"] if isinstance(node_or_val, torch.fx.Node) else node_or_val
    return list(val.shape)


# ===================================================================== the table: aten op -> PIR ops
_TABLE = {}
_API = ["paddle.jit.save"]  # the API writing the program, for error messages


def _api():
    return _API[-1]


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


# ------------------------------------------------------------------ elementwise
_UNARY = {"relu": "relu", "sigmoid": "sigmoid", "tanh": "tanh", "exp": "exp", "log": "log", "sqrt": "sqrt",
          "rsqrt": "rsqrt", "abs": "abs", "sin": "sin", "cos": "cos", "erf": "erf", "floor": "floor",
          "ceil": "ceil", "silu": "silu", "hardswish": "hardswish", "logical_not": "logical_not",
          "bitwise_not": "bitwise_not", "square": "square", "reciprocal": "reciprocal", "sign": "sign",
          "log1p": "log1p", "expm1": "expm1", "isnan": "isnan", "isinf": "isinf", "isfinite": "isfinite",
          "round": "round", "relu6": "relu6", "log2": "log2", "log10": "log10", "tan": "tan", "asin": "asin",
          "acos": "acos", "atan": "atan", "sinh": "sinh", "cosh": "cosh", "trunc": "trunc"}


def _unary(pd):
    def lower(w, node, args):
        x = args[0]
        t = _out(node)
        return w.op1(pd, [w.cast(x, t[0]) if pd not in ("isnan", "isinf", "isfinite", "logical_not") else x], [], t)
    return lower


for _n, _p in _UNARY.items():
    _register([f"{_n}.default"], _unary(_p))


_BINARY = {"add": "add", "sub": "subtract", "mul": "multiply", "div": "divide", "true_divide": "divide",
           "maximum": "maximum",
           "minimum": "minimum", "pow": "elementwise_pow", "remainder": "remainder", "fmod": "remainder",
           "floor_divide": "floor_divide", "atan2": "atan2", "fmax": "fmax", "fmin": "fmin",
           "bitwise_and": "bitwise_and", "bitwise_or": "bitwise_or", "bitwise_xor": "bitwise_xor"}
_COMPARE = {"eq": "equal", "ne": "not_equal", "lt": "less_than", "le": "less_equal", "gt": "greater_than",
            "ge": "greater_equal", "logical_and": "logical_and", "logical_or": "logical_or",
            "logical_xor": "logical_xor"}


def _operand(w, v, dtype):
    """A tensor operand of `dtype`: Python numbers become 0-d constants, tensors are cast."""
    if isinstance(v, _Sym):
        return w.cast(w.sym(v), dtype)
    if _is_value(v):
        return w.cast(v, dtype)
    if isinstance(v, (bool, int, float)):
        return w.full([], v, dtype, place=0)
    raise unsupported(_api(), f" (Paddle program): an operand {v!r}")


def _scale(w, x, scale, bias, t):
    """Paddle's `scale` op, what its to_static writes for a Tensor combined with a Python number."""
    return w.op1("scale", [x, w.full([1], scale, "float32")], [("bias", a_f32(bias)), ("bias_after_scale", a_bool(True))],
                 t)


def _binary(name, pd):
    name = "div" if name == "true_divide" else name

    def lower(w, node, args):
        t = _out(node)
        x, y = args[0], args[1]
        alpha = node.kwargs.get("alpha", 1)
        if alpha != 1:
            if not _is_value(y):
                y = y * alpha
            else:
                y = _scale(w, w.cast(y, t[0]), alpha, 0.0, (t[0], w.shape(y)))
        if name == "div" and node.kwargs.get("rounding_mode") is not None:
            mode = node.kwargs["rounding_mode"]
            xv, yv = _operand(w, x, t[0]), _operand(w, y, t[0])
            if mode == "floor":
                return w.op1("floor_divide", [xv, yv], [], t)
            q = w.op1("divide", [xv, yv], [], t)
            return q if t[0] not in _FLOATS else w.op1("trunc", [q], [], t)
        if _is_value(y) and y in w.scalars and _is_value(x) and len(w.shape(y)) <= len(w.shape(x)):
            y = w.scalars[y]  # a Python number the trace made a 0-d tensor: Paddle's scale, as for a number
        elif _is_value(x) and x in w.scalars and _is_value(y) and name in ("add", "mul") and \
                len(w.shape(x)) <= len(w.shape(y)):
            x, y = y, w.scalars[x]
        if not _is_value(x) and _is_value(y) and name in ("add", "mul"):  # a number first: commute
            x, y = y, x
        number = isinstance(y, (int, float)) and not isinstance(y, bool) and not _is_value(y)
        scalable = t[0] not in ("float64", "bool", "complex64", "complex128")
        if number and _is_value(x) and name in ("add", "sub", "mul", "div") and scalable and \
                not (name == "div" and t[0] not in _FLOATS):
            xv = w.cast(x, t[0])
            if name == "add":
                return _scale(w, xv, 1.0, y, t)
            if name == "sub":
                return _scale(w, xv, 1.0, -y, t)
            if name == "mul":
                return _scale(w, xv, y, 0.0, t)
            return _scale(w, xv, 1.0 / y, 0.0, t)
        if name == "pow" and number:
            return w.op1("pow", [w.cast(x, t[0])], [("y", a_f32(y))], t)
        return w.op1(pd, [_operand(w, x, t[0]), _operand(w, y, t[0])], [], t)
    return lower


for _n, _p in _BINARY.items():
    _register([f"{_n}.Tensor", f"{_n}.Scalar", f"{_n}.default", f"{_n}.Tensor_mode", f"{_n}.Tensor_Tensor",
               f"{_n}.Tensor_Scalar"], _binary(_n, _p))


def _compare(pd):
    def lower(w, node, args):
        x, y = args[0], args[1]
        dt = torch.result_type(*[n.meta["val"] if isinstance(n, torch.fx.Node) else n for n in node.args[:2]])
        dt = _DTYPES[dt][1]
        return w.op1(pd, [_operand(w, x, dt), _operand(w, y, dt)], [], _out(node))
    return lower


for _n, _p in _COMPARE.items():
    _register([f"{_n}.Tensor", f"{_n}.Scalar", f"{_n}.default"], _compare(_p))


@pir(torch.ops.aten.rsub.Scalar, torch.ops.aten.rsub.Tensor)
def _rsub(w, node, args):
    t = _out(node)
    x, y = args[0], args[1]
    alpha = node.kwargs.get("alpha", 1) if len(args) < 3 else args[2]
    if not _is_value(y) and t[0] not in ("float64",):
        return _scale(w, w.cast(x, t[0]), -float(alpha), y, t)
    return w.op1("subtract", [_operand(w, y, t[0]), _scale(w, w.cast(x, t[0]), alpha, 0.0, t)], [], t)


@pir(torch.ops.aten.neg.default)
def _neg(w, node, args):
    t = _out(node)
    if t[0] == "float64":
        return w.op1("multiply", [args[0], w.full([], -1.0, "float64")], [], t)
    return _scale(w, args[0], -1.0, 0.0, t)


@pir(torch.ops.aten.gelu.default)
def _gelu(w, node, args):
    approximate = node.kwargs.get("approximate", args[1] if len(args) > 1 else "none")
    return w.op1("gelu", [args[0]], [("approximate", a_bool(approximate == "tanh"))], _out(node))


@pir(torch.ops.aten.leaky_relu.default)
def _leaky_relu(w, node, args):
    slope = args[1] if len(args) > 1 else 0.01
    return w.op1("leaky_relu", [args[0]], [("negative_slope", a_f64(_f(slope, True)))], _out(node))


@pir(torch.ops.aten.elu.default)
def _elu(w, node, args):
    alpha = args[1] if len(args) > 1 else 1.0
    if (len(args) > 2 and args[2] != 1) or (len(args) > 3 and args[3] != 1):
        raise unsupported(_api(), " (Paddle program): elu with scale / input_scale")
    return w.op1("elu", [args[0]], [("alpha", a_f32(alpha))], _out(node))


@pir(torch.ops.aten.hardsigmoid.default)
def _hardsigmoid(w, node, args):  # torch's: relu6(x + 3) / 6
    return w.op1("hardsigmoid", [args[0]], [("slope", a_f32(1 / 6)), ("offset", a_f32(0.5))], _out(node))


@pir(torch.ops.aten.softplus.default)
def _softplus(w, node, args):
    beta = args[1] if len(args) > 1 else 1.0
    threshold = args[2] if len(args) > 2 else 20.0
    return w.op1("softplus", [args[0]], [("beta", a_f64(_f(beta, True))), ("threshold", a_f64(_f(threshold, True)))],
                 _out(node))


@pir(torch.ops.aten.hardtanh.default)
def _hardtanh(w, node, args):
    lo = args[1] if len(args) > 1 else -1.0
    hi = args[2] if len(args) > 2 else 1.0
    if lo == 0 and hi == 6:
        return w.op1("relu6", [args[0]], [], _out(node))
    return _clip(w, args[0], lo, hi, _out(node))


def _clip(w, x, lo, hi, t):
    lo = -math.inf if lo is None else lo
    hi = math.inf if hi is None else hi
    return w.op1("clip", [x, w.full([1], lo, "float32"), w.full([1], hi, "float32")], [], t)


@pir(torch.ops.aten.clamp.default, torch.ops.aten.clip.default)
def _clamp(w, node, args):
    lo = args[1] if len(args) > 1 else node.kwargs.get("min")
    hi = args[2] if len(args) > 2 else node.kwargs.get("max")
    if not all(v is None or isinstance(v, (int, float)) for v in (lo, hi)):
        raise unsupported(_api(), " (Paddle program): clamp with tensor bounds")
    t = _out(node)
    return _clip(w, w.cast(args[0], t[0]), lo, hi, t)


@pir(torch.ops.aten.clamp_min.default)
def _clamp_min(w, node, args):
    t = _out(node)
    return _clip(w, w.cast(args[0], t[0]), args[1], None, t)


@pir(torch.ops.aten.clamp_max.default)
def _clamp_max(w, node, args):
    t = _out(node)
    return _clip(w, w.cast(args[0], t[0]), None, args[1], t)


@pir(torch.ops.aten.where.self)
def _where(w, node, args):
    t = _out(node)
    return _where_op(w, args[0], _operand(w, args[1], t[0]), _operand(w, args[2], t[0]), t)


def _broadcast_shape(a, b):
    """Two shapes broadcast (-1: a run-time size, which broadcasting never makes 1)."""
    n = max(len(a), len(b))
    a, b = [1] * (n - len(a)) + list(a), [1] * (n - len(b)) + list(b)
    return [y if x == 1 else x if y == 1 else max(x, y) for x, y in zip(a, b)]


def _where_op(w, cond, x, y, t):
    """Paddle's `where` op takes a condition and operands of one shape (paddle.where broadcasts before it):
    operands of another shape are broadcast by adding zeros of the common shape, built with full_like,
    so that run-time sizes need no shape arithmetic."""
    dt, shape = t
    vals = [cond, x, y]
    if all(w.shape(v) == shape for v in vals):
        return w.op1("where", vals, [], t)
    zeros, zshape = None, []
    for v in vals:
        z = w.op1("full_like", [v, w.full([1], 0, dt)], [("dtype", a_dtype(dt)), ("place", a_place(0))],
                  (dt, w.shape(v)), sg=[True])
        if zeros is None:
            zeros, zshape = z, w.shape(v)
        else:
            zshape = _broadcast_shape(zshape, w.shape(v))
            zeros = w.op1("add", [zeros, z], [], (dt, zshape), sg=[True])
    out = []
    for v in vals:
        if w.shape(v) != shape:
            vdt = w.dtype(v)
            v = w.op1("add", [w.cast(v, dt), zeros], [], (dt, shape))
            v = w.cast(v, vdt)
        out.append(v)
    return w.op1("where", out, [], t)


@pir(torch.ops.aten.masked_fill.Scalar, torch.ops.aten.masked_fill.Tensor)
def _masked_fill(w, node, args):
    t = _out(node)
    x, mask, value = args[0], args[1], args[2]
    return w.op1("masked_fill", [x, mask, _operand(w, value, t[0])], [], t)


# ------------------------------------------------------------------ matmul family
def _transposed_last2(w, node_arg, env):
    """A matmul operand that is `x.transpose(-1, -2)` (or a permute swapping the last two dims) of another
    value: Paddle writes that as matmul's transpose_x / transpose_y."""
    if not isinstance(node_arg, torch.fx.Node) or len(node_arg.users) != 1:
        return None
    n = len(_shape(node_arg))
    if n < 2:
        return None
    if node_arg.target is torch.ops.aten.transpose.int:
        d0, d1 = sorted(_axis(d, n) for d in node_arg.args[1:3])
        if (d0, d1) == (n - 2, n - 1):
            return env[node_arg.args[0]]
    if node_arg.target is torch.ops.aten.permute.default:
        perm = [_axis(d, n) for d in node_arg.args[1]]
        if perm == list(range(n - 2)) + [n - 1, n - 2]:
            return env[node_arg.args[0]]
    return None


@pir(torch.ops.aten.matmul.default, torch.ops.aten.mm.default, torch.ops.aten.bmm.default)
def _matmul(w, node, args):
    t = _out(node)
    x, y = args[0], args[1]
    tx = ty = False
    if w.env is not None:
        if w.node_count(node.args[0]) == 1:
            src = _transposed_last2(w, node.args[0], w.env)
            if src is not None:
                x, tx = src, True
        if w.node_count(node.args[1]) == 1:
            src = _transposed_last2(w, node.args[1], w.env)
            if src is not None:
                y, ty = src, True
    return w.op1("matmul", [x, y], [("transpose_x", a_bool(tx)), ("transpose_y", a_bool(ty))], t)


def _add_bias(w, y, b, t):
    return w.op1("add", [y, b], [], t)


@pir(torch.ops.aten.linear.default)
def _linear(w, node, args):
    t = _out(node)
    y = w.op1("matmul", [args[0], args[1]], [("transpose_x", a_bool(False)), ("transpose_y", a_bool(True))], t)
    if len(args) > 2 and args[2] is not None:
        y = _add_bias(w, y, args[2], t)
    return y


@pir(torch.ops.aten.addmm.default)
def _addmm(w, node, args):
    t = _out(node)
    beta = node.kwargs.get("beta", 1)
    alpha = node.kwargs.get("alpha", 1)
    if beta != 1 or alpha != 1:
        raise unsupported(_api(), " (Paddle program): addmm with alpha / beta")
    y = w.op1("matmul", [args[1], args[2]], [("transpose_x", a_bool(False)), ("transpose_y", a_bool(False))], t)
    return _add_bias(w, y, args[0], t)


@pir(torch.ops.aten.scaled_dot_product_attention.default)
def _sdpa(w, node, args):
    """Written out as Paddle's own attention ops (matmul, scale, mask, softmax, matmul): Paddle's fused
    attention kernels do not run on every device its predictor targets."""
    q, k, v = args[:3]
    mask = args[3] if len(args) > 3 else node.kwargs.get("attn_mask")
    dropout = args[4] if len(args) > 4 else node.kwargs.get("dropout_p", 0.0)
    causal = args[5] if len(args) > 5 else node.kwargs.get("is_causal", False)
    scale = node.kwargs.get("scale", args[6] if len(args) > 6 else None)
    if node.kwargs.get("enable_gqa", False) or dropout:
        raise unsupported(_api(), " (Paddle program): scaled_dot_product_attention with dropout or GQA")
    t = _out(node)
    dt = t[0]
    qs, ks = w.shape(q), w.shape(k)
    scale = 1.0 / math.sqrt(qs[-1]) if scale is None else scale
    st = (dt, qs[:-1] + [ks[-2]])
    s = w.op1("matmul", [_scale(w, q, scale, 0.0, (dt, qs)), k], [("transpose_x", a_bool(False)),
                                                                    ("transpose_y", a_bool(True))], st)
    if causal:
        L, S = qs[-2], ks[-2]
        if L < 0 or S < 0:
            raise unsupported(_api(), " (Paddle program): causal attention over a run-time length")
        keep = w.op1("tril", [w.full([L, S], 1, "bool")], [("diagonal", a_i32(0))], ("bool", [L, S]))
        s = _where_op(w, keep, s, w.full([], -math.inf, dt), st)
    if mask is not None:
        if w.dtype(mask) == "bool":
            s = _where_op(w, mask, s, w.full([], -math.inf, dt), st)
        else:
            s = w.op1("add", [s, w.cast(mask, dt)], [], st)
    p = w.op1("softmax", [s], [("axis", a_i32(-1))], st)
    return w.op1("matmul", [p, v], [("transpose_x", a_bool(False)), ("transpose_y", a_bool(False))], t)


# ------------------------------------------------------------------ normalisation
@pir(torch.ops.aten.layer_norm.default, torch.ops.aten.native_layer_norm.default)
def _layer_norm(w, node, args):
    x, normalized = args[0], list(args[1])
    weight = args[2] if len(args) > 2 else None
    bias = args[3] if len(args) > 3 else None
    eps = args[4] if len(args) > 4 else 1e-5
    n = _ndim(w, x)
    begin = n - len(normalized)
    xt = w.type(x)
    numel = int(np.prod(normalized))
    flat = []
    for p in (weight, bias):
        if p is not None and len(w.shape(p)) != 1:
            p = w.op1("reshape", [p, w.int_array([numel])], [], (w.dtype(p), [numel]))
        flat.append(p or 0)
    stat = ("float32" if xt[0] in ("float16", "bfloat16") else xt[0], xt[1][:begin])
    out = w.emit("pd_op.layer_norm", [x] + flat, [("epsilon", a_f32(eps)), ("begin_norm_axis", a_i32(begin))],
                 [xt, stat, stat])
    if node.target is torch.ops.aten.native_layer_norm.default:
        return out
    return out[0]


def _batch_norm_op(w, x, weight, bias, mean, var, training, momentum, eps):
    xt = w.type(x)
    c = xt[1][1] if len(xt[1]) > 1 else -1
    if training:
        raise unsupported(_api(), " (Paddle program): batch_norm in training mode (save in eval mode)")
    stat = ("float32", [c])
    outs = w.emit("pd_op.batch_norm_", [x, mean, var, weight or 0, bias or 0],
                  [("is_test", a_bool(True)), ("momentum", a_f32(momentum)), ("epsilon", a_f32(eps)),
                   ("data_format", a_str("NCHW")), ("use_global_stats", a_bool(True)),
                   ("trainable_statistics", a_bool(False))],
                  [xt, stat, stat, stat, stat, ("uint8", [-1])], sg=[w.sg.get(x, True)] * 6)
    return outs


@pir(torch.ops.aten.batch_norm.default)
def _batch_norm(w, node, args):
    x, weight, bias, mean, var, training, _momentum, eps = args[:8]
    return _batch_norm_op(w, x, weight, bias, mean, var, training, 0.9, eps)[0]


@pir(torch.ops.aten._native_batch_norm_legit_no_training.default)
def _batch_norm_nt(w, node, args):
    x, weight, bias, mean, var, _momentum, eps = args[:7]
    outs = _batch_norm_op(w, x, weight, bias, mean, var, False, 0.9, eps)
    return [outs[0], outs[3], outs[4]]


@pir(torch.ops.aten.group_norm.default)
def _group_norm(w, node, args):
    x, groups = args[0], args[1]
    weight = args[2] if len(args) > 2 else None
    bias = args[3] if len(args) > 3 else None
    eps = args[4] if len(args) > 4 else 1e-5
    xt = w.type(x)
    stat = (xt[0], [xt[1][0], groups])
    return w.emit("pd_op.group_norm", [x, weight or 0, bias or 0],
                  [("epsilon", a_f64(_f(eps, True))), ("groups", a_i32(groups)), ("data_format", a_str("NCHW"))],
                  [xt, stat, stat])[0]


# ------------------------------------------------------------------ convolution and pooling
def _conv_bias(w, y, b, t, nd):
    shape = [1, -1] + [1] * nd
    bshape = [1, w.shape(b)[0]] + [1] * nd
    rb = w.op1("reshape", [b, w.int_array(shape)], [], (w.dtype(b), bshape))
    return w.op1("add", [y, rb], [], t)


def _conv_attrs(stride, padding, dilation, groups, nd, depthwise=False):
    pad = list(padding) if isinstance(padding, (list, tuple)) else [padding] * nd
    if isinstance(padding, str):
        raise unsupported(_api(), f" (Paddle program): convolution padding={padding!r}")
    return [("strides", a_i32s(stride)), ("paddings", a_i32s(pad)), ("padding_algorithm", a_str("EXPLICIT")),
            ("dilations", a_i32s(dilation)), ("groups", a_i32(groups)),
            ("data_format", a_str("NCHW" if nd == 2 else "NCDHW"))]


def _conv(w, node, x, weight, bias, stride, padding, dilation, groups, nd, t):
    ws = w.shape(weight)
    stride = list(stride) * (nd // len(stride)) if len(stride) != nd else list(stride)
    dilation = list(dilation) * (nd // len(dilation)) if len(dilation) != nd else list(dilation)
    if isinstance(padding, (list, tuple)) and len(padding) == 1 and nd > 1:
        padding = list(padding) * nd
    if nd == 1:  # Paddle's conv1d: unsqueeze to 2-D, conv2d, squeeze
        xs = w.shape(x)
        x2 = w.op1("unsqueeze", [x, w.int_array([2])], [], (w.dtype(x), xs[:2] + [1] + xs[2:]))
        w2 = w.op1("unsqueeze", [weight, w.int_array([2])], [], (w.dtype(weight), ws[:2] + [1] + ws[2:]))
        pad = list(padding) if isinstance(padding, (list, tuple)) else [padding]
        ts = list(t[1])
        y = _conv(w, node, x2, w2, bias, [1] + stride, [0] + pad, [1] + dilation, groups, 2,
                  (t[0], ts[:2] + [1] + ts[2:]))
        return w.op1("squeeze", [y, w.int_array([2])], [], t)
    cin = w.shape(x)[1]
    depthwise = nd == 2 and groups > 1 and cin == groups and ws[0] % cin == 0
    name = "depthwise_conv2d" if depthwise else ("conv2d" if nd == 2 else "conv3d")
    attrs = _conv_attrs(stride, padding, dilation, groups, nd)
    if nd == 3 or depthwise:  # these ops list groups before dilations
        attrs = attrs[:3] + [attrs[4], attrs[3]] + attrs[5:]
    y = w.op1(name, [x, weight], attrs, t if bias is None else t)
    if bias is not None:
        y = _conv_bias(w, y, bias, t, nd)
    return y


@pir(torch.ops.aten.conv2d.default, torch.ops.aten.conv1d.default, torch.ops.aten.conv3d.default)
def _convnd(w, node, args):
    nd = {torch.ops.aten.conv1d.default: 1, torch.ops.aten.conv2d.default: 2}.get(node.target, 3)
    x, weight = args[0], args[1]
    bias = args[2] if len(args) > 2 else None
    stride = args[3] if len(args) > 3 else [1] * nd
    padding = args[4] if len(args) > 4 else [0] * nd
    dilation = args[5] if len(args) > 5 else [1] * nd
    groups = args[6] if len(args) > 6 else 1
    return _conv(w, node, x, weight, bias, stride, padding, dilation, groups, nd, _out(node))


@pir(torch.ops.aten.convolution.default)
def _convolution(w, node, args):
    x, weight, bias, stride, padding, dilation, transposed, output_padding, groups = args[:9]
    nd = len(w.shape(x)) - 2
    t = _out(node)
    if not transposed:
        return _conv(w, node, x, weight, bias, stride, padding, dilation, groups, nd, t)
    return _conv_transpose(w, x, weight, bias, stride, padding, output_padding, groups, dilation, nd, t)


def _conv_transpose(w, x, weight, bias, stride, padding, output_padding, groups, dilation, nd, t):
    if nd != 2:
        raise unsupported(_api(), f" (Paddle program): {nd}-D transposed convolution")
    cin = w.shape(x)[1]
    ws = w.shape(weight)
    depthwise = groups > 1 and cin == groups and ws[1] == 1
    out_pad = [int(p) for p in output_padding]
    y = w.op1("depthwise_conv2d_transpose" if depthwise else "conv2d_transpose", [x, weight, w.int_array([])],
              [("strides", a_i32s(stride)), ("paddings", a_i32s(padding)),
               ("output_padding", a_i32s(out_pad) if any(out_pad) else a_arr([])),
               ("padding_algorithm", a_str("EXPLICIT")), ("groups", a_i32(groups)), ("dilations", a_i32s(dilation)),
               ("data_format", a_str("NCHW"))], t)
    if bias is not None:
        y = _conv_bias(w, y, bias, t, 2)
    return y


@pir(torch.ops.aten.conv_transpose2d.input)
def _conv_transpose2d(w, node, args):
    x, weight = args[0], args[1]
    bias = args[2] if len(args) > 2 else None
    stride = args[3] if len(args) > 3 else [1, 1]
    padding = args[4] if len(args) > 4 else [0, 0]
    output_padding = args[5] if len(args) > 5 else [0, 0]
    groups = args[6] if len(args) > 6 else 1
    dilation = args[7] if len(args) > 7 else [1, 1]
    two = lambda v: list(v) * 2 if len(v) == 1 else list(v)  # noqa: E731
    return _conv_transpose(w, x, weight, bias, two(stride), two(padding), two(output_padding), groups, two(dilation),
                           2, _out(node))


def _pool2d(w, x, kernel, stride, padding, ceil_mode, exclusive, kind, t, adaptive=False, global_pooling=False):
    return w.op1("pool2d", [x, w.int_array(kernel)],
                 [("strides", a_i64s(stride)), ("paddings", a_i64s(padding)), ("ceil_mode", a_bool(ceil_mode)),
                  ("exclusive", a_bool(exclusive)), ("data_format", a_str("NCHW")), ("pooling_type", a_str(kind)),
                  ("global_pooling", a_bool(global_pooling)), ("adaptive", a_bool(adaptive)),
                  ("padding_algorithm", a_str("EXPLICIT"))], t)


def _pair(v, n=2):
    v = list(v) if isinstance(v, (list, tuple)) else [v]
    return v * n if len(v) == 1 else v


@pir(torch.ops.aten.max_pool2d.default)
def _max_pool2d(w, node, args):
    x, kernel = args[0], _pair(args[1])
    stride = _pair(args[2]) if len(args) > 2 and args[2] else kernel
    padding = _pair(args[3]) if len(args) > 3 else [0, 0]
    dilation = _pair(args[4]) if len(args) > 4 else [1, 1]
    ceil_mode = args[5] if len(args) > 5 else False
    if dilation != [1, 1]:
        raise unsupported(_api(), " (Paddle program): max_pool2d with dilation")
    return _pool2d(w, x, kernel, stride, padding, ceil_mode, True, "max", _out(node))


@pir(torch.ops.aten.avg_pool2d.default)
def _avg_pool2d(w, node, args):
    x, kernel = args[0], _pair(args[1])
    stride = _pair(args[2]) if len(args) > 2 and args[2] else kernel
    padding = _pair(args[3]) if len(args) > 3 else [0, 0]
    ceil_mode = args[4] if len(args) > 4 else False
    count_include_pad = args[5] if len(args) > 5 else True
    if len(args) > 6 and args[6] is not None:
        raise unsupported(_api(), " (Paddle program): avg_pool2d with divisor_override")
    return _pool2d(w, x, kernel, stride, padding, ceil_mode, not count_include_pad, "avg", _out(node))


@pir(torch.ops.aten.adaptive_avg_pool2d.default, torch.ops.aten._adaptive_avg_pool2d.default)
def _adaptive_avg_pool2d(w, node, args):
    x, size = args[0], _pair(args[1])
    return _pool2d(w, x, size, [1, 1], [0, 0], False, True, "avg", _out(node), adaptive=True)


@pir(torch.ops.aten.max_pool1d.default, torch.ops.aten.avg_pool1d.default)
def _pool1d(w, node, args):
    x, kernel = args[0], _pair(args[1], 1)
    stride = _pair(args[2], 1) if len(args) > 2 and args[2] else kernel
    padding = _pair(args[3], 1) if len(args) > 3 else [0]
    t = _out(node)
    xs = w.shape(x)
    x2 = w.op1("unsqueeze", [x, w.int_array([2])], [], (w.dtype(x), xs[:2] + [1] + xs[2:]))
    t2 = (t[0], t[1][:2] + [1] + t[1][2:])
    if node.target is torch.ops.aten.max_pool1d.default:
        dilation = _pair(args[4], 1) if len(args) > 4 else [1]
        ceil_mode = args[5] if len(args) > 5 else False
        if dilation != [1]:
            raise unsupported(_api(), " (Paddle program): max_pool1d with dilation")
        y = _pool2d(w, x2, [1] + kernel, [1] + stride, [0] + padding, ceil_mode, True, "max", t2)
    else:
        ceil_mode = args[4] if len(args) > 4 else False
        count_include_pad = args[5] if len(args) > 5 else True
        y = _pool2d(w, x2, [1] + kernel, [1] + stride, [0] + padding, ceil_mode, not count_include_pad, "avg", t2)
    return w.op1("squeeze", [y, w.int_array([2])], [], t)


# ------------------------------------------------------------------ shapes
def _reshape_to(w, x, target, t):
    """reshape(x, target): sizes equal to the input's size at the same position are written 0 (Paddle's copy of
    an input dim), so a dynamic batch stays a constant shape where it can."""
    src = w.shape_vals.get(x)
    if src is not None and len(src) == len(target) and all(
            _same_size(a, b.value) if isinstance(b, _Sym) else isinstance(a, int) and a == b for a, b in zip(src, target)):
        return x  # the shape it has
    out = []
    for i, d in enumerate(target):
        same = src is not None and i < len(src) and (
            _same_size(src[i], d.value) if isinstance(d, _Sym) else isinstance(src[i], int) and src[i] == d)
        out.append(0 if same and (len(target) > 1) else d)
    if all(isinstance(d, int) for d in out):
        return w.op1("reshape", [x, w.int_array(out)], [], t)
    return w.op1("reshape", [x, w.ints(out)], [], t)


def _same_size(a, b):
    if isinstance(a, int) or isinstance(b, int):
        return False
    return str(a.node.expr) == str(b.node.expr)


@pir(torch.ops.aten.view.default, torch.ops.aten.reshape.default, torch.ops.aten._unsafe_view.default)
def _reshape(w, node, args):
    y = _reshape_to(w, args[0], list(args[1]), _out(node))
    if not list(args[1]) and w.shape(args[0]) == [1]:
        w.unsqueezed[y] = args[0]
    return y


@pir(torch.ops.aten.flatten.using_ints)
def _flatten(w, node, args):
    x = args[0]
    n = max(_ndim(w, x), 1)
    start = _axis(args[1] if len(args) > 1 else 0, n)
    end = _axis(args[2] if len(args) > 2 else -1, n)
    if _ndim(w, x) == 0:
        return w.op1("reshape", [x, w.int_array([1])], [], _out(node))
    return w.op1("flatten", [x], [("start_axis", a_i32(start)), ("stop_axis", a_i32(end))], _out(node))


@pir(torch.ops.aten.permute.default)
def _permute(w, node, args):
    n = _ndim(w, args[0])
    return w.op1("transpose", [args[0]], [("perm", a_i32s([_axis(d, n) for d in args[1]]))], _out(node))


@pir(torch.ops.aten.transpose.int)
def _transpose(w, node, args):
    x = args[0]
    n = _ndim(w, x)
    perm = list(range(n))
    d0, d1 = _axis(args[1], n), _axis(args[2], n)
    perm[d0], perm[d1] = perm[d1], perm[d0]
    return w.op1("transpose", [x], [("perm", a_i32s(perm))], _out(node))


@pir(torch.ops.aten.t.default, torch.ops.aten.numpy_T.default)
def _t(w, node, args):
    n = _ndim(w, args[0])
    if n < 2:
        return args[0]
    return w.op1("transpose", [args[0]], [("perm", a_i32s(list(range(n))[::-1]))], _out(node))


@pir(torch.ops.aten.unsqueeze.default)
def _unsqueeze(w, node, args):
    n = _ndim(w, args[0]) + 1
    return w.op1("unsqueeze", [args[0], w.int_array([_axis(args[1], n)])], [], _out(node))


@pir(torch.ops.aten.squeeze.dim, torch.ops.aten.squeeze.dims, torch.ops.aten.squeeze.default)
def _squeeze(w, node, args):
    x = args[0]
    n = _ndim(w, x)
    if len(args) < 2:
        dims = [i for i, d in enumerate(w.shape(x)) if d == 1]
    else:
        dims = args[1] if isinstance(args[1], (list, tuple)) else [args[1]]
        dims = [_axis(d, n) for d in dims if w.shape(x)[_axis(d, n)] == 1]
    if not dims:
        return x
    return w.op1("squeeze", [x, w.int_array(dims)], [], _out(node))


@pir(torch.ops.aten.expand.default)
def _expand(w, node, args):
    """expand(x, sizes): a run-time size equal to the input's own is written -1 (Paddle's keep)."""
    x, sizes = args[0], list(args[1])
    src = w.shape_vals.get(x) or []
    off = len(sizes) - len(src)
    out = []
    for i, d in enumerate(sizes):
        j = i - off
        out.append(-1 if isinstance(d, _Sym) and 0 <= j < len(src) and _same_size(src[j], d.value) else d)
    return w.op1("expand", [x, w.ints(out)], [], _out(node))


@pir(torch.ops.aten.cat.default, torch.ops.aten.concat.default)
def _cat(w, node, args):
    t = _out(node)
    xs = [w.cast(v, t[0]) for v in args[0] if _numel_nonzero_or_rank(w, v)]
    dim = args[1] if len(args) > 1 else 0
    vec = w.emit("builtin.combine", xs, outs=[[w.type(v) for v in xs]])[0]
    return w.op1("concat", [vec, w.full([1], _axis(dim, len(t[1])), "int32")], [], t)


def _numel_nonzero_or_rank(w, v):
    s = w.shape(v)
    return not (len(s) == 1 and s[0] == 0)  # torch.cat skips legacy empty [0] tensors


@pir(torch.ops.aten.stack.default)
def _stack(w, node, args):
    t = _out(node)
    xs = [w.cast(v, t[0]) for v in args[0]]
    dim = args[1] if len(args) > 1 else 0
    vec = w.emit("builtin.combine", xs, outs=[[w.type(v) for v in xs]])[0]
    return w.op1("stack", [vec], [("axis", a_i32(_axis(dim, len(t[1]))))], t)


def _split_outs(w, vec, types):
    return w.emit("builtin.split", [vec], outs=types)


@pir(torch.ops.aten.split.Tensor, torch.ops.aten.split_with_sizes.default, torch.ops.aten.chunk.default,
     torch.ops.aten.unbind.int)
def _split(w, node, args):
    x = args[0]
    types = _out(node)
    n = _ndim(w, x)
    dim = _axis(args[2] if len(args) > 2 else 0, n)
    vec_t = [tuple(t) for t in types]
    if node.target is torch.ops.aten.unbind.int:
        dim = _axis(args[1] if len(args) > 1 else 0, n)
        vec = w.emit("pd_op.unbind", [x], [("axis", a_i32(dim))], [vec_t])[0]
        return _split_outs(w, vec, types)
    sizes = [t[1][dim] for t in types]
    size = w.shape(x)[dim]
    if len(set(sizes)) == 1 and sizes[0] >= 0 and (size < 0 or sizes[0] * len(sizes) == size):
        vec = w.emit("pd_op.split_with_num", [x, w.full([1], dim, "int32")], [("num", a_i32(len(sizes)))],
                     [vec_t])[0]
    else:
        if any(s < 0 for s in sizes):
            raise unsupported(_api(), " (Paddle program): split into run-time sizes")
        vec = w.emit("pd_op.split", [x, w.int_array(sizes), w.full([1], dim, "int32")], [], [vec_t])[0]
    return _split_outs(w, vec, types)


def _slice_bounds(start, end, size):
    start = 0 if start is None else start
    big = end is None or (isinstance(end, int) and end >= _INT32_MAX)
    if big:
        end = size if isinstance(size, int) and size >= 0 else _INT32_MAX
    return start, end


@pir(torch.ops.aten.slice.Tensor)
def _slice(w, node, args):
    x = args[0]
    n = _ndim(w, x)
    dim = _axis(args[1] if len(args) > 1 else 0, n)
    start = args[2] if len(args) > 2 else None
    end = args[3] if len(args) > 3 else None
    step = args[4] if len(args) > 4 else 1
    size = w.shape(x)[dim]
    start, end = _slice_bounds(start, end, size)
    t = _out(node)
    if isinstance(start, int) and isinstance(end, int) and start == 0 and step == 1 and \
            size >= 0 and end >= size:
        return x
    starts = w.ints([start]) if not isinstance(start, int) else w.int_array([start])
    ends = w.ints([end]) if not isinstance(end, int) else w.int_array([end])
    if step != 1:
        return w.op1("strided_slice", [x, starts, ends, w.int_array([step])], [("axes", a_i32s([dim]))], t)
    return w.op1("slice", [x, starts, ends], [("axes", a_i64s([dim])), ("infer_flags", a_i64s([1])),
                                             ("decrease_axis", a_arr([]))], t)


@pir(torch.ops.aten.select.int)
def _select(w, node, args):
    x = args[0]
    n = _ndim(w, x)
    dim = _axis(args[1], n)
    i = args[2]
    if not isinstance(i, int):
        raise unsupported(_api(), " (Paddle program): select at a run-time index")
    end = i + 1 if i != -1 else _INT32_MAX
    return w.op1("slice", [x, w.int_array([i]), w.int_array([end])],
                 [("axes", a_i64s([dim])), ("infer_flags", a_i64s([1])), ("decrease_axis", a_i64s([dim]))],
                 _out(node))


@pir(torch.ops.aten.narrow.default)
def _narrow(w, node, args):
    x, dim, start, length = args[:4]
    n = _ndim(w, x)
    dim = _axis(dim, n)
    return w.op1("slice", [x, w.int_array([start]), w.int_array([start + length])],
                 [("axes", a_i64s([dim])), ("infer_flags", a_i64s([1])), ("decrease_axis", a_arr([]))], _out(node))


@pir(torch.ops.aten.index_select.default)
def _index_select(w, node, args):
    x, dim, index = args[:3]
    return w.op1("index_select", [x, index], [("axis", a_i32(_axis(dim, _ndim(w, x))))], _out(node))


@pir(torch.ops.aten.index.Tensor)
def _index(w, node, args):
    """x[..., idx, ...] with one index tensor: index_select over the flattened index, reshaped back."""
    x, indices = args[0], list(args[1])
    live = [i for i, v in enumerate(indices) if v is not None]
    if len(live) != 1:
        raise unsupported(_api(), " (Paddle program): advanced indexing with several index tensors")
    d = live[0]
    idx = indices[d]
    t = _out(node)
    if w.dtype(idx) == "bool":
        raise unsupported(_api(), " (Paddle program): boolean-mask indexing (a run-time output size)")
    ishape = w.shape(idx)
    if len(ishape) == 1:
        return w.op1("index_select", [x, idx], [("axis", a_i32(d))], t)
    numel = int(np.prod(ishape)) if all(s >= 0 for s in ishape) else -1
    flat = w.op1("reshape", [idx, w.int_array([-1])], [], (w.dtype(idx), [numel]))
    xs = w.shape(x)
    sel = w.op1("index_select", [x, flat], [("axis", a_i32(d))], (t[0], xs[:d] + [numel] + xs[d + 1:]))
    return _reshape_to(w, sel, [(_Sym(s) if not isinstance(s, int) else s) for s in _shape(node)], t)


@pir(torch.ops.aten.gather.default)
def _gather(w, node, args):
    x, dim, index = args[:3]
    return w.op1("take_along_axis", [x, index], [("axis", a_i32(_axis(dim, _ndim(w, x))))], _out(node))


@pir(torch.ops.aten.embedding.default)
def _embedding(w, node, args):
    weight, ids = args[0], args[1]  # torch's padding_idx changes only the gradient: Paddle's -1 computes the same
    return w.op1("embedding", [ids, weight], [("padding_idx", a_i64(-1)), ("sparse", a_bool(False))], _out(node))


@pir(torch.ops.aten.tril.default, torch.ops.aten.triu.default)
def _tril(w, node, args):
    name = "tril" if node.target is torch.ops.aten.tril.default else "triu"
    return w.op1(name, [args[0]], [("diagonal", a_i32(args[1] if len(args) > 1 else 0))], _out(node))


@pir(torch.ops.aten.roll.default)
def _roll(w, node, args):
    x, shifts = args[0], args[1]
    dims = args[2] if len(args) > 2 else []
    shifts = list(shifts) if isinstance(shifts, (list, tuple)) else [shifts]
    dims = list(dims) if isinstance(dims, (list, tuple)) else [dims]
    return w.op1("roll", [x, w.int_array(shifts)], [("axis", a_i64s(dims))], _out(node))


@pir(torch.ops.aten.flip.default)
def _flip(w, node, args):
    n = _ndim(w, args[0])
    return w.op1("flip", [args[0]], [("axis", a_i32s([_axis(d, n) for d in args[1]]))], _out(node))


@pir(torch.ops.aten.repeat.default)
def _repeat(w, node, args):
    return w.op1("tile", [args[0], w.ints(list(args[1]))], [], _out(node))


@pir(torch.ops.aten.repeat_interleave.self_int)
def _repeat_interleave(w, node, args):
    x, repeats = args[0], args[1]
    dim = args[2] if len(args) > 2 else node.kwargs.get("dim")
    if dim is None or not isinstance(repeats, int):
        raise unsupported(_api(), " (Paddle program): repeat_interleave without dim or with run-time "
                                             "repeats")
    return w.op1("repeat_interleave", [x], [("repeats", a_i32(repeats)), ("axis", a_i32(_axis(dim, _ndim(w, x)))),
                                            ("output_size", a_i64(-1))], _out(node))


def _interp(w, node, x, method, size, scales, align_corners):
    """Paddle's *_interp ops (align_mode 0: torch's half-pixel source coordinates when not align_corners)."""
    nd = _ndim(w, x) - 2
    if nd != 2:
        raise unsupported(_api(), f" (Paddle program): {nd}-D {method} interpolation")
    out_hw = [-1, -1]
    scale = []
    if size is not None:
        if not all(isinstance(s, int) for s in size):
            raise unsupported(_api(), " (Paddle program): interpolation to a run-time size")
        out_hw = list(size)
    elif scales is not None and all(s is not None for s in scales):
        scale = [float(s) for s in scales]
    else:
        raise unsupported(_api(), " (Paddle program): interpolation without size or scale")
    return w.op1(f"{method}_interp", [x, 0, 0, 0],
                 [("data_format", a_str("NCHW")), ("out_d", a_i32(-1)), ("out_h", a_i32(out_hw[0])),
                  ("out_w", a_i32(out_hw[1])), ("scale", a_arr(a_f64(v) for v in scale)),
                  ("interp_method", a_str(method)), ("align_corners", a_bool(align_corners)),
                  ("align_mode", a_i32(0))], _out(node))


@pir(torch.ops.aten.upsample_bilinear2d.vec, torch.ops.aten.upsample_nearest2d.vec,
     torch.ops.aten.upsample_bicubic2d.vec)
def _upsample_vec(w, node, args):
    method = {torch.ops.aten.upsample_bilinear2d.vec: "bilinear",
              torch.ops.aten.upsample_nearest2d.vec: "nearest"}.get(node.target, "bicubic")
    if method == "nearest":
        x, size, scales, align = args[0], args[1], args[2] if len(args) > 2 else None, False
    else:
        x, size, align, scales = args[0], args[1], args[2], args[3] if len(args) > 3 else None
    return _interp(w, node, x, method, size, scales, align)


@pir(torch.ops.aten.upsample_bilinear2d.default, torch.ops.aten.upsample_nearest2d.default)
def _upsample(w, node, args):
    if node.target is torch.ops.aten.upsample_nearest2d.default:
        return _interp(w, node, args[0], "nearest", args[1], None, False)
    return _interp(w, node, args[0], "bilinear", args[1], None, args[2])


_RNN_MODES = {"lstm": "LSTM", "gru": "GRU", "rnn_tanh": "RNN_TANH", "rnn_relu": "RNN_RELU"}


def _rnn(mode):
    def lower(w, node, args):
        """Paddle's `rnn` op: time-major input, the initial states, the weights of every layer and direction and
        then their biases, and the (non-persistable) dropout state Paddle declares as a parameter."""
        x, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first = args[:9]
        if not has_biases or train:
            raise unsupported(_api(), f" (Paddle program): {mode} without biases or in training mode")
        hx = list(hx) if isinstance(hx, (list, tuple)) else [hx]
        t = _out(node)
        xs = w.shape(x)
        if batch_first:
            x = w.op1("transpose", [x], [("perm", a_i32s([1, 0, 2]))], (w.dtype(x), [xs[1], xs[0], xs[2]]))
        groups = [params[i:i + 4] for i in range(0, len(params), 4)]
        ordered = [p for g in groups for p in g[:2]] + [p for g in groups for p in g[2:]]
        states = w.emit("builtin.combine", hx, outs=[[w.type(h) for h in hx]])[0]
        weights = w.emit("builtin.combine", ordered, outs=[[w.type(p) for p in ordered]])[0]
        dt = w.dtype(x)
        drop = w.parameter(f"rnn_{w.count('rnn')}.dropout_state__non_persistable", ("uint8", []), persistable=False)
        out_t = t[0] if not batch_first else (t[0][0], [t[0][1][1], t[0][1][0], t[0][1][2]])
        outs = w.emit("pd_op.rnn", [x, states, weights, 0, drop],
                      [("dropout_prob", a_f32(0.0)), ("is_bidirec", a_bool(bidirectional)),
                       ("input_size", a_i32(xs[-1])), ("hidden_size", a_i32(w.shape(hx[0])[-1])),
                       ("num_layers", a_i32(num_layers)), ("mode", a_str(mode)), ("seed", a_i32(0)),
                       ("is_test", a_bool(True))],
                      [out_t, (dt, []), [w.type(h) for h in hx], (dt, [])])
        y = outs[0]
        if batch_first:
            y = w.op1("transpose", [y], [("perm", a_i32s([1, 0, 2]))], t[0])
        finals = w.emit("builtin.split", [outs[2]], outs=[tuple(x) for x in t[1:]])
        return [y] + finals
    return lower


for _n, _m in _RNN_MODES.items():
    _register([f"{_n}.input"], _rnn(_m))


@pir(torch.ops.aten.constant_pad_nd.default)
def _constant_pad(w, node, args):
    """F.pad with a constant: Paddle's pad3d over the last dims, made 5-D by unsqueezing as Paddle does."""
    x, pad = args[0], list(args[1])
    value = args[2] if len(args) > 2 else 0
    n, k = _ndim(w, x), len(pad) // 2
    if not 3 <= n <= 5 or k > n - 2 or any(not isinstance(p, int) for p in pad):
        raise unsupported(_api(), f" (Paddle program): constant padding of {k} dims of a {n}-D tensor")
    pads = pad + [0] * (6 - len(pad))  # pad3d: (left, right, top, bottom, front, back), the last dim first
    t = _out(node)
    xs, dt = w.shape(x), w.dtype(x)
    extra = list(range(n, 5))  # appended unit dims: the padded dims move towards D, H, W as in Paddle
    if extra:
        pads = [0, 0] * len(extra) + pads[:2 * (3 - len(extra))]
        x = w.op1("unsqueeze", [x, w.int_array(extra)], [], (dt, xs + [1] * len(extra)))
    y = w.op1("pad3d", [x, w.int_array(pads)], [("mode", a_str("constant")), ("pad_value", a_f64(_f(value, True))),
                                                ("data_format", a_str("NCDHW"))], (dt, t[1] + [1] * len(extra)))
    if extra:
        y = w.op1("squeeze", [y, w.int_array(extra)], [], t)
    return y


# ------------------------------------------------------------------ reductions
def _dims(w, x, dims):
    if dims is None:
        return []
    dims = list(dims) if isinstance(dims, (list, tuple)) else [dims]
    return [_axis(d, max(_ndim(w, x), 1)) for d in dims]


@pir(torch.ops.aten.mean.dim, torch.ops.aten.mean.default)
def _mean(w, node, args):
    x = args[0]
    dims = _dims(w, x, args[1] if len(args) > 1 else None)
    keep = args[2] if len(args) > 2 else node.kwargs.get("keepdim", False)
    t = _out(node)
    return w.op1("mean", [w.cast(x, t[0]), w.int_array(dims)], [("keepdim", a_bool(keep))], t)


@pir(torch.ops.aten.sum.dim_IntList, torch.ops.aten.sum.default)
def _sum(w, node, args):
    x = args[0]
    dims = _dims(w, x, args[1] if len(args) > 1 and node.target is torch.ops.aten.sum.dim_IntList else None)
    keep = (args[2] if len(args) > 2 else node.kwargs.get("keepdim", False)) \
        if node.target is torch.ops.aten.sum.dim_IntList else False
    t = _out(node)
    dtype = t[0] if t[0] != w.dtype(x) else UNDEFINED_DTYPE
    return w.op1("sum", [x, w.int_array(dims)], [("dtype", a_dtype(dtype)), ("keepdim", a_bool(keep))], t)


@pir(torch.ops.aten.amax.default, torch.ops.aten.amin.default, torch.ops.aten.max.default, torch.ops.aten.min.default)
def _amax(w, node, args):
    x = args[0]
    dims = _dims(w, x, args[1] if len(args) > 1 else None)
    keep = args[2] if len(args) > 2 else False
    name = "max" if node.target in (torch.ops.aten.amax.default, torch.ops.aten.max.default) else "min"
    return w.op1(name, [x, w.int_array(dims)], [("keepdim", a_bool(keep))], _out(node))


@pir(torch.ops.aten.prod.dim_int, torch.ops.aten.prod.default)
def _prod(w, node, args):
    x = args[0]
    dims = _dims(w, x, args[1] if len(args) > 1 else None)
    keep = args[2] if len(args) > 2 else False
    return w.op1("prod", [x, w.int_array(dims)], [("keepdim", a_bool(keep)), ("reduce_all", a_bool(not dims))],
                 _out(node))


@pir(torch.ops.aten.logsumexp.default)
def _logsumexp(w, node, args):
    x = args[0]
    dims = _dims(w, x, args[1])
    keep = args[2] if len(args) > 2 else False
    return w.op1("logsumexp", [x], [("axis", a_i32s(dims)), ("keepdim", a_bool(keep)), ("reduce_all", a_bool(False))],
                 _out(node))


@pir(torch.ops.aten.argmax.default, torch.ops.aten.argmin.default)
def _argmax(w, node, args):
    x = args[0]
    dim = args[1] if len(args) > 1 else None
    keep = args[2] if len(args) > 2 else False
    name = "argmax" if node.target is torch.ops.aten.argmax.default else "argmin"
    return w.op1(name, [x, w.full([1], dim if dim is not None else 0, "int64")],
                 [("keepdims", a_bool(keep)), ("flatten", a_bool(dim is None)), ("dtype", a_dtype("int64"))],
                 _out(node))


@pir(torch.ops.aten.max.dim, torch.ops.aten.min.dim)
def _max_dim(w, node, args):
    x, dim = args[0], args[1]
    keep = args[2] if len(args) > 2 else False
    types = _out(node)
    big = node.target is torch.ops.aten.max.dim
    v = w.op1("max" if big else "min", [x, w.int_array([_axis(dim, _ndim(w, x))])], [("keepdim", a_bool(keep))],
              types[0])
    i = w.op1("argmax" if big else "argmin", [x, w.full([1], dim, "int64")],
              [("keepdims", a_bool(keep)), ("flatten", a_bool(False)), ("dtype", a_dtype("int64"))], types[1])
    return [v, i]


@pir(torch.ops.aten.cumsum.default)
def _cumsum(w, node, args):
    x, dim = args[0], args[1]
    t = _out(node)
    return w.op1("cumsum", [w.cast(x, t[0]), w.full([1], dim, "int32")],
                 [("flatten", a_bool(False)), ("exclusive", a_bool(False)), ("reverse", a_bool(False))], t)


@pir(torch.ops.aten.topk.default)
def _topk(w, node, args):
    x, k = args[0], args[1]
    dim = args[2] if len(args) > 2 else -1
    largest = args[3] if len(args) > 3 else True
    srt = args[4] if len(args) > 4 else True
    return w.emit("pd_op.topk", [x, w.full([1], k, "int32")],
                  [("axis", a_i32(dim)), ("largest", a_bool(largest)), ("sorted", a_bool(srt))], _out(node))


@pir(torch.ops.aten.sort.default, torch.ops.aten.sort.stable)
def _sort(w, node, args):
    x = args[0]
    if node.target is torch.ops.aten.sort.stable:
        stable = node.kwargs.get("stable", False)
        dim = node.kwargs.get("dim", -1)
        desc = node.kwargs.get("descending", False)
    else:
        stable = False
        dim = args[1] if len(args) > 1 else -1
        desc = args[2] if len(args) > 2 else False
    return w.emit("pd_op.argsort", [x], [("axis", a_i32(dim)), ("descending", a_bool(desc)),
                                         ("stable", a_bool(bool(stable)))], _out(node))


@pir(torch.ops.aten.argsort.default, torch.ops.aten.argsort.stable)
def _argsort(w, node, args):
    x = args[0]
    dim = args[1] if len(args) > 1 else node.kwargs.get("dim", -1)
    desc = args[2] if len(args) > 2 else node.kwargs.get("descending", False)
    stable = node.kwargs.get("stable", False)
    t = _out(node)
    outs = w.emit("pd_op.argsort", [x], [("axis", a_i32(dim)), ("descending", a_bool(desc)),
                                         ("stable", a_bool(bool(stable)))], [w.type(x), t])
    return outs[1]


@pir(torch.ops.aten.softmax.int, torch.ops.aten._softmax.default, torch.ops.aten.log_softmax.int,
     torch.ops.aten._log_softmax.default)
def _softmax(w, node, args):
    name = "log_softmax" if node.target in (torch.ops.aten.log_softmax.int, torch.ops.aten._log_softmax.default) \
        else "softmax"
    t = _out(node)
    return w.op1(name, [w.cast(args[0], t[0])], [("axis", a_i32(args[1]))], t)


# ------------------------------------------------------------------ creation and casts
def _dtype_arg(node, default):
    dt = node.kwargs.get("dtype")
    return _DTYPES[dt][1] if dt is not None else default


def _place_free(sizes):
    return [s for s in sizes]


@pir(torch.ops.aten.full.default, torch.ops.aten.zeros.default, torch.ops.aten.ones.default,
     torch.ops.aten.empty.memory_format, torch.ops.aten.new_zeros.default, torch.ops.aten.new_ones.default,
     torch.ops.aten.new_full.default, torch.ops.aten.new_empty.default)
def _full(w, node, args):
    t = _out(node)
    target = node.target
    if target in (torch.ops.aten.new_zeros.default, torch.ops.aten.new_ones.default,
                  torch.ops.aten.new_full.default, torch.ops.aten.new_empty.default):
        args = args[1:]
    sizes = list(args[0])
    if target in (torch.ops.aten.full.default, torch.ops.aten.new_full.default):
        value = args[1]
    else:
        value = 1 if target in (torch.ops.aten.ones.default, torch.ops.aten.new_ones.default) else 0
    if isinstance(value, _Sym):
        raise unsupported(_api(), " (Paddle program): full with a run-time fill value")
    if all(isinstance(s, int) for s in sizes):
        return w.full(sizes, value, t[0], place=0)
    return w.op1("full_with_tensor", [w.full([1], value, t[0]), w.ints(sizes)], [("dtype", a_dtype(t[0]))], t,
                 sg=[True])


@pir(torch.ops.aten.scalar_tensor.default)
def _scalar_tensor(w, node, args):
    t = _out(node)
    return w.full([], args[0], t[0])


@pir(torch.ops.aten.full_like.default, torch.ops.aten.zeros_like.default, torch.ops.aten.ones_like.default,
     torch.ops.aten.empty_like.default)
def _full_like(w, node, args):
    t = _out(node)
    if node.target is torch.ops.aten.full_like.default:
        value = args[1]
    else:
        value = 1 if node.target is torch.ops.aten.ones_like.default else 0
    return w.op1("full_like", [args[0], w.full([1], value, t[0])], [("dtype", a_dtype(t[0])), ("place", a_place(0))],
                 t, sg=[True])


@pir(torch.ops.aten.arange.start_step, torch.ops.aten.arange.default, torch.ops.aten.arange.start)
def _arange(w, node, args):
    t = _out(node)
    if node.target is torch.ops.aten.arange.default:
        start, end, step = 0, args[0], 1
    elif node.target is torch.ops.aten.arange.start:
        start, end, step = args[0], args[1], 1
    else:
        start, end, step = args[0], args[1], args[2] if len(args) > 2 else 1

    def bound(v):
        if isinstance(v, _Sym):
            return w.cast(w.op1("reshape", [w.sym(v), w.int_array([1])], [], ("int64", [1])), "float64")
        return w.full([1], v, "float64")
    return w.op1("arange", [bound(start), bound(end), bound(step)], [("dtype", a_dtype(t[0])), ("place", a_place(0))],
                 t, sg=[True])


def _identity(w, node, args):
    return args[0]


for _n in ("clone.default", "alias.default", "detach.default", "contiguous.default", "lift_fresh_copy.default",
           "lift_fresh.default", "_assert_tensor_metadata.default"):
    _register([_n], _identity)


@pir(torch.ops.aten.dropout.default, torch.ops.aten.feature_dropout.default, torch.ops.aten.alpha_dropout.default)
def _dropout(w, node, args):
    if len(args) > 2 and args[2]:
        raise unsupported(_api(), " (Paddle program): dropout in training mode (save in eval mode)")
    return args[0]


@pir(torch.ops.aten._to_copy.default, torch.ops.aten.to.dtype, torch.ops.aten.to.dtype_layout,
     torch.ops.aten.type_as.default, torch.ops.aten.to.device)
def _to(w, node, args):
    return w.cast(args[0], _out(node)[0])


@pir(torch.ops.aten.one_hot.default)
def _one_hot(w, node, args):
    n = args[1] if len(args) > 1 else -1
    if n < 0:
        raise unsupported(_api(), " (Paddle program): one_hot without num_classes")
    t = _out(node)
    y = w.op1("one_hot", [args[0], w.full([1], n, "int32")], [], ("float32", t[1]))
    return w.cast(y, t[0])


# ------------------------------------------------------------------ sizes
@pir(torch.ops.aten.sym_size.int)
def _sym_size(w, node, args):
    return _Sym(node.meta["val"])


@pir(torch.ops.aten.sym_numel.default)
def _sym_numel(w, node, args):
    return _Sym(node.meta["val"])


for _op in (operator.mul, operator.add, operator.sub, operator.floordiv, torch.sym_int, torch.sym_max,
            torch.sym_min):
    _TABLE[_op] = _sym_size


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
        if t in _TABLE or t in control:
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
                    value = _TABLE[node.target](self, node, args)
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
def program_json(ep, params, inputs, api="paddle.jit.save"):
    """Paddle 3.3's PIR program (a JSON-able dict) for `ep`, the ExportedProgram jit.save traced.

    `params`: [(Paddle name, torch tensor, trainable)] in the order of the program's weight inputs (the
    .pdiparams order, names sorted); `inputs`: [{"name", "program_shape", "dtype", "stop_gradient"}] of the
    user inputs after them.  Raises `unsupported(...)` (a NotImplementedError) naming every op without a
    Paddle form."""
    user = [("param", name, trainable) for name, _, trainable in params] + [("data", spec) for spec in inputs]
    return program_for_inputs(ep, user, api)


def program_for_inputs(ep, user, api="paddle.jit.save"):
    """The PIR program of `ep` whose user inputs are, in order, `user`: ("param", Paddle name, trainable) or
    ("data", {"name", "program_shape", "dtype", "stop_gradient"}).  Parameters are written first, by name (the
    .pdiparams order), then the data ops in their order."""
    gm = ep.graph_module
    missing = missing_ops(gm)
    if missing:
        raise unsupported(api, f": the Paddle program (.json) cannot be written for the torch op(s) "
                               f"{', '.join(missing)} (no PIR mapping in paddle_on_torch.jit.pir_writer)")
    _API.append(api)
    try:
        return _write_program(ep, user, api)
    finally:
        _API.pop()


def _write_program(ep, user, api):
    from torch.export.graph_signature import InputKind

    gm = ep.graph_module
    w = _GraphWriter()
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


def for_jit_save(ep, params, inputs):
    """The PIR program for paddle.jit.save, or None with a warning when it cannot be written (the torch program
    and the weights are written all the same, and paddle_on_torch loads them; real Paddle cannot)."""
    import warnings

    try:
        return program_json(ep, params, inputs)
    except Exception as e:  # noqa: BLE001 - whatever stops the writer, the torch artifact is still written
        detail = str(e) if isinstance(e, NotImplementedError) else \
            f"paddle.jit.save could not write the Paddle program (.json): {type(e).__name__}: {e}"
        warnings.warn(f"{detail}; the torch program (.pt2) and the weights (.pdiparams) were written, and "
                      "paddle_on_torch's jit.load reads them, but real Paddle cannot load this model", stacklevel=3)
        return None
