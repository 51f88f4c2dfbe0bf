"""paddle._C_ops: Paddle's op functions called with their op definitions' positional arguments.

Where Paddle 3.3.1's CPU build lacks an op's kernel (flash_attn, rms_norm, fused_rms_norm_ext,
fused_rotary_position_embedding, their grads: RuntimeError "(NotFound) The kernel ... is not registered"),
the case records, under Paddle, the op's documented composition computed by Paddle's own public ops
(`_kernel_or`), so the golden still holds Paddle's numbers; paddle_on_torch computes these ops on the CPU
(docs/compatibility.md).
"""
import numpy as np

from tests.cases import case, data


def _t(paddle, shape, seed=0, lo=0.1, hi=0.9, dtype="float32"):
    return paddle.to_tensor(np.random.default_rng(seed).uniform(lo, hi, shape).astype(dtype))


def _kernel_or(run, reference):
    try:
        return run()
    except RuntimeError as e:
        if "not registered" not in str(e):
            raise
        return reference()


def _named(fn, name):
    fn.__name__ = name
    fn.__qualname__ = name
    return case(fn)


# ---- elementwise ops, one case each --------------------------------------------------------------------------

_UNARY = """abs abs_ acos acos_ asin asinh assign atan atan_ atanh ceil conj cos cos_ cosh digamma digamma_ erf
    erf_ erfinv exp expm1 expm1_ floor gammaln gammaln_ i0 i0_ i0e i1 i1e isfinite isinf isnan lgamma lgamma_
    log log10 log10_ log1p log2 log2_ log_ reciprocal rsqrt sigmoid sign sin sin_ sinh sinh_ sqrt square
    square_ tan tan_ tanh tanh_ hardswish logsigmoid relu relu6 relu_ silu softsign swish angle trunc
    tanh_shrink""".split()

for _op in _UNARY:
    def _unary(paddle, _op=_op):
        x = _t(paddle, [2, 3], lo=-0.9 if _op in ("abs", "sign", "relu", "relu6", "angle") else 0.1)
        return getattr(paddle._C_ops, _op)(x)

    _named(_unary, f"unary_{_op}")

_BINARY = """add atan2 copysign divide floor_divide fmax fmin gammaincc heaviside maximum minimum multiply nextafter
    pow remainder subtract equal equal_all greater_equal greater_than less_equal less_than not_equal""".split()

for _op in _BINARY:
    def _binary(paddle, _op=_op):
        y = _t(paddle, [2, 3] if _op in ("atan2", "gammaincc") else [3], 2)  # (these kernels do not broadcast)
        return getattr(paddle._C_ops, _op)(_t(paddle, [2, 3], 1), 2.5 if _op == "pow" else y)

    _named(_binary, f"binary_{_op}")

for _op in "bitwise_and bitwise_or bitwise_xor bitwise_left_shift bitwise_right_shift".split():
    def _bitwise(paddle, _op=_op):
        x = paddle.to_tensor([[5, -3, 12], [7, 0, 9]], dtype="int32")
        y = paddle.to_tensor([1, 2, 3], dtype="int32")
        return getattr(paddle._C_ops, _op)(*((x, y, True) if "shift" in _op else (x, y)))

    _named(_bitwise, f"bitwise_{_op}")

for _op in "logical_and logical_or logical_xor".split():
    def _logical(paddle, _op=_op):
        return getattr(paddle._C_ops, _op)(paddle.to_tensor([True, False, True]), paddle.to_tensor([True, True, False]))

    _named(_logical, f"logical_{_op}")


@case
def unary_int_and_bool(paddle):
    C = paddle._C_ops
    i = paddle.to_tensor([5, -3, 12], dtype="int32")
    b = paddle.to_tensor([True, False])
    z = paddle.complex(_t(paddle, [3], 1), _t(paddle, [3], 2))
    return [C.bitwise_not(i), C.logical_not(b), C.acosh(_t(paddle, [3], lo=1.5, hi=2.5)), C.real(z), C.imag(z)]


