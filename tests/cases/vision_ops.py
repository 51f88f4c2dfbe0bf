"""paddle.vision.ops: NMS, box coding, RoI pooling/align, deformable convolution."""
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
