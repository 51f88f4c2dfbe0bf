"""Normalisation: layer_norm, batch_norm (eval), group_norm."""
import numpy as np
import torch

from ..._report import unsupported
from ..pir_writer import _api, _f, _ndim, a_bool, a_f32, a_f64, a_i32, a_str, pir


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
                   ("data_format", a_str("NCHW")), ("use_global_stats", a_bool(not w.layer_training)),
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
