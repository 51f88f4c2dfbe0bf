"""paddle.vision.ops: detection operators in plain torch, and ConvNormActivation."""
import math

import numpy as np
import torch

from .. import _report, nn
from .._normalize import OptionalTensor, TensorLike, op
from ..nn.initializer import Normal

__all__ = ["box_coder", "deform_conv2d", "DeformConv2D", "read_file", "roi_pool", "RoIPool", "psroi_pool",
           "PSRoIPool", "roi_align", "RoIAlign", "nms", "prior_box", "yolo_box", "distribute_fpn_proposals",
           "matrix_nms", "generate_proposals", "yolo_loss", "decode_jpeg"]


class ConvNormActivation(nn.Sequential):
    """Conv2D, then `norm_layer` (default BatchNorm2D), then `activation_layer` (default ReLU).

    The conv has a bias only when there is no norm layer (unless `bias` says otherwise); padding
    defaults to 'same' for odd kernels.
    """

    def __init__(self, in_channels, out_channels, kernel_size=3, stride=1, padding=None, groups=1,
                 norm_layer=nn.BatchNorm2D, activation_layer=nn.ReLU, dilation=1, bias=None):
        if padding is None:
            padding = (kernel_size - 1) // 2 * dilation
        if bias is None:
            bias = norm_layer is None
        layers = [nn.Conv2D(in_channels, out_channels, kernel_size, stride, padding, dilation=dilation, groups=groups,
                            bias_attr=bias)]
        if norm_layer is not None:
            layers.append(norm_layer(out_channels))
        if activation_layer is not None:
            layers.append(activation_layer())
        super().__init__(*layers)




def _pair(v, name):
    if isinstance(v, int):
        return (v, v)
    v = tuple(int(a) for a in v)
    if len(v) != 2:
        raise ValueError(f"The size of {name} must be 2, but received {list(v)}.")
    return v


def _round_half_away(t):
    """C's round(): halves go away from zero (torch.round goes to even)."""
    return torch.sign(t) * torch.floor(t.abs() + 0.5)


def _batch_ids(boxes_num, n_boxes, device):
    counts = boxes_num.to(torch.int64).reshape(-1)
    if int(counts.sum()) != n_boxes:
        raise ValueError(f"The sum of boxes_num ({int(counts.sum())}) must equal the number of boxes ({n_boxes}).")
    return torch.repeat_interleave(torch.arange(counts.numel(), device=device), counts)


# ---------------------------------------------------------------- NMS


