"""The lowering table: PIR op name -> torch.

Each entry is `fn(b, op, ins)`: `b` the Builder, `op` the program Op (attributes in op.attrs), `ins`
its input values; it returns the op's outputs (one value, or a list in output order; outputs a
lowering does not produce are None and may not be used downstream).  Run-time helpers (the `_rt_*`
functions) hold Paddle semantics that need the input's actual sizes; they are plain torch code, so
the graph runs eagerly, under torch.compile and through torch.export alike.
"""
import math
import operator

import torch
import torch.nn.functional as F

from .builder import Sym, torch_dtype
from ..._report import unsupported

TABLE = {}


def lowering(*names):
    def deco(fn):
        for n in names:
            TABLE[n] = fn
        return fn
    return deco


def _a(op, name, default=None):
    v = op.attrs.get(name, default)
    return default if v is None else v


# ===================================================================== elementwise
_UNARY = {
    "relu": torch.relu, "relu6": F.relu6, "sigmoid": torch.sigmoid, "tanh": torch.tanh, "exp": torch.exp,
    "log": torch.log, "sqrt": torch.sqrt, "rsqrt": torch.rsqrt, "abs": torch.abs, "silu": F.silu, "swish": F.silu,
    "hardswish": F.hardswish, "floor": torch.floor, "ceil": torch.ceil, "round": torch.round, "sin": torch.sin,
    "cos": torch.cos, "erf": torch.erf, "square": torch.square, "reciprocal": torch.reciprocal, "sign": torch.sign,
    "logical_not": torch.logical_not, "bitwise_not": torch.bitwise_not, "mish": F.mish, "softsign": F.softsign,
    "tanh_shrink": F.tanhshrink, "logsigmoid": F.logsigmoid, "log1p": torch.log1p, "expm1": torch.expm1,
    "isnan": torch.isnan, "isinf": torch.isinf, "isfinite": torch.isfinite, "neg": torch.neg,
}
for _n, _f in _UNARY.items():
    TABLE[f"pd_op.{_n}"] = (lambda f: lambda b, op, ins: b.call(f, ins[0]))(_f)


def _rt_div(x, y):
    if not x.is_floating_point() and not x.is_complex() and not y.is_floating_point():
        return torch.div(x, y, rounding_mode="trunc")
    return torch.div(x, y)


_BINARY = {"add": torch.add, "subtract": torch.sub, "multiply": torch.mul, "divide": _rt_div,
           "floor_divide": torch.floor_divide, "maximum": torch.maximum, "minimum": torch.minimum,
           "elementwise_pow": torch.pow, "remainder": torch.remainder, "fmax": torch.fmax, "fmin": torch.fmin,
           "equal": torch.eq, "not_equal": torch.ne, "greater_than": torch.gt, "greater_equal": torch.ge,
           "less_than": torch.lt, "less_equal": torch.le, "logical_and": torch.logical_and,
           "logical_or": torch.logical_or, "logical_xor": torch.logical_xor, "bitwise_and": torch.bitwise_and,
           "bitwise_or": torch.bitwise_or, "atan2": torch.atan2}
_SYM_OPS = {"add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
            "floor_divide": operator.floordiv}


def _is_int_const(v):
    return isinstance(v, torch.Tensor) and not v.is_floating_point() and v.dim() <= 1 and v.numel() >= 1


for _n, _f in _BINARY.items():
    def _make(name, f):
        def lower(b, op, ins):
            x, y = ins
            if name in _SYM_OPS and (isinstance(x, Sym) or isinstance(y, Sym)) and \
                    all(isinstance(v, Sym) or _is_int_const(v) for v in (x, y)):
                return b.sym_binary(x, y, _SYM_OPS[name])
            return b.call(f, b.tensor(x), b.tensor(y))
        return lower
    TABLE[f"pd_op.{_n}"] = _make(_n, _f)


@lowering("pd_op.gelu")
def _gelu(b, op, ins):
    return b.call(F.gelu, ins[0], approximate="tanh" if _a(op, "approximate", False) else "none")


@lowering("pd_op.leaky_relu")
def _leaky(b, op, ins):
    return b.call(F.leaky_relu, ins[0], float(_a(op, "negative_slope", 0.02)))


@lowering("pd_op.elu")
def _elu(b, op, ins):
    return b.call(F.elu, ins[0], float(_a(op, "alpha", 1.0)))


def _rt_hardsigmoid(x, slope, offset):
    return torch.clamp(x * slope + offset, 0.0, 1.0)


@lowering("pd_op.hardsigmoid")
def _hardsigmoid(b, op, ins):
    return b.call(_rt_hardsigmoid, ins[0], float(_a(op, "slope", 0.2)), float(_a(op, "offset", 0.5)))


@lowering("pd_op.softplus")
def _softplus(b, op, ins):
    return b.call(F.softplus, ins[0], float(_a(op, "beta", 1.0)), float(_a(op, "threshold", 20.0)))


@lowering("pd_op.pow")
def _pow(b, op, ins):
    return b.call(torch.pow, ins[0], float(_a(op, "y", 1.0)))


def _rt_clip(x, lo, hi):
    return torch.clamp(x, lo, hi).to(x.dtype)  # Paddle's clip keeps x's dtype (an int64 index under float bounds)


@lowering("pd_op.clip")
def _clip(b, op, ins):
    return b.call(_rt_clip, ins[0], b.scalar(ins[1]), b.scalar(ins[2]))


def _rt_scale(x, s, bias, after):
    out = x * s + bias if after else (x + bias) * s
    return out.to(x.dtype)


@lowering("pd_op.scale")
def _scale(b, op, ins):
    x, s = ins[0], b.scalar(ins[1]) if len(ins) > 1 and ins[1] is not None else _a(op, "scale", 1.0)
    bias, after = float(_a(op, "bias", 0.0)), bool(_a(op, "bias_after_scale", True))
    if isinstance(x, Sym) and isinstance(s, (int, float)) and float(s).is_integer() and float(bias).is_integer():
        s, bias = int(s), int(bias)
        if after:
            return b.sym_binary(b.sym_binary(x, s, operator.mul), bias, operator.add)
        return b.sym_binary(b.sym_binary(x, bias, operator.add), s, operator.mul)
    return b.call(_rt_scale, b.tensor(x), s, bias, after)


