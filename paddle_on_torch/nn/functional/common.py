"""paddle.nn.functional: common ops (linear, dropout, pad, interpolate, fold/unfold, similarity)."""
import math
import numbers
import sys

import numpy as np
import torch
import torch.nn.functional as TF

from ..._core import random as _rng
from ..._normalize import OptionalTensor, ScalarLike, TensorLike, ValuesLike, is_tensor, op
from ...tensor.math import mixed_matmul
from . import _layout as L
from ..._report import unsupported

__all__ = ["alpha_dropout", "bilinear", "cosine_similarity", "dropout", "dropout1d", "dropout2d", "dropout3d",
           "feature_alpha_dropout", "fold", "interpolate", "label_smooth", "linear", "pad", "unfold", "upsample",
           "zeropad2d", "class_center_sample"]


# matmul then add, not addmm: Paddle's CPU linear rounds as the two separate ops do (addmm differs by an ulp)
@op
def linear(x: TensorLike, weight: TensorLike, bias: OptionalTensor = None, name=None):
    try:
        out = torch.matmul(x, weight)
    except RuntimeError:
        if x.dtype is weight.dtype:
            raise
        out = mixed_matmul(torch.matmul, x, weight, "linear")
    return out if bias is None else out + bias


@op
def bilinear(x1: TensorLike, x2: TensorLike, weight: TensorLike, bias: OptionalTensor = None, name=None):
    return TF.bilinear(x1, x2, weight, None if bias is None else bias.reshape(-1))


# ---------------------------------------------------------------- dropout
def _check_p(p):
    if isinstance(p, bool) or not isinstance(p, (numbers.Number,)):
        raise TypeError("p argument should be a number")
    if p < 0 or p > 1:
        raise ValueError("p argument should between 0 and 1")


def _program_seed():
    """The random_seed of the program the op is built into (Paddle's dropout takes it as its op seed when
    nonzero: a fresh engine each run): the default main program while recording, the running one in a run."""
    from ...static import default_main_program
    from ...static.executor import running_program

    return getattr(running_program() or default_main_program(), "random_seed", 0) or 0


def _f32(v):
    return float(np.float32(v))


def _saved_program():
    """jit.save's operators (paddle_on_torch.jit._infer_ops) while it traces a program, else None: without an
    import, since nothing is being saved until jit.save has loaded that module."""
    ops = sys.modules.get("paddle_on_torch.jit._infer_ops")
    return ops if ops is not None and ops.saving() else None


@op
def dropout(x: TensorLike, p: ScalarLike = 0.5, axis=None, training=True, inplace=False, mode="upscale_in_train",
            name=None):
    """Paddle's dropout.  The keep mask has Paddle's draws on the CPU (one float uniform per mask element, from
    Paddle's generator: paddle_on_torch._core.random), and the kept values Paddle's rounding: without `axis` the
    dropout kernel's x / (1 - p), with `axis` Python's scale(x, 1 / (1 - p)) * mask."""
    _check_p(p)
    if mode not in ("downscale_in_infer", "upscale_in_train"):
        raise ValueError("mode argument should be 'downscale_in_infer' or 'upscale_in_train'")
    if axis is not None and not isinstance(axis, (int, list, tuple)):
        raise TypeError("datatype of axis argument should be int or list")
    if p == 0:  # Paddle returns x itself, in any mode (no op in a saved program)
        return x
    if axis is None and _saved_program():
        # jit.save's trace: Paddle's program holds test-time dropout (is_test) in either mode, as one dropout op
        return _saved_program().dropout_infer(x, float(p), mode == "downscale_in_infer")
    if not training:
        return x * (1.0 - p) if mode == "downscale_in_infer" else x
    upscale = mode == "upscale_in_train"
    if axis is None:
        if p == 1:  # the kernel writes zeros without drawing
            return x * torch.zeros((), dtype=x.dtype, device=x.device)
        keep = _rng.dropout_keep(x.shape, p, x.device, _program_seed())
        keep_prob = _f32(1.0 - _f32(p))  # the kernel: x / static_cast<T>(1.0f - p), T's rounding of it
        if x.dtype in (torch.float16, torch.bfloat16):
            keep_prob = torch.tensor(keep_prob, dtype=x.dtype, device=x.device)
        kept = x / keep_prob if upscale else x
        return torch.where(keep, kept, torch.zeros((), dtype=x.dtype, device=x.device))
    if p == 1:
        return x * 0.0
    axes = [axis] if isinstance(axis, int) else list(axis)
    if min(axes) < 0 or max(axes) > x.dim() - 1:  # a negative axis too, as Paddle's Python checks
        raise ValueError(f"axis value should be greater than or equal to 0 and less than dimensions of x:{x.dim()}, "
                         f"but get axis value:{max(axes)} ")
    if len(axes) > x.dim():
        raise ValueError(f"length of axis should not be greater than dimensions of x:{x.dim()}, but get length of "
                         f"axis: {len(axes)}")
    mask_shape = [x.shape[i] if i in axes else 1 for i in range(x.dim())]
    keep = _rng.dropout_keep(mask_shape, p, x.device).to(x.dtype)  # paddle.uniform(mask_shape) >= p
    return (x * (1.0 / (1.0 - p)) if upscale else x) * keep


