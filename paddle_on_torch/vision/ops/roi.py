"""RoI pooling: roi_align, roi_pool, psroi_pool and their Layers."""
import math

import torch

from ... import nn
from ..._normalize import OptionalTensor, TensorLike, op
from ._common import _batch_ids, _pair, _round_half_away


def _bilinear(img, y, x):
    """Sample img [C, H, W] at float coordinates y, x (same shape S) with RoIAlign's border rule -> [C, *S]."""
    C, H, W = img.shape
    valid = (y >= -1.0) & (y <= H) & (x >= -1.0) & (x <= W)
    y = y.clamp(min=0)
    x = x.clamp(min=0)
    y_low = y.floor().long()
    x_low = x.floor().long()
    y_top = y_low >= H - 1
    x_top = x_low >= W - 1
    y_low = torch.where(y_top, torch.full_like(y_low, H - 1), y_low)
    x_low = torch.where(x_top, torch.full_like(x_low, W - 1), x_low)
    y = torch.where(y_top, y_low.to(y.dtype), y)
    x = torch.where(x_top, x_low.to(x.dtype), x)
    y_high = torch.where(y_top, y_low, y_low + 1)
    x_high = torch.where(x_top, x_low, x_low + 1)
    ly, lx = y - y_low, x - x_low
    hy, hx = 1 - ly, 1 - lx
    flat = img.reshape(C, H * W)

    def at(yy, xx):
        return flat[:, (yy * W + xx).reshape(-1)].reshape((C,) + tuple(yy.shape))

    out = (hy * hx) * at(y_low, x_low) + (hy * lx) * at(y_low, x_high) + \
          (ly * hx) * at(y_high, x_low) + (ly * lx) * at(y_high, x_high)
    return out * valid.to(out.dtype)


@op
def roi_align(x: TensorLike, boxes: TensorLike, boxes_num: OptionalTensor, output_size, spatial_scale=1.0,
              sampling_ratio=-1, aligned=True, name=None):
    """RoIAlign: average of bilinear samples in each of output_size bins of every box -> [K, C, ph, pw]."""
    assert boxes_num is not None, "boxes_num should not be None in dygraph mode."
    ph, pw = _pair(output_size, "output_size")
    batch = _batch_ids(boxes_num, boxes.shape[0], x.device)
    offset = 0.5 if aligned else 0.0
    outs = []
    for k in range(boxes.shape[0]):
        b = boxes[k].to(x.dtype) * spatial_scale - offset
        x1, y1, x2, y2 = (float(v) for v in b)
        rw, rh = x2 - x1, y2 - y1
        if not aligned:
            rw, rh = max(rw, 1.0), max(rh, 1.0)
        bh, bw = rh / ph, rw / pw
        gh = sampling_ratio if sampling_ratio > 0 else int(math.ceil(rh / ph))
        gw = sampling_ratio if sampling_ratio > 0 else int(math.ceil(rw / pw))
        count = max(gh * gw, 1)
        if gh <= 0 or gw <= 0:
            outs.append(x.new_zeros((x.shape[1], ph, pw)))
            continue
        iy = torch.arange(ph, dtype=x.dtype, device=x.device)[:, None] * bh + \
            (torch.arange(gh, dtype=x.dtype, device=x.device)[None, :] + 0.5) * bh / gh + y1
        ix = torch.arange(pw, dtype=x.dtype, device=x.device)[:, None] * bw + \
            (torch.arange(gw, dtype=x.dtype, device=x.device)[None, :] + 0.5) * bw / gw + x1
        yy = iy.reshape(ph, gh, 1, 1).expand(ph, gh, pw, gw)
        xx = ix.reshape(1, 1, pw, gw).expand(ph, gh, pw, gw)
        vals = _bilinear(x[int(batch[k])], yy, xx)  # [C, ph, gh, pw, gw]
        outs.append(vals.sum(dim=(2, 4)) / count)
    if not outs:
        return x.new_zeros((0, x.shape[1], ph, pw))
    return torch.stack(outs)


def _bins(start, size, n, limit, device):
    """Integer [start, end) of each of n bins over a box (floor/ceil, clipped to [0, limit])."""
    i = torch.arange(n, dtype=torch.float64, device=device)
    lo = (torch.floor(i * size / n) + start).clamp(0, limit).long()
    hi = (torch.ceil((i + 1) * size / n) + start).clamp(0, limit).long()
    return lo, hi