@case
def imag_of_real_input(paddle):
    return paddle._C_ops.imag(_t(paddle, [2]))


# ---- the ops the brief and the libraries name ----------------------------------------------------------------

@case
def matmul_positional(paddle):
    C = paddle._C_ops
    x, y = _t(paddle, [2, 3, 4], 1), _t(paddle, [2, 5, 4], 2)
    return [C.matmul(x, y, False, True), C.matmul(x, x, True, False), C.matmul(x=x, y=y, transpose_y=True)]


@case
def matmul_bad_argument(paddle):
    return paddle._C_ops.matmul(1, 2)


@case
def full_and_creation(paddle):
    C = paddle._C_ops
    return [C.full([2, 3], 1.5, paddle.float32, paddle.CPUPlace()), C.full([2], 7, paddle.int64, paddle.CPUPlace()),
            C.full_like(_t(paddle, [2]), 3.0, paddle.float64, paddle.CPUPlace()),
            C.zeros([2], paddle.int32, paddle.CPUPlace()), C.ones([1, 2], paddle.float32, paddle.CPUPlace()),
            C.arange(paddle.to_tensor(1), paddle.to_tensor(7), paddle.to_tensor(2), paddle.int64,
                     paddle.CPUPlace()),
            C.eye(2, 3, paddle.float32, paddle.CPUPlace()),
            C.linspace(paddle.to_tensor(0.0), paddle.to_tensor(1.0), paddle.to_tensor(5), paddle.float32,
                       paddle.CPUPlace())]


@case
def reductions(paddle):
    C = paddle._C_ops
    x = _t(paddle, [2, 3, 4], lo=-1, hi=1)
    return [C.sum(x, [], None, False), C.sum(x, [1], paddle.float64, True), C.mean(x, [0, 2], False),
            C.max(x, [-1], True), C.min(x, [], False), C.amax(x, [1], False), C.prod(x, [1], False, False),
            C.prod(x, [1], False, True), C.logsumexp(x, [1], True), C.logsumexp(x), C.all(x > 0, None, False),
            C.any(x > 0, [0], False), C.nansum(x, [1], None, False), C.std(x, [1], False, True, 1.0),
            C.var(x, [2], True, False, 0.0)]


@case
def argmax_cumsum_topk(paddle):
    C = paddle._C_ops
    x = _t(paddle, [3, 4], lo=-1, hi=1)
    # argmax / argmin are Paddle's public API bound onto the op: the API's arguments (x, axis, keepdim, dtype)
    return [C.argmax(x, 1, False, paddle.int64), C.argmin(x, 0, True, "int32"), C.argmax(x),
            C.cumsum(x, 1, False, False, False),
            C.cumsum(x, 0, True, False, False), C.cumsum(x, 1, False, True, True), C.cumprod(x, 1, True, False),
            C.cumprod(x, 0, False, True), list(C.topk(x, 2, 1, True, True)), list(C.argsort(x, 1, True, True)),
            list(C.kthvalue(x, 2, 1, False)), list(C.cummax(x, 1, paddle.int64))]


@case
def manipulation(paddle):
    C = paddle._C_ops
    x = _t(paddle, [2, 3, 4])
    idx = paddle.to_tensor([2, 0])
    return [C.reshape(x, [3, 8]), C.transpose(x, [2, 0, 1]), C.concat([x, x], 1), C.stack([x, x], 0),
            C.split(x, [1, 3], 2), C.split_with_num(x, 3, 1), C.slice(x, [1, 2], [0, 1], [2, 3], [1, 1], []),
            C.slice(x, [0], [1], [2], [1], [0]), C.squeeze(C.unsqueeze(x, [0]), []), C.flatten(x, 0, 1),
            C.gather(x, idx, 1), C.index_select(x, idx, 2), C.expand(_t(paddle, [1, 4]), [3, 4]),
            C.expand_as(_t(paddle, [1, 4]), _t(paddle, [2, 4])), C.tile(x, [1, 2, 1]), C.flip(x, [0, 2]),
            C.roll(x, [1], [2]), C.tril(x, 0), C.triu(x, 1), C.unbind(x, 1), C.unstack(x, 0, 2),
            C.cast(x, paddle.float64), C.scale(x, 2.0, 1.0, False), C.clip(x, 0.3, 0.6),
            C.where(x > 0.5, x, -x), C.strided_slice(x, [2], [0], [4], [2]),
            C.pad(x, [0, 0, 1, 0, 0, 2], 0.5), C.cross(_t(paddle, [2, 3], 1), _t(paddle, [2, 3], 2), 9)]


