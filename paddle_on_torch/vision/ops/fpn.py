"""paddle.vision.ops.distribute_fpn_proposals: RoIs to FPN levels."""
import torch

from ..._normalize import OptionalTensor, TensorLike, op
from ._common import _batch_ids


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
