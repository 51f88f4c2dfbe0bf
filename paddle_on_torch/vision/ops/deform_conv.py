"""Deformable convolution (v1 and v2): deform_conv2d and DeformConv2D."""
import math

import torch

from ... import nn
from ..._normalize import OptionalTensor, TensorLike, op
from ...nn.initializer import Normal
from ._common import _pair


def _dcn_sample(img, y, x):
    """Deformable-conv bilinear sampling of img [N, G, C, H, W] at y, x [N, G, S]; zero outside (-1, H) x (-1, W)."""
    N, G, C, H, W = img.shape
    inside = (y > -1) & (x > -1) & (y < H) & (x < W)
    y0, x0 = torch.floor(y), torch.floor(x)
    ly, lx = y - y0, x - x0
    y0, x0 = y0.long(), x0.long()
    flat = img.reshape(N, G, C, H * W)
    out = 0
    for dy, dx, wgt in ((0, 0, (1 - ly) * (1 - lx)), (0, 1, (1 - ly) * lx), (1, 0, ly * (1 - lx)), (1, 1, ly * lx)):
        yy, xx = y0 + dy, x0 + dx
        ok = inside & (yy >= 0) & (yy < H) & (xx >= 0) & (xx < W)
        idx = (yy.clamp(0, H - 1) * W + xx.clamp(0, W - 1))  # [N, G, S]
        v = torch.gather(flat, 3, idx[:, :, None, :].expand(N, G, C, idx.shape[-1]))
        out = out + v * (wgt * ok.to(wgt.dtype))[:, :, None, :]
    return out  # [N, G, C, S]


@op
def deform_conv2d(x: TensorLike, offset: TensorLike, weight: TensorLike, bias: OptionalTensor = None, stride=1,
                  padding=0, dilation=1, deformable_groups=1, groups=1, mask: OptionalTensor = None, name=None):
    """Deformable convolution v1 (mask None) / v2: each kernel tap samples x at its offset position."""
    sh, sw = _pair(stride, "stride")
    pdh, pdw = _pair(padding, "padding")
    dh, dw = _pair(dilation, "dilation")
    N, C, H, W = x.shape
    Cout, Cg, kh, kw = weight.shape
    K = kh * kw
    Ho = (H + 2 * pdh - (dh * (kh - 1) + 1)) // sh + 1
    Wo = (W + 2 * pdw - (dw * (kw - 1) + 1)) // sw + 1
    dg = deformable_groups
    if offset.shape[1] != 2 * dg * K:
        raise ValueError(f"The channel of offset ({offset.shape[1]}) must be 2 * deformable_groups * kernel_h * "
                         f"kernel_w ({2 * dg * K}).")
    if list(offset.shape) != [N, 2 * dg * K, Ho, Wo]:
        raise ValueError(f"(InvalidArgument) The shape of offset ({list(offset.shape)}) must be [N, 2 * deformable_groups * kernel_h "
                         f"* kernel_w, out_h, out_w] = {[N, 2 * dg * K, Ho, Wo]}.")
    if mask is not None and list(mask.shape) != [N, dg * K, Ho, Wo]:
        raise ValueError(f"The shape of mask ({list(mask.shape)}) must be {[N, dg * K, Ho, Wo]}.")
    off = offset.reshape(N, dg, K, 2, Ho, Wo)
    base_y = (torch.arange(Ho, device=x.device, dtype=x.dtype) * sh - pdh)[:, None]
    base_x = (torch.arange(Wo, device=x.device, dtype=x.dtype) * sw - pdw)[None, :]
    ky = (torch.arange(kh, device=x.device, dtype=x.dtype) * dh).repeat_interleave(kw)
    kx = (torch.arange(kw, device=x.device, dtype=x.dtype) * dw).repeat(kh)
    y = base_y + ky[:, None, None] + off[:, :, :, 0]  # [N, dg, K, Ho, Wo]
    xx = base_x + kx[:, None, None] + off[:, :, :, 1]
    img = x.reshape(N, dg, C // dg, H, W)
    cols = _dcn_sample(img, y.reshape(N, dg, -1), xx.reshape(N, dg, -1))  # [N, dg, C/dg, K*Ho*Wo]
    cols = cols.reshape(N, dg, C // dg, K, Ho * Wo)
    if mask is not None:
        cols = cols * mask.reshape(N, dg, 1, K, Ho * Wo)
    cols = cols.reshape(N, groups, C // groups * K, Ho * Wo)
    w = weight.reshape(groups, Cout // groups, Cg * K)
    out = torch.einsum("gok,ngkl->ngol", w, cols).reshape(N, Cout, Ho, Wo)
    if bias is not None:
        out = out + bias.reshape(1, -1, 1, 1)
    return out


class DeformConv2D(nn.Layer):
    """Layer form of deform_conv2d (weight [out, in/groups, kh, kw], bias [out])."""
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, deformable_groups=1,
                 groups=1, weight_attr=None, bias_attr=None):
        super().__init__()
        assert weight_attr is not False, "weight_attr should not be False in Conv."
        self._weight_attr, self._bias_attr = weight_attr, bias_attr
        self._deformable_groups, self._groups = deformable_groups, groups
        self._in_channels, self._out_channels = in_channels, out_channels
        self._channel_dim = 1
        self._stride = list(_pair(stride, "stride"))
        self._dilation = list(_pair(dilation, "dilation"))
        self._kernel_size = list(_pair(kernel_size, "kernel_size"))
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups.")
        self._padding = list(_pair(padding, "padding"))
        std = (2.0 / (math.prod(self._kernel_size) * in_channels)) ** 0.5
        self.weight = self.create_parameter(shape=[out_channels, in_channels // groups, *self._kernel_size],
                                            attr=weight_attr, default_initializer=Normal(0.0, std))
        self.bias = self.create_parameter(attr=bias_attr, shape=[out_channels], is_bias=True)

    def forward(self, x, offset, mask=None):
        return deform_conv2d(x=x, offset=offset, weight=self.weight, bias=self.bias, stride=self._stride,
                             padding=self._padding, dilation=self._dilation,
                             deformable_groups=self._deformable_groups, groups=self._groups, mask=mask)