def _feature_dropout(x, p, training, data_format, n, api):
    if x.dim() != n + 2:
        raise ValueError(f"dimensions of x should be {n + 2}, but received {x.dim()} != {n + 2}")
    last = L.channel_last(data_format, n)
    return dropout(x, p=p, axis=[0, x.dim() - 1] if last else [0, 1], training=training)


def dropout2d(x, p=0.5, training=True, data_format="NCHW", name=None):
    return _feature_dropout(x, p, training, data_format, 2, "dropout2d")


def dropout3d(x, p=0.5, training=True, data_format="NCDHW", name=None):
    return _feature_dropout(x, p, training, data_format, 3, "dropout3d")


def dropout1d(input, p=0.5, training=True, inplace=False):
    if input.ndim not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {input.ndim}D input.")
    if input.ndim == 2:
        return dropout(input.unsqueeze(0), p=p, axis=[0, 1], training=training).squeeze(0)
    return dropout(input, p=p, axis=[0, 1], training=training)


def _alpha_dropout(x, p, training, feature):
    """Paddle's alpha dropout: dropped elements take SELU's negative saturation, then an affine map keeps the
    mean and variance; the keep mask is drawn as Paddle draws it (paddle.uniform(shape) >= p, on the CPU
    Paddle's numbers)."""
    _check_p(p)
    if not training:
        return x
    if p == 1:
        return x * 0.0
    alpha_p = -1.6732632423543772 * 1.0507009873554805
    a = ((1 - p) * (1 + p * alpha_p ** 2)) ** (-0.5)
    b = -a * alpha_p * p
    if feature:
        if x.dim() < 2:
            raise ValueError("Feature alpha dropout needs at least 2D input.")
        shape = list(x.shape[:2]) + [1] * (x.dim() - 2)
    else:
        shape = list(x.shape)
    keep = _rng.dropout_keep(shape, p, x.device).to(x.dtype)
    y = x * keep + (1.0 - keep) * alpha_p
    return y * a + b


@op
def alpha_dropout(x: TensorLike, p=0.5, training=True, name=None):
    return _alpha_dropout(x, p, training, False)


@op
def feature_alpha_dropout(x: TensorLike, p=0.5, training=True, name=None):
    return _alpha_dropout(x, p, training, True)


# ---------------------------------------------------------------- pad
_PAD_MODES = ("reflect", "replicate", "constant", "circular")


