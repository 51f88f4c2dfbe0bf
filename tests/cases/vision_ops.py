"""paddle.vision.ops: NMS, box coding, RoI pooling/align, deformable convolution, prior_box, yolo_box,
distribute_fpn_proposals, matrix_nms, generate_proposals, yolo_loss, read_file, decode_jpeg."""
import numpy as np

from tests.cases import case, data


def _boxes(n, seed, size=16.0):
    rng = np.random.default_rng(seed)
    xy = rng.uniform(0, size * 0.7, (n, 2))
    wh = rng.uniform(1.0, size * 0.5, (n, 2))
    return np.concatenate([xy, xy + wh], 1).astype("float32")


@case
def nms_input_order(paddle):
    b = paddle.to_tensor(_boxes(12, 0))
    return [paddle.vision.ops.nms(b, 0.3), paddle.vision.ops.nms(b, iou_threshold=0.1)]


@case
def nms_with_scores(paddle):
    b = paddle.to_tensor(_boxes(15, 1))
    s = paddle.to_tensor(np.random.default_rng(2).uniform(0, 1, 15).astype("float32"))
    return paddle.vision.ops.nms(b, 0.4, scores=s)


@case
def nms_categories_top_k(paddle):
    b = paddle.to_tensor(_boxes(20, 3))
    s = paddle.to_tensor(np.random.default_rng(4).uniform(0, 1, 20).astype("float32"))
    c = paddle.to_tensor(np.random.default_rng(5).integers(0, 3, 20).astype("int64"))
    return [paddle.vision.ops.nms(b, 0.3, s, c, [0, 1, 2], 6), paddle.vision.ops.nms(b, 0.3, s, c, [0, 2])]


@case
def box_coder_encode(paddle):
    prior = paddle.to_tensor(_boxes(5, 6))
    target = paddle.to_tensor(_boxes(3, 7))
    var = paddle.to_tensor(np.random.default_rng(8).uniform(0.1, 0.3, (5, 4)).astype("float32"))
    return [paddle.vision.ops.box_coder(prior, [0.1, 0.1, 0.2, 0.2], target),
            paddle.vision.ops.box_coder(prior, var, target, box_normalized=False)]


@case
def box_coder_decode(paddle):
    prior = paddle.to_tensor(_boxes(4, 9))
    t = paddle.to_tensor(data([3, 4, 4], 10, scale=0.3))
    t1 = paddle.to_tensor(data([4, 2, 4], 11, scale=0.3))
    var = paddle.to_tensor(np.random.default_rng(12).uniform(0.1, 0.3, (4, 4)).astype("float32"))
    ops = paddle.vision.ops
    return [ops.box_coder(prior, [0.1, 0.1, 0.2, 0.2], t, "decode_center_size"),
            ops.box_coder(prior, var, t, "decode_center_size", box_normalized=False),
            ops.box_coder(prior, [0.1, 0.2, 0.3, 0.4], t1, "decode_center_size", axis=1)]


def _roi_inputs(paddle, c=4):
    x = paddle.to_tensor(data([2, c, 10, 12], 13))
    boxes = paddle.to_tensor(np.array([[1.2, 0.5, 7.8, 6.1], [0, 0, 11, 9], [3.5, 2.5, 5.5, 9.5],
                                       [2.0, 3.0, 2.4, 3.2], [6.3, 1.1, 11.7, 8.9]], "float32"))
    return x, boxes, paddle.to_tensor([2, 3], dtype="int32")


@case(rtol=1e-5, atol=1e-5)
def roi_align_variants(paddle):
    x, boxes, num = _roi_inputs(paddle)
    ops = paddle.vision.ops
    return [ops.roi_align(x, boxes, num, 3), ops.roi_align(x, boxes, num, (2, 4), spatial_scale=0.5),
            ops.roi_align(x, boxes, num, 2, sampling_ratio=2, aligned=False),
            ops.RoIAlign(output_size=3, spatial_scale=0.8)(x, boxes, num, aligned=False)]


@case
def roi_pool_variants(paddle):
    x, boxes, num = _roi_inputs(paddle)
    ops = paddle.vision.ops
    return [ops.roi_pool(x, boxes, num, 3), ops.roi_pool(x, boxes, num, (2, 4), spatial_scale=0.5),
            ops.RoIPool(output_size=4)(x, boxes, num)]


@case(rtol=1e-5, atol=1e-5)
def psroi_pool_variants(paddle):
    x, boxes, num = _roi_inputs(paddle, c=8)
    ops = paddle.vision.ops
    return [ops.psroi_pool(x, boxes, num, 2), ops.psroi_pool(x, boxes, num, (2, 1), spatial_scale=0.7),
            ops.PSRoIPool(output_size=2, spatial_scale=0.5)(x, boxes, num)]


