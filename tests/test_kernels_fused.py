"""Issue 10's second batch: the fused linear / dropout / transformer-block ops, the flash-attention family and
the fused softmax cross entropy.

Paddle's CPU build has no kernel for most of these (tests/cases/fused_block.py records what it can answer), so
their forward passes are checked here against NumPy transcriptions of Paddle's documented semantics (the pseudo
code in its docstrings, its GPU kernels' conventions), and their gradients against plain torch autograd through
an independent composition; fp32 and bf16, odd shapes, non-contiguous inputs.  The cross-entropy custom op also
runs torch.library.opcheck and torch.compile(fullgraph=True).
"""
import os
import tempfile

import numpy as np
import pytest
import torch
import torch.nn.functional as TF

os.environ.setdefault("PADDLE_ON_TORCH_EXT_CACHE", os.path.join(tempfile.gettempdir(), "paddle_on_torch_ext"))

import paddle_on_torch as paddle  # noqa: E402
from paddle_on_torch.kernels import cpp as ext  # noqa: E402
from paddle_on_torch.nn.functional import flash_attention as FA  # noqa: E402
from paddle_on_torch.kernels import cross_entropy as ce  # noqa: E402
from paddle_on_torch.kernels import norm, rope, swiglu  # noqa: E402

F = paddle.incubate.nn.functional
BACKENDS = ["reference", pytest.param("cpp", marks=pytest.mark.skipif(ext.load() is None, reason="no C++ build"))]


def rnd(shape, seed, scale=1.0):
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype("float32")


def T(a, grad=False, dtype="float32"):
    t = paddle.to_tensor(a).astype(dtype)
    t.stop_gradient = not grad
    return t


def np_ln(x, w=None, b=None, eps=1e-5):
    x = x.astype(np.float64)
    mu = x.mean(-1, keepdims=True)
    y = (x - mu) / np.sqrt(((x - mu) ** 2).mean(-1, keepdims=True) + eps)
    return y * (1 if w is None else w) + (0 if b is None else b)


def np_softmax(s):
    s = s - s.max(-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(-1, keepdims=True)


def np_gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))


def np_gelu(x):
    from math import erf

    return 0.5 * x * (1 + np.vectorize(erf)(x / np.sqrt(2)))


def close(got, want, tol=2e-5):
    np.testing.assert_allclose(np.asarray(got, dtype=np.float64), want, rtol=tol, atol=tol)


# ------------------------------------------------------------------ linear


@pytest.mark.parametrize("tx,ty", [(False, False), (True, False), (False, True), (True, True)])
def test_fused_matmul_bias_and_linear_activation(tx, ty):
    x, y, b = rnd((2, 3, 5, 4) if not tx else (4, 2, 3, 5), 0), rnd((4, 7) if not ty else (7, 4), 1), rnd(7, 2)
    xm = x.reshape(-1, 4) if not tx else x.reshape(4, -1).T
    want = (xm @ (y if not ty else y.T) + b).reshape(2, 3, 5, 7)
    close(F.fused_matmul_bias(T(x), T(y), T(b), tx, ty).numpy(), want)
    close(F.fused_linear_activation(T(x), T(y), T(b), tx, ty, "gelu").numpy(), np_gelu_tanh(want))
    close(F.fused_linear_activation(T(x), T(y), T(b), tx, ty, "relu").numpy(), np.maximum(want, 0))
    close(F.fused_linear_activation(T(x), T(y), T(b), tx, ty).numpy(), want)


def test_fused_linear_grads_and_errors():
    x, w, b = T(rnd((5, 3, 6), 0), True), T(rnd((6, 4), 1), True), T(rnd(4, 2), True)
    out = F.fused_linear(x, w, b)
    (out * out).sum().backward()
    xt, wt, bt = (torch.tensor(rnd(s, i), requires_grad=True) for i, s in enumerate([(5, 3, 6), (6, 4), (4,)]))
    ((xt @ wt + bt) ** 2).sum().backward()
    for p, t in ((x, xt), (w, wt), (b, bt)):
        close(p.grad.numpy(), t.grad.numpy(), 1e-4)
    with pytest.raises(ValueError):
        F.fused_linear_activation(x, w, b, activation="tanh")
    with pytest.raises(ValueError):
        F.fused_matmul_bias(x, T(rnd((5, 4), 3)), b)
    layer = paddle.incubate.nn.FusedLinear(6, 4, transpose_weight=True)
    close(layer(x).numpy(), x.numpy() @ layer.weight.numpy().T + layer.bias.numpy(), 1e-5)