@op
def pad(x: TensorLike, pad: ValuesLike, mode="constant", value: ScalarLike = 0.0, data_format=None,
        pad_from_left_axis=True, name=None):
    if mode not in _PAD_MODES:
        raise AssertionError(f"mode should be one of constant, reflect, replicate, circular, but got {mode}.")
    if isinstance(pad, int):
        pad = [pad] * (2 * (x.dim() - 2))
    pad = [int(v) for v in pad]
    nd = x.dim()
    if mode == "constant" and len(pad) != (nd - 2) * 2:
        if len(pad) == 2 * nd and pad_from_left_axis:  # Paddle's order: first axis first
            pad = L.torch_pad_arg([(pad[2 * i], pad[2 * i + 1]) for i in range(nd)])
        return TF.pad(x, pad, value=value)
    if nd not in (3, 4, 5):
        raise AssertionError(f"input tensor dimension must be in [3, 4, 5] but got {nd}")
    n = nd - 2
    fmt = data_format.upper() if data_format else L._LAYOUTS[n][0]
    if fmt not in L._LAYOUTS[n]:
        raise AssertionError(f"input tensor dimension is {nd}, it's data format should be in "
                             f"{list(L._LAYOUTS[n])} but got {fmt}")
    last = fmt == L._LAYOUTS[n][1]
    if len(pad) != 2 * n:
        raise ValueError(f"The length of pad must be {2 * n} for a {nd}-D input, but got {len(pad)}.")
    xt = L.to_channel_first(x, last)
    out = TF.pad(xt, pad, mode=mode, value=value) if mode == "constant" else TF.pad(xt, pad, mode=mode)
    return L.from_channel_first(out, last)


def zeropad2d(x, padding, data_format="NCHW", name=None):
    return pad(x, L.ntuple(padding, 4, "padding"), mode="constant", value=0.0, data_format=data_format)


# ---------------------------------------------------------------- fold / unfold
def _pads4(paddings):
    p = L.ntuple(paddings, 4, "paddings") if isinstance(paddings, (list, tuple)) and len(paddings) == 4 \
        else L.ntuple(paddings, 2, "paddings") * 2
    return p  # [top, left, bottom, right]


