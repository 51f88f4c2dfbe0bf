"""fc, conv2d, batch_norm, embedding, layer_norm: Paddle's LayerHelper layers (parameters named
`fc_0.w_0`, `conv2d_0.b_0`, `batch_norm_0.w_1`, ... and initialised as Paddle's defaults are)."""
import functools
import operator

from ...framework import unique_name
from ...framework.param_attr import ParamAttr

__all__ = ["fc", "conv2d", "batch_norm", "embedding", "layer_norm", "spectral_norm"]


def _paddle():
    import paddle_on_torch

    return paddle_on_torch


def _param(prefix, shape, dtype, attr=None, is_bias=False, default_initializer=None):
    from ...nn.layer.layers import _create_parameter

    return _create_parameter(shape, dtype, attr=attr, is_bias=is_bias, default_initializer=default_initializer,
                             prefix=prefix)


def _act(x, act):
    """The activation an act= string names, as Paddle's PIR programs append it: the _C_ops op of that name
    (hard_swish is hardswish there, softmax takes the last axis)."""
    if act is None:
        return x
    from ... import _C_ops

    act = {"hard_swish": "hardswish"}.get(act, act)
    return getattr(_C_ops, act)(x, -1) if act == "softmax" else getattr(_C_ops, act)(x)


def _dtype_name(x):
    return str(x.dtype).replace("paddle.", "")


def fc(x, size, num_flatten_dims=1, weight_attr=None, bias_attr=None, activation=None, name=None):
    """x (or each of a list of inputs) flattened from num_flatten_dims, times a [K, size] weight, plus bias."""
    paddle = _paddle()
    prefix = name or unique_name.generate("fc")
    inputs = list(x) if isinstance(x, (list, tuple)) else [x]
    attrs = list(weight_attr) if isinstance(weight_attr, (list, tuple)) else [weight_attr] * len(inputs)
    outs = []
    for inp, attr in zip(inputs, attrs):
        shape = list(inp.shape)
        nfd = len(shape) - 1 if num_flatten_dims == -1 else num_flatten_dims
        k = functools.reduce(operator.mul, shape[nfd:], 1)
        w = _param(prefix, [k, size], _dtype_name(inp), attr=attr)
        if len(shape) > 2:
            inp = paddle.reshape(inp, [*shape[:nfd], k])
        outs.append(paddle.matmul(inp, w))
    out = outs[0] if len(outs) == 1 else paddle.add_n(outs)
    if bias_attr is not False:
        b = _param(prefix, [size], _dtype_name(out), attr=bias_attr, is_bias=True)
        out = paddle.add(out, b)
    return _act(out, activation)


def _pair(v, n=2):
    return [v] * n if isinstance(v, int) else list(v)