# ------------------------------------------------------------------ dropout


def test_dropout_add_modes_statistics():
    paddle.seed(3)
    x, y = paddle.ones([200, 100]), paddle.zeros([200, 100])
    up = F.fused_dropout_add(x, y, p=0.25).numpy()
    assert np.allclose(np.unique(up), [0.0, 1 / 0.75]) and abs((up == 0).mean() - 0.25) < 0.02
    down = F.fused_dropout_add(x, y, p=0.25, mode="downscale_in_infer").numpy()
    assert set(np.unique(down)) <= {0.0, 1.0} and abs((down == 0).mean() - 0.25) < 0.02
    close(F.fused_dropout_add(x, y, p=0.25, training=False, mode="downscale_in_infer").numpy(), 0.75)
    layer = paddle.incubate.nn.FusedDropoutAdd(0.4)
    layer.eval()
    close(layer(x, y).numpy(), 1.0)


# ------------------------------------------------------------------ bias + dropout + residual + layer norm


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_bias_dropout_residual_layer_norm(backend, dtype):
    x, r, b, w, nb = rnd((5, 7, 123), 0), rnd((5, 7, 123), 1), rnd(123, 2), rnd(123, 3), rnd(123, 4)
    xs = [T(a, True, dtype if a.ndim > 1 else "float32") for a in (x, r, b, w, nb)]
    out = F.fused_bias_dropout_residual_layer_norm(*xs, dropout_rate=0.0)
    want = np_ln(xs[1].astype("float32").numpy() + xs[0].astype("float32").numpy() + b, w, nb)
    close(out.astype("float32").numpy(), want, 2e-5 if dtype == "float32" else 6e-2)
    g = rnd((5, 7, 123), 5)
    (out.astype("float32") * T(g)).sum().backward()
    tt = [torch.tensor(a.astype("float32").numpy(), requires_grad=True) for a in xs]
    ref = TF.layer_norm(tt[1] + tt[0] + tt[2], (123,), tt[3], tt[4], 1e-5)
    (ref * torch.tensor(g)).sum().backward()
    for p, t in zip(xs, tt):
        close(p.grad.astype("float32").numpy(), t.grad.numpy(), 1e-4 if dtype == "float32" else 0.15)
    # training with dropout: x + bias stays in x's dtype (a float32 bias must not promote a bf16 x)
    assert F.fused_bias_dropout_residual_layer_norm(xs[0], xs[1], xs[2], dropout_rate=0.3).dtype == xs[0].dtype
    layer = paddle.incubate.nn.FusedBiasDropoutResidualLayerNorm(123, dropout_rate=0.5)
    layer.eval()
    close(layer(T(x), T(r)).numpy(), np_ln(x + r), 2e-5)


def test_bias_dropout_residual_layer_norm_training_dropout():
    paddle.seed(0)
    x, r = paddle.ones([64, 32]), paddle.zeros([64, 32])
    out = F.fused_bias_dropout_residual_layer_norm(x, r, dropout_rate=0.5).numpy()
    # each row normalises a 0 / 2 pattern: at most two distinct values, the kept (upper) ones about half
    for row in out:
        assert len(np.unique(row.round(4))) <= 2
    kept = out > out.mean(-1, keepdims=True)
    assert abs(kept.mean() - 0.5) < 0.05


# ------------------------------------------------------------------ feed-forward


