"""paddle.vision.ops: yolo_loss (values and gradients), read_file, decode_jpeg."""
import numpy as np

from tests.cases import case

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
def read_file_bytes(paddle):
    path = _jpeg()
    return [paddle.vision.ops.read_file(path), np.fromfile(path, dtype="uint8")]


@case
def read_file_missing(paddle):
    return paddle.vision.ops.read_file("/nonexistent/_pot_missing.jpg")


@case
def decode_jpeg_cpu(paddle):
    data = paddle.vision.ops.read_file(_jpeg())
    return paddle.vision.ops.decode_jpeg(data)
