"""paddle.nn.functional attention: scaled_dot_product_attention and flash_attn_qkvpacked.

Paddle's layout is [batch, seq_len, num_heads, head_dim] (torch's SDPA wants [batch, heads, seq, dim]), so the
inputs are transposed around torch.nn.functional.scaled_dot_product_attention.  The semantics follow Paddle's
"math" path (paddle/nn/functional/flash_attention.py::_math_attention), the one its CPU build runs:
softmax(q k^T * scale + mask) v, a bool mask meaning "take part" (False -> -inf), an additive mask otherwise,
`is_causal` ignoring any given mask, dropout (upscale_in_train) only when `training`.
"""
import torch
import torch.nn.functional as TF

from ..._normalize import OptionalTensor, TensorLike, op

__all__ = ["flash_attn_qkvpacked", "scaled_dot_product_attention"]


def _sdpa(q, k, v, mask, dropout, causal, training, scale):
    """q, k, v in Paddle's [b, s, h, d]; returns [b, s, h, d] (torch's SDPA on [b, h, s, d])."""
    q, k, v = (t.transpose(1, 2) for t in (q, k, v))
    if causal:
        mask = None  # Paddle: "If is_causal is set to True, ... the provided mask will be ignored."
    elif mask is not None and mask.dtype == torch.bool:
        mask = torch.where(mask, torch.zeros((), dtype=q.dtype, device=q.device),
                           torch.full((), float("-inf"), dtype=q.dtype, device=q.device))
    elif mask is not None and mask.dtype != q.dtype:
        mask = mask.to(q.dtype)
    scale = scale or (q.shape[-1] ** -0.5 if q.shape[-1] != 0 else 1.0)  # Paddle: `scale or head_dim**-0.5`
    out = TF.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=dropout if training else 0.0,
                                          is_causal=bool(causal), scale=scale)
    if mask is not None and mask.is_floating_point():
        # Paddle's softmax over a row that is all -inf gives NaN; torch's SDPA gives 0 there
        dead = torch.isneginf(mask).all(-1, keepdim=True)
        if bool(dead.any()):
            out = out.masked_fill(dead, float("nan"))
    return out.transpose(1, 2)


def _repeat_kv(key, value, repeats):
    # Paddle's _repeat_kv: each key/value head repeated `repeats` times in place (repeat_interleave on heads)
    if repeats == 1:
        return key, value
    return key.repeat_interleave(repeats, dim=2), value.repeat_interleave(repeats, dim=2)


@op
def scaled_dot_product_attention(query: TensorLike, key: TensorLike, value: TensorLike,
                                 attn_mask: OptionalTensor = None, dropout_p=0.0, is_causal=False, training=True,
                                 backend=None, scale=None, enable_gqa=True, name=None):
    batched = query.dim() == 4
    if not batched:
        query, key, value = query.unsqueeze(0), key.unsqueeze(0), value.unsqueeze(0)
    k_heads, q_heads, v_heads = key.shape[2], query.shape[2], value.shape[2]
    if enable_gqa:
        if not (k_heads == 0 or q_heads % k_heads == 0):
            raise AssertionError(f"The number of groups in query({q_heads}) must be divisible by the number of "
                                 f"groups in key({k_heads}) if GQA enabled.")
        if k_heads != v_heads:
            raise AssertionError(f"The number of groups in key({k_heads}) must be equal to the number of groups "
                                 f"in value({v_heads}) if GQA enabled.")
    elif not q_heads == k_heads == v_heads:
        raise AssertionError(f"The number of groups in query({q_heads}) must be equal to the number of groups in "
                             f"key({k_heads}) and the number of groups in value({v_heads}) if GQA disabled.")
    key, value = _repeat_kv(key, value, q_heads // k_heads if k_heads != 0 else 1)
    out = _sdpa(query, key, value, attn_mask, dropout_p, is_causal, training, scale)
    return out if batched else out.squeeze(0)


@op
def flash_attn_qkvpacked(qkv: TensorLike, dropout=0.0, causal=False, return_softmax=False, *,
                         fixed_seed_offset=None, rng_name="", training=True, name=None):
    # qkv: [b, s, num_heads/num_heads_k + 2, num_heads_k, d]; Paddle's non-flash path splits it like this
    query = qkv[:, :, :-2].reshape(qkv.shape[0], qkv.shape[1], -1, qkv.shape[-1])
    key, value = qkv[:, :, -2], qkv[:, :, -1]
    if not return_softmax:
        if key.shape[2] not in (1, query.shape[2]):
            raise ValueError(f"flash_attn_qkvpacked: cannot broadcast {query.shape[2]} query heads against "
                             f"{key.shape[2]} key heads")
        if key.shape[2] == 1:
            key, value = _repeat_kv(key, value, query.shape[2])
        return _sdpa(query, key, value, None, dropout, causal, training, None), None
    # the attention weights are wanted too: Paddle's _math_attention written out (weights after dropout)
    q, k, v = (t.transpose(1, 2) for t in (query, key, value))
    product = torch.matmul(q * q.shape[-1] ** -0.5, k.transpose(-1, -2))
    if causal:  # Paddle's CPU path adds triu(-1e4, diagonal=1)
        product = product + torch.triu(torch.full_like(product, -1e4), diagonal=1)
    weights = torch.softmax(product, dim=-1)
    if dropout > 0.0:
        weights = TF.dropout(weights, dropout, training=training)
    return torch.matmul(weights, v).transpose(1, 2), weights
