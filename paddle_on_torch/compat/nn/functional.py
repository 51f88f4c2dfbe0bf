"""paddle.compat.nn.functional: torch.nn.functional's signatures (pad, softmax, linear, unfold,
scaled_dot_product_attention) on Paddle tensors."""
import torch

from ... import _report
from ..._normalize import is_tensor, wrap
from ..._core.dtype import to_torch_dtype
from ...nn import functional as _F
from .._args import forbid_keywords, write_out

__all__ = ["pad", "softmax", "linear", "scaled_dot_product_attention", "unfold"]


@forbid_keywords("paddle.compat.nn.functional.pad", "paddle.nn.functional.pad", "x", "name", "data_format",
                 "pad_from_left_axis")
def pad(input, pad, mode="constant", value=0.0):
    """torch's pad: `pad` lists (left, right) pairs from the last dimension backwards."""
    assert mode in ("reflect", "replicate", "constant", "circular"), \
        f"mode should be one of constant, reflect, replicate, circular, but got {mode}."
    if is_tensor(pad):
        pad = pad._t.tolist()
    t = input._t
    if mode != "constant":
        if t.ndim < 2:
            raise ValueError(f"Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now, got "
                             f"ndim: {t.ndim}")
        if len(pad) > 6 or len(pad) > 2 * t.ndim - 2:
            raise ValueError(f"len(pad) is bounded by input.ndim: expect len(pad) <= {min(6, 2 * t.ndim - 2)}, "
                             f"got: {len(pad)}")
        return wrap(torch.nn.functional.pad(t, list(pad), mode=mode))
    return wrap(torch.nn.functional.pad(t, list(pad), mode="constant", value=float(value)))


@forbid_keywords("paddle.compat.nn.functional.softmax", "paddle.nn.functional.softmax", "x", "axis", "name")
def softmax(input, dim=None, dtype=None, *, out=None):
    """torch's softmax; dim None is torch's implicit choice (0 for 0-, 1- and 3-D input, else 1)."""
    t = input._t
    if dim is None:
        dim = 0 if t.ndim in (0, 1, 3) else 1
    return write_out(wrap(torch.softmax(t, dim, dtype=to_torch_dtype(dtype) if dtype is not None else None)), out)


@forbid_keywords("paddle.compat.nn.functional.linear", "paddle.nn.functional.linear", "x", "name")
def linear(input, weight, bias=None):
    """input @ weight.T + bias, with torch's [out_features, in_features] weight."""
    return wrap(torch.nn.functional.linear(input._t, weight._t, None if bias is None else bias._t))


@forbid_keywords("paddle.compat.nn.functional.unfold", "paddle.nn.functional.unfold", "x", "kernel_sizes",
                 "dilations", "paddings", "strides", "name")
def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    return _F.unfold(input, kernel_sizes=kernel_size, strides=stride, paddings=padding, dilations=dilation)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    """torch's SDPA with its [batch, heads, seq, head_dim] layout."""
    if is_causal and attn_mask is not None:
        raise RuntimeError("Explicit attn_mask should not be set when is_causal=True")
    return wrap(torch.nn.functional.scaled_dot_product_attention(
        query._t, key._t, value._t, None if attn_mask is None else attn_mask._t, dropout_p=dropout_p,
        is_causal=is_causal, scale=scale, enable_gqa=enable_gqa))


__getattr__ = _report.module_getattr("paddle.compat.nn.functional")
