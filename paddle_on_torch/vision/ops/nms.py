"""paddle.vision.ops.nms: (batched, category-aware) non-maximum suppression."""
import numpy as np
import torch

from ..._normalize import OptionalTensor, TensorLike, op


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