@op
def roi_pool(x: TensorLike, boxes: TensorLike, boxes_num: OptionalTensor, output_size, spatial_scale=1.0, name=None):
    """RoIPool: max over each of output_size bins of every (rounded) box -> [K, C, ph, pw]."""
    assert boxes_num is not None, "boxes_num should not be None in dygraph mode."
    ph, pw = _pair(output_size, "output_size")
    H, W = x.shape[2], x.shape[3]
    batch = _batch_ids(boxes_num, boxes.shape[0], x.device)
    coords = _round_half_away(boxes.to(torch.float64) * spatial_scale).long().tolist()
    out = x.new_zeros((boxes.shape[0], x.shape[1], ph, pw))
    for k, (x1, y1, x2, y2) in enumerate(coords):
        rh, rw = max(y2 - y1 + 1, 1), max(x2 - x1 + 1, 1)
        hs, he = _bins(y1, rh, ph, H, x.device)
        ws, we = _bins(x1, rw, pw, W, x.device)
        img = x[int(batch[k])]
        for i in range(ph):
            for j in range(pw):
                if he[i] > hs[i] and we[j] > ws[j]:
                    out[k, :, i, j] = img[:, hs[i]:he[i], ws[j]:we[j]].amax(dim=(1, 2))
    return out


@op
def psroi_pool(x: TensorLike, boxes: TensorLike, boxes_num: OptionalTensor, output_size, spatial_scale=1.0,
               name=None):
    """Position-sensitive RoI pooling (R-FCN): bin (i, j) of output channel c averages input channel
    (c * ph + i) * pw + j -> [K, C / (ph * pw), ph, pw]."""
    ph, pw = _pair(output_size, "output_size")
    assert x.dim() == 4, "Input features with shape should be (N, C, H, W)"
    if ph * pw == 0:
        raise ValueError("output_size should not contain 0.")
    out_c = int(x.shape[1] / (ph * pw))
    if out_c * ph * pw != x.shape[1]:
        raise ValueError(f"(InvalidArgument) the channel of input X ({x.shape[1]}) should equal the product of output_channels "
                         f"({out_c}), pooled_height ({ph}) and pooled_width ({pw})")
    H, W = x.shape[2], x.shape[3]
    batch = _batch_ids(boxes_num, boxes.shape[0], x.device)
    b = boxes.to(torch.float64)
    starts = _round_half_away(b[:, :2]) * spatial_scale
    ends = (_round_half_away(b[:, 2:]) + 1.0) * spatial_scale
    out = x.new_zeros((boxes.shape[0], out_c, ph, pw))
    for k in range(boxes.shape[0]):
        sx, sy = float(starts[k, 0]), float(starts[k, 1])
        rw = max(float(ends[k, 0]) - sx, 0.1)
        rh = max(float(ends[k, 1]) - sy, 0.1)
        img = x[int(batch[k])].reshape(out_c, ph, pw, H, W)
        for i in range(ph):
            hs = min(max(int(math.floor(rh / ph * i + sy)), 0), H)
            he = min(max(int(math.ceil(rh / ph * (i + 1) + sy)), 0), H)
            for j in range(pw):
                ws = min(max(int(math.floor(rw / pw * j + sx)), 0), W)
                we = min(max(int(math.ceil(rw / pw * (j + 1) + sx)), 0), W)
                if he > hs and we > ws:
                    out[k, :, i, j] = img[:, i, j, hs:he, ws:we].mean(dim=(1, 2))
    return out


class RoIPool(nn.Layer):
    """Layer form of roi_pool."""
    def __init__(self, output_size, spatial_scale=1.0):
        super().__init__()
        self._output_size = output_size
        self._spatial_scale = spatial_scale

    def forward(self, x, boxes, boxes_num):
        return roi_pool(x=x, boxes=boxes, boxes_num=boxes_num, output_size=self._output_size,
                        spatial_scale=self._spatial_scale)

    def extra_repr(self):
        return f"output_size={self._output_size}, spatial_scale={self._spatial_scale}"


class RoIAlign(nn.Layer):
    """Layer form of roi_align."""

    def __init__(self, output_size, spatial_scale=1.0):
        super().__init__()
        self._output_size = output_size
        self._spatial_scale = spatial_scale

    def forward(self, x, boxes, boxes_num, aligned=True):
        return roi_align(x=x, boxes=boxes, boxes_num=boxes_num, output_size=self._output_size,
                         spatial_scale=self._spatial_scale, aligned=aligned)


class PSRoIPool(nn.Layer):
    """Layer form of psroi_pool."""

    def __init__(self, output_size, spatial_scale=1.0):
        super().__init__()
        self.output_size = output_size
        self.spatial_scale = spatial_scale

    def forward(self, x, boxes, boxes_num):
        return psroi_pool(x, boxes, boxes_num, self.output_size, self.spatial_scale)
