"""Interpolation (upsample_*) as Paddle's *_interp ops."""
import torch

from ..._report import unsupported
from ..pir_writer import _api, _ndim, _out, a_arr, a_bool, a_f64, a_i32, a_str, pir


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
