"""paddle.nn.functional: normalisation (Paddle's momentum convention: running = m * running + (1 - m) * batch,
with the biased batch variance)."""
import math

import torch
import torch.nn.functional as TF

from ..._normalize import OptionalTensor, ScalarLike, TensorLike, op
from ...kernels.eager import plain_eager
from .common import _f32

__all__ = ["batch_norm", "group_norm", "instance_norm", "layer_norm", "local_response_norm", "normalize",
           "rms_norm"]

_FORMATS = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")


def _channel_last(data_format):
    if data_format not in _FORMATS:
        raise ValueError(f"data_format must be one of {list(_FORMATS)}, but got {data_format}")
    return data_format in ("NLC", "NHWC", "NDHWC")


_F32_F64 = (torch.float32, torch.float64)


@op
def batch_norm(x: TensorLike, running_mean: TensorLike, running_var: TensorLike, weight: OptionalTensor = None,
               bias: OptionalTensor = None, training=False, momentum=0.9, epsilon=1e-05, data_format="NCHW",
               use_global_stats=None, name=None):
    last = _channel_last(data_format)
    if x.dim() < 2:
        raise ValueError(f"The input of batch_norm must have at least 2 dims, but got {x.dim()}.")
    if x.dtype in _F32_F64:
        for t in (running_mean, running_var, weight, bias):
            if t is not None and t.dtype in _F32_F64 and t.dtype != x.dtype:  # (float16 / bfloat16 x: AMP, allowed)
                raise ValueError(f"(InvalidArgument) The type of data we are trying to retrieve "
                                 f"({str(x.dtype)[6:]}) does not match the type of data ({str(t.dtype)[6:]}) currently "
                                 "contained in the container.")
    use_global = (not training) if use_global_stats is None else use_global_stats
    # Paddle gives the running statistics no gradient, also when they are marked trainable (GAN libraries'
    # set_requires_grad flips every parameter); detached views keep the in-place updates on their storage
    if running_mean is not None and running_mean.requires_grad:
        running_mean = running_mean.detach()
    if running_var is not None and running_var.requires_grad:
        running_var = running_var.detach()
    if (weight is None) != (bias is None):
        # Paddle's batch_norm_grad writes the scale and bias gradients together or not at all: with one of the
        # two missing, the other gets none either
        weight = None if weight is None else weight.detach()
        bias = None if bias is None else bias.detach()
    xt = x.movedim(-1, 1) if last else x  # torch's fused kernel wants channels at dim 1
    if use_global:
        out = torch.batch_norm(xt, weight, bias, running_mean, running_var, False, 0.0, epsilon, False)
    elif training:
        # One fused op normalises with the batch statistics and updates the running ones in place (torch's
        # momentum is the share of the new value: 1 - Paddle's).  torch tracks the unbiased batch variance
        # v * n / (n - 1), Paddle the biased one v: scaling the running variance by n / (n - 1) before and
        # (n - 1) / n after gives m * running + (1 - m) * v.  Both through `.data`, so that autograd's saved
        # running_var keeps its version (its training backward reads only the saved batch statistics).
        n = xt.numel() // xt.shape[1]
        unbias = n / (n - 1) if n > 1 else 1.0  # (n < 2: torch raises, the buffer stays as it was)
        var = running_var.data
        var.mul_(unbias)
        out = torch.batch_norm(xt, weight, bias, running_mean, running_var, True, 1.0 - momentum, epsilon, False)
        var.mul_(1.0 / unbias)
    else:  # batch statistics without tracking them (use_global_stats=False outside training)
        out = torch.batch_norm(xt, weight, bias, None, None, True, 0.0, epsilon, False)
    return out.movedim(1, -1) if last else out


_norm_op = None


def _fused_norm():
    """paddle_on_torch.kernels.norm (imported on the first call: it loads the C++ kernels), whose op runs layer_norm
    and rms_norm in eager mode.  Traced, compiled or on DTensors they keep torch's own ops (aten.layer_norm, the
    rms composition), which exporters (jit.save's PIR, ONNX), DTensor's sharding rules and inductor's fusion know."""
    global _norm_op
    if _norm_op is None:
        from ...kernels import norm

        _norm_op = norm.norm
    return _norm_op


