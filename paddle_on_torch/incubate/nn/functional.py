"""paddle.incubate.nn.functional: the fused ops, on the custom torch ops of paddle_on_torch.kernels (norm, rope,
swiglu).

Semantics follow Paddle 3.3.1 (its CPU kernels where it has them, otherwise its CUDA kernels and
docs); see docs/compatibility.md for the deliberate differences (gradients are provided for every
op, also where Paddle's CPU build has no backward kernel).
"""
import math

import torch

from ..._normalize import OptionalTensor, TensorLike, op
from ... import _report
from ...kernels import norm as _norm, rope as _rope, swiglu as _swiglu
from . import _transformer
from ._transformer import *  # noqa: F401,F403  (fused linear / dropout / transformer-block ops)

__all__ = ["fused_rms_norm", "fused_layer_norm", "fused_rotary_position_embedding", "swiglu",
           "fused_bias_act"] + _transformer.__all__

# Paddle names outside its recorded tables that libraries reach: CUDA / XPU-only fused kernels
_GPU_ONLY = ": a CUDA-only fused kernel in Paddle"
__getattr__ = _report.module_getattr("paddle.incubate.nn.functional", also={
    "fp8": ": Paddle's FP8 quantisation kernels (CUDA sm90+)",
    "block_multihead_attention_xpu": ": an XPU-only kernel in Paddle",
    "fused_dot_product_attention": ": cuDNN's fused attention in Paddle (use scaled_dot_product_attention)",
    "fused_partial_rope": _GPU_ONLY, "moe_combine_no_weight": _GPU_ONLY,
})

# The MoE routing kernels PaddleFormers' MoE layers import at module level: importable, as in Paddle (whose CPU
# build has them too, without kernels), so ERNIE 4.5-MoE's modeling imports; a call says it is not supported.
for _name in ("moe_gate_dispatch", "moe_combine", "int_bincount", "cal_aux_loss", "build_src_rank_and_local_expert_id",
              "expand_modality_expert_id", "moe_gate_dispatch_partial_nosoftmaxtopk"):
    globals()[_name] = _report.unsupported_function(f"paddle.incubate.nn.functional.{_name}", _GPU_ONLY)
del _name


def _no_quant(api, quant_scale):
    if quant_scale is not None and quant_scale > 0:
        raise _report.unsupported(f"paddle.incubate.nn.functional.{api}", " with int8 quantisation (quant_scale > 0)")


def _rows(x, begin_norm_axis, weight, api):
    rank = x.dim()
    a = begin_norm_axis + rank if begin_norm_axis < 0 else begin_norm_axis
    if a < 0 or a >= rank:
        raise ValueError(f"begin_norm_axis must be in range [0, {rank}), but got {begin_norm_axis}")
    n = math.prod(x.shape[a:])
    if weight is not None and weight.numel() != n:
        raise ValueError(f"(InvalidArgument) {api}: the normalized size of Input(X) must equal the size of Weight, "
                         f"but received normalized size of Input(X) is [{n}], received size of Weight is "
                         f"[{weight.numel()}]")
    return math.prod(x.shape[:a]), n


@op
def fused_rms_norm(x: TensorLike, norm_weight: TensorLike, norm_bias: OptionalTensor, epsilon, begin_norm_axis=1,
                   bias: OptionalTensor = None, residual: OptionalTensor = None, quant_scale=-1, quant_round_type=0,
                   quant_max_bound=0, quant_min_bound=0):
    """RMSNorm(x + bias + residual) * norm_weight + norm_bias.  Returns (out, residual_out);
    residual_out is x + bias + residual, or an empty tensor when no residual is given (bias is only
    added together with a residual, as Paddle does)."""
    _no_quant("fused_rms_norm", quant_scale)
    _rows(x, begin_norm_axis, norm_weight, "fused_rms_norm")
    axis = begin_norm_axis + x.dim() if begin_norm_axis < 0 else begin_norm_axis
    out, res_out, _, _ = _norm.norm(x, residual, bias, norm_weight, norm_bias, float(epsilon), 1.0, True, axis)
    return out, res_out