@op
def unfold(x: TensorLike, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    if x.dim() != 4:
        raise AssertionError(f"input should be the format of [N, C, H, W], but got {x.dim()}-D input")
    k, s, d = L.ntuple(kernel_sizes, 2, "kernel_sizes"), L.ntuple(strides, 2, "strides"), \
        L.ntuple(dilations, 2, "dilations")
    t, lft, b, r = _pads4(paddings)
    if t == b and lft == r:
        return TF.unfold(x, k, d, (t, lft), s)
    return TF.unfold(TF.pad(x, [lft, r, t, b]), k, d, 0, s)


@op
def fold(x: TensorLike, output_sizes, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    if x.dim() != 3:
        raise AssertionError(f"input should be the format of [N, C, L], but got {x.dim()}-D input")
    o, k = L.ntuple(output_sizes, 2, "output_sizes"), L.ntuple(kernel_sizes, 2, "kernel_sizes")
    s, d = L.ntuple(strides, 2, "strides"), L.ntuple(dilations, 2, "dilations")
    t, lft, b, r = _pads4(paddings)
    if t == b and lft == r:
        return TF.fold(x, o, k, d, (t, lft), s)
    full = TF.fold(x, (o[0] + t + b, o[1] + lft + r), k, d, 0, s)
    return full[..., t:t + o[0], lft:lft + o[1]]


# ---------------------------------------------------------------- similarity, smoothing
@op
def cosine_similarity(x1: TensorLike, x2: TensorLike, axis=1, eps=1e-8):
    w12 = (x1 * x2).sum(axis)
    w1 = (x1 * x1).sum(axis)
    w2 = (x2 * x2).sum(axis)
    return w12 / torch.sqrt(torch.clamp(w1 * w2, min=eps * eps))


@op
def label_smooth(label: TensorLike, prior_dist: OptionalTensor = None, epsilon=0.1, name=None):
    if epsilon > 1.0 or epsilon < 0.0:
        raise ValueError("The value of epsilon must be between 0 and 1.")
    if prior_dist is None:
        return (1.0 - epsilon) * label + epsilon / label.shape[-1]
    return (1.0 - epsilon) * label + epsilon * prior_dist


# ---------------------------------------------------------------- interpolate
_MODES = {"linear": 1, "bilinear": 2, "trilinear": 3, "bicubic": 2, "nearest": None, "area": None}
_RANK_ERRORS = {"linear": "'linear' only support 3-D tensor.", "trilinear": "'trilinear'only support 5-D tensor.",
                **dict.fromkeys(("bilinear", "bicubic"), "'bilinear' and 'bicubic' only support 4-D tensor.")}  # Paddle's
_DATA_FORMATS = {3: ("NCW", "NWC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}


def _linear_align1(x, out_sizes, scales):
    """Separable linear interpolation with Paddle's align_mode=1 (src = dst * in / out, no half-pixel)."""
    for i, (o, sc) in enumerate(zip(out_sizes, scales)):
        dim = 2 + i
        n_in = x.shape[dim]
        ratio = sc if sc is not None else n_in / o
        src = torch.arange(o, device=x.device, dtype=torch.float64) * ratio
        i0 = src.floor().clamp(max=n_in - 1).long()
        i1 = (i0 + 1).clamp(max=n_in - 1)
        lam = (src - i0).to(x.dtype)
        shape = [1] * x.dim()
        shape[dim] = o
        lam = lam.reshape(shape)
        x = x.index_select(dim, i0) * (1 - lam) + x.index_select(dim, i1) * lam
    return x


@op
def interpolate(x: TensorLike, size=None, scale_factor: ValuesLike = None, mode="nearest", align_corners=False,
                align_mode=0, data_format=None, recompute_scale_factor=None, antialias=False, name=None):
    mode = mode.lower()
    if mode not in _MODES:
        raise ValueError("The 'resample' of image_resize can only be 'area', 'linear', 'bilinear', 'trilinear', "
                         "'bicubic' or 'nearest' currently.")
    nd = x.dim()
    if nd not in (3, 4, 5):
        raise ValueError(f"The input of interpolate should be a 3-D, 4-D or 5-D Tensor, but got {nd}-D.")
    want = _MODES[mode]
    if want is not None and want != nd - 2:
        raise ValueError(_RANK_ERRORS[mode])
    if mode == "nearest" and nd == 3:  # (Paddle's nearest kernels are 2-D and 3-D only)
        raise ValueError("'NEAREST' only support 4-D  or 5-D tensor.")
    if size is None and scale_factor is None:
        raise ValueError("One of size and scale_factor must not be None.")
    if align_corners and mode in ("area", "nearest"):
        raise ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear | "
                         "bicubic | trilinear")
    if align_mode not in (0, 1):
        raise ValueError("align_mode can only be 0 or 1")
    n = nd - 2
    fmt = data_format or _DATA_FORMATS[nd][0]
    if fmt not in _DATA_FORMATS[nd]:
        raise ValueError(f"Got wrong value for param `data_format`: {fmt} received but only "
                         f"{_DATA_FORMATS[nd]} supported for {nd}-D input.")
    last = fmt == _DATA_FORMATS[nd][1]
    xt = L.to_channel_first(x, last)
    scales = [None] * n
    if size is not None:
        if is_tensor(size):
            if size._t.dim() != 1:
                raise ValueError(f"If size is a tensor, it's rank must be 1, but received {size._t.dim()}.")
            size = size._t.tolist()
        if isinstance(size, (list, tuple)):
            size = [int(v._t.item()) if is_tensor(v) else int(v) for v in size]
        else:
            raise TypeError(f"size should be a list or tuple or Tensor, but got {type(size).__name__}")
        if len(size) != n:
            raise ValueError(f"The x and size should satisfy rank(x) - 2 == len(size), but got len(size)={len(size)}")
        if any(v <= 0 for v in size):
            raise ValueError(f"Each dimension size given in size must be greater than 0, but got {size}.")
        out_sizes = size
    else:
        sf = scale_factor
        sf = [float(v) for v in sf] if isinstance(sf, (list, tuple)) else [float(sf)] * n
        if len(sf) != n:
            raise ValueError(f"scale_factor length should be {n}, got {len(sf)}")
        if any(v <= 0 for v in sf):
            raise ValueError("Attr(scale) should be greater than zero.")
        out_sizes = [int(s * f) for s, f in zip(xt.shape[2:], sf)]
        scales = [1.0 / f for f in sf]
    if mode == "area":
        pool = (TF.adaptive_avg_pool1d, TF.adaptive_avg_pool2d, TF.adaptive_avg_pool3d)[n - 1]
        out = pool(xt, out_sizes)
    elif mode == "nearest":
        out = _linear_index_nearest(xt, out_sizes, scales)
    else:
        # Paddle's integer (linear-family) kernels compute in float32 and truncate; torch would round
        integer = not (xt.dtype.is_floating_point or xt.dtype.is_complex)
        src = xt.float() if integer else xt
        if mode == "bicubic" or align_corners or align_mode == 0:
            if scales[0] is not None and not align_corners:  # Paddle samples at dst / scale, as torch does
                out = TF.interpolate(src, scale_factor=[1.0 / s for s in scales], mode=mode, align_corners=False)
            else:
                out = TF.interpolate(src, size=out_sizes, mode=mode, align_corners=bool(align_corners))
        else:
            out = _linear_align1(src, out_sizes, scales)
        if integer:
            out = out.trunc().to(xt.dtype)
    return L.from_channel_first(out, last)


def _linear_index_nearest(x, out_sizes, scales):
    """Paddle's nearest (align_corners=False): src = floor(dst * ratio), ratio = 1/scale or in/out."""
    for i, (o, sc) in enumerate(zip(out_sizes, scales)):
        dim = 2 + i
        n_in = x.shape[dim]
        ratio = sc if sc is not None else n_in / o
        idx = torch.floor(torch.arange(o, device=x.device, dtype=torch.float64) * ratio).long()
        x = x.index_select(dim, idx.clamp(max=n_in - 1))
    return x


def upsample(x, size=None, scale_factor=None, mode="nearest", align_corners=False, align_mode=0, data_format=None,
             name=None):
    return interpolate(x, size, scale_factor, mode, align_corners, align_mode, data_format)


del math


# ---------------------------------------------------------------- class_center_sample (PartialFC)
def _single_process_group(group, api):
    """Paddle's group check; more than one process is not supported here (the ops need collective sampling)."""
    if not (group is False or group is None or hasattr(group, "is_member")):
        raise ValueError(f"Expected group is False, None or instance of paddle.distributed.collective.Group "
                         f"             (got group: {group})")
    if group is False:
        return
    from ... import distributed

    if distributed.get_world_size(group) > 1:
        raise unsupported(api, f" across {distributed.get_world_size(group)} processes (single-process only)")


@op
def class_center_sample(label: TensorLike, num_classes, num_samples, group=None):
    """All distinct positive classes of `label` (ascending), then random negatives up to `num_samples`; the label
    remapped to positions in that list.  Single process only."""
    _single_process_group(group, "paddle.nn.functional.class_center_sample")
    if num_samples > num_classes:
        raise ValueError(f"Expected num_samples less than or equal to {num_classes}, got num_samples {num_samples}")
    if label.numel() < 1:
        raise ValueError(f"Expected label_size > 0              (got label_size: {label.numel()})")
    if label.dim() != 1:
        raise ValueError(f"Expected label_dims == 1              (got label_dims: {label.dim()})")
    positive, remapped = torch.unique(label, sorted=True, return_inverse=True)
    if positive.numel() < num_samples:
        is_pos = torch.zeros(num_classes, dtype=torch.bool, device=label.device)
        is_pos[positive.long()] = True
        negatives = torch.nonzero(~is_pos).reshape(-1)
        pick = negatives[torch.randperm(negatives.numel(), device=label.device)[:num_samples - positive.numel()]]
        sampled = torch.cat([positive, pick.to(label.dtype)])
    else:
        sampled = positive
    return remapped.to(label.dtype), sampled