@case
def scatter_and_index(paddle):
    C = paddle._C_ops
    x = _t(paddle, [4, 3])
    upd = _t(paddle, [2, 3], 5)
    idx = paddle.to_tensor([3, 1])
    ind = paddle.to_tensor([[0, 2, 1]])
    return [C.scatter(x, idx, upd, True), C.scatter(x, paddle.to_tensor([1, 1]), upd, False),
            C.index_add(x, idx, upd, 0), C.put_along_axis(x, ind, _t(paddle, [1, 3], 6), 0, "add", True),
            C.take_along_axis(x, ind, 0), C.gather_nd(x, paddle.to_tensor([[1, 2], [0, 0]])),
            C.masked_select(x, x > 0.5), C.nonzero(x > 0.5),
            C.embedding(paddle.to_tensor([[0, 2], [3, 3]]), x, -1, False),
            C.embedding(paddle.to_tensor([[0, 2], [3, 3]]), x, 3, False), C.one_hot(idx, 5)]


@case
def nn_ops(paddle):
    C = paddle._C_ops
    x = _t(paddle, [2, 3, 4], lo=-1, hi=1)
    w, b = _t(paddle, [12], 1), _t(paddle, [12], 2)  # the op's scale and bias are flattened
    return [C.softmax(x, -1), C.log_softmax(x, 1), C.gelu(x, True), C.gelu(x, False), C.leaky_relu(x, 0.1),
            C.elu(x, 1.0), C.celu(x, 0.5), C.selu(x, 1.0507, 1.6733), C.softplus(x, 2.0, 10.0),
            C.hardsigmoid(x, 0.2, 0.5), C.hardshrink(x, 0.3), C.softshrink(x, 0.3), C.thresholded_relu(x, 0.2, 0.0),
            C.hardtanh(x, -0.5, 0.5), C.mish(x, 20.0), C.layer_norm(x, w, b, 1e-5, 1),
            C.layer_norm(x, None, None, 1e-5, 2), C.dropout(x, None, 0.5, True, "upscale_in_train", 0, False),
            C.dropout(x, None, 0.5, True, "downgrade_in_infer", 0, False),
            C.p_norm(x, 2.0, -1, 1e-12, False, False), C.p_norm(x, 1.0, 0, 1e-12, True, True)]


@case
def conv2d_positional(paddle):
    x, w = _t(paddle, [1, 2, 5, 5], 1, -1, 1), _t(paddle, [3, 2, 3, 3], 2, -1, 1)
    C = paddle._C_ops
    return [C.conv2d(x, w, [1, 1], [1, 1], "EXPLICIT", [1, 1], 1, "NCHW"),
            C.conv2d(x, w, [2, 2], [0, 0], "VALID", [1, 1], 1, "NCHW")]


@case
def numel_c_embedding(paddle):
    C = paddle._C_ops
    table = _t(paddle, [10, 4])
    ids = paddle.to_tensor([[1, 12], [5, 14]])
    return [C.numel(table), C.c_embedding(table, ids, 5, 20), C.c_embedding(table, ids, 0, -1)]


@case
def cross_entropy_with_softmax(paddle):
    C = paddle._C_ops
    logits = _t(paddle, [3, 5], lo=-2, hi=2)
    label = paddle.to_tensor([[1], [4], [-100]])
    soft = paddle.nn.functional.softmax(_t(paddle, [3, 5], 7))
    return [list(C.cross_entropy_with_softmax(logits, label, False, True, True, -100, -1)),
            list(C.cross_entropy_with_softmax(logits, soft, True, True, True, -100, -1)),
            list(C.cross_entropy_with_softmax(paddle.nn.functional.softmax(logits), label, False, False, True, -100,
                                              -1))]


