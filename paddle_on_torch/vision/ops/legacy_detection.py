"""Detection operators PaddleDetection reaches only as Paddle operators (paddle._C_ops / _legacy_C_ops, or
LayerHelper.append_op): anchor_generator (Faster R-CNN's anchors) and multiclass_nms3 (per-class greedy NMS with
Paddle's adaptive threshold, then keep_top_k over all classes).  Written from the operators' definitions, on the
CPU as Paddle's kernels run them (these are post-processing steps, not on the training path)."""
import math

import torch

__all__ = ["anchor_generator", "multiclass_nms3"]


def anchor_generator(x, anchor_sizes, aspect_ratios, variances, stride=(16.0, 16.0), offset=0.5):
    """Anchors [H, W, A, 4] (xmin, ymin, xmax, ymax; A = ratios x sizes, ratios outer) centred on each cell of the
    feature map x [N, C, H, W], and their variances broadcast to the same shape."""
    h, w = int(x.shape[2]), int(x.shape[3])
    sw, sh = float(stride[0]), float(stride[1])
    shapes = []
    for r in aspect_ratios:
        base_w = round(math.sqrt(sw * sh / r))  # the stride's area at this ratio, rounded to whole pixels
        base_h = round(base_w * r)
        for s in anchor_sizes:
            shapes.append((s / sw * base_w, s / sh * base_h))
    wh = torch.tensor(shapes, dtype=torch.float64)  # [A, 2]
    xs = torch.arange(w, dtype=torch.float64) * sw + offset * (sw - 1)
    ys = torch.arange(h, dtype=torch.float64) * sh + offset * (sh - 1)
    cx = xs.view(1, w, 1).expand(h, w, len(shapes))
    cy = ys.view(h, 1, 1).expand(h, w, len(shapes))
    half_w, half_h = 0.5 * (wh[:, 0] - 1), 0.5 * (wh[:, 1] - 1)
    anchors = torch.stack([cx - half_w, cy - half_h, cx + half_w, cy + half_h], -1).to(x.dtype)
    var = torch.tensor(list(variances), dtype=x.dtype).expand(h, w, len(shapes), len(variances)).contiguous()
    return anchors, var


def _iou(box, boxes, normalized):
    """Jaccard overlap of one box with each of `boxes` (pixel boxes count both ends: +1)."""
    one = 0.0 if normalized else 1.0
    iw = (torch.minimum(box[2], boxes[:, 2]) - torch.maximum(box[0], boxes[:, 0]) + one).clamp(min=0)
    ih = (torch.minimum(box[3], boxes[:, 3]) - torch.maximum(box[1], boxes[:, 1]) + one).clamp(min=0)
    inter = iw * ih
    area = (box[2] - box[0] + one) * (box[3] - box[1] + one)
    areas = (boxes[:, 2] - boxes[:, 0] + one) * (boxes[:, 3] - boxes[:, 1] + one)
    disjoint = (boxes[:, 0] > box[2]) | (boxes[:, 2] < box[0]) | (boxes[:, 1] > box[3]) | (boxes[:, 3] < box[1])
    return torch.where(disjoint, torch.zeros_like(inter), inter / (area + areas - inter))


def _nms_one_class(boxes, scores, score_threshold, nms_top_k, nms_threshold, eta, normalized):
    """Indices kept for one class, best score first: candidates above the threshold (the nms_top_k best), each kept
    when it overlaps no kept box by more than the threshold, which shrinks by eta after each keep while above 0.5."""
    cand = torch.nonzero(scores > score_threshold).flatten()
    order = cand[torch.sort(scores[cand], descending=True, stable=True).indices]
    if nms_top_k > -1:
        order = order[:nms_top_k]
    kept, threshold = [], nms_threshold
    for i in order.tolist():
        if kept and bool((_iou(boxes[i], boxes[kept], normalized) > threshold).any()):
            continue
        kept.append(i)
        if eta < 1 and threshold > 0.5:
            threshold *= eta
    return kept


def multiclass_nms3(bboxes, scores, rois_num, score_threshold, nms_top_k, keep_top_k, nms_threshold=0.3,
                    normalized=True, nms_eta=1.0, background_label=0):
    """(out [K, 6]: label, score, box; index [K, 1]: the kept box's row in the flattened input; nms_rois_num [N]).

    bboxes [N, M, 4] with scores [N, C, M] (boxes shared by the classes), or bboxes [M, C, 4] with scores [M, C]
    and rois_num [N] (a box per class, the rows split into images by rois_num)."""
    shared = scores.dim() == 3
    b, s = bboxes.detach().cpu(), scores.detach().cpu()
    if shared:
        images = [(b[n], s[n], n * b.shape[1]) for n in range(s.shape[0])]
    else:
        counts = rois_num.tolist() if rois_num is not None else [s.shape[0]]
        starts = [sum(counts[:k]) for k in range(len(counts))]
        images = [(b[st:st + c], s[st:st + c].t(), st) for st, c in zip(starts, counts)]
    rows, index, nums = [], [], []
    for boxes, sc, start in images:
        picked = {}
        for c in range(sc.shape[0]):
            if c == background_label:
                continue
            cb = boxes if shared else boxes[:, c, :]
            kept = _nms_one_class(cb, sc[c], score_threshold, nms_top_k, nms_threshold, nms_eta, normalized)
            if kept:
                picked[c] = kept
        total = sum(map(len, picked.values()))
        if keep_top_k > -1 and total > keep_top_k:
            pairs = [(float(sc[c, i]), c, i) for c, kept in picked.items() for i in kept]
            pairs.sort(key=lambda p: -p[0])
            picked = {}
            for _, c, i in pairs[:keep_top_k]:
                picked.setdefault(c, []).append(i)
        n = 0
        for c in sorted(picked):
            # (a class's boxes come out best score first; with a box per class, in row order, as Paddle's kernel)
            for i in (picked[c] if shared else sorted(picked[c])):
                box = boxes[i] if shared else boxes[i, c]
                rows.append(torch.cat([torch.tensor([float(c), float(sc[c, i])], dtype=b.dtype), box]))
                index.append(start + i if shared else (start + i) * sc.shape[0] + c)
                n += 1
        nums.append(n)
    out = torch.stack(rows) if rows else torch.zeros((0, 6), dtype=b.dtype)
    idx = torch.tensor(index, dtype=torch.int32).view(-1, 1)
    return (out.to(bboxes.device), idx.to(bboxes.device),
            torch.tensor(nums, dtype=torch.int32, device=bboxes.device))
