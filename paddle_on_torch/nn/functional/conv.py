"""paddle.nn.functional: convolutions and transposed convolutions (Paddle's padding and layouts)."""
import torch
import torch.nn.functional as TF

from ..._normalize import OptionalTensor, TensorLike, ValuesLike, op
from ...kernels.eager import plain_eager
from . import _layout as L

__all__ = ["conv1d", "conv1d_transpose", "conv2d", "conv2d_transpose", "conv3d", "conv3d_transpose"]

# Below this many multiply-adds a single-group float32 CPU convolution (1-D and 2-D, and the 2-D transposed one) runs
# torch's im2col + GEMM kernels (thnn_conv2d, slow_conv_transpose2d; Paddle's CPU convs are im2col + GEMM too)
# instead of oneDNN, whose per-call primitive set-up and layout reorders cost more than the arithmetic there.  One
# thread of this machine, 0.15-1.2M MACs: conv2d 0.4-0.95x the time forward and 0.45-0.9x forward + backward,
# conv1d 0.2-0.7x / 0.3-0.6x, conv2d_transpose 0.25-0.8x / 0.8-0.9x; from ~2.4M MACs oneDNN is as fast or faster
# (bench/conv_small.py).
SMALL_CONV_MACS = 1_500_000
_thnn_conv2d, _slow_conv_t2d = torch._C._nn.thnn_conv2d, torch._C._nn.slow_conv_transpose2d
_F32 = torch.float32  # (the module deletes its `torch` name at the end)


def _pair(v):
    return (v, v) if type(v) is int else v


def _small(x, weight, bias, groups, dilation, macs_per_output_pixel, out_pixels):
    """True when this convolution goes to the im2col + GEMM kernels (see SMALL_CONV_MACS).  Contiguous x only: for
    a channels-last x (NHWC data seen as NCHW) slow_conv2d's backward fails ("grad_weight must be contiguous"),
    and oneDNN reads that layout natively."""
    # plain_eager first: under a trace (jit.save's export) the size test would be symbolic arithmetic on the
    # batch dim, a sizeable part of tracing a small CNN
    return (groups == 1 and x.dtype is _F32 and x.is_cpu and weight.dtype is _F32 and plain_eager(x, weight, bias)
            and x.is_contiguous() and weight.is_contiguous() and tuple(_pair(dilation)) == (1, 1)
            and 0 < x.shape[0] * macs_per_output_pixel * out_pixels < SMALL_CONV_MACS)


def _conv2d(x, weight, bias, stride, padding, dilation, groups):
    """torch's conv2d (padding an int or one int per side pair, stride and dilation ints or lists)."""
    if x.dim() == 4:
        kh, kw = weight.shape[2], weight.shape[3]
        (sh, sw), (ph, pw) = _pair(stride), _pair(padding)
        if sh <= 0 or sw <= 0:
            raise ValueError(f"(InvalidArgument) The stride of Op(Conv) should be larger than 0, but received stride "
                             f"is {[sh, sw]}.")
        ho, wo = (x.shape[2] + 2 * ph - kh) // sh + 1, (x.shape[3] + 2 * pw - kw) // sw + 1
        if _small(x, weight, bias, groups, dilation, weight.numel(), max(ho, 0) * max(wo, 0)):
            return _thnn_conv2d(x, weight, [kh, kw], bias, [sh, sw], [ph, pw])
    return TF.conv2d(x, weight, bias, stride, padding, dilation, groups)


def _conv1d(x, weight, bias, stride, padding, dilation, groups):
    """torch's conv1d; a small one as a conv2d over a height of 1."""
    if x.dim() == 3 and type(padding) is not str:
        (s,), (p,), (d,) = [[v] if type(v) is int else v for v in (stride, padding, dilation)]
        lo = (x.shape[2] + 2 * p - weight.shape[2]) // s + 1
        if d == 1 and _small(x, weight, bias, groups, 1, weight.numel(), max(lo, 0)):
            out = _thnn_conv2d(x.unsqueeze(2), weight.unsqueeze(2), [1, weight.shape[2]], bias, [1, s], [0, p])
            return out.squeeze(2)
    return TF.conv1d(x, weight, bias, stride, padding, dilation, groups)


