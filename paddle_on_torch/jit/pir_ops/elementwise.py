"""Elementwise ops: unary math and activations, binary arithmetic and comparisons, clamp, where, masked_fill."""
import math

import torch

from ..._report import unsupported
from ..pir_writer import (
    _DTYPES, _operand, _FLOATS, _Sym, _api, _f, _is_value, _out, _register, a_bool, a_dtype, a_f32, a_f64,
    a_place, pir)


_UNARY = {"relu": "relu", "sigmoid": "sigmoid", "tanh": "tanh", "exp": "exp", "log": "log", "sqrt": "sqrt",
          "rsqrt": "rsqrt", "abs": "abs", "sin": "sin", "cos": "cos", "erf": "erf", "floor": "floor",
          "ceil": "ceil", "silu": "silu", "hardswish": "hardswish", "logical_not": "logical_not",
          "bitwise_not": "bitwise_not", "square": "square", "reciprocal": "reciprocal", "sign": "sign",
          "log1p": "log1p", "expm1": "expm1", "isnan": "isnan", "isinf": "isinf", "isfinite": "isfinite",
          "round": "round", "relu6": "relu6", "log2": "log2", "log10": "log10", "tan": "tan", "asin": "asin",
          "acos": "acos", "atan": "atan", "sinh": "sinh", "cosh": "cosh", "trunc": "trunc",
          "log_sigmoid": "logsigmoid", "asinh": "asinh", "acosh": "acosh", "atanh": "atanh", "erfinv": "erfinv",
          "digamma": "digamma", "lgamma": "lgamma", "mish": "mish"}


def _unary(pd):
    def lower(w, node, args):
        x = args[0]
        t = _out(node)
        attrs = [("lambda", a_f32(20.0))] if pd == "mish" else []  # Paddle's mish: softplus linear above 20
        return w.op1(pd, [w.cast(x, t[0]) if pd not in ("isnan", "isinf", "isfinite", "logical_not") else x], attrs,
                     t)
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


@pir(torch.ops.aten.nan_to_num.default)
def _nan_to_num(w, node, args):
    """As Paddle's nan_to_num writes it: `where` against full_like constants for NaN, +inf and -inf (the shim's
    argmax / argmin pass NaN over this way, which Paddle's own ops do inside)."""
    x, t = args[0], _out(node)
    info = torch.finfo(node.meta["val"].dtype)
    values = [node.kwargs.get(k, args[i] if len(args) > i else None) for i, k in ((1, "nan"), (2, "posinf"),
                                                                                   (3, "neginf"))]
    nan, posinf, neginf = [d if v is None else v for v, d in zip(values, (0.0, info.max, info.min))]

    def like(v):
        return w.op1("full_like", [x, w.full([1], v, t[0])], [("dtype", a_dtype(t[0])), ("place", a_place(0))], t,
                     sg=[True])
    keep = ("bool", t[1])
    y = w.op1("where", [w.op1("equal", [x, x], [], keep), x, like(nan)], [], t)
    y = w.op1("where", [w.op1("not_equal", [y, like(math.inf)], [], keep), y, like(posinf)], [], t)
    return w.op1("where", [w.op1("not_equal", [y, like(-math.inf)], [], keep), y, like(neginf)], [], t)


def _swiglu(w, node, args):
    """paddle_on_torch's fused swiglu(x, y) (PaddleNLP's LLaMA MLP): silu(x) * y, written as those two ops, which
    every Paddle build runs (Paddle's own program has its fused swiglu op)."""
    x, y = args[0], args[1]
    t = _out(node)
    return w.op1("multiply", [w.op1("silu", [w.cast(x, t[0])], [], t), w.cast(y, t[0])], [], t)


try:  # the op exists once its kernel module is imported
    from ...kernels import swiglu as _swiglu_kernel  # noqa: F401

    _register_custom = torch.ops.paddle_on_torch.swiglu.default
    pir(_register_custom)(_swiglu)
except (ImportError, AttributeError, RuntimeError):
    pass
