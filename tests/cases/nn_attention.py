"""paddle.nn.functional.scaled_dot_product_attention and flash_attn_qkvpacked (Paddle's [batch, seq, heads, dim]
layout).  Paddle's CPU build runs these through its "math" path; where it raises instead (no CPU kernel), the case
falls back to a NumPy transcription of that math."""
import numpy as np

from tests.cases import case, data


def _x(paddle, shape, seed, grad=False, dtype="float32"):
    return paddle.to_tensor(data(shape, seed, dtype=dtype), stop_gradient=not grad)


def _reference(q, k, v, mask=None, causal=False, scale=None):
    """NumPy: softmax(q k^T * scale + mask) v in Paddle's [b, s, h, d] layout; returns (out, weights)."""
    q, k, v = (np.asarray(t, "float64").transpose(0, 2, 1, 3) for t in (q, k, v))
    prod = (q * (scale or q.shape[-1] ** -0.5)) @ k.transpose(0, 1, 3, 2)
    if causal:
        prod = prod + np.triu(np.full(prod.shape[-2:], -1e4), 1)
    elif mask is not None:
        mask = np.asarray(mask)
        prod = prod + (np.where(mask, 0.0, -np.inf) if mask.dtype == bool else mask)
    w = np.exp(prod - prod.max(-1, keepdims=True))
    w = w / w.sum(-1, keepdims=True)
    return (w @ v).transpose(0, 2, 1, 3).astype("float32"), w.astype("float32")


def _sdpa(paddle, q, k, v, mask=None, **kw):
    F = paddle.nn.functional
    t = [paddle.to_tensor(a) for a in (q, k, v)]
    m = None if mask is None else paddle.to_tensor(mask)
    try:
        return F.scaled_dot_product_attention(*t, m, **kw).numpy()
    except RuntimeError:  # no CPU kernel: NumPy transcription of the math path
        return _reference(q, k, v, None if kw.get("is_causal") else mask, kw.get("is_causal", False),
                          kw.get("scale"))[0]


@case(rtol=1e-5, atol=1e-5)
def sdpa_plain_and_scale(paddle):
    q, k, v = data([2, 5, 3, 4], 0), data([2, 6, 3, 4], 1), data([2, 6, 3, 4], 2)
    return [_sdpa(paddle, q, k, v), _sdpa(paddle, q, k, v, scale=0.3), _sdpa(paddle, q, k, v, scale=0.0)]


@case(rtol=1e-5, atol=1e-5)
def sdpa_result_tensor(paddle):
    q = _x(paddle, [1, 4, 2, 8], 3)
    out = paddle.nn.functional.scaled_dot_product_attention(q, q, q)
    return [out, out.shape, out.dtype == paddle.float32]


@case(rtol=1e-5, atol=1e-5)
def sdpa_bool_mask(paddle):
    q, k, v = data([2, 4, 2, 4], 4), data([2, 5, 2, 4], 5), data([2, 5, 2, 4], 6)
    rng = np.random.default_rng(7)
    m4 = rng.uniform(size=[2, 2, 4, 5]) > 0.4
    m4[..., 0] = True  # every row keeps a key
    m2 = rng.uniform(size=[4, 5]) > 0.5
    m2[:, 1] = True
    return [_sdpa(paddle, q, k, v, m4), _sdpa(paddle, q, k, v, m2), _sdpa(paddle, q, k, v, m4[:, :1])]


@case(rtol=1e-5, atol=1e-5)
def sdpa_additive_mask(paddle):
    q, k, v = data([2, 3, 2, 4], 8), data([2, 5, 2, 4], 9), data([2, 5, 2, 4], 10)
    m = data([2, 1, 3, 5], 11)
    return [_sdpa(paddle, q, k, v, m), _sdpa(paddle, q, k, v, m[0, 0])]


@case(rtol=1e-5, atol=1e-5)
def sdpa_causal_ignores_mask(paddle):
    q, k, v = data([1, 5, 2, 4], 12), data([1, 5, 2, 4], 13), data([1, 5, 2, 4], 14)
    return [_sdpa(paddle, q, k, v, is_causal=True),
            _sdpa(paddle, q, k, v, data([1, 1, 5, 5], 15), is_causal=True)]