def _conv_transpose2d(x, weight, bias, stride, padding, output_padding, groups, dilation):
    """torch's conv_transpose2d (ints or pairs)."""
    if x.dim() == 4 and _small(x, weight, bias, groups, dilation, weight.numel(), x.shape[2] * x.shape[3]):
        return _slow_conv_t2d(x, weight, list(weight.shape[2:]), bias, list(_pair(stride)), list(_pair(padding)),
                              list(_pair(output_padding)))
    return TF.conv_transpose2d(x, weight, bias, stride, padding, output_padding, groups, dilation)


_CONV = {1: _conv1d, 2: _conv2d, 3: TF.conv3d}
_CONV_T = {1: TF.conv_transpose1d, 2: _conv_transpose2d, 3: TF.conv_transpose3d}
_NAMES = {1: "conv1d", 2: "conv2d", 3: "conv3d"}


def _check(x, weight, groups, n, last, api, transposed=False):
    if x.dim() != n + 2:
        raise ValueError(f"Input x should be {n + 2}D tensor, but received x with the shape of {list(x.shape)}")
    if weight.dim() != n + 2:
        raise ValueError(f"The weight of {api} should be {n + 2}D tensor, but received {list(weight.shape)}")
    c = x.shape[-1 if last else 1]
    if groups is None or groups <= 0:
        raise ValueError(f"The groups of {api} should be greater than 0, but received groups={groups}")
    if c % groups:
        raise ValueError(f"The number of input channels ({c}) must be divisible by groups ({groups}).")
    expect = weight.shape[0] if transposed else weight.shape[1] * groups
    if c != expect:
        raise ValueError(f"(InvalidArgument) The number of input channels ({c}) must equal the weight's "
                         f"{'first dim' if transposed else 'second dim times groups'} ({expect}) in {api}; "
                         f"x shape {list(x.shape)}, weight shape {list(weight.shape)}.")


def _ints(v, n):
    if type(v) is int:
        return True
    if type(v) is not list or len(v) != n:
        return False
    for e in v:
        if type(e) is not int:
            return False
    return True


def _conv(n, x, weight, bias, stride, padding, dilation, groups, data_format):
    api = _NAMES[n]
    last = L.channel_last(data_format, n)
    _check(x, weight, groups, n, last, api)
    if bias is not None and tuple(bias.shape) != (weight.shape[0],):
        out = _conv(n, x, weight, None, stride, padding, dilation, groups, data_format)
        return _add_conv_bias(out, bias, n, last, depthwise=x.shape[-1 if last else 1] == groups != 1)
    if not last and type(padding) is int and padding >= 0 and _ints(stride, n) and _ints(dilation, n):
        # what the Conv layers pass (channel-first, one int padding, lists of ints): torch takes them as they are
        return _CONV[n](x, weight, bias, stride, padding, dilation, groups)
    s, d = L.ntuple(stride, n, "stride"), L.ntuple(dilation, n, "dilation")
    xt = L.to_channel_first(x, last)
    pairs = L.resolve_padding(xt, padding, n, list(weight.shape[2:]), s, d, last)
    if L.symmetric(pairs):
        out = _CONV[n](xt, weight, bias, s, [a for a, _ in pairs], d, groups)
    else:
        out = _CONV[n](TF.pad(xt, L.torch_pad_arg(pairs)), weight, bias, s, 0, d, groups)
    return L.from_channel_first(out, last)


