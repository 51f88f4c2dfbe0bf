"""paddle.incubate.nn.functional: the fused linear / dropout / transformer-block ops.

Paddle implements these as CUDA kernels (its CPU build registers none of them: fused_gemm_epilogue,
fused_feedforward, fused_attention, fused_bias_dropout_residual_layer_norm and
variable_length_memory_efficient_attention all raise "kernel not registered" there).  On CPU the
GEMMs, SDPA and elementwise parts are already single fast torch kernels, so these are torch
compositions; the one fusion that pays (residual add + bias + layer norm in one pass over memory)
goes through the norm custom op (paddle_on_torch.kernels.norm).  The semantics follow
the pseudo code in Paddle's docstrings and its GPU kernels; see docs/kernels.md.
"""
import math

import torch
import torch.nn.functional as TF

from ..._normalize import OptionalTensor, TensorLike, op
from ...kernels import norm as _norm_op
from ..._report import unsupported

__all__ = ["fused_matmul_bias", "fused_linear", "fused_linear_activation", "fused_dropout_add",
           "fused_bias_dropout_residual_layer_norm", "fused_feedforward", "fused_multi_head_attention",
           "variable_length_memory_efficient_attention"]

_MODES = ("upscale_in_train", "downscale_in_infer")


def _check_mode(mode):
    if mode not in _MODES:
        raise ValueError("mode argument should be 'downscale_in_infer' or 'upscale_in_train'")


def _check_rate(p, what="dropout_rate"):
    if not isinstance(p, (float, int)) or isinstance(p, bool):
        raise TypeError(f"{what} argument should be a number")
    if p < 0 or p > 1:
        raise ValueError(f"{what} argument should between 0 and 1")


def _dropout(t, p, training, mode):
    """Paddle's dropout: upscale_in_train scales kept values by 1/(1-p) in training; downscale_in_infer
    keeps them as they are in training and multiplies by (1-p) at inference."""
    if p == 0:
        return t
    if mode == "upscale_in_train":
        return TF.dropout(t, p, training=True) if training else t
    if not training:
        return t * (1.0 - p)
    return t * torch.empty_like(t).bernoulli_(1.0 - p)


def _norm(x, residual, bias, weight, norm_bias, eps, rms=False):
    """LayerNorm(x + bias + residual) over the last axis through the fused C++ norm op.
    Returns (out, residual_out); residual_out is None without a residual."""
    if residual is None and bias is not None:
        x = (x + bias).to(x.dtype)  # the norm op adds its bias only together with a residual
        bias = None
    out, res_out, _, _ = _norm_op.norm(x, residual, bias, weight, norm_bias, float(eps), 1.0, rms, x.dim() - 1)
    return out, (res_out if residual is not None else None)


# ------------------------------------------------------------------ linear


def _matmul_bias(x, y, bias, transpose_x, transpose_y):
    if y.dim() != 2:
        raise ValueError(f"fused_matmul_bias: y must be 2-D, got shape {list(y.shape)}")
    if transpose_x:
        # Paddle's fused_gemm_epilogue reads a transposed N-D x as [K, M...]: out is [M..., N]
        lead = x.shape[1:]
        x = x.reshape(x.shape[0], -1).t()
    else:
        lead = x.shape[:-1]
    w = y if transpose_y else y.t()  # F.linear wants [N, K]; a transposed view, no copy
    if x.shape[-1] != w.shape[1]:
        raise ValueError(f"fused_matmul_bias: the contracted dims differ: x gives {x.shape[-1]}, y gives "
                         f"{w.shape[1]}")
    if bias is not None and bias.shape[-1] != w.shape[0]:
        raise ValueError(f"fused_matmul_bias: bias must have {w.shape[0]} elements, got {list(bias.shape)}")
    out = TF.linear(x, w, bias)
    return out.reshape(*lead, w.shape[0]) if transpose_x else out


@op
def fused_matmul_bias(x: TensorLike, y: TensorLike, bias: OptionalTensor = None, transpose_x=False,
                      transpose_y=False, name=None):
    """matmul(x, y) + bias as one addmm (torch's GEMM with the bias epilogue)."""
    if bias is None:  # Paddle: plain paddle.matmul (batched y allowed)
        if transpose_x:
            x = x.transpose(-1, -2) if x.dim() > 1 else x
        if transpose_y:
            y = y.transpose(-1, -2) if y.dim() > 1 else y
        return torch.matmul(x, y)
    return _matmul_bias(x, y, bias, transpose_x, transpose_y)