def fused_rms_norm_ext(x, scale, epsilon=1e-5, name=None):
    """RMSNorm over the last axis: (out, invvar), out = x / sqrt(mean(x**2) + epsilon) * scale.  Paddle registers
    this kernel for CUDA only (its CPU build raises NotFound); here it is paddle.nn.functional.rms_norm, as
    paddle._C_ops.fused_rms_norm_ext is (PaddleFormers' RMSNorm calls it by default)."""
    from ...nn.functional import rms_norm

    return tuple(rms_norm(x, x.shape[-1:], scale, epsilon))

@op
def fused_layer_norm(x: TensorLike, norm_weight: OptionalTensor, norm_bias: OptionalTensor, epsilon,
                     residual_alpha=1.0, begin_norm_axis=1, bias: OptionalTensor = None,
                     residual: OptionalTensor = None, quant_scale=-1, quant_round_type=0, quant_max_bound=0,
                     quant_min_bound=0):
    """LayerNorm(x + bias + residual_alpha * residual) * norm_weight + norm_bias.
    Returns (out, residual_out, mean, variance) where mean and variance are float32 of shape
    [prod(x.shape[:begin_norm_axis])] and `variance` holds 1 / sqrt(var + epsilon), as Paddle's kernel
    does.  Without a residual, residual_out is x (Paddle returns an unfilled tensor there)."""
    _no_quant("fused_layer_norm", quant_scale)
    _rows(x, begin_norm_axis, norm_weight, "fused_layer_norm")
    axis = begin_norm_axis + x.dim() if begin_norm_axis < 0 else begin_norm_axis
    out, res_out, mean, rstd = _norm.norm(x, residual, bias, norm_weight, norm_bias, float(epsilon),
                                          float(residual_alpha), False, axis)
    return out, res_out if residual is not None else x, mean, rstd


def _rope_tables(sin, cos, position_ids, batch, seq, head_dim, time_major, base, dtype, device):
    """cos/sin as float tensors [C0, C1, D] aligned with q's first two axes."""
    cdt = torch.float64 if dtype == torch.float64 else torch.float32
    if sin is None or cos is None:
        # Paddle's kernel: theta_j = pos * base^(-(2 * (j // 2)) / head_dim), pairs share a frequency
        j = torch.arange(head_dim, device=device, dtype=cdt)
        inv = 1.0 / torch.pow(torch.tensor(base, dtype=cdt, device=device), torch.div(j, 2, rounding_mode="floor") * 2 / head_dim)
        theta = torch.arange(seq, device=device, dtype=cdt)[:, None] * inv[None, :]
        cos_t, sin_t = torch.cos(theta)[None], torch.sin(theta)[None]  # [1, S, D]
    else:
        if tuple(sin.shape) != tuple(cos.shape):
            raise ValueError(f"fused_rotary_position_embedding: sin and cos must have the same shape, got "
                             f"{list(sin.shape)} and {list(cos.shape)}")
        if sin.dim() == 4:
            if sin.shape[0] != 1 and sin.shape[1] != 1 or sin.shape[2] != 1:
                raise ValueError("fused_rotary_position_embedding: a 4-D sin/cos must be [1, seq_len, 1, head_dim]")
        elif sin.dim() != 2:
            raise ValueError("fused_rotary_position_embedding: sin/cos must be [seq_len, head_dim] or "
                             "[1, seq_len, 1, head_dim]")
        sin2, cos2 = sin.reshape(-1, sin.shape[-1]).to(cdt), cos.reshape(-1, cos.shape[-1]).to(cdt)
        if sin2.shape[-1] != head_dim:
            raise ValueError(f"fused_rotary_position_embedding: the last dim of sin/cos ({sin2.shape[-1]}) must "
                             f"equal head_dim ({head_dim})")
        if position_ids is not None:
            if tuple(position_ids.shape) != (batch, seq):
                raise ValueError(f"fused_rotary_position_embedding: position_ids must be [batch_size, seq_len] = "
                                 f"[{batch}, {seq}], got {list(position_ids.shape)}")
            ids = position_ids.to(torch.int64)
            cos_t, sin_t = cos2[ids], sin2[ids]  # [B, S, D]
        else:
            if sin2.shape[0] < seq:
                raise ValueError(f"fused_rotary_position_embedding: sin/cos have {sin2.shape[0]} positions, "
                                 f"q has seq_len {seq}")
            cos_t, sin_t = cos2[None, :seq], sin2[None, :seq]
    if time_major:
        cos_t, sin_t = cos_t.transpose(0, 1), sin_t.transpose(0, 1)
    return cos_t.contiguous(), sin_t.contiguous()