def _rt_cast(x, dtype):
    return x.to(dtype)


@lowering("pd_op.cast")
def _cast(b, op, ins):
    dt = torch_dtype(op.attrs["dtype"])
    x = ins[0]
    if isinstance(x, Sym) and not dt.is_floating_point and dt is not torch.bool:
        return Sym(x.elems, dt, x.scalar)
    return b.call(_rt_cast, b.tensor(x), dt)


@lowering("pd_op.softmax")
def _softmax(b, op, ins):
    return b.call(torch.softmax, ins[0], int(_a(op, "axis", -1)))


@lowering("pd_op.log_softmax")
def _log_softmax(b, op, ins):
    return b.call(torch.log_softmax, ins[0], int(_a(op, "axis", -1)))


@lowering("pd_op.where")
def _where(b, op, ins):
    return b.call(torch.where, b.tensor(ins[0]), b.tensor(ins[1]), b.tensor(ins[2]))


@lowering("pd_op.assign", "pd_op.dropout_nd_infer", "pd_op.identity_loss")
def _identity(b, op, ins):
    return ins[0]


def _rt_dropout_infer(x, p):
    return x * (1.0 - p)


@lowering("pd_op.dropout")
def _dropout(b, op, ins):
    if not _a(op, "is_test", True):
        return [ins[0], None]
    if _a(op, "mode", "upscale_in_train") == "upscale_in_train":
        return [ins[0], None]
    p = b.scalar(ins[2]) if len(ins) > 2 and ins[2] is not None else float(_a(op, "p", 0.5))
    return [b.call(_rt_dropout_infer, ins[0], p), None]


# ===================================================================== creation and shapes
@lowering("pd_op.full")
def _full(b, op, ins):
    return torch.full([int(d) for d in _a(op, "shape", [])], _a(op, "value", 0.0),
                      dtype=torch_dtype(_a(op, "dtype", "float32")))


@lowering("pd_op.full_int_array")
def _full_int_array(b, op, ins):
    return torch.tensor([int(v) for v in _a(op, "value", [])], dtype=torch_dtype(_a(op, "dtype", "int64")))


@lowering("pd_op.assign_value", "pd_op.assign_value_")
def _assign_value(b, op, ins):
    dt = torch_dtype(_a(op, "dtype", "float32"))
    return torch.tensor(_a(op, "values", []), dtype=torch.float64).to(dt).reshape([int(d) for d in _a(op, "shape")])


@lowering("pd_op.full_like")
def _full_like(b, op, ins):
    return b.call(torch.full_like, b.tensor(ins[0]), b.scalar(ins[1]), dtype=torch_dtype(_a(op, "dtype")))


@lowering("pd_op.full_with_tensor")
def _full_with_tensor(b, op, ins):
    return b.call(torch.full, b.ints(ins[1]), b.scalar(ins[0]), dtype=torch_dtype(_a(op, "dtype", "float32")))


@lowering("pd_op.arange")
def _arange(b, op, ins):
    return b.call(torch.arange, b.scalar(ins[0]), b.scalar(ins[1]), b.scalar(ins[2]),
                  dtype=torch_dtype(_a(op, "dtype", "int64")))


@lowering("pd_op.shape64", "pd_op.shape")
def _shape(b, op, ins):
    x = ins[0]
    dt = torch.int64 if op.type.endswith("64") else torch.int32
    if isinstance(x, Sym):
        return Sym([len(x.elems)] if not x.scalar else [], dt)
    if isinstance(x, torch.Tensor):
        return Sym(list(x.shape), dt)
    rank = b.rank(op.inputs[0])
    return Sym([b.size(x, i, op.inputs[0]) for i in range(rank)], dt)


@lowering("builtin.combine")
def _combine(b, op, ins):
    return list(ins)


@lowering("builtin.split")
def _bsplit(b, op, ins):
    return list(ins[0])


@lowering("builtin.slice")
def _bslice(b, op, ins):
    return ins[0][int(op.attrs["index"])]


def _all_shapeish(vals):
    return all(isinstance(v, Sym) or _is_int_const(v) or (isinstance(v, torch.Tensor) and v.dim() == 0
                                                         and not v.is_floating_point()) for v in vals)


def _as_sym(v):
    if isinstance(v, Sym):
        return v
    return Sym([int(x) for x in v.reshape([-1]).tolist()], v.dtype, v.dim() == 0)


@lowering("pd_op.stack")
def _stack(b, op, ins):
    vals, axis = ins[0], int(_a(op, "axis", 0))
    if axis == 0 and vals and _all_shapeish(vals) and any(isinstance(v, Sym) for v in vals) and \
            all(_as_sym(v).scalar for v in vals):
        return Sym([e for v in vals for e in _as_sym(v).elems], _as_sym(vals[0]).dtype)
    return b.call(torch.stack, [b.tensor(v) for v in vals], axis)


@lowering("pd_op.concat")
def _concat(b, op, ins):
    vals, axis = ins[0], int(b.scalar(ins[1])) if len(ins) > 1 and ins[1] is not None else int(_a(op, "axis", 0))
    if vals and _all_shapeish(vals) and any(isinstance(v, Sym) for v in vals) and \
            all(not _as_sym(v).scalar for v in vals):
        return Sym([e for v in vals for e in _as_sym(v).elems], _as_sym(vals[0]).dtype)
    return b.call(torch.cat, [b.tensor(v) for v in vals], axis)


def _rt_reshape(x, shape):
    # Paddle: 0 copies the input's dimension at that position
    shape = [x.shape[i] if isinstance(d, int) and d == 0 else d for i, d in enumerate(shape)]
    return torch.reshape(x, shape)


@lowering("pd_op.reshape")
def _reshape(b, op, ins):
    x, shape = ins[0], b.ints(ins[1])
    if isinstance(shape, list):
        shape = [b.size(x, i, op.inputs[0]) if isinstance(d, int) and d == 0 else d for i, d in enumerate(shape)]
    if isinstance(x, Sym):
        x = b.tensor(x)
    return [b.call(_rt_reshape, x, shape), None]