@case
def swiglu_and_grads(paddle):
    C = paddle._C_ops
    x, y, g = _t(paddle, [2, 4], 1, -1, 1), _t(paddle, [2, 4], 2, -1, 1), _t(paddle, [2, 4], 3)
    xx = _t(paddle, [2, 8], 4, -1, 1)
    return [C.swiglu(x, y), C.swiglu(xx, None), list(C.swiglu_grad(x, y, g)), C.swiglu_grad(xx, None, g)[0]]


@case
def matmul_grad_positional(paddle):
    C = paddle._C_ops
    x, y, g = _t(paddle, [2, 3], 1), _t(paddle, [4, 3], 2), _t(paddle, [2, 4], 3)
    return list(C.matmul_grad(x, y, g, False, True)) + list(C.matmul_grad(y, x, g.T, False, True))


@case
def other_grads(paddle):
    C = paddle._C_ops
    x = _t(paddle, [3, 4], 1, -1, 1)
    g = _t(paddle, [3, 2], 2)
    _, idx = C.topk(x, 2, 1, True, True)
    w = _t(paddle, [5, 4], 3)
    ids = paddle.to_tensor([[0, 2], [4, 2]])
    return [C.topk_grad(x, idx, g, 2, 1, True, True),
            C.gather_grad(x, paddle.to_tensor([2, 0]), _t(paddle, [2, 4], 4), 0),
            C.reshape_grad(x, _t(paddle, [2, 6], 5)), C.flatten_grad(x, _t(paddle, [12], 6)),
            C.embedding_grad(ids, w, _t(paddle, [2, 2, 4], 7), -1, False),
            list(C.put_along_axis_grad(x, paddle.to_tensor([[1], [0], [3]]), _t(paddle, [3, 1], 8), x,
                                       _t(paddle, [3, 4], 9), 1, "assign", True)),
            list(C.add_grad(x, _t(paddle, [4], 10), _t(paddle, [3, 4], 11), -1))]


def _rms_reference(paddle, x, w, eps):
    # Paddle documents invvar as one value per row: [rows], the input flattened to [rows, cols]
    var = (x.astype("float32") ** 2).mean(axis=-1)
    inv = paddle.rsqrt(var + eps)
    return x * inv.unsqueeze(-1) * w, inv.flatten()


@case
def rms_norm_ops(paddle):
    C = paddle._C_ops
    x, w = _t(paddle, [2, 3, 8], 1, -1, 1), _t(paddle, [8], 2)
    a = _kernel_or(lambda: list(C.rms_norm(x, w, [8], 1e-6)), lambda: list(_rms_reference(paddle, x, w, 1e-6)))
    b = _kernel_or(lambda: list(C.fused_rms_norm_ext(x, w, 1e-5)),
                   lambda: list(_rms_reference(paddle, x, w, 1e-5)))
    return a + b


@case
def fused_rms_norm_ext_grad(paddle):
    C = paddle._C_ops
    x, w, gy = _t(paddle, [2, 3, 8], 1, -1, 1), _t(paddle, [8], 2), _t(paddle, [2, 3, 8], 3)

    def reference():
        xx, ww = x.detach(), w.detach()
        xx.stop_gradient = ww.stop_gradient = False
        y, _ = _rms_reference(paddle, xx, ww, 1e-6)
        return list(paddle.grad([y], [xx, ww], [gy]))

    def run():
        _, inv = C.fused_rms_norm_ext(x, w, 1e-6)
        return list(C.fused_rms_norm_ext_grad(x, w, inv, gy, 1e-6))

    return _kernel_or(run, reference)


