"""Issue 10's second batch, where real Paddle 3.3.1's CPU build can answer: flash_attention (its CPU "math"
path), fused_dropout_add (Paddle runs dropout + add), fused_matmul_bias / fused_linear without a bias
(plain matmul), the argument checks Paddle makes before reaching a kernel, the fused layers' parameters,
and softmax_with_cross_entropy / cross_entropy over a wide vocabulary (the fused cross-entropy op).

The other fused ops (fused_linear_activation, fused_matmul_bias with a bias, fused_feedforward,
fused_multi_head_attention, fused_bias_dropout_residual_layer_norm, variable_length_memory_efficient_attention,
flash_attn_unpadded, flashmask_attention) have no CPU kernel in Paddle: tests/test_kernels_fused.py checks
them against NumPy / torch compositions of Paddle's documented semantics."""
from tests.cases import case, data


def _t(paddle, shape, seed, scale=1.0, grad=False):
    t = paddle.to_tensor(data(shape, seed=seed, scale=scale))
    t.stop_gradient = not grad
    return t


def _fa(paddle):
    from paddle.nn.functional.flash_attention import flash_attention

    return flash_attention


# ------------------------------------------------------------------ flash_attention (math path)


@case(rtol=1e-5, atol=1e-5)
def flash_attention_plain_and_grads(paddle):
    q, k, v = (_t(paddle, [2, 7, 3, 8], s, grad=True) for s in (0, 1, 2))
    out, sm = _fa(paddle)(q, k, v)
    (out * out).sum().backward()
    return [out, sm, q.grad, k.grad, v.grad]


@case(rtol=1e-5, atol=1e-5)
def flash_attention_causal_with_softmax(paddle):
    q, k, v = (_t(paddle, [1, 9, 2, 16], s, grad=True) for s in (3, 4, 5))
    out, sm = _fa(paddle)(q, k, v, causal=True, return_softmax=True)
    (out.sum() + (sm * sm).sum()).backward()
    return [out, sm, q.grad, k.grad, v.grad]


@case(rtol=1e-5, atol=1e-5)
def flash_attention_causal_cross_length(paddle):
    q = _t(paddle, [2, 3, 2, 4], 6)
    k, v = _t(paddle, [2, 5, 2, 4], 7), _t(paddle, [2, 5, 2, 4], 8)
    return _fa(paddle)(q, k, v, causal=True)[0]


@case
def flash_attention_is_a_module_in_nn_functional(paddle):
    import types

    return [isinstance(paddle.nn.functional.flash_attention, types.ModuleType),
            hasattr(paddle.nn.functional, "flashmask_attention"),
            hasattr(paddle.nn.functional, "flash_attn_unpadded")]


@case
def flashmask_attention_int64_indices_refused(paddle):
    q = _t(paddle, [1, 4, 1, 8], 0)
    idx = paddle.to_tensor([[[[4], [4], [4], [4]]]], dtype="int64")
    return paddle.nn.functional.flashmask_attention(q, q, q, idx, causal=True)


@case
def flashmask_attention_bad_bound_count(paddle):
    q = _t(paddle, [1, 4, 1, 8], 0)
    idx = paddle.to_tensor([[[[4, 4, 4]] * 4]], dtype="int32")
    return paddle.nn.functional.flashmask_attention(q, q, q, idx, causal=True)


# ------------------------------------------------------------------ dropout + add


@case(rtol=1e-6, atol=1e-6)
def fused_dropout_add_p0_and_grads(paddle):
    F = paddle.incubate.nn.functional
    x, y = _t(paddle, [3, 5], 0, grad=True), _t(paddle, [3, 5], 1, grad=True)
    out = F.fused_dropout_add(x, y, p=0.0)
    (out * out).sum().backward()
    return [out, x.grad, y.grad]


@case
def fused_dropout_add_inference_modes(paddle):
    F = paddle.incubate.nn.functional
    x, y = _t(paddle, [2, 6], 0), _t(paddle, [2, 6], 1)
    return [F.fused_dropout_add(x, y, p=0.3, training=False),
            F.fused_dropout_add(x, y, p=0.3, training=False, mode="downscale_in_infer")]


@case(random=True)
def fused_dropout_add_training_shape(paddle):
    F = paddle.incubate.nn.functional
    return F.fused_dropout_add(_t(paddle, [4, 10], 0), _t(paddle, [4, 10], 1), p=0.5)


@case
def fused_dropout_add_bad_p(paddle):
    F = paddle.incubate.nn.functional
    return F.fused_dropout_add(_t(paddle, [2, 2], 0), _t(paddle, [2, 2], 1), p=1.5)


@case
def fused_dropout_add_bad_mode(paddle):
    F = paddle.incubate.nn.functional
    return F.fused_dropout_add(_t(paddle, [2, 2], 0), _t(paddle, [2, 2], 1), p=0.2, mode="sometimes")


# ------------------------------------------------------------------ matmul without bias


@case(rtol=1e-5, atol=1e-5)
def fused_matmul_bias_without_bias(paddle):
    F = paddle.incubate.nn.functional
    x, y = _t(paddle, [2, 3, 5], 0), _t(paddle, [4, 5], 1)
    return [F.fused_matmul_bias(x, y, transpose_y=True), F.fused_linear(x, _t(paddle, [5, 4], 2)),
            F.fused_linear(x, y, transpose_weight=True)]


# ------------------------------------------------------------------ checks made before any kernel


@case
def fused_mha_needs_3d_x(paddle):
    F = paddle.incubate.nn.functional
    return F.fused_multi_head_attention(_t(paddle, [4, 8], 0), _t(paddle, [3, 2, 4, 8], 1), _t(paddle, [8, 8], 2))