@op
def fused_rotary_position_embedding(q: TensorLike, k: OptionalTensor = None, v: OptionalTensor = None,
                                    sin: OptionalTensor = None, cos: OptionalTensor = None,
                                    position_ids: OptionalTensor = None, use_neox_rotary_style=True,
                                    time_major=False, rotary_emb_base=10000.0):
    """Rotary embedding of q (and k, v when given; v is rotated too, as in Paddle).
    use_neox_rotary_style=True rotates adjacent pairs (x[2i], x[2i+1]); False rotates the front half
    against the back half.  Returns (out_q, out_k, out_v), None for an absent input."""
    if sin is None or cos is None:
        assert position_ids is None, "position_ids without sin/cos is not correctly supported now."
        assert use_neox_rotary_style, "rotate_half without sin/cos is not correctly supported now."
    if q.dim() != 4:
        raise ValueError(f"fused_rotary_position_embedding: q must be 4-D, got shape {list(q.shape)}")
    head_dim = q.shape[-1]
    if head_dim % 2:
        raise ValueError(f"fused_rotary_position_embedding: head_dim must be a multiple of 2, got {head_dim}")
    seq, batch = (q.shape[0], q.shape[1]) if time_major else (q.shape[1], q.shape[0])
    cos_t, sin_t = _rope_tables(sin, cos, position_ids, batch, seq, head_dim, time_major, rotary_emb_base,
                                q.dtype, q.device)
    outs = []
    for t in (q, k, v):
        if t is None:
            outs.append(None)
            continue
        if t.dim() != 4 or t.shape[:2] != q.shape[:2] or t.shape[-1] != head_dim:
            raise ValueError(f"fused_rotary_position_embedding: k/v must match q's layout, got {list(t.shape)} "
                             f"for q {list(q.shape)}")
        outs.append(_rope.rotary(t, cos_t, sin_t, bool(use_neox_rotary_style)))
    return tuple(outs)


@op
def swiglu(x: TensorLike, y: OptionalTensor = None, name=None):
    """silu(x) * y; with y=None, x is split in two halves along its last axis."""
    if y is None:
        if x.shape[-1] % 2:
            raise ValueError(f"swiglu: the last dim of x must be even when y is None, got {x.shape[-1]}")
        x, y = x.chunk(2, dim=-1)
    elif x.shape != y.shape:
        x, y = torch.broadcast_tensors(x, y)
    if x.dtype != y.dtype:
        raise TypeError(f"swiglu: x and y must have the same dtype, got {x.dtype} and {y.dtype}")
    return _swiglu.silu_mul(x, y)


# Paddle's kernel implements exactly these four (erf GeLU)
_ACTS = {"gelu": lambda t: torch.nn.functional.gelu(t), "relu": torch.relu}


@op
def fused_bias_act(x: TensorLike, bias: OptionalTensor = None, dequant_scales: OptionalTensor = None,
                   shift: OptionalTensor = None, smooth: OptionalTensor = None, act_method="gelu",
                   compute_dtype="default", quant_scale=-1, quant_round_type=0, quant_max_bound=0,
                   quant_min_bound=0):
    """act(x + bias); act_method "swiglu" / "geglu" split the last axis in two halves (act(a) * b)."""
    _no_quant("fused_bias_act", quant_scale)
    if dequant_scales is not None or shift is not None or smooth is not None:
        raise _report.unsupported("paddle.incubate.nn.functional.fused_bias_act",
                                  " with dequant_scales / shift / smooth (the int8 path)")
    if bias is not None:
        x = x + bias
    if act_method == "swiglu":
        a, b = x.chunk(2, dim=-1)
        return _swiglu.silu_mul(a, b)
    if act_method == "geglu":
        a, b = x.chunk(2, dim=-1)
        return torch.nn.functional.gelu(a) * b
    if act_method not in _ACTS:
        raise ValueError(f"fused_bias_act: unsupported act_method {act_method!r}; Paddle supports gelu, "
                         "relu, geglu and swiglu")
    return _ACTS[act_method](x)