def conv2d(input, num_filters, filter_size, stride=1, padding=0, dilation=1, groups=None, param_attr=None,
           bias_attr=None, use_cudnn=True, act=None, name=None, data_format="NCHW"):
    """A 2-D convolution with Paddle's Normal(0, sqrt(2 / fan_in)) default weights and a separate bias add."""
    paddle = _paddle()
    from ...nn import functional as F
    from ...nn.initializer import Normal

    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"Attr(data_format) should be 'NCHW' or 'NHWC'. Received Attr(data_format): "
                         f"{data_format}.")
    channels = input.shape[1 if data_format == "NCHW" else 3]
    if channels < 0:
        raise ValueError(f"The channel dimension of the input({input.shape}) should be defined.")
    groups = 1 if groups is None else groups
    if channels % groups:
        raise ValueError(f"the channel of input must be divisible by groups, received: the channel of input is "
                         f"{channels}, the shape of input is {input.shape}, the groups is {groups}")
    fs = _pair(filter_size)
    prefix = name or unique_name.generate("conv2d")
    std = (2.0 / (fs[0] * fs[1] * channels)) ** 0.5
    w = _param(prefix, [num_filters, channels // groups, *fs], _dtype_name(input), attr=param_attr,
               default_initializer=Normal(0.0, std))
    out = F.conv2d(input, w, None, stride=stride, padding=padding, dilation=dilation, groups=groups,
                   data_format=data_format)
    if bias_attr is not False:
        b = _param(prefix, [num_filters], _dtype_name(input), attr=bias_attr, is_bias=True)
        shape = [1, num_filters, 1, 1] if data_format == "NCHW" else [1, 1, 1, num_filters]
        out = paddle.add(out, paddle.reshape(b, shape))
    return _act(out, act)


def batch_norm(input, act=None, is_test=False, momentum=0.9, epsilon=1e-05, param_attr=None, bias_attr=None,
               data_layout="NCHW", in_place=False, name=None, moving_mean_name=None, moving_variance_name=None,
               do_model_average_for_mean_and_var=True, use_global_stats=False):
    """Batch normalisation with scale/bias (w_0, b_0) and running mean/variance (w_1, w_2) parameters."""
    from ...nn import functional as F
    from ...nn.initializer import Constant

    channels = input.shape[1 if data_layout.startswith("NC") else -1]
    prefix = name or unique_name.generate("batch_norm")
    dt = _dtype_name(input)
    dt = "float32" if dt in ("float16", "bfloat16") else dt
    scale = _param(prefix, [channels], dt, attr=param_attr, default_initializer=Constant(1.0))
    bias = _param(prefix, [channels], dt, attr=bias_attr, is_bias=True)
    mean = _param(prefix, [channels], dt, attr=ParamAttr(name=moving_mean_name, initializer=Constant(0.0),
                                                         trainable=False))
    var = _param(prefix, [channels], dt, attr=ParamAttr(name=moving_variance_name, initializer=Constant(1.0),
                                                        trainable=False))
    out = F.batch_norm(input, mean, var, scale, bias, training=not is_test, momentum=momentum, epsilon=epsilon,
                       data_format=data_layout, use_global_stats=use_global_stats or None)
    return _act(out, act)


def embedding(input, size, is_sparse=False, is_distributed=False, padding_idx=None, param_attr=None,
              dtype="float32"):
    """A [size[0], size[1]] table looked up by integer ids (output shape: input.shape + [size[1]])."""
    from ...nn import functional as F

    w = _param(unique_name.generate("embedding"), list(size), dtype, attr=param_attr)
    if padding_idx is not None and padding_idx < 0:
        padding_idx += size[0]
    return F.embedding(input, w, padding_idx=padding_idx, sparse=is_sparse)


def layer_norm(input, scale=True, shift=True, begin_norm_axis=1, epsilon=1e-05, param_attr=None, bias_attr=None,
               act=None, name=None):
    """Normalise over the dims from begin_norm_axis on, with flattened scale/bias parameters."""
    from ...nn import functional as F
    from ...nn.initializer import Constant

    shape = list(input.shape)
    k = functools.reduce(operator.mul, shape[begin_norm_axis:], 1)
    prefix = name or unique_name.generate("layer_norm")
    dt = _dtype_name(input)
    w = _param(prefix, [k], dt, attr=param_attr, default_initializer=Constant(1.0)) if scale else None
    b = _param(prefix, [k], dt, attr=bias_attr, is_bias=True) if shift else None
    out = F.layer_norm(input, shape[begin_norm_axis:], weight=w, bias=b, epsilon=epsilon)
    return _act(out, act)


def spectral_norm(weight, dim=0, power_iters=1, eps=1e-12, name=None):
    """weight / sigma, sigma its largest singular value by power iteration on u, v parameters."""
    from ...nn.layer.norm import SpectralNorm

    dtype = _dtype_name(weight)
    if dtype not in ("float32", "float64"):
        raise TypeError(f"The data type of 'weight' in spectral_norm must be float32 or float64, but received "
                        f"{dtype}.")
    return SpectralNorm(list(weight.shape), dim=dim, power_iters=power_iters, eps=eps, dtype=dtype)(weight)