@op
def fused_linear(x: TensorLike, weight: TensorLike, bias: OptionalTensor = None, transpose_weight=False,
                 name=None):
    """x @ weight + bias (weight [in, out], or [out, in] with transpose_weight)."""
    if bias is None:
        return torch.matmul(x, weight.t() if transpose_weight else weight)
    return _matmul_bias(x, weight, bias, False, transpose_weight)


# cuBLASLt's GELU epilogue, which fused_gemm_epilogue uses, is the tanh approximation
_EPILOGUE = {"none": lambda t: t, "relu": torch.relu, "gelu": lambda t: TF.gelu(t, approximate="tanh")}


@op
def fused_linear_activation(x: TensorLike, y: TensorLike, bias: TensorLike, trans_x=False, trans_y=False,
                            activation=None):
    act = "none" if activation is None else activation
    if act not in _EPILOGUE:
        raise ValueError(f"fused_linear_activation: activation must be 'gelu', 'relu' or None, got {activation!r}")
    return _EPILOGUE[act](_matmul_bias(x, y, bias, trans_x, trans_y))


# ------------------------------------------------------------------ dropout + add / + layer norm


@op
def fused_dropout_add(x: TensorLike, y: TensorLike, p=0.5, training=True, mode="upscale_in_train", name=None):
    """dropout(x) + y (Paddle 3.3.1 itself runs exactly this composition)."""
    if isinstance(p, (int, float)) and (p < 0 or p > 1):
        raise ValueError("p argument should between 0 and 1")
    _check_mode(mode)
    return _dropout(x, float(p), training, mode) + y


@op
def fused_bias_dropout_residual_layer_norm(x: TensorLike, residual: TensorLike, bias: OptionalTensor = None,
                                           ln_scale: OptionalTensor = None, ln_bias: OptionalTensor = None,
                                           dropout_rate=0.5, ln_epsilon=1e-5, training=True,
                                           mode="upscale_in_train", name=None):
    """layer_norm(residual + dropout(bias + x)) over the last axis."""
    _check_mode(mode)
    n = x.shape[-1]
    for what, t in (("ln_scale", ln_scale), ("ln_bias", ln_bias)):
        if t is not None:
            assert t.dim() == 1, f"The dims of the shape of {what} should be 1."
            assert t.shape[0] == n, f"The dim of {what} must equal to the last dim of x."
    if tuple(residual.shape) != tuple(x.shape):
        raise ValueError(f"fused_bias_dropout_residual_layer_norm: residual must have x's shape {list(x.shape)}, "
                         f"got {list(residual.shape)}")
    if dropout_rate == 0 or (not training and mode == "upscale_in_train"):
        # no dropout: bias, residual and the norm in one pass
        return _norm(x, residual, bias, ln_scale, ln_bias, ln_epsilon)[0]
    h = _dropout((x + bias).to(x.dtype) if bias is not None else x, float(dropout_rate), training, mode)
    return _norm(h, residual, None, ln_scale, ln_bias, ln_epsilon)[0]


# ------------------------------------------------------------------ feed-forward


# Paddle's fused_feedforward kernel implements these two (erf GeLU) and throws for any other act_method
_FFN_ACTS = {"relu": torch.relu, "gelu": TF.gelu}