@lowering("pd_op.transpose")
def _transpose(b, op, ins):
    return b.call(torch.permute, b.tensor(ins[0]), [int(p) for p in op.attrs["perm"]])


@lowering("pd_op.flatten")
def _flatten(b, op, ins):
    x = ins[0]
    if b.rank(op.inputs[0], x) == 0:
        return [b.call(torch.reshape, x, [1]), None]
    return [b.call(torch.flatten, x, int(_a(op, "start_axis", 1)), int(_a(op, "stop_axis", -1))), None]


def _rt_squeeze(x, axes):
    if not axes:
        return torch.squeeze(x)
    axes = [a % x.dim() for a in axes] if x.dim() else []
    return torch.squeeze(x, [a for a in axes if x.shape[a] == 1]) if axes else x


@lowering("pd_op.squeeze")
def _squeeze(b, op, ins):
    x, axes = ins[0], b.ints(ins[1]) if len(ins) > 1 and ins[1] is not None else list(_a(op, "axes", []))
    if isinstance(x, Sym) and x.scalar is False and len(x.elems) == 1:
        return [Sym(x.elems, x.dtype, True), None]
    return [b.call(_rt_squeeze, b.tensor(x), axes), None]


def _rt_unsqueeze(x, axes):
    for a in axes:
        x = torch.unsqueeze(x, a if a >= 0 else a + x.dim() + 1)
    return x


@lowering("pd_op.unsqueeze")
def _unsqueeze(b, op, ins):
    x, axes = ins[0], b.ints(ins[1]) if len(ins) > 1 and ins[1] is not None else list(_a(op, "axes", []))
    if isinstance(x, Sym) and x.scalar and axes in ([0], [-1]):
        return [Sym(x.elems, x.dtype, False), None]
    return [b.call(_rt_unsqueeze, b.tensor(x), axes), None]


def _rt_slice(x, axes, starts, ends, steps, decrease):
    idx = [slice(None)] * x.dim()
    flips = []
    for a, s, e, st in zip(axes, starts, ends, steps):
        if st < 0:  # torch has no negative steps: slice the flipped tensor
            n = x.shape[a]
            s = s + n if s < 0 else s
            e = e + n if e < 0 else e
            s, e = min(s, n - 1), max(e, -1)
            flips.append(a)
            idx[a] = slice(n - 1 - s, n - 1 - e, -st)
        else:
            idx[a] = slice(s, e, st)
    if flips:
        x = torch.flip(x, flips)
    out = x[tuple(idx)]
    if decrease:
        out = torch.squeeze(out, [int(d) for d in decrease])
    return out


def _slice_like(b, op, ins, steps):
    x, axes = ins[0], [int(a) for a in op.attrs["axes"]]
    starts, ends = b.ints(ins[1]), b.ints(ins[2])
    decrease = [int(d) for d in _a(op, "decrease_axis", [])]
    if isinstance(x, Sym) and axes == [0] and all(isinstance(v, int) for v in starts + ends + steps):
        elems = x.elems[slice(starts[0], ends[0], steps[0])]
        return Sym(elems, x.dtype, bool(decrease) and len(elems) == 1)
    return b.call(_rt_slice, b.tensor(x), axes, starts, ends, steps, decrease)


@lowering("pd_op.slice")
def _slice(b, op, ins):
    return _slice_like(b, op, ins, [1] * len(op.attrs["axes"]))


@lowering("pd_op.strided_slice")
def _strided_slice(b, op, ins):
    return _slice_like(b, op, ins, b.ints(ins[3]))


def _rt_split(x, sections, axis):
    if -1 in sections:
        known = sum(s for s in sections if s != -1)
        sections = [x.shape[axis] - known if s == -1 else s for s in sections]
    return list(torch.split(x, sections, axis))


@lowering("pd_op.split")
def _split(b, op, ins):
    n = len(b.program.types.get(op.outputs[0]) or [])
    out = b.call(_rt_split, b.tensor(ins[0]), b.ints(ins[1]), int(b.scalar(ins[2])))
    return [[b.item(out, i) for i in range(n)]]


@lowering("pd_op.split_with_num")
def _split_with_num(b, op, ins):
    num = int(op.attrs["num"])
    out = b.call(torch.chunk, b.tensor(ins[0]), num, int(b.scalar(ins[1])))
    return [[b.item(out, i) for i in range(num)]]


def _rt_expand(x, shape):
    return x.expand(shape)


def _rt_expand_as(x, y):
    return x.expand_as(y)


@lowering("pd_op.expand")
def _expand(b, op, ins):
    return b.call(_rt_expand, b.tensor(ins[0]), b.ints(ins[1]))


@lowering("pd_op.expand_as")
def _expand_as(b, op, ins):
    return b.call(_rt_expand_as, ins[0], ins[1])


@lowering("pd_op.tile")
def _tile(b, op, ins):
    return b.call(torch.tile, ins[0], b.ints(ins[1]))


@lowering("pd_op.repeat_interleave")
def _repeat_interleave(b, op, ins):
    return b.call(torch.repeat_interleave, ins[0], int(op.attrs["repeats"]), int(_a(op, "axis", 0)))


@lowering("pd_op.roll")
def _roll(b, op, ins):
    return b.call(torch.roll, ins[0], b.ints(ins[1]), [int(a) for a in _a(op, "axis", [])])


@lowering("pd_op.tril")
def _tril(b, op, ins):
    return b.call(torch.tril, ins[0], int(_a(op, "diagonal", 0)))


@lowering("pd_op.triu")
def _triu(b, op, ins):
    return b.call(torch.triu, ins[0], int(_a(op, "diagonal", 0)))


def _rt_gather(x, index, axis):
    if index.dim() == 0:
        return torch.select(x, axis, index)
    return torch.index_select(x, axis, index.reshape([-1]))


@lowering("pd_op.gather")
def _gather(b, op, ins):
    axis = int(b.scalar(ins[2])) if len(ins) > 2 and ins[2] is not None else int(_a(op, "axis", 0))
    return b.call(_rt_gather, b.tensor(ins[0]), b.tensor(ins[1]), axis)