def _iou_matrix(b):
    area = (b[:, 2] - b[:, 0]).clamp(min=0) * (b[:, 3] - b[:, 1]).clamp(min=0)
    lt = torch.maximum(b[:, None, :2], b[None, :, :2])
    rb = torch.minimum(b[:, None, 2:], b[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    union = area[:, None] + area[None, :] - inter
    return torch.where(union > 0, inter / union, torch.zeros_like(inter))


def _nms_in_order(boxes, iou_threshold):
    """Greedy NMS taking the boxes in the given order; indices (int64) of those kept."""
    n = boxes.shape[0]
    if n == 0:
        return torch.zeros([0], dtype=torch.int64, device=boxes.device)
    over = (_iou_matrix(boxes.detach()) > iou_threshold).cpu().numpy()
    keep = np.ones(n, dtype=bool)
    for i in range(n):
        if keep[i]:
            later = over[i, i + 1:]
            keep[i + 1:] &= ~later
    return torch.as_tensor(np.nonzero(keep)[0], dtype=torch.int64, device=boxes.device)


@op
def nms(boxes: TensorLike, iou_threshold=0.3, scores: OptionalTensor = None, category_idxs: OptionalTensor = None,
        categories=None, top_k=None):
    """Non-maximum suppression over [N, 4] (x1, y1, x2, y2) boxes; returns the kept indices (int64).

    Without `scores` the boxes are taken in their given order; with scores, by descending score, and
    with `category_idxs`/`categories` separately per category.
    """
    if scores is None:
        return _nms_in_order(boxes, iou_threshold)
    if category_idxs is None:
        order = torch.argsort(scores, descending=True, stable=True)
        return order[_nms_in_order(boxes[order], iou_threshold)]
    if top_k is not None:
        assert top_k <= scores.shape[0], "top_k should be smaller equal than the number of boxes"
    assert categories is not None, \
        "if category_idxs is given, categories which is a list of unique id of all categories is necessary"
    mask = torch.zeros(scores.shape, dtype=torch.bool, device=scores.device)
    for category_id in categories:
        idxs = torch.nonzero(category_idxs == category_id).reshape(-1)
        if idxs.numel() == 0:
            continue
        order = torch.argsort(scores[idxs], descending=True, stable=True)
        mask[idxs[order[_nms_in_order(boxes[idxs][order], iou_threshold)]]] = True
    keep = torch.nonzero(mask).reshape(-1)
    order = torch.argsort(scores[keep], descending=True, stable=True)
    if top_k is not None:
        order = order[:min(top_k, keep.numel())]
    return keep[order]


# ---------------------------------------------------------------- box_coder


@op
def box_coder(prior_box: TensorLike, prior_box_var, target_box: TensorLike, code_type="encode_center_size",
              box_normalized=True, axis=0, name=None):
    """Encode target boxes against prior boxes (center-size form) or decode offsets back to boxes."""
    from .._normalize import Tensor

    if isinstance(prior_box_var, Tensor):
        var = prior_box_var._t
    elif isinstance(prior_box_var, (list, tuple)):
        assert len(prior_box_var) == 4, "Input prior_box_var must be Variable or list|tuple with 4 elements."
        var = torch.tensor([float(v) for v in prior_box_var], dtype=prior_box.dtype, device=prior_box.device)
    else:
        raise TypeError("Input prior_box_var must be Variable or list|tuple")
    one = 0.0 if box_normalized else 1.0
    pw = prior_box[:, 2] - prior_box[:, 0] + one
    ph = prior_box[:, 3] - prior_box[:, 1] + one
    pcx = prior_box[:, 0] + pw / 2
    pcy = prior_box[:, 1] + ph / 2
    if code_type == "encode_center_size":
        t = target_box
        tw = t[:, 2] - t[:, 0] + one
        th = t[:, 3] - t[:, 1] + one
        tcx = ((t[:, 0] + t[:, 2]) / 2)[:, None]  # Paddle's kernel: the target's centre has no +1 shift
        tcy = ((t[:, 1] + t[:, 3]) / 2)[:, None]
        out = torch.stack([(tcx - pcx) / pw, (tcy - pcy) / ph, torch.log(torch.abs(tw[:, None] / pw)),
                           torch.log(torch.abs(th[:, None] / ph))], dim=-1)
        return out / (var if var.dim() == 1 else var[None, :, :])
    if code_type != "decode_center_size":
        raise ValueError(f"code_type must be 'encode_center_size' or 'decode_center_size', but got {code_type}")
    t = target_box
    if t.dim() == 2:
        t = t[:, None, :] if axis == 0 else t[None, :, :]
    # axis=0: prior j pairs with column j; axis=1: prior i pairs with row i
    expand = (lambda v: v[None, :]) if axis == 0 else (lambda v: v[:, None])
    pw, ph, pcx, pcy = expand(pw), expand(ph), expand(pcx), expand(pcy)
    v = var if var.dim() == 1 else (var[None, :, :] if axis == 0 else var[:, None, :])
    v = v.expand(t.shape)
    cx = v[..., 0] * t[..., 0] * pw + pcx
    cy = v[..., 1] * t[..., 1] * ph + pcy
    w = torch.exp(v[..., 2] * t[..., 2]) * pw
    h = torch.exp(v[..., 3] * t[..., 3]) * ph
    return torch.stack([cx - w / 2, cy - h / 2, cx + w / 2 - one, cy + h / 2 - one], dim=-1)


# ---------------------------------------------------------------- RoI pooling


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
        raise ValueError(f"the channel of input X ({x.shape[1]}) should equal the product of output_channels "
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


# ---------------------------------------------------------------- deformable convolution


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
        raise ValueError(f"The shape of offset ({list(offset.shape)}) must be [N, 2 * deformable_groups * kernel_h "
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


# ---------------------------------------------------------------- prior_box / yolo_box


def _as_list(v):
    return list(v) if isinstance(v, (list, tuple)) else [v]


@op
def prior_box(input: TensorLike, image: TensorLike, min_sizes, max_sizes=None, aspect_ratios=[1.0],
              variance=[0.1, 0.1, 0.2, 0.2], flip=False, clip=False, steps=[0.0, 0.0], offset=0.5,
              min_max_aspect_ratios_order=False, name=None):
    """SSD prior boxes for every position of `input` ([H, W, num_priors, 4]) and their variances."""
    min_sizes = [float(v) for v in _as_list(min_sizes)]
    steps = _as_list(steps)
    if len(steps) != 2:
        raise ValueError("steps should be (step_w, step_h)")
    max_sizes = [] if max_sizes is None else [float(v) for v in _as_list(max_sizes)]
    if max_sizes and len(max_sizes) != len(min_sizes):
        raise ValueError(f"(InvalidArgument) The length of min_size and max_size must be equal. But received: "
                         f"min_size's length is {len(min_sizes)}, max_size's length is {len(max_sizes)}.")
    ars = [1.0]
    for ar in _as_list(aspect_ratios):
        ar = float(ar)
        if any(abs(ar - a) < 1e-6 for a in ars):
            continue
        ars.append(ar)
        if flip:
            ars.append(1.0 / ar)
    fh, fw = int(input.shape[2]), int(input.shape[3])
    ih, iw = int(image.shape[2]), int(image.shape[3])
    step_w, step_h = float(steps[0]), float(steps[1])
    if step_w == 0 or step_h == 0:
        step_w, step_h = iw / fw, ih / fh
    half = []  # (half width, half height) of each prior, in Paddle's order
    for s, mn in enumerate(min_sizes):
        by_ratio = [(mn * math.sqrt(a) / 2, mn / math.sqrt(a) / 2) for a in ars]
        by_max = [(math.sqrt(mn * max_sizes[s]) / 2,) * 2] if max_sizes else []
        if min_max_aspect_ratios_order:
            half += by_ratio[:1] + by_max + [b for a, b in zip(ars, by_ratio) if abs(a - 1.0) >= 1e-6]
        else:
            half += by_ratio + by_max
    dt = input.dtype if input.dtype == torch.float64 else torch.float32
    dev = input.device
    cx = (torch.arange(fw, dtype=torch.float64, device=dev) + offset) * step_w
    cy = (torch.arange(fh, dtype=torch.float64, device=dev) + offset) * step_h
    hw = torch.tensor(half, dtype=torch.float64, device=dev).reshape(-1, 2)
    cx = cx[None, :, None].expand(fh, fw, hw.shape[0])
    cy = cy[:, None, None].expand(fh, fw, hw.shape[0])
    box = torch.stack([(cx - hw[:, 0]) / iw, (cy - hw[:, 1]) / ih, (cx + hw[:, 0]) / iw, (cy + hw[:, 1]) / ih], -1)
    if clip:
        box = box.clamp(0.0, 1.0)
    var = torch.tensor([float(v) for v in _as_list(variance)], dtype=torch.float32, device=dev)  # float attrs
    var = var.to(dt).expand(box.shape).contiguous()
    return box.to(dt), var


@op
def yolo_box(x: TensorLike, img_size: TensorLike, anchors, class_num, conf_thresh, downsample_ratio, clip_bbox=True,
             name=None, scale_x_y=1.0, iou_aware=False, iou_aware_factor=0.5):
    """Decode a YOLOv3 head [N, C, H, W] into boxes [N, S*H*W, 4] and scores [N, S*H*W, class_num].

    Boxes whose confidence is under `conf_thresh` are all zeros (boxes and scores), as in Paddle.
    """
    anchors = [int(a) for a in anchors]
    an = len(anchors) // 2
    n, c, h, w = (int(d) for d in x.shape)
    per = 6 + class_num if iou_aware else 5 + class_num
    if c != an * per:
        raise ValueError(f"(InvalidArgument) The channel of Input(X) must be {an * per} (anchors {an}, class_num "
                         f"{class_num}, iou_aware {iou_aware}), but received {c}.")
    if iou_aware:
        iou = torch.sigmoid(x[:, :an])  # [N, S, H, W]
        p = x[:, an:].reshape(n, an, 5 + class_num, h, w)
    else:
        p = x.reshape(n, an, 5 + class_num, h, w)
    conf = torch.sigmoid(p[:, :, 4])
    if iou_aware:
        conf = conf.pow(1 - iou_aware_factor) * iou.pow(iou_aware_factor)
    keep = (conf >= conf_thresh)[..., None]  # [N, S, H, W, 1]
    img_h = img_size[:, 0].to(x.dtype)[:, None, None, None]
    img_w = img_size[:, 1].to(x.dtype)[:, None, None, None]
    scale_x_y = float(np.float32(scale_x_y))  # float attributes in the kernel
    bias = float(np.float32(-0.5 * (scale_x_y - 1.0)))
    gx = torch.arange(w, dtype=x.dtype, device=x.device)[None, None, None, :]
    gy = torch.arange(h, dtype=x.dtype, device=x.device)[None, None, :, None]
    aw = torch.tensor(anchors[0::2], dtype=x.dtype, device=x.device)[None, :, None, None]
    ah = torch.tensor(anchors[1::2], dtype=x.dtype, device=x.device)[None, :, None, None]
    cx = (gx + torch.sigmoid(p[:, :, 0]) * scale_x_y + bias) * img_w / w
    cy = (gy + torch.sigmoid(p[:, :, 1]) * scale_x_y + bias) * img_h / h
    bw = torch.exp(p[:, :, 2]) * aw * img_w / (downsample_ratio * w)
    bh = torch.exp(p[:, :, 3]) * ah * img_h / (downsample_ratio * h)
    x1, y1, x2, y2 = cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2
    if clip_bbox:
        x1, y1 = x1.clamp(min=0), y1.clamp(min=0)
        x2, y2 = torch.minimum(x2, img_w - 1), torch.minimum(y2, img_h - 1)
    boxes = torch.stack([x1, y1, x2, y2], -1)
    scores = conf[..., None] * torch.sigmoid(p[:, :, 5:].permute(0, 1, 3, 4, 2))
    zero = torch.zeros((), dtype=x.dtype, device=x.device)
    boxes = torch.where(keep, boxes, zero).reshape(n, an * h * w, 4)
    scores = torch.where(keep, scores, zero).reshape(n, an * h * w, class_num)
    return boxes, scores


def _yolo_check(x, gt_box, gt_label, gt_score, anchors, anchor_mask, class_num):
    if x.dim() != 4:
        raise ValueError(f"(InvalidArgument) Input(X) should be a 4-D tensor. But received X dimension size({x.dim()})")
    if x.shape[2] != x.shape[3]:
        raise ValueError(f"(InvalidArgument) Input(X) dim[3] and dim[4] should be equal. But received "
                         f"dim[3]({x.shape[2]}) != dim[4]({x.shape[3]})")
    if len(anchors) % 2:
        raise ValueError(f"(InvalidArgument) Attr(anchors) length should be even integer. But received anchors "
                         f"length({len(anchors)})")
    if class_num <= 0:
        raise ValueError(f"(InvalidArgument) Attr(class_num) should be an integer greater then 0. But received "
                         f"class_num({class_num})")
    if x.shape[1] != len(anchor_mask) * (5 + class_num):
        raise ValueError(f"(InvalidArgument) Input(X) dim[1] should be equal to (anchor_mask_number * (5 + "
                         f"class_num)). But received dim[1]({x.shape[1]}) != "
                         f"{len(anchor_mask) * (5 + class_num)}")
    for m in anchor_mask:
        if not 0 <= m < len(anchors) // 2:
            raise ValueError(f"(InvalidArgument) Attr(anchor_mask) should not crossover Attr(anchors). But received "
                             f"anchor_mask[i]({m}) >= anchor_num({len(anchors) // 2})")
    if gt_box.dim() != 3 or gt_box.shape[2] != 4:
        raise ValueError(f"(InvalidArgument) Input(GTBox) should be a 3-D tensor with last dimension 4, but received "
                         f"shape {list(gt_box.shape)}")
    if gt_label.dim() != 2 or gt_label.shape[1] != gt_box.shape[1]:
        raise ValueError(f"(InvalidArgument) Input(GTBox) and Input(GTLabel) dim[1] should be same, but received "
                         f"GTLabel shape {list(gt_label.shape)}")
    if gt_score is not None and (gt_score.dim() != 2 or gt_score.shape[1] != gt_box.shape[1]):
        raise ValueError(f"(InvalidArgument) Input(GTBox) and Input(GTScore) dim[1] should be same, but received "
                         f"GTScore shape {list(gt_score.shape)}")
    if x.dtype not in (torch.float32, torch.float64) or gt_box.dtype != x.dtype or \
            (gt_score is not None and gt_score.dtype != x.dtype):
        raise ValueError(f"(InvalidArgument) yolo_loss takes float32 or float64 X with GTBox/GTScore of the same "
                         f"dtype, but received {x.dtype}, {gt_box.dtype}")
    if gt_label.dtype != torch.int32:
        raise ValueError(f"(InvalidArgument) The type of data we are trying to retrieve (int32) does not match the "
                         f"type of data ({str(gt_label.dtype).replace('torch.', '')}) of GTLabel.")


def _center_iou(x1, w1, y1, h1, x2, w2, y2, h2):
    """IoU of center-size boxes as Paddle's yolo kernels compute it (no intersection if either side < 0)."""
    iw = torch.minimum(x1 + w1 / 2, x2 + w2 / 2) - torch.maximum(x1 - w1 / 2, x2 - w2 / 2)
    ih = torch.minimum(y1 + h1 / 2, y2 + h2 / 2) - torch.maximum(y1 - h1 / 2, y2 - h2 / 2)
    inter = torch.where((iw < 0) | (ih < 0), torch.zeros_like(iw), iw * ih)
    return inter / (w1 * h1 + w2 * h2 - inter)


def _yolo_targets(x, gt_box, gt_label, gt_score, anchors, anchor_mask, class_num, ignore_thresh, downsample_ratio,
                  use_label_smooth, scale_x_y):
    """Everything Paddle's CPU kernel decides without gradients: the objectness mask and the matched entries."""
    n, _, h, w = x.shape
    m, b = len(anchor_mask), gt_box.shape[1]
    dt, dev = x.dtype, x.device
    input_size = downsample_ratio * h
    scale = float(np.float32(scale_x_y))
    bias = float(np.float32(-0.5 * (scale - 1.0)))
    p = x.reshape(n, m, 5 + class_num, h, w)
    aw = torch.tensor([anchors[2 * a] for a in anchor_mask], dtype=dt, device=dev)[None, :, None, None]
    ah = torch.tensor([anchors[2 * a + 1] for a in anchor_mask], dtype=dt, device=dev)[None, :, None, None]
    gx = torch.arange(w, dtype=dt, device=dev)[None, None, None, :]
    gy = torch.arange(h, dtype=dt, device=dev)[None, None, :, None]
    # the kernel divides x by the grid height too (it requires h == w)
    px = (gx + torch.sigmoid(p[:, :, 0]) * scale + bias) / h
    py = (gy + torch.sigmoid(p[:, :, 1]) * scale + bias) / h
    pw = torch.exp(p[:, :, 2]) * aw / input_size
    ph = torch.exp(p[:, :, 3]) * ah / input_size
    valid = (gt_box[..., 2] >= 1e-6) & (gt_box[..., 3] >= 1e-6)  # [n, b]
    g = [gt_box[..., k][:, None, None, None, :] for k in range(4)]
    iou = _center_iou(px[..., None], pw[..., None], py[..., None], ph[..., None], g[0], g[2], g[1], g[3])
    iou = torch.where(valid[:, None, None, None, :] & (iou > 0), iou, torch.zeros_like(iou))  # NaN never wins
    obj = torch.zeros([n, m, h, w], dtype=dt, device=dev)
    if b:
        obj[iou.amax(-1) > ignore_thresh] = -1

    # each valid gt box picks its best anchor by shape alone (first maximum; IoU kept in float as the kernel does)
    an = len(anchors) // 2
    a_w = torch.tensor(anchors[0::2], dtype=dt, device=dev) / input_size
    a_h = torch.tensor(anchors[1::2], dtype=dt, device=dev) / input_size
    zero = torch.zeros((), dtype=dt, device=dev)
    a_iou = _center_iou(zero, a_w, zero, a_h, zero, gt_box[..., 2:3], zero, gt_box[..., 3:4]).float()
    a_iou = torch.where(a_iou > 0, a_iou, torch.zeros_like(a_iou))
    best_n = a_iou.argmax(-1) if an else torch.zeros([n, b], dtype=torch.int64, device=dev)
    to_mask = torch.full([max(an, 1)], -1, dtype=torch.int64, device=dev)
    for j, a in enumerate(anchor_mask):
        if to_mask[a] < 0:
            to_mask[a] = j
    mask_idx = torch.where(valid, to_mask[best_n], torch.full_like(best_n, -1))
    ii, tt = torch.nonzero(mask_idx >= 0, as_tuple=True)  # row-major: the kernel's (image, box) order
    # C's int() truncates; a centre at exactly 1.0 would index past the grid in Paddle's kernel (memory it does
    # not own), so it is kept on the last cell here
    gi = (gt_box[ii, tt, 0] * w).to(torch.int64).clamp(0, w - 1)
    gj = (gt_box[ii, tt, 1] * h).to(torch.int64).clamp(0, h - 1)
    mi = mask_idx[ii, tt]
    score = gt_score[ii, tt] if gt_score is not None else torch.ones(ii.shape, dtype=dt, device=dev)
    obj[ii, mi, gj, gi] = score  # later boxes overwrite earlier ones in the same cell
    an_sel = best_n[ii, tt]
    anc = torch.tensor(anchors, dtype=dt, device=dev).reshape(-1, 2)
    gb = gt_box[ii, tt]
    tx = gb[:, 0] * h - gi
    ty = gb[:, 1] * h - gj
    tw = torch.log(gb[:, 2] * input_size / anc[an_sel, 0])
    th = torch.log(gb[:, 3] * input_size / anc[an_sel, 1])
    box_w = (2.0 - gb[:, 2] * gb[:, 3]) * score
    pos, neg = 1.0, 0.0
    if use_label_smooth:
        smooth = min(1.0 / class_num, 1.0 / 40)
        pos, neg = 1.0 - smooth, smooth
    labels = torch.full([ii.numel(), class_num], neg, dtype=dt, device=dev)
    labels[torch.arange(ii.numel(), device=dev), gt_label[ii, tt].long().clamp(0, class_num - 1)] = pos
    labels[(gt_label[ii, tt] < 0) | (gt_label[ii, tt] >= class_num)] = neg  # out-of-range labels match no class
    return obj, (ii, mi, gj, gi), torch.stack([tx, ty, tw, th], 1), box_w, labels, score


def _sce(x, label):
    return torch.clamp(x, min=0) - x * label + torch.log1p(torch.exp(-x.abs()))


class _YoloLossFn(torch.autograd.Function):
    """Paddle's yolo_loss; the backward is Paddle's hand-written one (a later gt box in the same cell and anchor
    replaces, not adds to, an earlier one's location and class gradients; L1's gradient at 0 is -1)."""

    @staticmethod
    def forward(ctx, x, targets, class_num):
        obj, (ii, mi, gj, gi), t, box_w, labels, score = targets
        n, _, h, w = x.shape
        p = x.reshape(n, obj.shape[1], 5 + class_num, h, w)
        cell = p[ii, mi, :, gj, gi]  # [k, 5 + class_num]
        per_gt = (_sce(cell[:, 0], t[:, 0]) + _sce(cell[:, 1], t[:, 1]) + (cell[:, 2] - t[:, 2]).abs()
                  + (cell[:, 3] - t[:, 3]).abs()) * box_w + (_sce(cell[:, 5:], labels) * score[:, None]).sum(1)
        loss = torch.zeros([n], dtype=x.dtype, device=x.device).index_add_(0, ii, per_gt)
        xo = p[:, :, 4]
        o = torch.where(obj > 1e-5, _sce(xo, torch.ones_like(xo)) * obj,
                        torch.where(obj > -0.5, _sce(xo, torch.zeros_like(xo)), torch.zeros_like(xo)))
        loss = loss + o.sum((1, 2, 3))
        ctx.save_for_backward(x, obj, ii, mi, gj, gi, t, box_w, labels, score)
        ctx.class_num = class_num
        return loss

    @staticmethod
    def backward(ctx, grad):
        x, obj, ii, mi, gj, gi, t, box_w, labels, score = ctx.saved_tensors
        n, _, h, w = x.shape
        m = obj.shape[1]
        p = x.reshape(n, m, 5 + ctx.class_num, h, w)
        gx = torch.zeros_like(p)
        xo = p[:, :, 4]
        g = grad[:, None, None, None]
        sig = torch.sigmoid(xo)
        neg = torch.where(obj > -0.5, sig * g, torch.zeros_like(sig))
        gx[:, :, 4] = torch.where(obj > 1e-5, (sig - 1) * obj * g, neg)
        if ii.numel():
            key = ((ii * m + mi) * h + gj) * w + gi
            later = key[:, None] == key[None, :]
            last = ~torch.triu(later, diagonal=1).any(1)  # the kernel writes, so the last box in a cell wins
            ii, mi, gj, gi, t, box_w, labels, score = (v[last] for v in (ii, mi, gj, gi, t, box_w, labels, score))
            cell = p[ii, mi, :, gj, gi]
            gl = grad[ii]
            loc = torch.stack([torch.sigmoid(cell[:, 0]) - t[:, 0], torch.sigmoid(cell[:, 1]) - t[:, 1],
                               torch.where(cell[:, 2] > t[:, 2], 1.0, -1.0).to(x.dtype),
                               torch.where(cell[:, 3] > t[:, 3], 1.0, -1.0).to(x.dtype)], 1) * (box_w * gl)[:, None]
            cls = (torch.sigmoid(cell[:, 5:]) - labels) * (score * gl)[:, None]
            gx[ii, mi, :4, gj, gi] = loc
            gx[ii, mi, 5:, gj, gi] = cls
        return gx.reshape(x.shape), None, None


@op
def yolo_loss(x: TensorLike, gt_box: TensorLike, gt_label: TensorLike, anchors, anchor_mask, class_num,
              ignore_thresh, downsample_ratio, gt_score: OptionalTensor = None, use_label_smooth=True, name=None,
              scale_x_y=1.0):
    """YOLOv3 loss per image [N], following Paddle's CPU kernel (and its hand-written gradient)."""
    anchors, anchor_mask, class_num = [int(a) for a in anchors], [int(a) for a in anchor_mask], int(class_num)
    _yolo_check(x, gt_box, gt_label, gt_score, anchors, anchor_mask, class_num)
    with torch.no_grad():
        targets = _yolo_targets(x.detach(), gt_box.detach(), gt_label, None if gt_score is None else gt_score.detach(),
                                anchors, anchor_mask, class_num, float(np.float32(ignore_thresh)),
                                int(downsample_ratio), use_label_smooth, scale_x_y)
    return _YoloLossFn.apply(x, targets, class_num)


# ---------------------------------------------------------------- FPN


@op
def distribute_fpn_proposals(fpn_rois: TensorLike, min_level, max_level, refer_level, refer_scale, pixel_offset=False,
                             rois_num: OptionalTensor = None, name=None):
    """Assign each RoI to an FPN level by its scale: (rois per level, restore index [N, 1], rois_num per level)."""
    assert max_level > 0 and min_level > 0, "min_level and max_level should be greater than 0"
    num_lvl = max_level - min_level + 1
    assert num_lvl > 1, "max_level should be greater than min_level"
    assert num_lvl < 100, "Only support max to 100 levels, (max_level - min_level + 1 < 100)"
    assert rois_num is not None, "rois_num should not be None in dygraph mode."
    r = fpn_rois
    one = 1.0 if pixel_offset else 0.0
    w, h = r[:, 2] - r[:, 0] + one, r[:, 3] - r[:, 1] + one
    area = torch.where((r[:, 2] < r[:, 0]) | (r[:, 3] < r[:, 1]), torch.zeros_like(w), w * h)
    ratio = (torch.sqrt(area) / refer_scale).to(torch.float64)  # the kernel adds 1e-8 in double
    lvl = torch.floor(torch.log2(ratio + 1e-8) + refer_level).clamp(min_level, max_level).to(torch.int64)
    img = _batch_ids(rois_num, r.shape[0], r.device)
    order = torch.argsort(lvl, stable=True)
    restore = torch.empty_like(order)
    restore[order] = torch.arange(order.numel(), device=order.device)
    multi, nums = [], []
    n_img = rois_num.numel()
    for level in range(min_level, max_level + 1):
        sel = lvl == level
        multi.append(r[sel])
        nums.append(torch.bincount(img[sel], minlength=n_img).to(torch.int32))
    return multi, restore.to(torch.int32).reshape(-1, 1), nums


# ---------------------------------------------------------------- matrix_nms / generate_proposals


def _jaccard(a, b, normalized):
    """Paddle's JaccardOverlap between one box `a` [4] and boxes `b` [M, 4] (+1 pixel sizes unless normalized)."""
    norm = 0.0 if normalized else 1.0

    def area(x):
        bad = (x[..., 2] < x[..., 0]) | (x[..., 3] < x[..., 1])
        return torch.where(bad, torch.zeros_like(x[..., 0]), (x[..., 2] - x[..., 0] + norm) * (x[..., 3] - x[..., 1] + norm))

    apart = (b[:, 0] > a[2]) | (b[:, 2] < a[0]) | (b[:, 1] > a[3]) | (b[:, 3] < a[1])
    iw = torch.minimum(a[2], b[:, 2]) - torch.maximum(a[0], b[:, 0]) + norm
    ih = torch.minimum(a[3], b[:, 3]) - torch.maximum(a[1], b[:, 1]) + norm
    inter = iw * ih
    iou = inter / (area(a) + area(b) - inter)
    return torch.where(apart, torch.zeros_like(iou), iou)


def _matrix_nms_class(boxes, score, score_threshold, post_threshold, nms_top_k, normalized, use_gaussian, sigma):
    cand = torch.nonzero(score > score_threshold).reshape(-1)
    if cand.numel() == 0:
        return cand, score[:0]
    order = cand[torch.argsort(score[cand], descending=True, stable=True)]
    if nms_top_k > -1:
        order = order[:nms_top_k]
    n = order.numel()
    b, s = boxes[order], score[order]
    iou = torch.zeros([n, n], dtype=boxes.dtype, device=boxes.device)  # iou[i, j] for j < i
    for i in range(1, n):
        iou[i, :i] = _jaccard(b[i], b[:i], normalized)
    iou_max = iou.max(dim=1).values if n > 1 else torch.zeros([n], dtype=boxes.dtype, device=boxes.device)
    iou_max = iou_max.clamp(min=0)
    if use_gaussian:
        decay = torch.exp((iou_max[None, :] ** 2 - iou ** 2) * sigma)
    else:
        decay = (1.0 - iou) / (1.0 - iou_max[None, :])
    lower = torch.tril(torch.ones([n, n], dtype=torch.bool, device=boxes.device), -1)
    one = torch.ones((), dtype=boxes.dtype, device=boxes.device)
    min_decay = torch.minimum(torch.where(lower, decay, one).min(dim=1).values, one)
    ds = min_decay * s
    ds[0] = s[0]
    keep = ds > post_threshold
    return order[keep], ds[keep]


@op
def matrix_nms(bboxes: TensorLike, scores: TensorLike, score_threshold, post_threshold, nms_top_k, keep_top_k,
               use_gaussian=False, gaussian_sigma=2.0, background_label=0, normalized=True, return_index=False,
               return_rois_num=True, name=None):
    """Matrix NMS (SOLOv2) per image and class: (out [K, 6] = label, score, box; rois_num; index [K, 1])."""
    n_img, n_cls, n_box = scores.shape
    box_dim = bboxes.shape[2]
    outs, idxs, nums = [], [], []
    for i in range(n_img):
        sel_idx, sel_score, sel_cls = [], [], []
        for c in range(n_cls):
            if c == background_label:
                continue
            k, ds = _matrix_nms_class(bboxes[i].detach(), scores[i, c].detach(), score_threshold, post_threshold,
                                      nms_top_k, normalized, use_gaussian, gaussian_sigma)
            sel_idx.append(k)
            sel_score.append(ds)
            sel_cls.append(torch.full_like(ds, c))
        k = torch.cat(sel_idx) if sel_idx else torch.zeros([0], dtype=torch.int64, device=scores.device)
        ds = torch.cat(sel_score) if sel_score else scores.new_zeros([0])
        cl = torch.cat(sel_cls) if sel_cls else scores.new_zeros([0])
        order = torch.argsort(ds, descending=True, stable=True)
        if keep_top_k > -1:
            order = order[:keep_top_k]
        k, ds, cl = k[order], ds[order], cl[order]
        outs.append(torch.cat([cl[:, None], ds[:, None], bboxes[i].detach()[k]], 1))
        idxs.append(k + i * n_box)
        nums.append(k.numel())
    out = torch.cat(outs) if outs else scores.new_zeros([0, box_dim + 2])
    index = (torch.cat(idxs) if idxs else torch.zeros([0], dtype=torch.int64)).to(torch.int32).reshape(-1, 1)
    rois_num = torch.tensor(nums, dtype=torch.int32, device=scores.device)
    return out, (rois_num if return_rois_num else None), (index if return_index else None)


_BBOX_CLIP = math.log(1000.0 / 16.0)


def _nms_paddle(boxes, scores, thresh, eta, normalized):
    """phi::funcs::NMS: by descending score (ties: later index first), adaptive threshold via eta."""
    order = torch.argsort(scores, stable=True).flip(0).tolist()
    kept = []
    adaptive = thresh
    for idx in order:
        flag = True
        if kept:
            ov = _jaccard(boxes[idx], boxes[kept], normalized)
            flag = bool((ov <= adaptive).all())
        if flag:
            kept.append(idx)
            if eta < 1 and adaptive > 0.5:
                adaptive *= eta
    return torch.tensor(kept, dtype=torch.int64, device=boxes.device)


@op
def generate_proposals(scores: TensorLike, bbox_deltas: TensorLike, img_size: TensorLike, anchors: TensorLike,
                       variances: TensorLike, pre_nms_top_n=6000, post_nms_top_n=1000, nms_thresh=0.5, min_size=0.1,
                       eta=1.0, pixel_offset=False, return_rois_num=False, name=None):
    """RPN proposals: decode anchors by deltas, clip, drop small boxes, NMS; (rois, probs, rois_num)."""
    assert return_rois_num, "return_rois_num should be True in dygraph mode."
    n = scores.shape[0]
    sc = scores.detach().permute(0, 2, 3, 1).reshape(n, -1)
    dl = bbox_deltas.detach().permute(0, 2, 3, 1).reshape(n, -1, 4)
    an = anchors.detach().reshape(-1, 4)
    va = variances.detach().reshape(-1, 4)
    im = img_size.detach().to(scores.dtype)
    off = 1.0 if pixel_offset else 0.0
    rois, probs, nums = [], [], []
    for i in range(n):
        s = sc[i]
        order = torch.argsort(s, descending=True, stable=True)
        if 0 < pre_nms_top_n < s.numel():
            order = order[:pre_nms_top_n]
        s, d, a, v = s[order], dl[i][order], an[order], va[order]
        aw, ah = a[:, 2] - a[:, 0] + off, a[:, 3] - a[:, 1] + off
        acx, acy = a[:, 0] + 0.5 * aw, a[:, 1] + 0.5 * ah
        cx, cy = v[:, 0] * d[:, 0] * aw + acx, v[:, 1] * d[:, 1] * ah + acy
        bw = torch.exp(torch.clamp(v[:, 2] * d[:, 2], max=_BBOX_CLIP)) * aw
        bh = torch.exp(torch.clamp(v[:, 3] * d[:, 3], max=_BBOX_CLIP)) * ah
        h, w = im[i, 0], im[i, 1]
        zero = torch.zeros((), dtype=s.dtype, device=s.device)
        x1 = torch.maximum(torch.minimum(cx - bw / 2, w - off), zero)
        y1 = torch.maximum(torch.minimum(cy - bh / 2, h - off), zero)
        x2 = torch.maximum(torch.minimum(cx + bw / 2 - off, w - off), zero)
        y2 = torch.maximum(torch.minimum(cy + bh / 2 - off, h - off), zero)
        props = torch.stack([x1, y1, x2, y2], 1)
        ws, hs = x2 - x1 + off, y2 - y1 + off
        ms = max(float(min_size), 1.0)
        keep = (ws >= ms) & (hs >= ms)
        if pixel_offset:
            keep &= (x1 + ws / 2 <= w) & (y1 + hs / 2 <= h)
        keep = torch.nonzero(keep).reshape(-1)
        if keep.numel() == 0:
            props, s = props.new_zeros([1, 4]), s.new_zeros([1])
        else:
            props, s = props[keep], s[keep]
            if nms_thresh > 0:
                k = _nms_paddle(props, s, nms_thresh, eta, not pixel_offset)
                if 0 < post_nms_top_n < k.numel():
                    k = k[:post_nms_top_n]
                props, s = props[k], s[k]
        rois.append(props)
        probs.append(s[:, None])
        nums.append(props.shape[0])
    rpn_rois = torch.cat(rois) if rois else sc.new_zeros([0, 4])
    rpn_probs = torch.cat(probs) if probs else sc.new_zeros([0, 1])
    return rpn_rois, rpn_probs, torch.tensor(nums, dtype=torch.int32, device=scores.device)


# ---------------------------------------------------------------- files


def read_file(filename, name=None):
    """The bytes of a file as a 1-D uint8 Tensor."""
    from .._normalize import wrap

    try:
        with open(filename, "rb") as f:
            data = f.read()
    except OSError as e:  # Paddle's read_file kernel fails with a RuntimeError on a missing file
        raise RuntimeError(f"(PreconditionNotMet) read_file cannot read {filename!r}: {e}") from e
    return wrap(torch.frombuffer(bytearray(data), dtype=torch.uint8))


def decode_jpeg(x, mode="unchanged", name=None):
    """Paddle 3.3.1 decodes JPEG only on GPU (nvJPEG); its CPU kernel raises, and so does this one."""
    raise _report.unsupported("paddle.vision.ops.decode_jpeg", ": Paddle's DecodeJpeg op only supports GPU (its "
                              "CPU kernel raises too); decode with paddle.vision.image_load or PIL instead")


__getattr__ = _report.module_getattr("paddle.vision.ops")
