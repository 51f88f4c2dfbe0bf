"""Padding as Paddle's pad3d."""
import torch

from ..._report import unsupported
from ..pir_writer import _api, _f, _ndim, _out, a_f64, a_str, pir


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
