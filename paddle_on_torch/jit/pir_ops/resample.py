"""Interpolation (upsample_*) as Paddle's *_interp ops."""
import torch

from ..._report import unsupported
from ..pir_writer import _api, _ndim, _out, a_arr, a_bool, a_f64, a_i32, a_str, pir


def _interp(w, node, x, method, size, scales, align_corners):
    """Paddle's *_interp ops (align_mode 0: torch's half-pixel source coordinates when not align_corners); 1-D
    sizes go to out_w, 3-D ones to out_d / out_h / out_w, and data_format is "NCHW" for every rank, as Paddle
    writes them."""
    nd = _ndim(w, x) - 2
    if nd not in (1, 2, 3):
        raise unsupported(_api(), f" (Paddle program): {nd}-D {method} interpolation")
    out = [-1, -1, -1]
    scale = []
    if size is not None:
        if not all(isinstance(s, int) for s in size):
            raise unsupported(_api(), " (Paddle program): interpolation to a run-time size")
        out[3 - nd:] = list(size)
    elif scales is not None and all(s is not None for s in scales):
        scale = [float(s) for s in scales]
    else:
        raise unsupported(_api(), " (Paddle program): interpolation without size or scale")
    return w.op1(f"{method}_interp", [x, 0, 0, 0],
                 [("data_format", a_str("NCHW")), ("out_d", a_i32(out[0])), ("out_h", a_i32(out[1])),
                  ("out_w", a_i32(out[2])), ("scale", a_arr(a_f64(v) for v in scale)),
                  ("interp_method", a_str(method)), ("align_corners", a_bool(align_corners)),
                  ("align_mode", a_i32(0))], _out(node))


_METHODS = {"nearest1d": "nearest", "nearest2d": "nearest", "nearest3d": "nearest", "linear1d": "linear",
            "bilinear2d": "bilinear", "trilinear3d": "trilinear", "bicubic2d": "bicubic"}


def _upsample_any(kind):
    method = _METHODS[kind]

    def lower(w, node, args):
        x, size = args[0], args[1]
        if method == "nearest":  # (input, output_size, scale_factors)
            return _interp(w, node, x, method, size, args[2] if len(args) > 2 else None, False)
        return _interp(w, node, x, method, size, args[3] if len(args) > 3 else None, args[2])
    return lower


for _kind in _METHODS:
    _op = getattr(torch.ops.aten, "upsample_" + _kind)
    pir(_op.vec)(_upsample_any(_kind))


@pir(torch.ops.aten.upsample_bilinear2d.default, torch.ops.aten.upsample_nearest2d.default)
def _upsample(w, node, args):
    if node.target is torch.ops.aten.upsample_nearest2d.default:
        return _interp(w, node, args[0], "nearest", args[1], None, False)
    return _interp(w, node, args[0], "bilinear", args[1], None, args[2])


@pir(torch.ops.aten.grid_sampler.default, torch.ops.aten.grid_sampler_2d.default)
def _grid_sample(w, node, args):
    """F.grid_sample: torch's enums (mode 0 bilinear / 1 nearest / 2 bicubic, padding 0 zeros / 1 border /
    2 reflection) as Paddle's strings."""
    x, grid, mode, padding, align = args[:5]
    return w.op1("grid_sample", [x, grid], [("mode", a_str(["bilinear", "nearest", "bicubic"][mode])),
                                            ("padding_mode", a_str(["zeros", "border", "reflection"][padding])),
                                            ("align_corners", a_bool(align))], _out(node))
