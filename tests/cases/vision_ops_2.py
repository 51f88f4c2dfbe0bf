"""paddle.vision.ops: prior_box, yolo_box, distribute_fpn_proposals."""
import numpy as np

from tests.cases import case, data


@case
def prior_box_flip_clip(paddle):
    x = paddle.to_tensor(np.zeros([1, 3, 3, 4], "float32"))
    img = paddle.to_tensor(np.zeros([1, 3, 18, 20], "float32"))
    return list(paddle.vision.ops.prior_box(x, img, [4.0, 6.0], [8.0, 9.0], [2.0, 3.0, 1.0, 0.5], flip=True,
                                            clip=True))


@case
def prior_box_steps_offset_order(paddle):
    x = paddle.to_tensor(np.zeros([1, 3, 3, 4], "float32"))
    x64 = paddle.to_tensor(np.zeros([2, 3, 5, 4], "float64"))
    img = paddle.to_tensor(np.zeros([1, 3, 18, 20], "float32"))
    o = paddle.vision.ops
    return [*o.prior_box(x64, img, 5.0, None, 2.0, steps=[4.0, 7.0], offset=0.3, min_max_aspect_ratios_order=True),
            *o.prior_box(x, img, [5.0, 3.0], [8.0, 7.0], [2.0, 0.7], flip=True, variance=[0.2, 0.3, 0.4, 0.5],
                         min_max_aspect_ratios_order=True),
            *o.prior_box(x, img, 7.0, [11.0], [1.5], steps=(3.0, 2.0))]


@case
def prior_box_max_min_mismatch(paddle):
    x = paddle.to_tensor(np.zeros([1, 3, 3, 4], "float32"))
    img = paddle.to_tensor(np.zeros([1, 3, 18, 20], "float32"))
    return paddle.vision.ops.prior_box(x, img, [5.0, 4.0], [8.0], [2.0])


def _yolo_inputs(paddle):
    x = paddle.to_tensor(data([2, 2 * (5 + 3), 3, 4], 20, scale=2.0))
    xi = paddle.to_tensor(data([2, 2 * (6 + 3), 3, 4], 21, scale=2.0))
    im = paddle.to_tensor(np.array([[96, 120], [50, 70]], "int32"))
    return x, xi, im


# float32: the kernel's rounding order differs from torch's by a few ulps on box coordinates up to ~100
@case(rtol=1e-5, atol=1e-4)
def yolo_box_variants(paddle):
    x, xi, im = _yolo_inputs(paddle)
    o = paddle.vision.ops
    return [*o.yolo_box(x, im, [10, 14, 23, 27], 3, 0.3, 8),
            *o.yolo_box(x, im, [10, 14, 23, 27], 3, 0.5, 16, clip_bbox=False, scale_x_y=1.2),
            *o.yolo_box(xi, im, [10, 14, 23, 27], 3, 0.2, 32, iou_aware=True, iou_aware_factor=0.4)]


@case
def yolo_box_float64(paddle):
    x = paddle.to_tensor(data([1, 3 * (5 + 2), 2, 2], 22, dtype="float64"))
    im = paddle.to_tensor(np.array([[40, 30]], "int32"))
    return list(paddle.vision.ops.yolo_box(x, im, [5, 6, 7, 8, 9, 10], 2, 0.01, 4, scale_x_y=0.9))


_FPN = np.array([[0, 0, 10, 10], [0, 0, 100, 120], [5, 5, 300, 200], [1, 1, 1.5, 1.2], [10, 10, 5, 5],
                 [0, 0, 224, 224], [0, 0, 223, 223], [3, 4, 50, 70]], "float32")


@case
def distribute_fpn_proposals_levels(paddle):
    out = []
    for po in (False, True):
        m, ri, nl = paddle.vision.ops.distribute_fpn_proposals(
            paddle.to_tensor(_FPN), 2, 5, 4, 224, pixel_offset=po, rois_num=paddle.to_tensor([3, 5], dtype="int32"))
        out += [*m, ri, *nl]
    m, ri, nl = paddle.vision.ops.distribute_fpn_proposals(
        paddle.to_tensor(_FPN).astype("float64"), 1, 3, 2, 56, rois_num=paddle.to_tensor([8], dtype="int32"))
    return out + [*m, ri, *nl]


@case
def distribute_fpn_proposals_needs_rois_num(paddle):
    return paddle.vision.ops.distribute_fpn_proposals(paddle.to_tensor(_FPN), 2, 5, 4, 224)