def np_ffn(x, w1, b1, w2, b2, s1, c1, s2, c2, act, pre, add_residual):
    h = np_ln(x, s1, c1) if pre else x
    h = h @ w1 + b1
    h = {"relu": lambda v: np.maximum(v, 0), "gelu": np_gelu}[act](h)
    h = h @ w2 + b2
    h = x + h if add_residual else h
    return h if pre else np_ln(h, s2, c2)


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
@pytest.mark.parametrize("pre", [False, True])
@pytest.mark.parametrize("act,add_residual", [("relu", True), ("gelu", False)])
def test_fused_feedforward(backend, pre, act, add_residual):
    d, f = 13, 29
    arrs = [rnd((3, 5, d), 0), rnd((d, f), 1, 0.3), rnd(f, 2), rnd((f, d), 3, 0.3), rnd(d, 4), rnd(d, 5), rnd(d, 6),
            rnd(d, 7), rnd(d, 8)]
    ts = [T(a, True) for a in arrs]
    x = ts[0]
    out = F.fused_feedforward(x, ts[1], ts[3], ts[2], ts[4], ts[5], ts[6], ts[7], ts[8], 0.0, 0.0, act,
                              pre_layer_norm=pre, add_residual=add_residual)
    close(out.numpy(), np_ffn(*[arrs[i] for i in (0, 1, 2, 3, 4, 5, 6, 7, 8)], act, pre, add_residual), 5e-5)
    out.sum().backward()
    tt = [torch.tensor(a, requires_grad=True) for a in arrs]
    h = TF.layer_norm(tt[0], (d,), tt[5], tt[6]) if pre else tt[0]
    h = (torch.relu if act == "relu" else TF.gelu)(h @ tt[1] + tt[2]) @ tt[3] + tt[4]
    h = tt[0] + h if add_residual else h
    (h if pre else TF.layer_norm(h, (d,), tt[7], tt[8])).sum().backward()
    for p, t in zip(ts, tt):
        if t.grad is not None:
            close(p.grad.numpy(), t.grad.numpy(), 1e-4)


def test_feedforward_layer_matches_functional_and_refuses_ring_id():
    paddle.seed(1)
    layer = paddle.incubate.nn.FusedFeedForward(8, 16, dropout_rate=0.0)
    x = T(rnd((2, 3, 8), 0))
    want = np_ffn(x.numpy(), layer._linear1_weight.numpy(), layer._linear1_bias.numpy(), layer._linear2_weight.numpy(),
                  layer._linear2_bias.numpy(), None, None, layer._ln2_scale.numpy(), layer._ln2_bias.numpy(), "relu",
                  False, True)
    close(layer(x).numpy(), want, 5e-5)
    with pytest.raises(NotImplementedError):
        F.fused_feedforward(x, layer._linear1_weight, layer._linear2_weight, ring_id=0)


# ------------------------------------------------------------------ multi-head attention


