"""YOLO-family operators: prior_box, yolo_box, yolo_loss (Paddle's CPU kernel's targets and backward)."""
import math

import numpy as np
import torch

from ..._normalize import OptionalTensor, TensorLike, op


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