@lowering("pd_op.index_select")
def _index_select(b, op, ins):
    return b.call(torch.index_select, ins[0], int(_a(op, "axis", 0)), ins[1])


def _rt_gather_nd(x, index):
    idx = tuple(index[..., i] for i in range(index.shape[-1]))
    return x[idx]


@lowering("pd_op.gather_nd")
def _gather_nd(b, op, ins):
    return b.call(_rt_gather_nd, ins[0], ins[1])


def _rt_embedding(ids, weight, padding_idx):
    out = F.embedding(ids, weight)
    if padding_idx >= 0:  # Paddle's kernel writes zeros for the padding id, whatever the weight row holds
        out = out * (ids != padding_idx).unsqueeze(-1).to(out.dtype)
    return out


@lowering("pd_op.embedding")
def _embedding(b, op, ins):
    pad = int(_a(op, "padding_idx", -1))
    return b.call(_rt_embedding, ins[0], ins[1], pad)


def _rt_one_hot(x, depth):
    return F.one_hot(x.long(), depth).to(torch.float32)


@lowering("pd_op.one_hot")
def _one_hot(b, op, ins):
    return b.call(_rt_one_hot, ins[0], int(b.scalar(ins[1])))


# ===================================================================== reductions / search
def _reduce_axes(b, v):
    axes = b.ints(v) if v is not None else []
    return axes


def _rt_reduce(fn, x, axes, keepdim, dtype=None):
    dims = list(range(x.dim())) if not axes else [a % max(x.dim(), 1) for a in axes]
    if not dims:
        return x.clone()
    if fn in ("sum", "mean", "prod"):
        if fn == "prod":
            out = x
            for d in sorted(dims, reverse=True):
                out = torch.prod(out, d, keepdim=keepdim)
            return out if dtype is None else out.to(dtype)
        if fn == "sum" and dtype is None and (x.dtype == torch.bool or not (x.is_floating_point() or x.is_complex())):
            dtype = torch.int64
        return getattr(torch, fn)(x, dims, keepdim=keepdim, dtype=dtype)
    return getattr(torch, fn)(x, dims, keepdim=keepdim)


for _n, _fn in (("sum", "sum"), ("mean", "mean"), ("max", "amax"), ("min", "amin"), ("prod", "prod"),
                ("all", "all"), ("any", "any"), ("logsumexp", "logsumexp")):
    def _make_reduce(name, fn):
        def lower(b, op, ins):
            axes = _reduce_axes(b, ins[1]) if len(ins) > 1 else [int(a) for a in _a(op, "axis", [])]
            if _a(op, "reduce_all", False):
                axes = []
            dt = op.attrs.get("dtype")
            dt = torch_dtype(dt) if isinstance(dt, str) and not dt.startswith("Undefined") else None
            return b.call(_rt_reduce, fn, ins[0], axes, bool(_a(op, "keepdim", False)), dt)
        return lower
    TABLE[f"pd_op.{_n}"] = _make_reduce(_n, _fn)


def _rt_arg(name, x, axis, keepdim, flatten, dtype):
    fn = getattr(torch, name)
    if flatten:
        out = fn(x.reshape([-1]), 0)
        return (out.reshape([1] * x.dim()) if keepdim else out).to(dtype)
    return fn(x, axis, keepdim=keepdim).to(dtype)


@lowering("pd_op.argmax", "pd_op.argmin")
def _argmax(b, op, ins):
    fn = "argmax" if op.type.endswith("argmax") else "argmin"
    return b.call(_rt_arg, fn, ins[0], int(b.scalar(ins[1])), bool(_a(op, "keepdims", False)),
                  bool(_a(op, "flatten", False)), torch_dtype(_a(op, "dtype", "int64")))


@lowering("pd_op.topk")
def _topk(b, op, ins):
    k = int(b.scalar(ins[1])) if len(ins) > 1 and ins[1] is not None else int(_a(op, "k", 1))
    out = b.call(torch.topk, ins[0], k, int(_a(op, "axis", -1)), bool(_a(op, "largest", True)),
                 bool(_a(op, "sorted", True)))
    return [b.item(out, 0), b.item(out, 1)]


@lowering("pd_op.argsort")
def _argsort(b, op, ins):
    out = b.call(torch.sort, ins[0], dim=int(_a(op, "axis", -1)), descending=bool(_a(op, "descending", False)),
                 stable=True)
    return [b.item(out, 0), b.item(out, 1)]


def _rt_cumsum(x, axis, flatten, exclusive, reverse):
    if flatten:
        x, axis = x.reshape([-1]), 0
    if reverse:
        x = torch.flip(x, [axis])
    out = torch.cumsum(x, axis)
    if exclusive:
        out = out - x
    return torch.flip(out, [axis]) if reverse else out


@lowering("pd_op.cumsum")
def _cumsum(b, op, ins):
    axis = int(b.scalar(ins[1])) if len(ins) > 1 and ins[1] is not None else int(_a(op, "axis", -1))
    return b.call(_rt_cumsum, ins[0], axis, bool(_a(op, "flatten", False)), bool(_a(op, "exclusive", False)),
                  bool(_a(op, "reverse", False)))


@lowering("pd_op.einsum")
def _einsum(b, op, ins):
    return [b.call(torch.einsum, op.attrs["equation"], [b.tensor(v) for v in ins[0]]), None, None]


def _rt_masked_fill(x, mask, value):
    return torch.where(mask, value.to(x.dtype) if isinstance(value, torch.Tensor) else value, x)


@lowering("pd_op.masked_fill")
def _masked_fill(b, op, ins):
    return b.call(_rt_masked_fill, ins[0], ins[1], b.tensor(ins[2]))


@lowering("pd_op.take_along_axis")
def _take_along_axis(b, op, ins):
    return b.call(torch.take_along_dim, ins[0], ins[1], int(_a(op, "axis", 0)))