@case
def psroi_pool_bad_channels(paddle):
    x, boxes, num = _roi_inputs(paddle, c=6)
    return paddle.vision.ops.psroi_pool(x, boxes, num, 2)


@case(rtol=1e-5, atol=1e-5)
def deform_conv2d_v1_v2(paddle):
    x = paddle.to_tensor(data([2, 4, 7, 6], 20))
    w = paddle.to_tensor(data([6, 2, 3, 3], 21, scale=0.3))
    b = paddle.to_tensor(data([6], 22))
    off = paddle.to_tensor(data([2, 2 * 2 * 9, 4, 3], 23, scale=1.5))
    mask = paddle.to_tensor(np.random.default_rng(24).uniform(0, 1, (2, 2 * 9, 4, 3)).astype("float32"))
    ops = paddle.vision.ops
    return [ops.deform_conv2d(x, off, w, b, stride=2, padding=1, deformable_groups=2, groups=2),
            ops.deform_conv2d(x, off, w, None, stride=2, padding=1, deformable_groups=2, groups=2, mask=mask)]


@case(rtol=1e-5, atol=1e-5)
def deform_conv2d_dilation_grad(paddle):
    x = paddle.to_tensor(data([1, 3, 8, 8], 30), stop_gradient=False)
    w = paddle.to_tensor(data([2, 3, 2, 3], 31, scale=0.3), stop_gradient=False)
    off = paddle.to_tensor(data([1, 2 * 6, 8, 3], 32, scale=0.8), stop_gradient=False)
    y = paddle.vision.ops.deform_conv2d(x, off, w, dilation=(2, 1), padding=(1, 0), stride=(1, 2))
    y.sum().backward()
    return [y, x.grad, w.grad]


@case
def deform_conv2d_bad_offset_shape(paddle):
    x = paddle.to_tensor(data([1, 3, 8, 8], 30))
    w = paddle.to_tensor(data([2, 3, 2, 3], 31))
    off = paddle.to_tensor(data([1, 12, 6, 4], 32))
    return paddle.vision.ops.deform_conv2d(x, off, w, dilation=(2, 1), padding=(1, 0), stride=(1, 2))


@case
def deform_conv2d_layer_params(paddle):
    layer = paddle.vision.ops.DeformConv2D(4, 6, 3, padding=1, groups=2, deformable_groups=2)
    return [[k, list(v.shape)] for k, v in layer.state_dict().items()]


@case
def read_file_bytes(paddle):
    import os
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "f.bin")
        with open(p, "wb") as f:
            f.write(bytes([0, 1, 250, 7, 9]))
        return paddle.vision.ops.read_file(p)


# ---------------------------------------------------------------- prior_box, yolo_box, distribute_fpn_proposals
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


# ---------------------------------------------------------------- matrix_nms, generate_proposals
def _mnms_inputs(paddle, dtype="float32"):
    rng = np.random.default_rng(31)
    xy = rng.uniform(0, 20, [2, 12, 2])
    wh = rng.uniform(3, 15, [2, 12, 2])
    boxes = np.concatenate([xy, xy + wh], -1).astype(dtype)
    scores = rng.permutation(2 * 4 * 12).reshape(2, 4, 12) / 96.0 + 0.003  # distinct scores: no ties
    return paddle.to_tensor(boxes), paddle.to_tensor(scores.astype(dtype))


@case(rtol=1e-5, atol=1e-6)
def matrix_nms_linear(paddle):
    b, s = _mnms_inputs(paddle)
    o = paddle.vision.ops
    return [*o.matrix_nms(b, s, 0.1, 0.05, 8, 10, return_index=True),
            *o.matrix_nms(b / 40.0, s, 0.3, 0.2, -1, -1, background_label=-1, return_index=True),
            *o.matrix_nms(b, s, 0.0, 0.0, 5, 6, normalized=False, background_label=2, return_rois_num=False)]


@case(rtol=1e-5, atol=1e-6)
def matrix_nms_gaussian(paddle):
    b, s = _mnms_inputs(paddle)
    o = paddle.vision.ops
    out = [*o.matrix_nms(b, s, 0.05, 0.1, 20, 15, use_gaussian=True, return_index=True),
           *o.matrix_nms(b, s, 0.05, 0.3, -1, 7, use_gaussian=True, gaussian_sigma=0.5, normalized=False,
                         background_label=3, return_index=True)]
    b64, s64 = _mnms_inputs(paddle, "float64")
    return out + [*o.matrix_nms(b64, s64, 0.2, 0.1, 6, -1, use_gaussian=True, gaussian_sigma=1.3,
                                return_index=True)]