@case(rtol=1e-5, atol=1e-5)
def sdpa_unbatched_3d(paddle):
    q = data([4, 2, 8], 16)
    try:
        return paddle.nn.functional.scaled_dot_product_attention(*(paddle.to_tensor(q),) * 3).numpy()
    except RuntimeError:
        return _reference(q[None], q[None], q[None])[0][0]


@case(rtol=1e-5, atol=1e-5)
def sdpa_gqa(paddle):
    q, k, v = data([1, 3, 4, 4], 17), data([1, 5, 2, 4], 18), data([1, 5, 2, 4], 19)
    try:
        return paddle.nn.functional.scaled_dot_product_attention(*map(paddle.to_tensor, (q, k, v))).numpy()
    except RuntimeError:
        return _reference(q, np.repeat(k, 2, axis=2), np.repeat(v, 2, axis=2))[0]


@case
def sdpa_gqa_bad_heads(paddle):
    q, k = _x(paddle, [1, 3, 3, 4], 20), _x(paddle, [1, 3, 2, 4], 21)
    return paddle.nn.functional.scaled_dot_product_attention(q, k, k)


@case
def sdpa_gqa_disabled_mismatch(paddle):
    q, k = _x(paddle, [1, 3, 4, 4], 22), _x(paddle, [1, 3, 2, 4], 23)
    return paddle.nn.functional.scaled_dot_product_attention(q, k, k, enable_gqa=False)


@case(rtol=1e-5, atol=1e-5)
def sdpa_dropout_not_training(paddle):
    q = data([1, 4, 2, 4], 24)
    t = paddle.to_tensor(q)
    try:
        return paddle.nn.functional.scaled_dot_product_attention(t, t, t, dropout_p=0.5, training=False).numpy()
    except RuntimeError:
        return _reference(q, q, q)[0]


@case(random=True)
def sdpa_dropout_training(paddle):
    t = _x(paddle, [2, 4, 2, 4], 25)
    return paddle.nn.functional.scaled_dot_product_attention(t, t, t, dropout_p=0.5)


@case(rtol=1e-5, atol=1e-5)
def sdpa_grad(paddle):
    q, k, v = (_x(paddle, [1, 3, 2, 4], s, grad=True) for s in (26, 27, 28))
    out = paddle.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    (out * out).sum().backward()
    return [out, q.grad, k.grad, v.grad]


# ---------------------------------------------------------------- flash_attn_qkvpacked
def _qkvpacked(paddle, qkv, **kw):
    F = paddle.nn.functional
    try:
        out, sm = F.flash_attn_qkvpacked(paddle.to_tensor(qkv), **kw)
        return [out.numpy(), None if sm is None else sm.numpy()]
    except RuntimeError:
        q = qkv[:, :, :-2].reshape(qkv.shape[0], qkv.shape[1], -1, qkv.shape[-1])
        out, w = _reference(q, qkv[:, :, -2], qkv[:, :, -1], causal=kw.get("causal", False))
        return [out, w if kw.get("return_softmax") else None]


@case(rtol=1e-5, atol=1e-5)
def qkvpacked_plain(paddle):
    qkv = data([2, 5, 3, 2, 4], 30)
    return _qkvpacked(paddle, qkv) + _qkvpacked(paddle, qkv, causal=True)


@case(rtol=1e-5, atol=1e-5)
def qkvpacked_return_softmax(paddle):
    qkv = data([1, 4, 3, 2, 4], 31)
    return _qkvpacked(paddle, qkv, return_softmax=True) + _qkvpacked(paddle, qkv, causal=True, return_softmax=True)


@case(rtol=1e-5, atol=1e-5)
def qkvpacked_multi_query(paddle):
    qkv = data([1, 4, 5, 1, 4], 32)  # 3 query heads sharing one key/value head
    return _qkvpacked(paddle, qkv)


@case(rtol=1e-5, atol=1e-5)
def qkvpacked_dropout_not_training(paddle):
    return _qkvpacked(paddle, data([1, 4, 3, 2, 4], 33), dropout=0.5, training=False)


@case
def sdpa_fully_masked_row_is_nan(paddle):
    q = _x(paddle, [1, 3, 2, 4], 34)
    m = np.ones([3, 3], bool)
    m[1] = False
    add = np.zeros([1, 2, 3, 3], "float32")
    add[0, 1, 2] = -np.inf
    F = paddle.nn.functional
    return [F.scaled_dot_product_attention(q, q, q, paddle.to_tensor(m)),
            F.scaled_dot_product_attention(q, q, q, paddle.to_tensor(add))]