def np_mha(x, qkv_w, qkv_b, lin_w, lin_b, mask, pre, s_pre, b_pre, s_ln, b_ln, add_residual, cache=None,
           transposed=False, nh=None):
    b, s, e = x.shape
    h = np_ln(x, s_pre, b_pre) if pre else x
    if transposed:
        qkv = (h @ qkv_w + qkv_b).reshape(b, s, 3, nh, e // nh)
    else:
        nh, hd = qkv_w.shape[1], qkv_w.shape[2]
        qkv = np.einsum("bse,thde->bsthd", h, qkv_w) + qkv_b
    qkv = qkv.transpose(2, 0, 3, 1, 4)
    q, k, v = qkv[0], qkv[1], qkv[2]
    if cache is not None:
        k, v = np.concatenate([cache[0], k], 2), np.concatenate([cache[1], v], 2)
    sc = (q * q.shape[-1] ** -0.5) @ k.transpose(0, 1, 3, 2)
    if mask is not None:
        sc = sc + mask
    o = (np_softmax(sc) @ v).transpose(0, 2, 1, 3).reshape(b, s, -1) @ lin_w + lin_b
    o = x + o if add_residual else o
    return (o if pre else np_ln(o, s_ln, b_ln)), (None if cache is None else np.stack([k, v]))


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
@pytest.mark.parametrize("pre", [False, True])
@pytest.mark.parametrize("variant", ["mask", "cache", "transposed", "no_residual"])
def test_fused_multi_head_attention(backend, pre, variant):
    b, s, nh, hd = 2, 5, 3, 4
    e = nh * hd
    transposed = variant == "transposed"
    arrs = dict(x=rnd((b, s, e), 0), qkv_w=rnd((e, 3 * e) if transposed else (3, nh, hd, e), 1, 0.4),
                qkv_b=rnd(3 * e if transposed else (3, nh, hd), 2), lin_w=rnd((e, e), 3, 0.4), lin_b=rnd(e, 4),
                s_pre=rnd(e, 5), b_pre=rnd(e, 6), s_ln=rnd(e, 7), b_ln=rnd(e, 8))
    mask = rnd((b, 1, s, s), 9) if variant == "mask" else None
    cache = rnd((2, b, nh, 3, hd), 10) if variant == "cache" else None
    add_residual = variant != "no_residual"
    ts = {k: T(v, True) for k, v in arrs.items()}
    res = F.fused_multi_head_attention(
        ts["x"], ts["qkv_w"], ts["lin_w"], pre, ts["s_pre"], ts["b_pre"], ts["s_ln"], ts["b_ln"], 1e-5, ts["qkv_b"],
        ts["lin_b"], None if cache is None else T(cache), None if mask is None else T(mask), 0.0, 0.0,
        add_residual=add_residual, num_heads=nh if transposed else -1, transpose_qkv_wb=transposed)
    want, want_cache = np_mha(*[arrs[k] for k in ("x", "qkv_w", "qkv_b", "lin_w", "lin_b")], mask, pre,
                              arrs["s_pre"], arrs["b_pre"], arrs["s_ln"], arrs["b_ln"], add_residual, cache,
                              transposed, nh)
    out = res[0] if cache is not None else res
    close(out.numpy(), want, 5e-5)
    if cache is not None:
        close(res[1].numpy(), want_cache, 1e-5)
    out.sum().backward()
    for k in ("x", "qkv_w", "lin_w"):
        assert ts[k].grad is not None and np.isfinite(ts[k].grad.numpy()).all()


def test_mha_grads_against_torch_composition():
    b, s, nh, hd = 2, 6, 2, 8
    e = nh * hd
    arrs = [rnd((b, s, e), 0), rnd((3, nh, hd, e), 1, 0.3), rnd((e, e), 2, 0.3), rnd(e, 3), rnd(e, 4)]
    ts = [T(a, True) for a in arrs]
    out = F.fused_multi_head_attention(ts[0], ts[1], ts[2], ln_scale=ts[3], ln_bias=ts[4], dropout_rate=0.0,
                                       attn_dropout_rate=0.0)
    g = rnd((b, s, e), 5)
    (out * T(g)).sum().backward()
    tt = [torch.tensor(a, requires_grad=True) for a in arrs]
    qkv = torch.einsum("bse,thde->tbhsd", tt[0], tt[1])
    att = torch.softmax(qkv[0] @ qkv[1].transpose(-1, -2) / hd ** 0.5, -1) @ qkv[2]
    o = att.transpose(1, 2).reshape(b, s, e) @ tt[2] + tt[0]
    (TF.layer_norm(o, (e,), tt[3], tt[4]) * torch.tensor(g)).sum().backward()
    for p, t in zip(ts, tt):
        close(p.grad.numpy(), t.grad.numpy(), 1e-4)


def test_transformer_encoder_layer_eval_is_deterministic_and_cached():
    paddle.seed(2)
    layer = paddle.incubate.nn.FusedTransformerEncoderLayer(8, 2, 16, dropout_rate=0.1, normalize_before=True)
    layer.eval()
    x = T(rnd((2, 4, 8), 0))
    a, b = layer(x), layer(x)
    close(a.numpy(), b.numpy(), 0)
    mask = paddle.to_tensor(np.tril(np.ones((4, 4), dtype=bool)))
    cache = paddle.zeros([2, 2, 2, 0, 4])
    out, new_cache = layer(x, mask, cache)
    assert out.shape == [2, 4, 8] and new_cache.shape == [2, 2, 2, 4, 4]


# ------------------------------------------------------------------ variable-length attention


def np_vlmea(q, k, v, ql, kl, mask, scale, causal, pre):
    b, nh, sq, d = q.shape
    rep = nh // k.shape[1]
    k, v = np.repeat(k, rep, 1), np.repeat(v, rep, 1)
    out = np.zeros_like(q, dtype=np.float64)
    for i in range(b):
        nk = kl[i] + pre
        for r in range(ql[i]):
            sc = np.einsum("hd,hkd->hk", q[i, :, r], k[i, :, :nk]) * scale
            if mask is not None:
                sc = sc + mask[i, :, r, :nk]
            if causal:
                sc[:, np.arange(nk) > r + pre] = -np.inf
            out[i, :, r] = np.einsum("hk,hkd->hd", np_softmax(sc), v[i, :, :nk])
    return out


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("gqa", [False, True])
def test_variable_length_memory_efficient_attention(causal, gqa):
    b, nh, s, d = 3, 4, 7, 8
    kvh = 2 if gqa else nh
    q, k, v = rnd((b, nh, s, d), 0), rnd((b, kvh, s, d), 1), rnd((b, kvh, s, d), 2)
    ql, kl = np.array([7, 3, 5], "int32"), np.array([7, 4, 2], "int32")
    mask = rnd((b, 1, s, s), 3)
    out = F.variable_length_memory_efficient_attention(T(q), T(k), T(v), paddle.to_tensor(ql[:, None]),
                                                       paddle.to_tensor(kl[:, None]), T(mask), None, causal, 0)
    close(out.numpy(), np_vlmea(q, k, v, ql, kl, mask, d ** -0.5, causal, 0), 2e-5)
    out2 = F.variable_length_memory_efficient_attention(T(q), T(k), T(v), paddle.to_tensor(ql),
                                                        paddle.to_tensor(kl - 1), scale=0.3, causal=causal,
                                                        pre_cache_length=1)
    close(out2.numpy(), np_vlmea(q, k, v, ql, kl - 1, None, 0.3, causal, 1), 2e-5)


# ------------------------------------------------------------------ flash-attention family


@pytest.mark.parametrize("causal", [False, True])
def test_flash_attn_unpadded_matches_per_sequence_attention(causal):
    h, d = 2, 8
    cu_q, cu_k = np.array([0, 3, 8, 9], "int32"), np.array([0, 5, 10, 12], "int32")
    q, k, v = rnd((9, h, d), 0), rnd((12, 1, d), 1), rnd((12, 1, d), 2)  # one key head: GQA
    qt, kt, vt = T(q, True), T(k, True), T(v, True)
    out, sm = FA.flash_attn_unpadded(qt, kt, vt, paddle.to_tensor(cu_q), paddle.to_tensor(cu_k), 5, 5, 0.3,
                                     causal=causal, return_softmax=True)
    out2, none = FA.flash_attn_unpadded(qt, kt, vt, paddle.to_tensor(cu_q), paddle.to_tensor(cu_k), 5, 5, 0.3,
                                        causal=causal)
    assert none is None and sm.shape == [3, 2, 5, 5]
    for i in range(3):
        qs, ks, vs = q[cu_q[i]:cu_q[i + 1]], k[cu_k[i]:cu_k[i + 1]], v[cu_k[i]:cu_k[i + 1]]
        sc = np.einsum("qhd,khd->hqk", qs, np.repeat(ks, h, 1)) * 0.3
        if causal:  # bottom-right aligned
            sq, sk = sc.shape[1:]
            sc = np.where(np.tril(np.ones((sq, sk), bool), sk - sq), sc, -np.inf)
        p = np_softmax(sc)
        want = np.einsum("hqk,khd->qhd", p, np.repeat(vs, h, 1))
        close(out.numpy()[cu_q[i]:cu_q[i + 1]], want, 2e-5)
        close(out2.numpy()[cu_q[i]:cu_q[i + 1]], want, 2e-5)
        close(sm.numpy()[i, :, :p.shape[1], :p.shape[2]], p, 2e-5)
    out2.sum().backward()
    assert np.isfinite(qt.grad.numpy()).all() and kt.grad.shape == [12, 1, d]


def np_flashmask_dense(idx, sq, causal):
    """The conversion Paddle's flashmask_attention docstring gives, as a bool 'masked' array."""
    b, h, sk, nb = idx.shape
    m = np.zeros((b, h, sq, sk), bool)
    has_end = (causal and nb == 2) or (not causal and nb == 4)
    for bi in range(b):
        for hi in range(h):
            for j in range(sk):
                s0 = idx[bi, hi, j, 0]
                if has_end:
                    m[bi, hi, s0:idx[bi, hi, j, 1], j] = True
                else:
                    m[bi, hi, s0:, j] = True
                if causal:
                    m[bi, hi, :j, j] = True
                elif has_end:
                    m[bi, hi, idx[bi, hi, j, 2]:idx[bi, hi, j, 3], j] = True
                else:
                    m[bi, hi, :idx[bi, hi, j, 1], j] = True
    return m


@pytest.mark.parametrize("causal,nb", [(True, 1), (True, 2), (False, 2), (False, 4)])
def test_flashmask_attention_against_dense_mask(causal, nb):
    b, s, h, d = 2, 8, 2, 4
    rng = np.random.default_rng(nb)
    lo = rng.integers(0, s + 1, size=(b, 1, s, 1))
    hi = np.minimum(lo + rng.integers(0, 4, size=lo.shape), s)
    cols = {1: [lo], 2: [lo, hi] if causal else [lo, rng.integers(0, 3, size=lo.shape)],
            4: [lo, hi, rng.integers(0, 2, size=lo.shape), rng.integers(2, 4, size=lo.shape)]}[nb]
    idx = np.concatenate(cols, -1).astype("int32")
    q, k, v = rnd((b, s, h, d), 0), rnd((b, s, h, d), 1), rnd((b, s, h, d), 2)
    out, lse = FA.flashmask_attention(T(q), T(k), T(v), paddle.to_tensor(idx), causal=causal, return_softmax_lse=True)
    masked = np_flashmask_dense(idx, s, causal)
    sc = np.einsum("bqhd,bkhd->bhqk", q, k) * d ** -0.5
    sc = np.where(masked, -np.inf, sc)
    live = ~masked.all(-1, keepdims=True)
    p = np.where(live, np_softmax(np.where(live, sc, 0)), 0)
    p = np.where(masked, 0, p)
    want = np.einsum("bhqk,bkhd->bqhd", p / np.where(live, p.sum(-1, keepdims=True), 1), v)
    close(out.numpy(), want, 2e-5)
    with np.errstate(divide="ignore"):
        want_lse = np.log(np.where(masked, 0, np.exp(sc - sc.max(-1, keepdims=True, initial=-1e30))).sum(-1)) + \
            np.max(np.where(masked, -1e30, sc), -1)
    close(np.where(live[..., 0], lse.numpy(), 0), np.where(live[..., 0], want_lse, 0), 2e-5)


def test_flashmask_window_and_unsupported():
    q = T(rnd((1, 6, 2, 4), 0))
    out = FA.flashmask_attention(q, q, q, causal=True, window_size=2)
    idx = np.minimum(np.arange(3, 9), 6).reshape(1, 1, 6, 1).astype("int32")
    close(out.numpy(), FA.flashmask_attention(q, q, q, paddle.to_tensor(idx), causal=True).numpy(), 1e-6)
    with pytest.raises(NotImplementedError):
        FA.flashmask_attention(q, q, q, causal=True, return_seed_offset=True)


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_flash_attention_gqa_noncontiguous_and_scale(dtype):
    q = T(rnd((2, 4, 5, 8), 0)).astype(dtype).transpose([0, 2, 1, 3])  # non-contiguous [2, 5, 4, 8]
    k, v = T(rnd((2, 5, 2, 8), 1)).astype(dtype), T(rnd((2, 5, 2, 8), 2)).astype(dtype)
    out, _ = FA.flash_attention(q, k, v, causal=True, softmax_scale=0.2)
    qf, kf, vf = (t.astype("float32").numpy() for t in (q, k, v))
    sc = np.einsum("bqhd,bkhd->bhqk", qf, np.repeat(kf, 2, 2)) * 0.2
    sc = np.where(np.tril(np.ones((5, 5), bool)), sc, -np.inf)
    want = np.einsum("bhqk,bkhd->bqhd", np_softmax(sc), np.repeat(vf, 2, 2))
    close(out.astype("float32").numpy(), want, 2e-5 if dtype == "float32" else 3e-2)


# ------------------------------------------------------------------ fused cross entropy


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize("shape", [(37, 1001), (5, 3, 257)])
def test_softmax_ce_forward_and_grad(backend, dtype, shape):
    torch.manual_seed(0)
    big = torch.randn(*shape[:-1], shape[-1] + 3) * 4
    x = big[..., :shape[-1]].to(dtype).detach().requires_grad_(True)  # non-contiguous rows when sliced
    xs = x.reshape(-1, shape[-1]) if x.dim() == 2 else x.reshape(-1, shape[-1])
    lab = torch.randint(0, shape[-1], (xs.shape[0],))
    lab[2] = -100
    got = ce.fused_softmax_cross_entropy(xs, lab, -100)
    want = torch.where(lab != -100, TF.cross_entropy(xs.float(), lab, reduction="none", ignore_index=-100), 0)
    tol = 1e-5 if dtype == torch.float32 else 5e-2
    torch.testing.assert_close(got.float(), want, rtol=tol, atol=tol)
    assert got.dtype == dtype
    g = torch.randn(xs.shape[0])
    g1 = torch.autograd.grad((got.float() * g).sum(), x)[0]
    g2 = torch.autograd.grad((want * g).sum(), x)[0]
    torch.testing.assert_close(g1.float(), g2.float(), rtol=tol, atol=tol)


def test_softmax_ce_opcheck_compile_and_errors():
    x = torch.randn(6, 10, requires_grad=True)
    lab = torch.randint(0, 10, (6,))
    torch.library.opcheck(torch.ops.paddle_on_torch.softmax_ce.default, (x, lab, -100))
    torch.library.opcheck(torch.ops.paddle_on_torch.softmax_ce.default, (x, torch.full((6,), 3), 3))
    lse = torch.logsumexp(x.detach(), -1)
    torch.library.opcheck(torch.ops.paddle_on_torch.softmax_ce_bwd.default,
                          (x.detach(), lab, lse, torch.randn(6), -100))
    f = torch.compile(lambda x, lab: ce.softmax_ce(x, lab, -100)[0].sum(), backend="aot_eager", fullgraph=True)
    f(x, lab).backward()
    g = x.grad.clone()
    x.grad = None
    TF.cross_entropy(x, lab, reduction="sum").backward()
    torch.testing.assert_close(g, x.grad)
    with pytest.raises(IndexError):
        ce.fused_softmax_cross_entropy(torch.randn(2, 5), torch.tensor([1, 5]))
    with pytest.raises(IndexError):
        ce.softmax_ce(torch.randn(2, 5, dtype=torch.float64), torch.tensor([1, -1]), -100)


def test_softmax_ce_all_neg_inf_row_and_fp64():
    x = torch.tensor([[0.0, float("-inf"), 1.0], [float("-inf")] * 3])
    loss = ce.fused_softmax_cross_entropy(x, torch.tensor([0, -100]))
    torch.testing.assert_close(loss[0], TF.cross_entropy(x[:1], torch.tensor([0])))
    assert loss[1].item() == 0
    xd = torch.randn(4, 7, dtype=torch.float64, requires_grad=True)
    lab = torch.tensor([0, 6, 3, 1])
    assert torch.autograd.gradcheck(lambda t: ce.fused_softmax_cross_entropy(t, lab), (xd,))


@pytest.mark.parametrize("backend", BACKENDS[1:], indirect=True)
def test_big_outputs_on_huge_pages_are_right(backend):
    """Outputs of 32 MiB and more are madvised for transparent huge pages before the kernel writes them."""
    torch.manual_seed(0)
    x = torch.randn(2048, 4096 + 3)[:, 3:]  # 32 MiB, rows not 2 MiB-aligned in the source
    w = torch.randn(4096)
    got = norm.norm(x.contiguous(), None, None, w, None, 1e-6, 1.0, True, 1)[0]
    torch.testing.assert_close(got, norm.ref_norm(x, None, None, w, None, 1e-6, 1.0, True)[0])
    torch.testing.assert_close(swiglu.silu_mul(x, x), swiglu.ref_swiglu(x, x))


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
def test_softmax_ce_vocab_shards_compose(backend):
    """The ParallelCrossEntropy recipe (see kernels/cross_entropy.py) on two vocabulary shards in
    one process: local lse from softmax_ce, global lse and picked logit combined across shards, backward by
    softmax_ce_bwd with the global lse and shard-local labels."""
    torch.manual_seed(0)
    m, v = 9, 1003
    x = torch.randn(m, v) * 3
    lab = torch.randint(0, v, (m,))
    lab[4] = -100
    shards = [(0, 500), (500, v)]
    lses, picked = [], torch.zeros(m)
    for lo, hi in shards:
        xs = x[:, lo:hi]
        lses.append(ce.softmax_ce(xs, torch.full((m,), -100), -100)[1])
        inside = (lab >= lo) & (lab < hi)
        picked += torch.where(inside, xs.gather(1, (lab - lo).clamp(0, hi - lo - 1)[:, None])[:, 0], 0)
    lse = torch.logsumexp(torch.stack(lses), 0)
    loss = torch.where(lab != -100, lse - picked, 0)
    want = torch.where(lab != -100, TF.cross_entropy(x, lab, reduction="none", ignore_index=-100), 0)
    torch.testing.assert_close(loss, want)
    g = torch.randn(m)
    # shard-local labels: lab - lo inside the shard, the shard width (out of range) elsewhere, -100 kept
    local = [torch.where(lab == -100, lab, torch.where((lab >= lo) & (lab < hi), lab - lo, hi - lo))
             for lo, hi in shards]
    grad = torch.cat([ce.softmax_ce_bwd(x[:, lo:hi].contiguous(), lb, lse, g, -100)
                      for (lo, hi), lb in zip(shards, local)], 1)
    xr = x.clone().requires_grad_(True)
    (TF.cross_entropy(xr, lab, reduction="none", ignore_index=-100) * g).sum().backward()
    torch.testing.assert_close(grad, xr.grad)


@pytest.mark.parametrize("op", ["norm", "rope", "swiglu"])
def test_double_backward_is_refused_not_silently_first_order(op):
    """The kernels' backwards are not differentiable: create_graph=True through them raises instead of
    giving gradients with no graph behind them (a wrong second derivative)."""
    x = torch.randn(1, 4, 2, 8, requires_grad=True)  # rope: [batch, seq, heads, dim]
    if op == "norm":
        out = norm.norm(x, None, None, torch.ones(8), None, 1e-6, 1.0, True, 3)[0]
    elif op == "rope":
        cos, sin = torch.randn(1, 4, 8), torch.randn(1, 4, 8)
        out = rope.rotary(x, cos, sin, False)
    else:
        out = swiglu.silu_mul(x, x * 2)
    with pytest.raises(RuntimeError, match="double backward|no autograd formula"):
        g, = torch.autograd.grad((out * out).sum(), x, create_graph=True)
        torch.autograd.grad(g.sum(), x)


@pytest.mark.skipif(ext.load() is None, reason="no C++ build")
def test_functional_norms_reach_the_norm_op():
    """paddle.nn.functional.rms_norm (every size) and layer_norm (from _LAYER_NORM_OP_FROM elements on) run the
    fused norm op in eager mode, with torch's layer_norm / the rms composition's values and gradients; a small
    layer_norm keeps torch's op (cheaper per call)."""
    from paddle_on_torch.nn.functional import norm as fnorm

    torch.manual_seed(0)
    PF = paddle.nn.functional
    for shape, axes in (([4, 96, 384], [384]), ([4, 96, 384], [96, 384]), ([2, 3, 8], [8])):
        x = paddle.to_tensor(torch.randn(shape).numpy(), stop_gradient=False)
        n = int(np.prod(axes))
        w = paddle.to_tensor(torch.randn(n).numpy(), stop_gradient=False)
        b = paddle.to_tensor(torch.randn(n).numpy(), stop_gradient=False)
        y = PF.layer_norm(x, axes, w, b, 1e-5)
        big = x.numel() >= fnorm._LAYER_NORM_OP_FROM
        assert ("NormFunction" in y._t.grad_fn.name()) == big, y._t.grad_fn.name()
        xt, wt, bt = (t._t.detach().requires_grad_() for t in (x, w, b))
        want = torch.nn.functional.layer_norm(xt, axes, wt.reshape(axes), bt.reshape(axes), 1e-5)
        torch.testing.assert_close(y._t, want, rtol=1e-5, atol=1e-5)
        g = torch.randn(shape)
        got_g = torch.autograd.grad(y._t, [x._t, w._t, b._t], g)
        want_g = torch.autograd.grad(want, [xt, wt, bt], g)
        for a, c in zip(got_g, want_g):
            torch.testing.assert_close(a, c.reshape(a.shape), rtol=1e-4, atol=1e-4)
        out, inv = PF.rms_norm(x, axes, w, 1e-6)
        assert "NormFunction" in out._t.grad_fn.name()
        rows = xt.reshape(-1, n)
        want_inv = torch.rsqrt(rows.pow(2).mean(-1) + 1e-6)
        torch.testing.assert_close(inv._t, want_inv)
        torch.testing.assert_close(out._t, (rows * want_inv[:, None] * wt).reshape(shape), rtol=1e-5, atol=1e-5)