@case
def matrix_nms_nothing_kept(paddle):
    b, s = _mnms_inputs(paddle)
    return list(paddle.vision.ops.matrix_nms(b, s, 0.999, 0.5, 5, 5, return_index=True))


def _gp_inputs(paddle, dtype="float32"):
    rng = np.random.default_rng(32)
    n, a, h, w = 2, 3, 4, 5
    scores = (rng.permutation(n * a * h * w).reshape(n, a, h, w) / (n * a * h * w)).astype(dtype)
    deltas = rng.normal(0, 0.5, [n, 4 * a, h, w]).astype(dtype)
    ys, xs = np.meshgrid(np.arange(h) * 8.0, np.arange(w) * 8.0, indexing="ij")
    sizes = np.array([[6, 6], [12, 8], [8, 14]], dtype)
    anchors = np.zeros([h, w, a, 4], dtype)
    anchors[..., 0] = xs[..., None] - sizes[:, 0] / 2
    anchors[..., 1] = ys[..., None] - sizes[:, 1] / 2
    anchors[..., 2] = xs[..., None] + sizes[:, 0] / 2
    anchors[..., 3] = ys[..., None] + sizes[:, 1] / 2
    var = np.tile(np.array([0.1, 0.2, 0.3, 0.4], dtype), [h, w, a, 1])
    im = np.array([[30, 38], [25, 40]], dtype)
    t = paddle.to_tensor
    return t(scores), t(deltas), t(im), t(anchors), t(var)


@case(rtol=1e-5, atol=1e-4)
def generate_proposals_variants(paddle):
    s, d, im, a, v = _gp_inputs(paddle)
    o = paddle.vision.ops
    return [*o.generate_proposals(s, d, im, a, v, return_rois_num=True),
            *o.generate_proposals(s, d, im, a, v, pre_nms_top_n=20, post_nms_top_n=6, nms_thresh=0.4, min_size=2.0,
                                  return_rois_num=True),
            *o.generate_proposals(s, d, im, a, v, pre_nms_top_n=30, nms_thresh=0.7, eta=0.8, pixel_offset=True,
                                  return_rois_num=True),
            *o.generate_proposals(s, d, im, a, v, pre_nms_top_n=-1, post_nms_top_n=-1, nms_thresh=0.0,
                                  min_size=4.0, pixel_offset=True, return_rois_num=True)]


@case(rtol=1e-9, atol=1e-9)
def generate_proposals_float64_and_empty(paddle):
    s, d, im, a, v = _gp_inputs(paddle, "float64")
    o = paddle.vision.ops
    return [*o.generate_proposals(s, d, im, a, v, pre_nms_top_n=15, post_nms_top_n=5, nms_thresh=0.5,
                                  return_rois_num=True),
            *o.generate_proposals(s, d, im, a, v, min_size=100.0, return_rois_num=True)]


@case
def generate_proposals_needs_rois_num(paddle):
    s, d, im, a, v = _gp_inputs(paddle)
    return paddle.vision.ops.generate_proposals(s, d, im, a, v)


# ---------------------------------------------------------------- yolo_loss (values and gradients), read_file, decode_jpeg
ANCHORS = [10, 13, 16, 30, 33, 23, 30, 61]


def _inputs(paddle, n=2, m=2, cls=3, hw=4, b=4, dtype="float32", seed=0):
    rng = np.random.default_rng(seed)
    x = paddle.to_tensor(rng.normal(0, 1, [n, m * (5 + cls), hw, hw]).astype(dtype), stop_gradient=False)
    xy = rng.uniform(0.05, 0.95, [n, b, 2])
    wh = rng.uniform(0.05, 0.8, [n, b, 2])
    gt = paddle.to_tensor(np.concatenate([xy, wh], -1).astype(dtype))
    lab = paddle.to_tensor(rng.integers(0, cls, [n, b]).astype("int32"))
    return x, gt, lab


def _loss_and_grad(paddle, x, *args, **kw):
    loss = paddle.vision.ops.yolo_loss(x, *args, **kw)
    w = paddle.arange(1, loss.shape[0] + 1, dtype=loss.dtype)
    (loss * w).sum().backward()
    return [loss, x.grad]


@case(rtol=1e-5, atol=1e-5)
def yolo_loss_basic(paddle):
    x, gt, lab = _inputs(paddle)
    return _loss_and_grad(paddle, x, gt, lab, ANCHORS, [1, 2], 3, 0.5, 8)


