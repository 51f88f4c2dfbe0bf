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
from ..._report import unsupported

# the names paddle.nn.functional exports; flash_attention and flash_attn_unpadded live only in this module
# (paddle.nn.functional.flash_attention is the module itself, as in Paddle)
__all__ = ["flash_attn_qkvpacked", "flashmask_attention", "scaled_dot_product_attention"]


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


def _gqa(query, key, value, what):
    """Repeat key/value heads for grouped-query attention ([b, s, h, d] or [t, h, d] layouts)."""
    qh, kh = query.shape[-2], key.shape[-2]
    if kh == qh:
        return key, value
    if kh == 0 or qh % kh or value.shape[-2] != kh:
        raise ValueError(f"{what}: query heads ({qh}) must be a multiple of key/value heads ({kh}, {value.shape[-2]})")
    return key.repeat_interleave(qh // kh, dim=-2), value.repeat_interleave(qh // kh, dim=-2)


def _weights_attention(q, k, v, dropout, causal, training, scale):
    """Paddle's _math_attention written out on [b, h, s, d], returning the (dropped-out) weights too."""
    product = torch.matmul(q * scale, k.transpose(-1, -2))
    if causal:  # Paddle's CPU path adds triu(-1e4, diagonal=1)
        product = product + torch.triu(torch.full_like(product, -1e4), diagonal=1)
    weights = torch.softmax(product, dim=-1)
    if dropout > 0.0:
        weights = TF.dropout(weights, dropout, training=training)
    return torch.matmul(weights, v), weights


@op
def flash_attention(query: TensorLike, key: TensorLike, value: TensorLike, dropout=0.0, causal=False,
                    return_softmax=False, *, fixed_seed_offset=None, rng_name="", training=True, name=None,
                    softmax_scale=None):
    """Attention on Paddle's [b, s, h, d] layout, on torch's SDPA (its fused CPU flash kernel).
    Returns (out, softmax or None).  softmax_scale defaults to head_dim ** -0.5."""
    if query.dim() != 4:
        raise ValueError(f"flash_attention: query must be 4-D [batch, seq_len, num_heads, head_dim], got "
                         f"{list(query.shape)}")
    key, value = _gqa(query, key, value, "flash_attention")
    scale = softmax_scale or (query.shape[-1] ** -0.5 if query.shape[-1] else 1.0)
    if not return_softmax:
        return _sdpa(query, key, value, None, dropout, causal, training, scale), None
    out, weights = _weights_attention(*(t.transpose(1, 2) for t in (query, key, value)), dropout, causal,
                                      training, scale)
    return out.transpose(1, 2), weights


@op
def flash_attn_unpadded(query: TensorLike, key: TensorLike, value: TensorLike, cu_seqlens_q: TensorLike,
                        cu_seqlens_k: TensorLike, max_seqlen_q, max_seqlen_k, scale, dropout=0.0, causal=False,
                        return_softmax=False, fixed_seed_offset=None, rng_name="", training=True, name=None):
    """Variable-length attention over packed sequences: query [total_q, h, d], key/value [total_k, h_k, d];
    sequence i is rows cu_seqlens[i]:cu_seqlens[i+1].  Returns (out [total_q, h, d], softmax or None), the
    softmax padded to [batch, h, max_seqlen_q, max_seqlen_k] with zeros.  A causal mask is aligned to the
    bottom-right corner when a sequence has more keys than queries (flash-attention 2.1+)."""
    if query.dim() != 3:
        raise ValueError(f"flash_attn_unpadded: query must be 3-D [total_seq_len, num_heads, head_dim], got "
                         f"{list(query.shape)}")
    key, value = _gqa(query, key, value, "flash_attn_unpadded")
    cq, ck = cu_seqlens_q.tolist(), cu_seqlens_k.tolist()
    if len(cq) != len(ck):
        raise ValueError(f"flash_attn_unpadded: cu_seqlens_q and cu_seqlens_k must have the same length, got "
                         f"{len(cq)} and {len(ck)}")
    outs, sms = [], []
    for i in range(len(cq) - 1):
        q = query[cq[i]:cq[i + 1]].transpose(0, 1)[None]  # [1, h, sq, d]
        k = key[ck[i]:ck[i + 1]].transpose(0, 1)[None]
        v = value[ck[i]:ck[i + 1]].transpose(0, 1)[None]
        sq, sk = q.shape[2], k.shape[2]
        mask = None
        if causal:  # bottom-right aligned: query row r sees keys c <= r + (sk - sq)
            mask = torch.ones(sq, sk, dtype=torch.bool, device=q.device).tril(sk - sq)
        if return_softmax:
            product = torch.matmul(q * scale, k.transpose(-1, -2))
            if mask is not None:
                product = product.masked_fill(~mask, float("-inf"))
            w = torch.softmax(product, -1)
            if dropout > 0.0:
                w = TF.dropout(w, dropout, training=training)
            o = torch.matmul(w, v)
            sms.append(TF.pad(w[0], (0, int(max_seqlen_k) - sk, 0, int(max_seqlen_q) - sq)))
        else:
            o = TF.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=dropout if training else 0.0,
                                                scale=float(scale))
        outs.append(o[0].transpose(0, 1))
    out = torch.cat(outs, 0) if outs else query.new_empty(0, *query.shape[1:])
    return out, (torch.stack(sms) if return_softmax else None)