def _sized(n, *ts):
    """Every given weight / bias has the n elements of a row (else torch's op says what is wrong)."""
    return all(t is None or t.numel() == n for t in ts)


# layer_norm takes the fused op from this many elements on: below, torch's own layer_norm (one ATen kernel and
# node) costs less per call than the custom op's dispatch and C++ autograd node (~2 us forward, ~15 us forward +
# backward more at [32, 768]); from [128, 768] on the op's kernels are as fast or faster (bench/kernels.py --ops
# api, docs/kernels.md).  rms_norm has no ATen kernel to compare with: its composition loses at every size.
_LAYER_NORM_OP_FROM = 1 << 17


def _last_axis_only(x, normalized_shape, weight, bias):
    """The common layer_norm call: [n] over a last axis of n, 1-D (or no) weight and bias."""
    return (type(normalized_shape) is list and len(normalized_shape) == 1 and type(normalized_shape[0]) is int
            and x.dim() > 0 and x.shape[-1] == normalized_shape[0] and (weight is None or weight.dim() == 1)
            and (bias is None or bias.dim() == 1))


@op
def layer_norm(x: TensorLike, normalized_shape, weight: OptionalTensor = None, bias: OptionalTensor = None,
               epsilon=1e-05, name=None):
    if not 0.0 <= epsilon <= 0.001:  # (every usual epsilon passes this one comparison)
        _check_layer_norm_epsilon(epsilon)
    if _last_axis_only(x, normalized_shape, weight, bias):  # what LayerNorm(dim) passes
        if x.numel() >= _LAYER_NORM_OP_FROM and plain_eager(x, weight, bias) and _sized(x.shape[-1], weight, bias):
            return _fused_norm()(x, None, None, weight, bias, float(epsilon), 1.0, False, x.dim() - 1)[0]
        return torch.layer_norm(x, normalized_shape, weight, bias, epsilon)
    if isinstance(normalized_shape, int):
        normalized_shape = [normalized_shape]
    normalized_shape = [int(v) for v in normalized_shape]
    n = len(normalized_shape)
    if list(x.shape[x.dim() - n:]) != normalized_shape:
        raise ValueError(f"Given normalized_shape is {normalized_shape}, expected input with shape "
                         f"[*, {str(normalized_shape)[1:]}, but got input shape {list(x.shape)}")
    for t, what in ((weight, "Scale"), (bias, "Bias")):  # Paddle takes them flattened to 1-D
        if t is not None and t.dim() != 1:
            raise ValueError(f"(InvalidArgument) The dimensions of Input({what}) must be 1, but received "
                             f"dimensions of Input({what}) is [{t.dim()}]")
    if x.numel() >= _LAYER_NORM_OP_FROM and plain_eager(x, weight, bias) and _sized(math.prod(normalized_shape),
                                                                                    weight, bias):
        return _fused_norm()(x, None, None, weight, bias, float(epsilon), 1.0, False, x.dim() - n)[0]
    if n > 1:  # Paddle passes multi-axis scale/bias flattened; torch wants them in the normalised shape
        weight = None if weight is None else weight.reshape(normalized_shape)
        bias = None if bias is None else bias.reshape(normalized_shape)
    return TF.layer_norm(x, normalized_shape, weight, bias, epsilon)


def _check_layer_norm_epsilon(epsilon):
    """Paddle's layer_norm takes epsilon in [0, 0.001] only (its shape inference checks the float32 attribute)."""
    e = _f32(epsilon)
    if not 0.0 <= e <= _f32(0.001):
        raise ValueError(f"(InvalidArgument) 'epsilon' in Op(LayerNorm) should be between0.0 and 0.001, But "
                         f"received [{e:g}].\n  [Hint: Expected epsilon >= 0.0f && epsilon <= 0.001f == true, but "
                         "received epsilon >= 0.0f && epsilon <= 0.001f:0 != true:1.]")