def _add_conv_bias(out, bias, n, last, depthwise):
    """Paddle's bias of a convolution when it is not [C], added after it as Paddle does.  conv1d runs as a 2-D
    convolution over a unit axis (before the length, NCL; before the channels, NLC) and adds the bias there with
    _add_with_axis at the channels (NCL: a lower-rank bias gets unit axes after it; NLC: a plain broadcast), the
    unit axis squeezed after where it is still 1; conv2d puts a lower-rank bias at the channel axis followed by
    as many unit axes as the result has after it (so [C, 1, 1] broadcasts into a 6-D result, as in Paddle); a
    depthwise conv2d and conv3d reshape it to [1, -1, 1, ...] at the channel axis."""
    if n == 1:
        out = out.unsqueeze(1 if last else 2)
        if not last and bias.dim() < out.dim():
            bias = bias.reshape([1] + list(bias.shape) + [1] * (out.dim() - bias.dim() - 1))
        out = _broadcast_add(out, bias)
        unit = out.dim() - (3 if last else 2)
        return out.squeeze(unit) if out.shape[unit] == 1 else out
    channel = out.dim() - 1 if last else 1
    if n == 3 or depthwise:
        bias = bias.reshape([1] * channel + [-1] + [1] * (out.dim() - channel - 1))
    elif bias.dim() < out.dim():
        bias = bias.reshape([1] * channel + list(bias.shape) + [1] * (out.dim() - channel - 1))
    return _broadcast_add(out, bias)


def _broadcast_add(out, bias):
    """out + bias, a shape mismatch in Paddle's words (its elementwise add's ValueError)."""
    xs, ys = list(out.shape), list(bias.shape)
    nd = max(len(xs), len(ys))
    for i, (a, b) in enumerate(zip([1] * (nd - len(xs)) + xs, [1] * (nd - len(ys)) + ys)):
        if a != b and a != 1 and b != 1:
            raise ValueError(f"(InvalidArgument) Broadcast dimension mismatch. Operands could not be broadcast "
                             f"together with the shape of X = {xs} and the shape of Y = {ys}. Received [{a}] in X "
                             f"is not equal to [{b}] in Y at i:{i}.")
    return out + bias


def _add_bias_at_channel(out, bias, n, last):
    """Paddle's bias of a transposed convolution: added after it, aligned at the channel axis and broadcast (its
    `_add_with_axis`), so a [C, 1] or [1] bias works too.  A 1-D one runs as a 2-D one there: the bias meets
    the result with a unit axis appended (NCL) or inserted before the channels (NLC), squeezed after if still 1."""
    unit = None
    if n == 1:
        unit = 2 if last else 3
        out = out.unsqueeze(unit)
    axis = out.dim() - bias.dim() if last else 1
    shape = [1] * axis + list(bias.shape) + [1] * (out.dim() - axis - bias.dim())
    for i, (a, b) in enumerate(zip(out.shape, shape)):
        if a != b and a != 1 and b != 1 or len(shape) > out.dim():
            raise ValueError(f"(InvalidArgument) Broadcast dimension mismatch. Operands could not be broadcast "
                             f"together with the shape of X = {list(out.shape)} and the shape of Y = {shape}. "
                             f"Received [{a}] in X is not equal to [{b}] in Y at i:{i}.")
    out = out + bias.reshape(shape)
    return out.squeeze(unit) if unit is not None and out.shape[unit] == 1 else out


