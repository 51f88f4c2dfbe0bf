"""matrix_nms and generate_proposals (RPN proposals: decode, clip, filter, NMS)."""
import math

import torch

from ..._normalize import TensorLike, op


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