def _rt_set_value(x, value, axes, starts, ends, steps, decrease, none_axes):
    if none_axes:
        raise unsupported("pd_op.set_value", " with None (new) axes")
    idx = [slice(None)] * x.dim()
    for a, s, e, st in zip(axes, starts, ends, steps):
        if st <= 0:
            raise unsupported("pd_op.set_value", " with a non-positive step")
        idx[a] = slice(s, e, st)
    out = x.clone()
    target = out[tuple(idx)]
    value = value.to(x.dtype)
    if decrease and value.dim() == target.dim() - len(decrease):  # the value omits the decreased axes
        for a in sorted(decrease):
            value = value.unsqueeze(a)
    out[tuple(idx)] = value.expand_as(target) if value.dim() <= target.dim() else value.reshape(target.shape)
    return out


@lowering("pd_op.set_value", "pd_op.set_value_with_tensor")
def _set_value(b, op, ins):
    if op.type.endswith("with_tensor"):
        x, value, rest = ins[0], b.tensor(ins[1]), ins[2:]
    else:
        x, rest = ins[0], ins[1:]
        shape = [int(d) for d in _a(op, "shape", [])]
        value = torch.tensor(_a(op, "values", []), dtype=torch.float64).reshape(shape)
    return b.call(_rt_set_value, x, value, [int(a) for a in op.attrs["axes"]], b.ints(rest[0]), b.ints(rest[1]),
                  b.ints(rest[2]), [int(a) for a in _a(op, "decrease_axes", [])],
                  [int(a) for a in _a(op, "none_axes", [])])


# ===================================================================== linear algebra
def _rt_matmul(x, y, tx, ty):
    if tx and x.dim() > 1:
        x = x.transpose(-1, -2)
    if ty and y.dim() > 1:
        y = y.transpose(-1, -2)
    return torch.matmul(x, y)


@lowering("pd_op.matmul")
def _matmul(b, op, ins):
    return b.call(_rt_matmul, ins[0], ins[1], bool(_a(op, "transpose_x", False)), bool(_a(op, "transpose_y", False)))


def _rt_legacy_mul(x, y, xd, yd):
    x2 = x.reshape([math.prod(x.shape[:xd]), -1])
    y2 = y.reshape([math.prod(y.shape[:yd]), -1])
    return torch.matmul(x2, y2).reshape(list(x.shape[:xd]) + list(y.shape[yd:]))


@lowering("legacy.mul")
def _legacy_mul(b, op, ins):
    return b.call(_rt_legacy_mul, ins[0], ins[1], int(op.attrs["x_num_col_dims"]), int(op.attrs["y_num_col_dims"]))


def _rt_legacy_flatten2(x, axis):
    return x.reshape([math.prod(x.shape[:axis]), -1])


@lowering("legacy.flatten2")
def _legacy_flatten2(b, op, ins):
    return b.call(_rt_legacy_flatten2, ins[0], int(op.attrs["axis"]))


def _rt_full_batch_size_like(x, shape, value, dtype, in_idx, out_idx):
    shape = list(shape)
    shape[out_idx] = x.shape[in_idx]
    return torch.full(shape, value, dtype=dtype)


@lowering("legacy.fill_constant_batch_size_like")
def _full_batch_size_like(b, op, ins):
    a = op.attrs
    value = float(a["str_value"]) if a.get("str_value") else float(a.get("value", 0.0))
    return b.call(_rt_full_batch_size_like, ins[0], [int(d) for d in a["shape"]], value, torch_dtype(a.get("dtype")),
                  int(a.get("input_dim_idx", 0)), int(a.get("output_dim_idx", 0)))


def _rt_add_n(xs):
    out = xs[0]
    for x in xs[1:]:
        out = out + x
    return out


@lowering("pd_op.add_n")
def _add_n(b, op, ins):
    return b.call(_rt_add_n, [b.tensor(v) for v in ins[0]])


@lowering("pd_op.unbind")
def _unbind(b, op, ins):
    n = len(b.program.types.get(op.outputs[0]) or [])
    out = b.call(torch.unbind, ins[0], int(_a(op, "axis", 0)))
    return [[b.item(out, i) for i in range(n)]]


@lowering("pd_op.bmm")
def _bmm(b, op, ins):
    return b.call(torch.bmm, ins[0], ins[1])


# ===================================================================== convolution, pooling, normalisation
def _pads(paddings, nd):
    """Paddle paddings (nd symmetric values or 2*nd [before, after] pairs) -> torch F.pad order."""
    p = [int(v) for v in paddings]
    if len(p) == nd:
        p = [v for v in p for _ in range(2)]
    out = []
    for i in reversed(range(nd)):
        out += [p[2 * i], p[2 * i + 1]]
    return out


