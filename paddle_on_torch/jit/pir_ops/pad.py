"""Padding: F.pad in every mode, as Paddle writes it.

Paddle's F.pad over the spatial dims of a 3-D / 4-D / 5-D tensor is `pad3d` on a 5-D view (unit dims inserted
where Paddle inserts them: at 2 for NCHW, at 3 and 4 for NCL); a constant pad over other dims is `pad` with
a pair per dim.  torch's padding list is Paddle's pad3d order (the last dim first)."""
import torch

from ..._report import unsupported
from ..pir_writer import _api, _f, _ndim, _out, a_f64, a_i32s, a_str, pir

_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "replicate", "circular": "circular"}


def _pad(w, node, x, pad, mode, value):
    pad = list(pad)
    n, k = _ndim(w, x), len(pad) // 2
    t = _out(node)
    if any(not isinstance(p, int) for p in pad):
        raise unsupported(_api(), " (Paddle program): padding by a run-time amount")
    if mode not in _MODES:
        raise unsupported(_api(), f" (Paddle program): padding mode {mode!r}")
    if not 3 <= n <= 5 or k > n - 2:
        if mode != "constant":
            raise unsupported(_api(), f" (Paddle program): {mode} padding of {k} dims of a {n}-D tensor")
        pairs = [[0, 0] for _ in range(n)]
        for i in range(k):  # torch: (last dim left, right, the dim before ...)
            pairs[n - 1 - i] = [pad[2 * i], pad[2 * i + 1]]
        return w.op1("pad", [x, w.full([1], value, t[0])], [("paddings", a_i32s([p for pr in pairs for p in pr]))],
                     t)
    pads = pad + [0] * (6 - len(pad))  # pad3d: (left, right, top, bottom, front, back)
    xs, dt = w.shape(x), w.dtype(x)
    extra = {3: [3, 4], 4: [2], 5: []}[n]
    if n == 3:  # NCL -> N, C, L, 1, 1: the padded dim is D
        pads = [0, 0, 0, 0] + pads[:2]
    if extra:
        shape = list(xs)
        for e in extra:
            shape.insert(e, 1)
        x = w.op1("unsqueeze", [x, w.int_array(extra)], [], (dt, shape))
    out_shape = list(t[1])
    for e in extra:
        out_shape.insert(e, 1)
    y = w.op1("pad3d", [x, w.int_array(pads)], [("mode", a_str(_MODES[mode])),
                                                ("pad_value", a_f64(_f(value, True) if mode == "constant" else 0.0)),
                                                ("data_format", a_str("NCDHW"))], (dt, out_shape))
    if extra:
        y = w.op1("squeeze", [y, w.int_array(extra)], [], t)
    return y


@pir(torch.ops.aten.constant_pad_nd.default)
def _constant_pad(w, node, args):
    return _pad(w, node, args[0], args[1], "constant", args[2] if len(args) > 2 else 0)


@pir(torch.ops.aten.pad.default)
def _pad_any(w, node, args):
    mode = args[2] if len(args) > 2 else node.kwargs.get("mode", "constant")
    value = args[3] if len(args) > 3 else node.kwargs.get("value", None)
    return _pad(w, node, args[0], args[1], mode, 0 if value is None else value)


def _pad_mode(mode):
    def lower(w, node, args):
        return _pad(w, node, args[0], args[1], mode, 0)
    return lower


for _nd in (1, 2, 3):
    pir(getattr(torch.ops.aten, f"reflection_pad{_nd}d").default)(_pad_mode("reflect"))
    pir(getattr(torch.ops.aten, f"replication_pad{_nd}d").default)(_pad_mode("replicate"))
pir(torch.ops.aten._pad_circular.default)(_pad_mode("circular"))