def _attention_reference(paddle, q, k, v, causal):
    qt, kt, vt = (paddle.transpose(t, [0, 2, 1, 3]) for t in (q, k, v))
    s = paddle.matmul(qt, kt, transpose_y=True) * q.shape[-1] ** -0.5
    if causal:
        s = s + paddle.triu(paddle.full([s.shape[-2], s.shape[-1]], float("-inf")), 1)
    out = paddle.matmul(paddle.nn.functional.softmax(s, -1), vt)
    return paddle.transpose(out, [0, 2, 1, 3]), paddle.logsumexp(s, axis=-1)


@case(rtol=1e-5, atol=1e-5)  # torch's fused CPU attention sums in another order than the composition
def flash_attn_positional(paddle):
    C = paddle._C_ops
    q, k, v = _t(paddle, [2, 5, 2, 8], 1, -1, 1), _t(paddle, [2, 5, 2, 8], 2, -1, 1), _t(paddle, [2, 5, 2, 8], 3)

    def run(causal):
        out, _, lse, seed_offset = C.flash_attn(q, k, v, None, None, 0.0, causal, False, True, "")
        return [out, lse, seed_offset.shape, str(seed_offset.dtype)]

    def ref(causal):
        out, lse = _attention_reference(paddle, q, k, v, causal)
        return [out, lse, [2], "paddle.int64"]

    return [_kernel_or(lambda: run(c), lambda: ref(c)) for c in (False, True)]


@case(rtol=1e-5, atol=1e-5)  # as above
def flash_attn_grad_positional(paddle):
    C = paddle._C_ops
    q, k, v = _t(paddle, [1, 4, 2, 8], 1, -1, 1), _t(paddle, [1, 4, 2, 8], 2, -1, 1), _t(paddle, [1, 4, 2, 8], 3)
    g = _t(paddle, [1, 4, 2, 8], 4, -1, 1)

    def run():
        out, _, lse, so = C.flash_attn(q, k, v, None, None, 0.0, True, False, False, "")
        return list(C.flash_attn_grad(q, k, v, out, lse, so, None, g, 0.0, True))

    def ref():
        qq, kk, vv = q.detach(), k.detach(), v.detach()
        for t in (qq, kk, vv):
            t.stop_gradient = False
        out, _ = _attention_reference(paddle, qq, kk, vv, True)
        return list(paddle.grad([out], [qq, kk, vv], [g]))

    return _kernel_or(run, ref)


@case
def fused_rope_positional(paddle):
    C = paddle._C_ops
    q, k = _t(paddle, [1, 4, 2, 8], 1, -1, 1), _t(paddle, [1, 4, 2, 8], 2, -1, 1)
    pos = np.arange(4)[:, None] / 10000 ** (np.arange(0, 8, 2) / 8)
    sin = paddle.to_tensor(np.repeat(np.sin(pos), 2, -1).astype("float32")).reshape([1, 4, 1, 8])
    cos = paddle.to_tensor(np.repeat(np.cos(pos), 2, -1).astype("float32")).reshape([1, 4, 1, 8])

    def ref():  # neox style rotates the pairs (x[2i], x[2i+1])
        def rot(x):
            x2 = x.reshape([1, 4, 2, 4, 2])
            r = paddle.stack([-x2[..., 1], x2[..., 0]], axis=-1).reshape([1, 4, 2, 8])
            return x * cos + r * sin
        return [rot(q), rot(k)]

    return _kernel_or(lambda: list(C.fused_rotary_position_embedding(q, k, None, sin, cos, None, True, False,
                                                                     10000.0))[:2], ref)


@case
def legacy_box_coder(paddle):
    prior = paddle.to_tensor([[0.0, 0.0, 2.0, 2.0], [1.0, 1.0, 3.0, 4.0]])
    target = paddle.to_tensor([[0.5, 0.5, 1.5, 2.5], [1.0, 2.0, 2.0, 3.0]])
    var = [0.1, 0.1, 0.2, 0.2]
    return paddle._legacy_C_ops.box_coder(prior, None, target, "code_type", "encode_center_size",
                                          "box_normalized", True, "axis", 0, "variance", var)


