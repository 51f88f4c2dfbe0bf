"""matmul / mm / bmm / linear / addmm, and scaled_dot_product_attention as Paddle writes attention."""
import math

import torch

from ..._report import unsupported
from ..pir_writer import _api, _axis, _out, _shape, a_bool, a_i32, a_str, pir
from .elementwise import _scale, _where_op


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


@pir(torch.ops.aten.einsum.default)
def _einsum(w, node, args):
    """Paddle's einsum op: the operands combined, the equation as written; its two vector results (inner cache,
    x shapes) typed as Paddle types them."""
    equation, operands = args[0], list(args[1])
    t = _out(node)
    dt = t[0]
    operands = [w.cast(o, dt) for o in operands]
    vec = w.emit("builtin.combine", operands, outs=[[w.type(o) for o in operands]])[0]
    outs = w.emit("pd_op.einsum", [vec], [("equation", a_str(equation.replace(" ", "")))],
                  [t, [(dt, []) for _ in operands], [w.type(o) for o in operands]])
    return outs[0]