def _flashmask_allowed(idx, sq, causal):
    """Dense [b, h, sq, sk] bool mask (True: attend) from FlashMask's column-wise startend_row_indices
    [b, h, sk, {1, 2, 4}] (the conversion Paddle documents in flashmask_attention's docstring)."""
    r = torch.arange(sq, device=idx.device)[:, None]  # query rows
    col = lambda i: idx[..., i][:, :, None, :]  # noqa: E731  [b, h, 1, sk]
    nb = idx.shape[-1]
    has_end = (causal and nb == 2) or (not causal and nb == 4)
    masked = r >= col(0)
    if has_end:
        masked = masked & (r < col(1))
    if causal:
        masked = masked | (r < torch.arange(idx.shape[2], device=idx.device))
    elif has_end:
        masked = masked | ((r >= col(2)) & (r < col(3)))
    else:
        masked = masked | (r < col(1))
    return ~masked


@op
def flashmask_attention(query: TensorLike, key: TensorLike, value: TensorLike,
                        startend_row_indices: OptionalTensor = None, *, dropout=0.0, causal=False,
                        window_size=None, return_softmax_lse=False, return_seed_offset=False,
                        fixed_seed_offset=None, rng_name="", training=True, name=None, softmax_scale=None,
                        block_mask: OptionalTensor = None):
    """FlashMask attention on [b, s, h, d]: the column-wise sparse mask is expanded to a dense boolean mask
    for torch's SDPA (memory O(b * h * sq * sk) instead of FlashMask's O(b * h * sk))."""
    if block_mask is not None:
        raise unsupported("paddle.nn.functional.flashmask_attention",
                          " with block_mask (block-sparse FlashMask v3, sm90 only)")
    if return_seed_offset:
        raise unsupported("paddle.nn.functional.flashmask_attention", " with return_seed_offset=True: the CUDA "
                                                                      "philox seed/offset pair has no "
                                                                      "counterpart in torch's dropout")
    b, sq = query.shape[0], query.shape[1]
    if window_size is not None:
        assert startend_row_indices is None, "can't use window_size with startend_row_indices"
        if isinstance(window_size, int):
            window_size = (window_size, window_size)
        lo = torch.arange(window_size[0] + 1, sq + window_size[0] + 1, device=query.device, dtype=torch.int32)
        if causal:
            startend_row_indices = lo.clamp(max=sq).reshape(1, 1, sq, 1).repeat_interleave(b, 0)
        else:
            hi = torch.arange(-window_size[1], sq - window_size[1], device=query.device, dtype=torch.int32)
            startend_row_indices = torch.stack([lo, hi], -1).clamp(0, sq).reshape(1, 1, sq, 2).repeat_interleave(b, 0)
    key, value = _gqa(query, key, value, "flashmask_attention")
    scale = softmax_scale or query.shape[-1] ** -0.5
    q, k, v = (t.transpose(1, 2) for t in (query, key, value))
    if startend_row_indices is None:
        mask, is_causal = None, bool(causal)
    else:
        idx = startend_row_indices
        assert idx.dtype == torch.int32, f"startend_row_indices.dtype must be paddle.int32, but got {idx.dtype}"
        assert idx.dim() == 4, f"startend_row_indices rank must be 4,but got {list(idx.shape)}"
        assert idx.shape[0] == key.shape[0], ("startend_row_indices.shape[0] must be equal to batch_size, but got "
                                              f"{idx.shape[0]} and {key.shape[0]}")
        assert idx.shape[2] == key.shape[1], ("startend_row_indices.shape[2] must be equal to seqlen_k, but got "
                                              f"{idx.shape[2]} and {key.shape[1]}")
        assert idx.shape[1] in (1, query.shape[2], k.shape[1]), (
            "startend_row_indices head_num must be equal to 1(broadcast) or head_num_q or head_num_k.")
        nb = idx.shape[-1]
        if causal and nb not in (1, 2):
            raise ValueError("Invalid shape of startend_row_indices, when causal is True, the last dimension "
                             f"should be either 1 or 2 but got {nb}")
        if not causal and nb not in (2, 4):
            raise ValueError("Invalid shape of startend_row_indices, when causal is False, the last dimension "
                             f"should be either 2 or 4 but got {nb}")
        if idx.shape[1] not in (1, q.shape[1]):  # given per key head: repeat for the query heads
            idx = idx.repeat_interleave(q.shape[1] // idx.shape[1], 1)
        mask, is_causal = _flashmask_allowed(idx.long(), sq, bool(causal)), False
    out = TF.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=dropout if training else 0.0,
                                          is_causal=is_causal, scale=scale)
    out = out.transpose(1, 2)
    if not return_softmax_lse:
        return out
    s = torch.matmul(q.float() * scale, k.float().transpose(-1, -2))
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    elif is_causal:
        s = s.masked_fill(~torch.ones(s.shape[-2:], dtype=torch.bool, device=s.device).tril(), float("-inf"))
    return [out, torch.logsumexp(s, -1)]