@case
def legacy_detection_ops(paddle):
    # as PaddleDetection's ppdet/modeling/ops.py calls them: inputs, then attribute name/value pairs
    L = paddle._legacy_C_ops
    feat, img = _t(paddle, [1, 2, 2, 3], 1), _t(paddle, [1, 3, 8, 12], 2)
    boxes, var = L.prior_box(feat, img, "min_sizes", [2.0], "max_sizes", [4.0], "aspect_ratios", [1.0, 2.0],
                             "variances", [0.1, 0.1, 0.2, 0.2], "flip", True, "clip", True, "step_w", 0.0,
                             "step_h", 0.0, "offset", 0.5, "min_max_aspect_ratios_order", False)
    bboxes = paddle.to_tensor([[[0.1, 0.1, 0.5, 0.5], [0.12, 0.1, 0.52, 0.5], [0.6, 0.6, 0.9, 0.8]]])
    scores = paddle.to_tensor([[[0.9, 0.8, 0.05], [0.2, 0.7, 0.6]]])
    out, index, rois_num = L.matrix_nms(bboxes, scores, "score_threshold", 0.1, "nms_top_k", -1, "keep_top_k", 10,
                                        "post_threshold", 0.0, "use_gaussian", False, "gaussian_sigma", 2.0,
                                        "background_label", -1, "normalized", True)
    return [boxes, var, out, index, rois_num]


@case(rtol=1e-5, atol=1e-6)
def grads_positional(paddle):
    C = paddle._C_ops
    x, y = _t(paddle, [2, 3], 1), _t(paddle, [3], 2)
    g = _t(paddle, [2, 3], 3, -1, 1)
    x4 = _t(paddle, [2, 4], 4, -1, 1)
    g4 = _t(paddle, [2, 4], 5, -1, 1)
    w, b = _t(paddle, [4], 6), _t(paddle, [4], 7)
    # layer_norm_grad takes the forward's saved statistics; Paddle's kernel uses them, ours differentiates the
    # forward again: the same when they are the real ones
    mean, var = x4.mean(-1), x4.var(-1, unbiased=False)
    return [list(C.subtract_grad(x, y, g, -1)), list(C.divide_grad(x, y, x / y, g, -1)),
            list(C.maximum_grad(x, _t(paddle, [2, 3], 8), g)), list(C.minimum_grad(x, _t(paddle, [2, 3], 8), g)),
            C.expand_grad(y, g, [2, 3]), C.tile_grad(y, _t(paddle, [2, 6], 9), [2, 2]),
            C.index_select_grad(x, paddle.to_tensor([2, 0, 2]), _t(paddle, [2, 3], 10), 1),
            C.take_along_axis_grad(x, paddle.to_tensor([[1, 1], [0, 2]]), _t(paddle, [2, 2], 11), 1),
            C.softplus_grad(x4, g4, 2.0, 20.0), C.gelu_grad(x4, g4, False), C.gelu_grad(x4, g4, True),
            C.silu_grad(x4, paddle.nn.functional.silu(x4), g4), C.log_grad(x, g), C.square_grad(x4, g4),
            C.sin_grad(x4, g4), C.cos_grad(x4, g4), C.cumsum_grad(x4, g4, 1, False, False, False),
            C.cumsum_grad(x4, g4, 1, False, True, True), C.roll_grad(x4, g4, [1], [1]),
            C.squeeze_grad(paddle.unsqueeze(x, 0), g, [0]), C.unsqueeze_grad(x, paddle.unsqueeze(g, 1), [1]),
            list(C.layer_norm_grad(x4, w, b, mean, var, g4, 1e-5, 1))]