@op
def fused_feedforward(x: TensorLike, linear1_weight: TensorLike, linear2_weight: TensorLike,
                      linear1_bias: OptionalTensor = None, linear2_bias: OptionalTensor = None,
                      ln1_scale: OptionalTensor = None, ln1_bias: OptionalTensor = None,
                      ln2_scale: OptionalTensor = None, ln2_bias: OptionalTensor = None, dropout1_rate=0.5,
                      dropout2_rate=0.5, activation="relu", ln1_epsilon=1e-5, ln2_epsilon=1e-5,
                      pre_layer_norm=False, training=True, mode="upscale_in_train", ring_id=-1,
                      add_residual=True, name=None):
    """residual = x; out = LN1(x) if pre_layer_norm; out = linear2(dropout1(act(linear1(out))));
    out = residual + dropout2(out) (or dropout2(out)); out = LN2(out) unless pre_layer_norm."""
    _check_rate(dropout1_rate, "dropout_rate")
    _check_rate(dropout2_rate, "dropout_rate")
    _check_mode(mode)
    if ring_id != -1:
        raise unsupported("paddle.incubate.nn.functional.fused_feedforward",
                          " with ring_id (a tensor-parallel all-reduce inside the op)")
    if activation not in _FFN_ACTS:
        raise ValueError(f"fused_feedforward: activation must be 'gelu' or 'relu', got {activation!r}")
    h = _norm(x, None, None, ln1_scale, ln1_bias, ln1_epsilon)[0] if pre_layer_norm else x
    h = _matmul_bias(h, linear1_weight, linear1_bias, False, False)
    h = _dropout(_FFN_ACTS[activation](h), float(dropout1_rate), training, mode)
    h = _matmul_bias(h, linear2_weight, linear2_bias, False, False)
    h = _dropout(h, float(dropout2_rate), training, mode)
    if pre_layer_norm:
        return x + h if add_residual else h
    return _norm(h, x if add_residual else None, None, ln2_scale, ln2_bias, ln2_epsilon)[0]


# ------------------------------------------------------------------ attention


def _additive_mask(mask, dtype):
    if mask is None or mask.is_floating_point():
        return None if mask is None else mask.to(dtype)
    return (mask.to(dtype) - 1.0) * 1e9  # Paddle's _convert_attention_mask for bool / int masks


def _attention(q, k, v, mask, p, training, mode, scale):
    """softmax(q k^T * scale + mask) v on [b, h, s, d] through torch's SDPA (fused on CPU too)."""
    if p > 0 and training and mode == "downscale_in_infer":
        w = torch.softmax(torch.matmul(q * scale, k.transpose(-1, -2)) + (0 if mask is None else mask), -1)
        return torch.matmul(_dropout(w, p, training, mode), v)
    out = TF.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=p if training else 0.0,
                                          scale=scale)
    return out * (1.0 - p) if (p > 0 and not training and mode == "downscale_in_infer") else out


@op
def fused_multi_head_attention(x: TensorLike, qkv_weight: TensorLike, linear_weight: TensorLike,
                               pre_layer_norm=False, pre_ln_scale: OptionalTensor = None,
                               pre_ln_bias: OptionalTensor = None, ln_scale: OptionalTensor = None,
                               ln_bias: OptionalTensor = None, pre_ln_epsilon=1e-05,
                               qkv_bias: OptionalTensor = None, linear_bias: OptionalTensor = None,
                               cache_kv: OptionalTensor = None, attn_mask: OptionalTensor = None,
                               dropout_rate=0.5, attn_dropout_rate=0.5, ln_epsilon=1e-05, training=True,
                               mode="upscale_in_train", ring_id=-1, add_residual=True, num_heads=-1,
                               transpose_qkv_wb=False, name=None):
    """Self-attention block (see Paddle's pseudo code); returns out, or (out, cache_kv_out) with cache_kv."""
    _check_mode(mode)
    if x.dim() != 3:
        raise ValueError(f"The rank of the x should be 3, but received {x.dim()}.")
    if ring_id != -1:
        raise unsupported("paddle.incubate.nn.functional.fused_multi_head_attention",
                          " with ring_id (a tensor-parallel all-reduce inside the op)")
    b, s, e = x.shape
    if not transpose_qkv_wb:
        assert qkv_weight.dim() == 4, "The dims of the shape of qkv_weight should be 4."
        assert qkv_weight.shape[0] == 3, "The shape of qkv_weight should be [3, num_head, head_dim, embed_dim]."
        assert qkv_weight.shape[3] == e, ("The 3rd dim of qkv_weight and 2nd dim of x should be the same, i.e., "
                                          "embed_dim.")
        assert qkv_weight.shape[1] * qkv_weight.shape[2] == qkv_weight.shape[3], \
            "embed_dim must be divisible by num_heads."
        nh, hd = qkv_weight.shape[1], qkv_weight.shape[2]
        w = qkv_weight.reshape(3 * nh * hd, e)  # [out, in]: F.linear's layout already
    else:
        assert num_heads > 0, ("When enable transpose_qkv_wb, the num_heads should be provided and greater "
                               "than 0.")
        assert qkv_weight.dim() == 2, "When enable transpose_qkv_wb, the dims of the shape of qkv_weight should be 2."
        assert qkv_weight.shape[0] == e, ("When enable transpose_qkv_wb, the 1st dim of qkv_weight and 2nd dim of "
                                          "x should be the same, i.e., embed_dim.")
        assert qkv_weight.shape[1] == 3 * e, ("When enable transpose_qkv_wb, the shape of qkv_weight should be "
                                              "[embed_dim, 3 * embed_dim].")
        nh, hd = num_heads, e // num_heads
        w = qkv_weight.t()
    h = _norm(x, None, None, pre_ln_scale, pre_ln_bias, pre_ln_epsilon)[0] if pre_layer_norm else x
    qkv = TF.linear(h, w, None if qkv_bias is None else qkv_bias.reshape(-1))
    q, k, v = qkv.reshape(b, s, 3, nh, hd).permute(2, 0, 3, 1, 4).unbind(0)  # each [b, nh, s, hd]
    cache_out = None
    if cache_kv is not None:
        k = torch.cat([cache_kv[0], k], dim=2)
        v = torch.cat([cache_kv[1], v], dim=2)
        cache_out = torch.stack([k, v])
    mask = _additive_mask(attn_mask, q.dtype)
    att = _attention(q, k, v, mask, float(attn_dropout_rate), training, mode, hd ** -0.5)
    att = att.transpose(1, 2).reshape(b, s, nh * hd)
    if pre_layer_norm:
        out = _matmul_bias(att, linear_weight, linear_bias, False, False)
        out = _dropout(out, float(dropout_rate), training, mode)
        out = x + out if add_residual else out
    elif dropout_rate == 0 or (not training and mode == "upscale_in_train"):
        out = torch.matmul(att, linear_weight)  # bias, residual and the norm fused below
        out = _norm(out, x if add_residual else None, linear_bias, ln_scale, ln_bias, ln_epsilon)[0]
    else:
        out = _dropout(_matmul_bias(att, linear_weight, linear_bias, False, False), float(dropout_rate),
                       training, mode)
        out = _norm(out, x if add_residual else None, None, ln_scale, ln_bias, ln_epsilon)[0]
    return (out, cache_out) if cache_kv is not None else out