@case
def fused_mha_bad_qkv_weight(paddle):
    F = paddle.incubate.nn.functional
    return F.fused_multi_head_attention(_t(paddle, [1, 4, 8], 0), _t(paddle, [2, 2, 4, 8], 1),
                                        _t(paddle, [8, 8], 2))


@case
def fused_mha_bad_mode(paddle):
    F = paddle.incubate.nn.functional
    return F.fused_multi_head_attention(_t(paddle, [1, 4, 8], 0), _t(paddle, [3, 2, 4, 8], 1),
                                        _t(paddle, [8, 8], 2), mode="never")


@case
def fused_feedforward_bad_rate(paddle):
    F = paddle.incubate.nn.functional
    return F.fused_feedforward(_t(paddle, [1, 2, 4], 0), _t(paddle, [4, 8], 1), _t(paddle, [8, 4], 2),
                               dropout1_rate=2.0)


@case
def fused_feedforward_rate_not_a_number(paddle):
    F = paddle.incubate.nn.functional
    return F.fused_feedforward(_t(paddle, [1, 2, 4], 0), _t(paddle, [4, 8], 1), _t(paddle, [8, 4], 2),
                               dropout2_rate="0.1")


@case
def fused_bdrln_bad_scale(paddle):
    F = paddle.incubate.nn.functional
    x = _t(paddle, [2, 3, 8], 0)
    return F.fused_bias_dropout_residual_layer_norm(x, x, ln_scale=_t(paddle, [4], 1))


# ------------------------------------------------------------------ layers


def _params(layer):
    return [[k, list(v.shape), str(v.dtype), bool(v.stop_gradient)] for k, v in layer.state_dict().items()]


@case
def fused_layers_parameters(paddle):
    nn = paddle.incubate.nn
    layers = [nn.FusedLinear(4, 3), nn.FusedLinear(4, 3, transpose_weight=True), nn.FusedLinear(4, 3, bias_attr=False),
              nn.FusedBiasDropoutResidualLayerNorm(8), nn.FusedMultiHeadAttention(8, 2),
              nn.FusedMultiHeadAttention(8, 2, normalize_before=True, transpose_qkv_wb=True),
              nn.FusedFeedForward(8, 16), nn.FusedFeedForward(8, 16, normalize_before=True),
              nn.FusedTransformerEncoderLayer(8, 2, 16), nn.FusedDropoutAdd(0.1)]
    return [_params(layer) for layer in layers]


@case
def fused_layers_norm_parameters_start_at_one_and_zero(paddle):
    nn = paddle.incubate.nn
    a = nn.FusedBiasDropoutResidualLayerNorm(6)
    m = nn.FusedMultiHeadAttention(6, 3)
    f = nn.FusedFeedForward(6, 4, normalize_before=True)
    return [a.ln_scale, a.ln_bias, a.linear_bias, m.ln_scale, m.ln_bias, f._ln1_scale, f._ln1_bias]


@case
def fused_dropout_layer_refuses_downscale(paddle):
    return paddle.incubate.nn.FusedDropout(0.2, mode="downscale_in_infer")


@case
def fused_dropout_layer_attributes(paddle):
    d = paddle.incubate.nn.FusedDropout(0.2, axis=1)
    e = paddle.incubate.nn.FusedDropoutAdd(0.1)
    return [d.p, d.axis, d.mode, e.p, e.mode, str(e)]


@case
def fused_mha_layer_needs_divisible_heads(paddle):
    return paddle.incubate.nn.FusedMultiHeadAttention(10, 3)


@case
def fused_mha_layer_need_weights_refused(paddle):
    return paddle.incubate.nn.FusedMultiHeadAttention(8, 2, need_weights=True)


@case
def fused_dropout_layer_p0_is_identity(paddle):
    x = _t(paddle, [3, 4], 0)
    return paddle.incubate.nn.FusedDropout(0.0)(x)


# ------------------------------------------------------------------ cross entropy over a wide vocabulary


@case(rtol=1e-5, atol=1e-6)
def softmax_with_cross_entropy_wide_vocab_and_grad(paddle):
    logits = _t(paddle, [6, 3001], 0, scale=3.0, grad=True)
    label = paddle.to_tensor([[5], [3000], [0], [17], [2999], [1234]], dtype="int64")
    loss = paddle.nn.functional.softmax_with_cross_entropy(logits, label)
    (loss * paddle.to_tensor([[1.0], [2.0], [0.5], [-1.0], [3.0], [1.5]])).sum().backward()
    return [loss, logits.grad]


@case(rtol=1e-5, atol=1e-6)
def cross_entropy_ignore_index_mean_and_grad(paddle):
    logits = _t(paddle, [2, 4, 1031], 1, scale=2.0, grad=True)
    label = paddle.to_tensor([[3, -100, 1030, 7], [0, 12, -100, 500]], dtype="int64")
    loss = paddle.nn.functional.cross_entropy(logits, label, ignore_index=-100)
    loss.backward()
    return [loss, logits.grad]


@case(rtol=1e-5, atol=1e-6)
def cross_entropy_none_reduction_3d(paddle):
    logits = _t(paddle, [2, 3, 257], 2)
    label = paddle.to_tensor([[[1], [256], [0]], [[9], [8], [7]]], dtype="int64")
    return paddle.nn.functional.cross_entropy(logits, label, reduction="none")


@case
def softmax_with_cross_entropy_label_out_of_range(paddle):
    logits = _t(paddle, [2, 50], 0)
    return paddle.nn.functional.softmax_with_cross_entropy(logits, paddle.to_tensor([[1], [50]], dtype="int64"))