def _conv_transpose(n, x, weight, bias, stride, padding, output_padding, dilation, groups, output_size, data_format):
    api = _NAMES[n] + "_transpose"
    last = L.channel_last(data_format, n)
    _check(x, weight, groups, n, last, api, transposed=True)
    if bias is not None and tuple(bias.shape) != (weight.shape[1] * groups,):
        out = _conv_transpose(n, x, weight, None, stride, padding, output_padding, dilation, groups, output_size,
                              data_format)
        return _add_bias_at_channel(out, bias, n, last)
    if (not last and type(padding) is int and padding >= 0 and not output_padding and output_size is None
            and _ints(stride, n) and _ints(dilation, n)):
        # what the ConvTranspose layers pass by default: torch takes it as it is
        return _CONV_T[n](x, weight, bias, stride, padding, 0, groups, dilation)
    s, d = L.ntuple(stride, n, "stride"), L.ntuple(dilation, n, "dilation")
    k = list(weight.shape[2:])
    xt = L.to_channel_first(x, last)
    pairs = L.resolve_padding(xt, padding, n, k, s, d, last)
    ins = list(xt.shape[2:])
    base = [(i - 1) * st + dl * (kk - 1) + 1 - a - b for i, st, dl, kk, (a, b) in zip(ins, s, d, k, pairs)]
    if output_size is not None:
        if output_padding not in (0, None, [0] * n) and output_padding != (0,) * n:
            raise ValueError("output_padding option is mutually exclusive with output_size")
        osz = L.ntuple(output_size, n, "output_size")
        for o, b_, st in zip(osz, base, s):
            if not b_ <= o < b_ + st:
                raise ValueError(f"output_size {osz} is out of range: each must be in [{base}, base + stride).")
        op_ = [o - b_ for o, b_ in zip(osz, base)]
    else:
        op_ = L.ntuple(output_padding or 0, n, "output_padding")
        for o, st, dl in zip(op_, s, d):
            if o >= max(st, dl):
                raise ValueError(f"output padding must be smaller than either stride or dilation, but got "
                                 f"output_padding={op_}, stride={s}, dilation={d}")
    if L.symmetric(pairs):
        out = _CONV_T[n](xt, weight, bias, s, [a for a, _ in pairs], op_, groups, d)
    else:  # the full transposed conv, then Paddle's asymmetric crop (and output_padding at the end)
        full = _CONV_T[n](xt, weight, None, s, 0, 0, groups, d)
        idx = [slice(None), slice(None)]
        extra = []
        for dim, ((a, _), b_, o) in enumerate(zip(pairs, base, op_)):
            size = b_ + o
            idx.append(slice(a, a + size))
            extra.append(max(0, a + size - full.shape[2 + dim]))
        if any(extra):
            full = TF.pad(full, L.torch_pad_arg([(0, e) for e in extra]))
        out = full[tuple(idx)]
        if bias is not None:
            out = out + bias.reshape([1, -1] + [1] * n)
    return L.from_channel_first(out, last)


@op
def conv1d(x: TensorLike, weight: TensorLike, bias: OptionalTensor = None, stride=1, padding=0, dilation=1,
           groups=1, data_format="NCL", name=None):
    return _conv(1, x, weight, bias, stride, padding, dilation, groups, data_format)


@op
def conv2d(x: TensorLike, weight: TensorLike, bias: OptionalTensor = None, stride=1, padding=0, dilation=1,
           groups=1, data_format="NCHW", name=None):
    return _conv(2, x, weight, bias, stride, padding, dilation, groups, data_format)


@op
def conv3d(x: TensorLike, weight: TensorLike, bias: OptionalTensor = None, stride=1, padding=0, dilation=1,
           groups=1, data_format="NCDHW", name=None):
    return _conv(3, x, weight, bias, stride, padding, dilation, groups, data_format)


@op
def conv1d_transpose(x: TensorLike, weight: TensorLike, bias: OptionalTensor = None, stride=1, padding=0,
                     output_padding=0, groups=1, dilation=1, output_size: ValuesLike = None, data_format="NCL",
                     name=None):
    return _conv_transpose(1, x, weight, bias, stride, padding, output_padding, dilation, groups, output_size,
                           data_format)


@op
def conv2d_transpose(x: TensorLike, weight: TensorLike, bias: OptionalTensor = None, stride=1, padding=0,
                     output_padding=0, dilation=1, groups=1, output_size: ValuesLike = None, data_format="NCHW",
                     name=None):
    return _conv_transpose(2, x, weight, bias, stride, padding, output_padding, dilation, groups, output_size,
                           data_format)


@op
def conv3d_transpose(x: TensorLike, weight: TensorLike, bias: OptionalTensor = None, stride=1, padding=0,
                     output_padding=0, groups=1, dilation=1, output_size: ValuesLike = None, data_format="NCDHW",
                     name=None):
    return _conv_transpose(3, x, weight, bias, stride, padding, output_padding, dilation, groups, output_size,
                           data_format)


del torch