@case(rtol=1e-5, atol=1e-5)
def same_name_math(paddle):
    C = paddle._C_ops
    x, y = _t(paddle, [3, 3], 1), _t(paddle, [3, 3], 2)
    v = _t(paddle, [3], 3)
    i = paddle.to_tensor([0, 2, 2, 1])
    return [C.addmm(x, x, y, 0.5, 2.0), C.allclose(x, x + 1e-9, 1e-5, 1e-8, False), C.bincount(i, None, 4),
            C.broadcast_tensors([v, x]), C.complex(v, v), C.crop(x, [2, 2], [1, 0]), C.diag(v, 1, 0.0),
            C.diag_embed(x, 0, -2, -1), C.diagonal(x, 1, 0, 1), C.dist(x, y, 2.0), C.dot(v, v),
            C.histogram(v, None, 4, 0.0, 1.0, False), C.increment(paddle.to_tensor([1.0]), 2.0),
            C.index_put(x, (paddle.to_tensor([0, 2]),), paddle.to_tensor([9.0]), False),
            C.index_sample(x, paddle.to_tensor([[0, 2], [1, 1], [2, 0]])), C.isclose(x, y, 1e-5, 1e-8, False),
            C.kron(v, v), C.lerp(x, y, paddle.to_tensor(0.3)), C.masked_fill(x, x > 0.5, paddle.to_tensor(-1.0)),
            C.multiplex([x, y], paddle.to_tensor([[1], [0], [1]], dtype="int32")), C.mv(x, v),
            C.polygamma(x, 1), C.reduce_as(x, v),
            C.renorm(x, 2.0, 0, 0.5), C.reverse(x, [0]), C.round(x * 10, 0),
            C.scatter_nd_add(x, paddle.to_tensor([[1], [1]]), _t(paddle, [2, 3], 4)),
            C.searchsorted(paddle.to_tensor([0.1, 0.4, 0.8]), v, False, True),
            C.shard_index(paddle.to_tensor([[1], [7]]), 10, 2, 0, -1), C.stanh(x, 0.67, 1.7159),
            C.trace(x, 0, 0, 1)]


@case(rtol=1e-4, atol=1e-5)  # LAPACK-backed: the two libraries' routines differ in the last bits
def same_name_linalg(paddle):
    C = paddle._C_ops
    a = paddle.to_tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
    b = _t(paddle, [3, 2], 5)
    lower = paddle.to_tensor([[2.0, 0.0, 0.0], [1.0, 3.0, 0.0], [0.5, 0.2, 1.0]])
    w, vec = C.eigh(a, "L")
    return [C.cholesky(a, False), C.cholesky_solve(b, lower, False), C.det(a), C.matrix_power(a, 3),
            C.multi_dot([a, a, b]), C.solve(a, b), C.svdvals(a), C.triangular_solve(lower, b, False, False, False),
            w, paddle.abs(vec), C.inverse(a)]


@case
def same_name_nn(paddle):
    C = paddle._C_ops
    x = _t(paddle, [1, 4, 4, 4], 1, -1, 1)
    return [C.channel_shuffle(x, 2, "NCHW"), C.pixel_shuffle(x, 2, "NCHW"), C.pixel_unshuffle(x, 2, "NCHW"),
            C.maxout(x, 2, 1), C.label_smooth(paddle.to_tensor([[0.0, 1.0, 0.0]]), None, 0.1),
            C.log_loss(paddle.to_tensor([[0.3], [0.8]]), paddle.to_tensor([[0.0], [1.0]]), 1e-4),
            C.unfold(x, [2, 2], [2, 2], [0, 0, 0, 0], [1, 1]),
            C.fold(_t(paddle, [1, 8, 4], 2), [3, 3], [2, 2], [1, 1], [0, 0, 0, 0], [1, 1]),
            C.temporal_shift(_t(paddle, [4, 4, 2, 2], 3), 2, 0.25, "NCHW"),
            C.grid_sample(x, _t(paddle, [1, 2, 2, 2], 4, -1, 1), "bilinear", "zeros", True)]


# ---------------------------------------------------------------- detection ops PaddleDetection calls by op name


def _det_boxes(rng, n, m):
    xy = rng.rand(n, m, 2) * 50
    wh = rng.rand(n, m, 2) * 20 + 1
    return np.concatenate([xy, xy + wh], -1).astype("float32")