@case(rtol=1e-5, atol=1e-5)
def yolo_loss_no_smooth_scale_xy(paddle):
    x, gt, lab = _inputs(paddle, m=3, cls=2, hw=5, seed=1)
    return _loss_and_grad(paddle, x, gt, lab, ANCHORS, [0, 1, 3], 2, 0.3, 16, use_label_smooth=False, scale_x_y=1.2)


@case(rtol=1e-5, atol=1e-5)
def yolo_loss_gt_score_and_invalid_boxes(paddle):
    x, gt, lab = _inputs(paddle, n=3, b=5, seed=2)
    g = gt.numpy()
    g[0, 1, 2] = 0.0  # zero width: not a box
    g[1, 3, 3] = 1e-7
    g[2, 4] = 0.0
    rng = np.random.default_rng(5)
    score = paddle.to_tensor(rng.uniform(0.2, 1.0, [3, 5]).astype("float32"))
    return _loss_and_grad(paddle, x, paddle.to_tensor(g), lab, ANCHORS, [2, 3], 3, 0.6, 8, gt_score=score)


@case(rtol=1e-5, atol=1e-5)
def yolo_loss_same_cell_twice(paddle):
    # two boxes land in the same cell and anchor: losses add, Paddle's gradient keeps the last box's
    x, gt, lab = _inputs(paddle, n=1, b=3, seed=3)
    g = np.array([[[0.30, 0.30, 0.20, 0.25], [0.32, 0.31, 0.21, 0.24], [0.8, 0.7, 0.5, 0.6]]], "float32")
    return _loss_and_grad(paddle, x, paddle.to_tensor(g), lab, ANCHORS, [0, 1], 3, 0.4, 8)


@case(rtol=1e-6, atol=1e-7)
def yolo_loss_float64_low_ignore(paddle):
    x, gt, lab = _inputs(paddle, dtype="float64", seed=4)
    return _loss_and_grad(paddle, x, gt, lab, ANCHORS, [1, 3], 3, 0.05, 8)


@case(rtol=1e-5, atol=1e-5)
def yolo_loss_unmatched_mask(paddle):
    # boxes whose best anchor is outside anchor_mask only shape the objectness mask
    x, gt, lab = _inputs(paddle, m=1, seed=6)
    return _loss_and_grad(paddle, x, gt, lab, ANCHORS, [0], 3, 0.5, 32)


def _yolo_err(paddle, **over):
    x, gt, lab = _inputs(paddle)
    kw = dict(x=x, gt_box=gt, gt_label=lab, anchors=ANCHORS, anchor_mask=[1, 2], class_num=3, ignore_thresh=0.5,
              downsample_ratio=8)
    kw.update(over)
    return paddle.vision.ops.yolo_loss(**kw)


@case
def yolo_loss_error_channels(paddle):
    return _yolo_err(paddle, anchor_mask=[0, 1, 2])


@case
def yolo_loss_error_odd_anchors(paddle):
    return _yolo_err(paddle, anchors=ANCHORS[:5])


@case
def yolo_loss_error_mask_out_of_range(paddle):
    return _yolo_err(paddle, anchors=ANCHORS[:4])


@case
def yolo_loss_error_int64_label(paddle):
    x, gt, lab = _inputs(paddle)
    return _yolo_err(paddle, gt_label=lab.astype("int64"))


@case
def yolo_loss_error_label_shape(paddle):
    x, gt, lab = _inputs(paddle)
    return _yolo_err(paddle, gt_label=lab[:, :2])


@case
def yolo_loss_error_box_rank(paddle):
    x, gt, lab = _inputs(paddle)
    return _yolo_err(paddle, gt_box=gt[0])


@case
def yolo_loss_error_not_square(paddle):
    x, gt, lab = _inputs(paddle)
    return _yolo_err(paddle, x=x[:, :, :, :3])


def _jpeg(tmp="/tmp/_pot_case.jpg"):
    from PIL import Image

    Image.fromarray(np.random.default_rng(0).integers(0, 255, [12, 10, 3]).astype("uint8")).save(tmp, quality=90)
    return tmp


@case
def read_file_jpeg_bytes(paddle):
    path = _jpeg()
    return [paddle.vision.ops.read_file(path), np.fromfile(path, dtype="uint8")]


@case
def read_file_missing(paddle):
    return paddle.vision.ops.read_file("/nonexistent/_pot_missing.jpg")


@case
def decode_jpeg_cpu(paddle):
    data = paddle.vision.ops.read_file(_jpeg())
    return paddle.vision.ops.decode_jpeg(data)