def _rt_same_pads(x, kernel, strides, dilations):
    pads = []
    for i, (k, s, d) in enumerate(zip(kernel, strides, dilations)):
        n = x.shape[2 + i]
        out = (n + s - 1) // s
        total = max((out - 1) * s + (k - 1) * d + 1 - n, 0)
        pads.append((total // 2, total - total // 2))
    return [v for pair in reversed(pads) for v in pair]


def _rt_conv(x, w, bias, strides, paddings, dilations, groups, algo, channels_last, nd):
    if nd in (2, 3) and x.dim() not in (4, 5):  # Paddle's check (torch's conv would take an unbatched input)
        raise ValueError(f"(InvalidArgument) The input of Op(Conv) should be a 4-D or 5-D Tensor. But received: "
                         f"input's dimension is {x.dim()}, input's shape is {list(x.shape)}.")
    if channels_last:
        x = torch.movedim(x, -1, 1)
    if algo == "VALID":
        paddings = [0] * nd
    if algo == "SAME":
        x = F.pad(x, _rt_same_pads(x, w.shape[2:], strides, dilations))
        pad = 0
    else:
        p = _pads(paddings, nd)
        if all(p[2 * i] == p[2 * i + 1] for i in range(nd)):
            pad = [p[2 * (nd - 1 - i)] for i in range(nd)]
        else:
            x, pad = F.pad(x, p), 0
    conv = F.conv2d if nd == 2 else F.conv3d if nd == 3 else F.conv1d
    out = conv(x, w, bias, strides, pad, dilations, groups)
    return torch.movedim(out, 1, -1) if channels_last else out


@lowering("pd_op.conv2d", "pd_op.depthwise_conv2d", "pd_op.conv3d")
def _conv(b, op, ins):
    nd = 3 if op.type.endswith("3d") else 2
    bias = ins[2] if len(ins) > 2 else None
    return b.call(_rt_conv, ins[0], ins[1], bias, [int(s) for s in op.attrs["strides"]],
                  [int(p) for p in op.attrs["paddings"]], [int(d) for d in op.attrs["dilations"]],
                  int(_a(op, "groups", 1)), _a(op, "padding_algorithm", "EXPLICIT"),
                  _a(op, "data_format", "NCHW") in ("NHWC", "NDHWC"), nd)


def _rt_conv_transpose(x, w, strides, paddings, output_padding, output_size, dilations, groups, algo,
                       channels_last):
    if channels_last:
        x = torch.movedim(x, -1, 1)
    nd = x.dim() - 2
    ks = [(w.shape[2 + i] - 1) * dilations[i] + 1 for i in range(nd)]
    if algo == "SAME":  # Paddle pads the input side as a SAME conv would (the extra one at the end)
        pads = []
        for i in range(nd):
            n, st = x.shape[2 + i], strides[i]
            total = max(((n + st - 1) // st - 1) * st + ks[i] - n, 0)
            pads.append((total // 2, total - total // 2))
    elif algo == "VALID":
        pads = [(0, 0)] * nd
    else:
        p = [int(v) for v in paddings]
        pads = [(v, v) for v in p] if len(p) == nd else [(p[2 * i], p[2 * i + 1]) for i in range(nd)]
    opad = list(output_padding) if output_padding else [0] * nd
    if output_size:
        for i in range(nd):
            base = (x.shape[2 + i] - 1) * strides[i] - pads[i][0] - pads[i][1] + ks[i]
            opad[i] = int(output_size[i]) - base
    conv = F.conv_transpose2d if nd == 2 else F.conv_transpose3d if nd == 3 else F.conv_transpose1d
    if all(a == b for a, b in pads):
        out = conv(x, w, None, strides, [a for a, _ in pads], opad, groups, dilations)
    else:  # asymmetric: transpose without padding, then crop each side
        out = conv(x, w, None, strides, 0, opad, groups, dilations)
        idx = [slice(None), slice(None)] + [slice(a, out.shape[2 + i] - b) for i, (a, b) in enumerate(pads)]
        out = out[tuple(idx)]
    return torch.movedim(out, 1, -1) if channels_last else out


@lowering("pd_op.conv2d_transpose", "pd_op.depthwise_conv2d_transpose", "pd_op.conv3d_transpose")
def _conv_transpose(b, op, ins):
    osize = b.ints(ins[2]) if len(ins) > 2 and ins[2] is not None else list(_a(op, "output_size", []))
    return b.call(_rt_conv_transpose, ins[0], ins[1], [int(s) for s in op.attrs["strides"]],
                  [int(p) for p in op.attrs["paddings"]], [int(v) for v in _a(op, "output_padding", [])], osize,
                  [int(d) for d in op.attrs["dilations"]], int(_a(op, "groups", 1)),
                  _a(op, "padding_algorithm", "EXPLICIT"), _a(op, "data_format", "NCHW") in ("NHWC", "NDHWC"))


def _rt_pool(x, kernel, kind, strides, paddings, ceil_mode, exclusive, global_pooling, adaptive, algo,
             channels_last):
    if channels_last:
        x = torch.movedim(x, -1, 1)
    nd = x.dim() - 2
    if global_pooling:
        out = torch.amax(x, list(range(2, x.dim())), keepdim=True) if kind == "max" else \
            torch.mean(x, list(range(2, x.dim())), keepdim=True)
    elif adaptive:
        fn = {("max", 2): F.adaptive_max_pool2d, ("avg", 2): F.adaptive_avg_pool2d,
              ("max", 1): F.adaptive_max_pool1d, ("avg", 1): F.adaptive_avg_pool1d,
              ("max", 3): F.adaptive_max_pool3d, ("avg", 3): F.adaptive_avg_pool3d}[(kind, nd)]
        out = fn(x, list(kernel))
    else:
        if algo == "SAME":
            p = _rt_same_pads(x, kernel, strides, [1] * nd)
        elif algo == "VALID":
            p = [0] * (2 * nd)
        else:
            p = _pads(paddings, nd)
        sym = all(p[2 * i] == p[2 * i + 1] for i in range(nd)) and all(
            p[2 * i] * 2 <= kernel[nd - 1 - i] for i in range(nd))
        if sym:
            pad = [p[2 * (nd - 1 - i)] for i in range(nd)]
        else:
            x = F.pad(x, p, value=-math.inf if kind == "max" else 0.0)
            pad = [0] * nd
        if kind == "max":
            fn = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}[nd]
            out = fn(x, list(kernel), list(strides), pad, 1, ceil_mode)
        else:
            fn = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}[nd]
            out = fn(x, list(kernel), list(strides), pad, ceil_mode, not exclusive)
    return torch.movedim(out, 1, -1) if channels_last else out


@lowering("pd_op.pool2d", "pd_op.pool3d")
def _pool(b, op, ins):
    kernel = b.ints(ins[1]) if len(ins) > 1 and ins[1] is not None else list(op.attrs["kernel_size"])
    return b.call(_rt_pool, ins[0], kernel, _a(op, "pooling_type", "max"), [int(s) for s in op.attrs["strides"]],
                  [int(p) for p in op.attrs["paddings"]], bool(_a(op, "ceil_mode", False)),
                  bool(_a(op, "exclusive", True)), bool(_a(op, "global_pooling", False)),
                  bool(_a(op, "adaptive", False)), _a(op, "padding_algorithm", "EXPLICIT"),
                  _a(op, "data_format", "NCHW") in ("NHWC", "NDHWC"))


def _rt_max_pool_with_index(x, kernel, strides, paddings, global_pooling, adaptive, ceil_mode):
    nd = x.dim() - 2
    if global_pooling:
        kernel, paddings = list(x.shape[2:]), [0] * nd
    if adaptive:
        fn = {1: F.adaptive_max_pool1d, 2: F.adaptive_max_pool2d, 3: F.adaptive_max_pool3d}[nd]
        out, idx = fn(x, list(kernel), return_indices=True)
    else:
        fn = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}[nd]
        out, idx = fn(x, list(kernel), list(strides), list(paddings)[:nd], 1, ceil_mode, return_indices=True)
    return out, idx.to(torch.int32)  # Paddle's mask: the flat index within each plane, int32


@lowering("pd_op.max_pool2d_with_index", "pd_op.max_pool3d_with_index")
def _max_pool_with_index(b, op, ins):
    out = b.call(_rt_max_pool_with_index, ins[0], [int(k) for k in op.attrs["kernel_size"]],
                 [int(s) for s in op.attrs["strides"]], [int(p) for p in op.attrs["paddings"]],
                 bool(_a(op, "global_pooling", False)), bool(_a(op, "adaptive", False)), bool(_a(op, "ceil_mode", False)))
    return [b.item(out, 0), b.item(out, 1)]


def _rt_batch_norm(x, mean, var, scale, bias, eps, channels_last):
    if channels_last:
        x = torch.movedim(x, -1, 1)
    out = F.batch_norm(x, mean.detach(), var.detach(), scale, bias, False, 0.0, eps)
    return torch.movedim(out, 1, -1) if channels_last else out


@lowering("pd_op.batch_norm", "pd_op.batch_norm_")
def _batch_norm(b, op, ins):
    x, mean, var, scale, bias = ins[:5]
    y = b.call(_rt_batch_norm, x, mean, var, scale, bias, float(_a(op, "epsilon", 1e-5)),
               _a(op, "data_format", "NCHW") in ("NHWC", "NDHWC"))
    return [y, None, None, None, None, None]


def _rt_layer_norm(x, scale, bias, eps, begin):
    shape = list(x.shape[begin:])
    w = scale.reshape(shape) if scale is not None else None
    bb = bias.reshape(shape) if bias is not None else None
    return F.layer_norm(x, shape, w, bb, eps)


@lowering("pd_op.layer_norm")
def _layer_norm(b, op, ins):
    y = b.call(_rt_layer_norm, ins[0], ins[1], ins[2], float(_a(op, "epsilon", 1e-5)),
               int(_a(op, "begin_norm_axis", 1)))
    return [y, None, None]


def _rt_group_norm(x, scale, bias, eps, groups, channels_last):
    if channels_last:
        x = torch.movedim(x, -1, 1)
    out = F.group_norm(x, groups, scale, bias, eps)
    return torch.movedim(out, 1, -1) if channels_last else out


@lowering("pd_op.group_norm")
def _group_norm(b, op, ins):
    y = b.call(_rt_group_norm, ins[0], ins[1], ins[2], float(_a(op, "epsilon", 1e-5)), int(op.attrs["groups"]),
               _a(op, "data_format", "NCHW") in ("NHWC", "NDHWC"))
    return [y, None, None]


@lowering("pd_op.instance_norm")
def _instance_norm(b, op, ins):
    y = b.call(F.instance_norm, ins[0], None, None, ins[1], ins[2], True, 0.0, float(_a(op, "epsilon", 1e-5)))
    return [y, None, None]


def _rt_pad3d(x, paddings, mode, value, channels_last):
    if channels_last:
        x = torch.movedim(x, -1, 1)
    out = F.pad(x, list(paddings), mode=mode, value=value if mode == "constant" else None)
    return torch.movedim(out, 1, -1) if channels_last else out


@lowering("pd_op.pad3d")
def _pad3d(b, op, ins):
    mode = {"reflect": "reflect", "replicate": "replicate", "circular": "circular"}.get(_a(op, "mode"), "constant")
    return b.call(_rt_pad3d, ins[0], b.ints(ins[1]), mode, float(_a(op, "pad_value", 0.0)),
                  _a(op, "data_format", "NCDHW") == "NDHWC")


def _rt_prelu(x, alpha, mode, channels_last):
    if mode == "channel":
        shape = [1] * x.dim()
        shape[-1 if channels_last else 1] = -1
        alpha = alpha.reshape(shape)
    elif mode == "element":
        alpha = alpha.reshape([1] + list(x.shape[1:]))
    return torch.where(x > 0, x, x * alpha)


@lowering("pd_op.prelu")
def _prelu(b, op, ins):
    return b.call(_rt_prelu, ins[0], ins[1], _a(op, "mode", "all"), _a(op, "data_format", "NCHW") == "NHWC")


# ===================================================================== interpolation
def _rt_interp(x, out_size, size_list, scale_t, out_hw, scale, method, align_corners, align_mode, channels_last):
    if channels_last:
        x = torch.movedim(x, -1, 1)
    nd = x.dim() - 2
    size, factor = None, None
    if out_size is not None:
        size = [int(v) for v in out_size]
    elif size_list is not None:
        size = [int(v) for v in size_list]
    elif scale_t is not None:
        factor = [float(v) for v in scale_t] * (nd if len(scale_t) == 1 else 1)
    elif all(v > 0 for v in out_hw[-nd:]):
        size = list(out_hw[-nd:])
    elif scale:
        factor = [float(v) for v in scale] * (nd if len(scale) == 1 else 1)
    mode = {"bilinear": "bilinear", "nearest": "nearest", "bicubic": "bicubic", "linear": "linear",
            "trilinear": "trilinear"}[method]
    if mode != "nearest" and not align_corners and align_mode == 1:
        raise unsupported(f"pd_op.{method}_interp", " with align_mode=1 (asymmetric source coordinates)")
    kwargs = {} if mode == "nearest" else {"align_corners": bool(align_corners)}
    if size is not None:
        out = F.interpolate(x, size=size, mode=mode, **kwargs)
    else:
        out = F.interpolate(x, scale_factor=factor, mode=mode, recompute_scale_factor=False, **kwargs)
    return torch.movedim(out, 1, -1) if channels_last else out


def _rt_float_list(t):
    return [float(v) for v in t.reshape([-1]).tolist()]


@lowering("pd_op.bilinear_interp", "pd_op.nearest_interp", "pd_op.bicubic_interp", "pd_op.linear_interp",
          "pd_op.trilinear_interp")
def _interp(b, op, ins):
    x = ins[0]
    out_size = b.ints(ins[1]) if len(ins) > 1 and ins[1] is not None else None
    size_list = b.ints(ins[2]) if len(ins) > 2 and ins[2] is not None else None
    scale_t = None
    if len(ins) > 3 and ins[3] is not None:
        s = ins[3]
        scale_t = [float(v) for v in s.reshape([-1]).tolist()] if isinstance(s, torch.Tensor) else \
            b.call(_rt_float_list, s)
    out_hw = [int(_a(op, k, -1)) for k in ("out_d", "out_h", "out_w")]
    return b.call(_rt_interp, x, out_size, size_list, scale_t, out_hw, [float(v) for v in _a(op, "scale", [])],
                  op.attrs.get("interp_method", op.type.split(".")[1].split("_")[0]), bool(_a(op, "align_corners")),
                  int(_a(op, "align_mode", 1)), _a(op, "data_format", "NCHW") in ("NHWC", "NDHWC"))


# ===================================================================== recurrent networks
def _rt_rnn(x, pre_state, weights, mode, num_layers, bidirec):
    dirs = 2 if bidirec else 1
    n = num_layers * dirs
    # Paddle: all weights (w_ih, w_hh per layer and direction) then all biases; torch: per layer/direction
    flat = []
    for k in range(n):
        flat += [weights[2 * k], weights[2 * k + 1], weights[2 * n + 2 * k], weights[2 * n + 2 * k + 1]]
    if mode == "LSTM":
        out, h, c = torch._VF.lstm(x, [pre_state[0], pre_state[1]], flat, True, num_layers, 0.0, False, bidirec,
                                   False)
        return out, [h, c]
    fn = {"GRU": torch._VF.gru, "RNN_TANH": torch._VF.rnn_tanh, "RNN_RELU": torch._VF.rnn_relu}[mode]
    out, h = fn(x, pre_state[0], flat, True, num_layers, 0.0, False, bidirec, False)
    return out, [h]


@lowering("pd_op.rnn", "pd_op.rnn_")
def _rnn(b, op, ins):
    if len(ins) > 3 and ins[3] is not None:
        raise unsupported("pd_op.rnn", " with sequence_length (variable-length batches)")
    mode = op.attrs["mode"]
    out = b.call(_rt_rnn, ins[0], list(ins[1]), list(ins[2]), mode, int(op.attrs["num_layers"]),
                 bool(op.attrs["is_bidirec"]))
    states = b.item(out, 1)
    k = 2 if mode == "LSTM" else 1
    return [b.item(out, 0), None, [b.item(states, i) for i in range(k)], None]


# ===================================================================== detection (paddle_on_torch.vision.ops)
def _rt_vision(name, *args, **kwargs):
    """Call paddle_on_torch's own paddle.vision.ops implementation on torch tensors."""
    from ... import _normalize
    from ...vision import ops as vops

    args = [_normalize.wrap(a) if isinstance(a, torch.Tensor) else a for a in args]
    out = getattr(vops, name)(*args, **kwargs)
    out = out if isinstance(out, (tuple, list)) else (out,)
    return tuple(o._t if isinstance(o, _normalize.Tensor) else o for o in out)


@lowering("pd_op.yolo_box")
def _yolo_box(b, op, ins):
    a = op.attrs
    out = b.call(_rt_vision, "yolo_box", ins[0], ins[1], [int(v) for v in a["anchors"]], int(a["class_num"]),
                 float(a["conf_thresh"]), int(a["downsample_ratio"]), bool(_a(op, "clip_bbox", True)),
                 scale_x_y=float(_a(op, "scale_x_y", 1.0)), iou_aware=bool(_a(op, "iou_aware", False)),
                 iou_aware_factor=float(_a(op, "iou_aware_factor", 0.5)))
    return [b.item(out, 0), b.item(out, 1)]


@lowering("pd_op.prior_box")
def _prior_box(b, op, ins):
    a = op.attrs
    out = b.call(_rt_vision, "prior_box", ins[0], ins[1], [float(v) for v in a["min_sizes"]],
                 [float(v) for v in _a(op, "max_sizes", [])] or None, [float(v) for v in _a(op, "aspect_ratios", [1.0])],
                 [float(v) for v in _a(op, "variances", [0.1, 0.1, 0.2, 0.2])], bool(_a(op, "flip", False)),
                 bool(_a(op, "clip", False)), [float(_a(op, "step_w", 0.0)), float(_a(op, "step_h", 0.0))],
                 float(_a(op, "offset", 0.5)), bool(_a(op, "min_max_aspect_ratios_order", False)))
    return [b.item(out, 0), b.item(out, 1)]


@lowering("pd_op.box_coder")
def _box_coder(b, op, ins):
    var = ins[1] if ins[1] is not None else [float(v) for v in _a(op, "variance", [])] or None
    out = b.call(_rt_vision, "box_coder", ins[0], var, ins[2], _a(op, "code_type", "encode_center_size"),
                 bool(_a(op, "box_normalized", True)), int(_a(op, "axis", 0)))
    return b.item(out, 0)


@lowering("pd_op.roi_align")
def _roi_align(b, op, ins):
    a = op.attrs
    out = b.call(_rt_vision, "roi_align", ins[0], ins[1], ins[2], (int(a["pooled_height"]), int(a["pooled_width"])),
                 float(_a(op, "spatial_scale", 1.0)), int(_a(op, "sampling_ratio", -1)), bool(_a(op, "aligned", False)))
    return b.item(out, 0)


@lowering("pd_op.matrix_nms")
def _matrix_nms(b, op, ins):
    a = op.attrs
    out = b.call(_rt_vision, "matrix_nms", ins[0], ins[1], float(a["score_threshold"]), float(a["post_threshold"]),
                 int(a["nms_top_k"]), int(a["keep_top_k"]), bool(_a(op, "use_gaussian", False)),
                 float(_a(op, "gaussian_sigma", 2.0)), int(_a(op, "background_label", 0)),
                 bool(_a(op, "normalized", True)), True, True)
    return [b.item(out, 0), b.item(out, 2), b.item(out, 1)]  # PIR order: out, index, roisnum