@op
def group_norm(x: TensorLike, num_groups, epsilon=1e-05, weight: OptionalTensor = None, bias: OptionalTensor = None,
               data_format="NCHW", name=None):
    if data_format not in ("NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
        raise ValueError(f"unsupported data layout: {data_format}")
    last = data_format in ("NLC", "NHWC", "NDHWC")
    xt = x.movedim(-1, 1) if last else x
    c = xt.shape[1]
    if num_groups <= 0 or c % num_groups:
        raise ValueError(f"The number of channels ({c}) must be divisible by num_groups ({num_groups}).")
    out = TF.group_norm(xt, num_groups, weight, bias, epsilon)
    return out.movedim(1, -1) if last else out


@op
def instance_norm(x: TensorLike, running_mean: OptionalTensor = None, running_var: OptionalTensor = None,
                  weight: OptionalTensor = None, bias: OptionalTensor = None, use_input_stats=True, momentum=0.9,
                  eps=1e-05, data_format="NCHW", name=None):
    if x.dim() < 3:
        raise ValueError(f"The input of instance_norm must be at least 3-D, but got {x.dim()}-D.")
    dims = list(range(2, x.dim()))
    var, mean = torch.var_mean(x, dim=dims, unbiased=False, keepdim=True)
    out = (x - mean) * torch.rsqrt(var + eps)
    shape = [1, -1] + [1] * (x.dim() - 2)
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return out


@op
def local_response_norm(x: TensorLike, size, alpha=0.0001, beta=0.75, k=1.0, data_format="NCHW", name=None):
    if x.dim() < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input, but got {x.dim()} dimensions")
    if data_format not in ("NCL", "NLC", "NCHW", "NHWC", "NCDHW", "NDHWC"):
        raise ValueError(f"data_format should be in one of [NCL, NCHW, NCDHW, NLC, NHWC, NDHWC], but got "
                         f"{data_format}")
    last = data_format[-1] == "C"
    xt = x.movedim(-1, 1) if last else x
    out = TF.local_response_norm(xt, size, alpha, beta, k)
    return out.movedim(1, -1) if last else out


@op
def normalize(x: TensorLike, p: ScalarLike = 2, axis=1, epsilon=1e-12, out=None, name=None):
    if x.dim() == 1 and axis not in (0, -1):
        raise ValueError(f"Axis must be 0 or -1 when x is a 1-D tensor, but received axis = {axis}")
    norm = torch.linalg.vector_norm(x, ord=p, dim=axis, keepdim=True)
    return x / torch.clamp(norm, min=epsilon)


@op
def rms_norm(input: TensorLike, normalized_shape, weight: OptionalTensor = None, eps=1e-5, name=None):
    """Paddle's rms_norm: out = x * invvar * weight, invvar = 1/sqrt(mean(x**2) + eps) per row.

    Rows are the input flattened to [prod(shape[:-len(normalized_shape)]), prod(normalized_shape)];
    invvar has shape [rows].  Paddle 3.3.1 registers this kernel only for CUDA (its CPU build raises
    NotFound), so this follows the documented math: statistics in float32 (float64 for float64
    input), out cast back to the input dtype.  In eager mode (but float64, whose invvar the op would round to
    float32) the fused norm op computes it; traced, the composition below.
    """
    shape = [int(normalized_shape)] if isinstance(normalized_shape, int) else [int(v) for v in normalized_shape]
    if len(shape) > input.dim() or list(input.shape[input.dim() - len(shape):]) != shape:
        raise ValueError(f"normalized_shape {shape} does not match the trailing dims of input {list(input.shape)}")
    if input.dtype is not torch.float64 and plain_eager(input, weight):
        out, _, _, invvar = _fused_norm()(input, None, None, weight, None, float(eps), 1.0, True,
                                          input.dim() - len(shape))
        return out, invvar
    cols = 1
    for v in shape:
        cols *= v
    ct = torch.float64 if input.dtype == torch.float64 else torch.float32
    x2 = input.to(ct).reshape(-1, cols)
    invvar = torch.rsqrt(x2.square().mean(dim=-1) + eps)
    y = (x2 * invvar.unsqueeze(-1)).reshape(input.shape)
    if weight is not None:
        y = y * weight.to(ct)
    return y.to(input.dtype), invvar
