"""paddle.compat.nn: torch.nn's layer signatures on paddle Layers: Linear with torch's [out, in] weight,
Softmax(dim), AvgPool1D/2D/3D with count_include_pad, Unfold(kernel_size, ...), MultiheadAttention."""
import math

import torch

from ... import _report
from ..._normalize import wrap
from ...nn import Layer, Unfold as _Unfold
from ...nn import functional as _F
from ...nn.initializer import XavierNormal, XavierUniform
from .._args import forbid_keywords
from . import functional

__all__ = ["Unfold", "Linear", "Softmax", "AvgPool1D", "AvgPool2D", "AvgPool3D", "AvgPool1d", "AvgPool2d",
           "AvgPool3d", "MultiheadAttention"]


def _torch_init(layer):
    """torch.nn.Linear's reset_parameters on `weight` / `bias`, drawn as Paddle's does: through paddle.nn.init
    (Paddle's random stream), after create_parameter's own default draws."""
    from ...nn import init

    init.kaiming_uniform_(layer.weight, a=math.sqrt(5))
    if layer.bias is not None:
        fan_in = layer.weight.shape[1]
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        init.uniform_(layer.bias, -bound, bound)


class Linear(Layer):
    """y = x @ weight.T + bias, weight [out_features, in_features] (torch's layout, unlike nn.Linear)."""

    @forbid_keywords("paddle.compat.nn.Linear", "paddle.nn.Linear", "weight_attr", "bias_attr", "name")
    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.weight = self.create_parameter([out_features, in_features], dtype=dtype, device=device)
        self.bias = self.create_parameter([out_features], dtype=dtype, is_bias=True, device=device) if bias else None
        self.reset_parameters()

    def reset_parameters(self):
        _torch_init(self)

    def forward(self, input):
        return functional.linear.__wrapped__(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class Softmax(Layer):
    @forbid_keywords("paddle.compat.nn.Softmax", "paddle.nn.Softmax", "axis")
    def __init__(self, dim=None):
        super().__init__()
        self._dim = dim

    def forward(self, input):
        return functional.softmax(input, self._dim)

    def extra_repr(self):
        return f"dim={self._dim}"


class _AvgPool(Layer):
    _nd = None

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode, self.count_include_pad, self.divisor_override = ceil_mode, count_include_pad, divisor_override

    def forward(self, input):
        exclusive = not self.count_include_pad
        if self._nd == 1:
            return _F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, exclusive, self.ceil_mode)
        pool = _F.avg_pool2d if self._nd == 2 else _F.avg_pool3d
        return pool(input, self.kernel_size, self.stride, self.padding, self.ceil_mode, exclusive,
                    self.divisor_override)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


def _single(v):
    return tuple(v) if isinstance(v, (list, tuple)) else (v,)


class AvgPool1D(_AvgPool):
    _nd = 1

    @forbid_keywords("paddle.compat.nn.AvgPool1D", "paddle.nn.AvgPool1D", "exclusive", "name")
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__(_single(kernel_size), _single(stride if stride is not None else kernel_size),
                         _single(padding), ceil_mode, count_include_pad)


class AvgPool2D(_AvgPool):
    _nd = 2

    @forbid_keywords("paddle.compat.nn.AvgPool2D", "paddle.nn.AvgPool2D", "exclusive", "data_format", "name")
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


class AvgPool3D(_AvgPool):
    _nd = 3

    @forbid_keywords("paddle.compat.nn.AvgPool3D", "paddle.nn.AvgPool3D", "exclusive", "data_format", "name")
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


AvgPool1d, AvgPool2d, AvgPool3d = AvgPool1D, AvgPool2D, AvgPool3D


class Unfold(_Unfold):
    @forbid_keywords("paddle.compat.nn.Unfold", "paddle.nn.Unfold", "kernel_sizes", "dilations", "paddings", "strides")
    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__(kernel_size, dilation, padding, stride)


class MultiheadAttention(Layer):
    """torch.nn.MultiheadAttention: in_proj_weight [3E, E] (or q/k/v_proj_weight), out_proj a compat Linear;
    forward(query, key, value, key_padding_mask, need_weights, attn_mask, average_attn_weights, is_causal)
    -> (output, weights or None), sequence-first unless batch_first."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, device=None, dtype=None):
        super().__init__()
        self.embed_dim, self.num_heads, self.dropout, self.batch_first = embed_dim, num_heads, dropout, batch_first
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.head_dim = embed_dim // num_heads
        assert self.head_dim * num_heads == embed_dim, "embed_dim must be divisible by num_heads"

        def weight(shape):
            return self.create_parameter(shape, dtype=dtype, device=device, default_initializer=XavierUniform())

        def bias_param(n):
            return self.create_parameter([n], dtype=dtype, is_bias=True, device=device)

        self.in_proj_bias = self.q_proj_bias = self.k_proj_bias = self.v_proj_bias = None
        if self._qkv_same_embed_dim:  # Paddle's parameter names: one packed projection, or three
            self.in_proj_weight = weight([3 * embed_dim, embed_dim])
            self.q_proj_weight = self.k_proj_weight = self.v_proj_weight = None
            if bias:
                self.in_proj_bias = bias_param(3 * embed_dim)
        else:
            self.q_proj_weight = weight([embed_dim, embed_dim])
            self.k_proj_weight = weight([embed_dim, self.kdim])
            self.v_proj_weight = weight([embed_dim, self.vdim])
            self.in_proj_weight = None
            if bias:
                self.q_proj_bias, self.k_proj_bias, self.v_proj_bias = (bias_param(embed_dim) for _ in range(3))
        self.out_proj = Linear(embed_dim, embed_dim, bias=bias, dtype=dtype)
        self.add_bias_kv, self.add_zero_attn = add_bias_kv, add_zero_attn
        if add_bias_kv:
            self.bias_k = self.create_parameter([1, 1, embed_dim], dtype=dtype, is_bias=True, device=device,
                                                default_initializer=XavierNormal())
            self.bias_v = self.create_parameter([1, 1, embed_dim], dtype=dtype, is_bias=True, device=device,
                                                default_initializer=XavierNormal())
        else:
            self.bias_k = self.bias_v = None

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True, is_causal=False):
        def t(x):
            return None if x is None else x._t

        q, k, v = t(query), t(key), t(value)
        in_bias = t(self.in_proj_bias)
        if self.q_proj_bias is not None:  # torch's function takes the three biases packed
            in_bias = torch.cat([self.q_proj_bias._t, self.k_proj_bias._t, self.v_proj_bias._t])
        if self.batch_first:
            q, k, v = (x.transpose(0, 1) for x in (q, k, v))
        out, weights = torch.nn.functional.multi_head_attention_forward(
            q, k, v, self.embed_dim, self.num_heads, t(self.in_proj_weight), in_bias, t(self.bias_k),
            t(self.bias_v), self.add_zero_attn, self.dropout, self.out_proj.weight._t, t(self.out_proj.bias),
            training=self.training, key_padding_mask=t(key_padding_mask), need_weights=need_weights,
            attn_mask=t(attn_mask), use_separate_proj_weight=not self._qkv_same_embed_dim,
            q_proj_weight=t(self.q_proj_weight), k_proj_weight=t(self.k_proj_weight),
            v_proj_weight=t(self.v_proj_weight), average_attn_weights=average_attn_weights, is_causal=is_causal)
        if self.batch_first:
            out = out.transpose(0, 1)
        return wrap(out), (wrap(weights) if weights is not None else None)


__getattr__ = _report.module_getattr("paddle.compat.nn")
