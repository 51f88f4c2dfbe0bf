"""paddle.vision.ops: matrix_nms, generate_proposals."""
import numpy as np

from tests.cases import case


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