@op
def variable_length_memory_efficient_attention(query: TensorLike, key: TensorLike, value: TensorLike,
                                               seq_lens: TensorLike, kv_seq_lens: TensorLike,
                                               mask: OptionalTensor = None, scale=None, causal=False,
                                               pre_cache_length=0):
    """[b, h, s, d] attention where batch row i has seq_lens[i] queries and kv_seq_lens[i] (+ pre_cache_length)
    keys.  Query rows past seq_lens[i] are zero (Paddle's kernel leaves them unwritten)."""
    if query.dim() != 4:
        raise ValueError(f"variable_length_memory_efficient_attention: query must be 4-D [batch, heads, seq, "
                         f"head_dim], got {list(query.shape)}")
    if scale is None:
        scale = 1.0 / math.sqrt(query.shape[3])
    b, nh, sq, _ = query.shape
    kvh, sk = key.shape[1], key.shape[2]
    if nh % kvh:
        raise ValueError(f"variable_length_memory_efficient_attention: query heads ({nh}) must be a multiple "
                         f"of key heads ({kvh})")
    if kvh != nh:  # grouped-query attention: each key/value head serves nh / kvh query heads
        key, value = key.repeat_interleave(nh // kvh, 1), value.repeat_interleave(nh // kvh, 1)
    ql = seq_lens.reshape(b, 1).to(torch.int64)
    kl = kv_seq_lens.reshape(b, 1).to(torch.int64) + int(pre_cache_length)
    rows = torch.arange(sq, device=query.device)
    cols = torch.arange(sk, device=query.device)
    allowed = (cols[None, None, :] < kl[:, :, None])  # [b, 1, sk]
    allowed = allowed[:, None] & (rows[None, None, :, None] < ql[:, :, None, None])  # [b, 1, sq, sk]
    if causal:
        allowed = allowed & (cols[None, :] <= rows[:, None] + int(pre_cache_length))
    add = torch.zeros(allowed.shape, dtype=query.dtype, device=query.device).masked_fill(~allowed, float("-inf"))
    if mask is not None:
        add = add + mask.to(query.dtype)
    out = TF.scaled_dot_product_attention(query, key, value, attn_mask=add, scale=float(scale))
    live = rows[None, :] < ql  # [b, sq]
    return out.masked_fill(~live[:, None, :, None], 0)