@case
def legacy_anchor_generator(paddle):
    L = paddle._legacy_C_ops
    x = paddle.to_tensor(np.random.RandomState(0).rand(1, 8, 3, 5).astype("float32"))
    a = L.anchor_generator(x, "anchor_sizes", [32.0, 64.0, 100.0], "aspect_ratios", [0.5, 1.0, 2.0], "variances",
                           [0.1, 0.1, 0.2, 0.2], "stride", [16.0, 16.0], "offset", 0.5)
    b = L.anchor_generator(x, "anchor_sizes", [20.0], "aspect_ratios", [1.5], "variances", [1.0, 1.0, 1.0, 1.0],
                           "stride", [8.0, 12.0], "offset", 0.0)
    return [a, b]


@case
def legacy_multiclass_nms3_shared_boxes(paddle):
    L = paddle._legacy_C_ops
    rng = np.random.RandomState(0)
    b = paddle.to_tensor(_det_boxes(rng, 2, 12))
    s = paddle.to_tensor(rng.rand(2, 3, 12).astype("float32"))
    top = L.multiclass_nms3(b, s, None, "score_threshold", 0.2, "nms_top_k", 8, "keep_top_k", 10, "nms_threshold", 0.3,
                            "normalized", False, "nms_eta", 1.0, "background_label", 0)
    eta = L.multiclass_nms3(b, s, None, "score_threshold", 0.05, "nms_top_k", -1, "keep_top_k", -1, "nms_threshold",
                            0.5, "normalized", True, "nms_eta", 0.9, "background_label", -1)
    none = L.multiclass_nms3(b, s, None, "score_threshold", 0.99, "nms_top_k", 8, "keep_top_k", 10, "nms_threshold",
                             0.3, "normalized", False, "nms_eta", 1.0, "background_label", 0)
    return [top, eta, none]


@case
def multiclass_nms3_box_per_class(paddle):
    rng = np.random.RandomState(3)
    b = paddle.to_tensor(_det_boxes(rng, 1, 27).reshape(9, 3, 4))
    s = paddle.to_tensor(rng.rand(9, 3).astype("float32"))
    rn = paddle.to_tensor(np.array([5, 4], "int32"))
    all_kept = paddle._legacy_C_ops.multiclass_nms3(b, s, rn, "score_threshold", 0.1, "nms_top_k", 100, "keep_top_k",
                                                   -1, "nms_threshold", 0.4, "normalized", False, "nms_eta", 1.0,
                                                   "background_label", 0)
    top = paddle._C_ops.multiclass_nms3(b, s, rn, 0.1, 2, 3, 0.4, True, 1.0, -1)
    return [all_kept, top]


@case
def legacy_distribute_fpn_proposals_with_output_counts(paddle):
    # PaddleDetection passes the lengths of the two list outputs after the inputs
    rois = paddle.to_tensor(np.array([[0, 0, 10, 10], [0, 0, 100, 100], [0, 0, 300, 300], [5, 5, 40, 60]], "float32"))
    rn = paddle.to_tensor(np.array([3, 1], "int32"))
    multi, restore, nums = paddle._legacy_C_ops.distribute_fpn_proposals(
        rois, rn, 4, 4, "min_level", 2, "max_level", 5, "refer_level", 4, "refer_scale", 224, "pixel_offset", False)
    return [list(multi), restore, list(nums)]


@case
def legacy_activation_ops_without_attributes(paddle):
    # the legacy layers' act= strings run these with the OpProto's attribute defaults
    x = paddle.to_tensor([[-4.0, -1.0, 0.5, 3.0, 7.0]])
    L = paddle._legacy_C_ops
    out = [getattr(L, a)(x) for a in ("hard_swish", "relu", "sigmoid", "tanh", "swish", "relu6", "elu", "softmax",
                                      "hard_sigmoid", "mish", "silu", "softsign", "brelu", "logsigmoid",
                                      "tanh_shrink", "selu", "thresholded_relu", "stanh")]
    for a in ("leaky_relu", "softplus"):  # Paddle 3.3.1 cannot take these without their attribute
        try:
            getattr(L, a)(x)
            out.append("ran")
        except ValueError as e:
            out.append(type(e).__name__)
    return out
