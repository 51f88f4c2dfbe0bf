"""paddle.nn.functional: activations, over torch.nn.functional where it computes what Paddle does."""
import torch
import torch.nn.functional as TF

from ..._normalize import DTypeLike, ScalarLike, TensorLike, op
from ..._normalize import int_arg as _int
from ..._core import dtype as _dtypes
from ..._core import random as _rng
from ...tensor.inplace import make_inplace
from ...tensor.math import sigmoid, tanh

__all__ = ["celu", "elu", "elu_", "gelu", "glu", "gumbel_softmax", "hardshrink", "hardsigmoid", "hardswish",
           "hardtanh", "hardtanh_", "leaky_relu", "leaky_relu_", "log_sigmoid", "log_softmax", "logsigmoid",
           "maxout", "mish", "prelu", "relu", "relu6", "relu_", "rrelu", "selu", "sigmoid", "silu", "softmax",
           "softmax_", "softplus", "softshrink", "softsign", "swiglu", "swish", "tanh", "tanh_", "tanhshrink",
           "thresholded_relu", "thresholded_relu_"]


@op
def relu(x: TensorLike, name=None):
    return TF.relu(x)


@op
def relu6(x: TensorLike, name=None):
    return TF.relu6(x)


@op
def elu(x: TensorLike, alpha: ScalarLike = 1.0, name=None):
    return TF.elu(x, alpha)


@op
def celu(x: TensorLike, alpha: ScalarLike = 1.0, name=None):
    if alpha == 0:
        raise ZeroDivisionError("alpha cannot be 0 for celu")
    return TF.celu(x, alpha)


@op
def selu(x: TensorLike, scale=1.0507009873554804934193349852946, alpha=1.6732632423543772848170429916717,
         name=None):
    if scale <= 1.0:
        raise ValueError(f"The scale must be greater than 1.0. Received: {scale}.")
    if alpha < 0:
        raise ValueError(f"The alpha must be no less than zero. Received: {alpha}.")
    return scale * torch.where(x > 0, x, alpha * torch.expm1(x))


@op
def gelu(x: TensorLike, approximate=False, name=None):
    if approximate is True or approximate == "tanh":
        return TF.gelu(x, approximate="tanh")
    if approximate is False or approximate == "none":
        return TF.gelu(x)
    raise ValueError(f"approximate must be True, False, 'tanh' or 'none', but received {approximate!r}")


@op
def leaky_relu(x: TensorLike, negative_slope: ScalarLike = 0.01, name=None):
    return TF.leaky_relu(x, negative_slope)


@op
def hardshrink(x: TensorLike, threshold: ScalarLike = 0.5, name=None):
    # Paddle zeroes the open interval (-threshold, threshold): a value at the bound is kept (torch's
    # hardshrink zeroes it), and a zeroed negative value is -0.0 (x * 0)
    if type(threshold) not in (int, float, bool):
        raise TypeError(f"(InvalidType) hardshrink(): argument (position 2) must be double, but got "
                        f"{type(threshold).__name__}")
    return x * ((x <= -threshold) | (x >= threshold))


@op
def softshrink(x: TensorLike, threshold: ScalarLike = 0.5, name=None):
    if threshold < 0:
        raise ValueError(f"The threshold must be no less than zero. Received: {threshold}.")
    return TF.softshrink(x, threshold) + 0.0  # Paddle's zeros are +0.0 (torch's keep x's sign: -0.0)


@op
def tanhshrink(x: TensorLike, name=None):
    return x - torch.tanh(x)


@op
def hardtanh(x: TensorLike, min: ScalarLike = -1.0, max: ScalarLike = 1.0, name=None):
    for pos, bound in ((2, min), (3, max)):
        if type(bound) not in (int, float, bool):  # Paddle's parser: a number (a 0-D Tensor became one above)
            raise TypeError(f"(InvalidType) hardtanh(): argument (position {pos}) must be double, but got "
                            f"{type(bound).__name__}")
    if min > max:  # Paddle clips to min, then to max (every value becomes max); torch's hardtanh refuses
        return torch.clamp(x, min, max)
    return TF.hardtanh(x, min, max)


@op
def hardsigmoid(x: TensorLike, slope: ScalarLike = 0.1666667, offset: ScalarLike = 0.5, name=None):
    return torch.clamp(x * slope + offset, 0.0, 1.0)


@op
def hardswish(x: TensorLike, name=None):
    return TF.hardswish(x)


@op
def silu(x: TensorLike, inplace=False, name=None):
    out = x * torch.sigmoid(x)  # Paddle's formula (torch's fused silu rounds differently)
    if inplace:
        with torch.no_grad():
            x.copy_(out)
    return out


@op
def swish(x: TensorLike, name=None):
    return TF.silu(x)


@op
def mish(x: TensorLike, name=None):
    return TF.mish(x)


@op
def softplus(x: TensorLike, beta: ScalarLike = 1, threshold: ScalarLike = 20, name=None):
    return TF.softplus(x, beta, threshold)


@op
def softsign(x: TensorLike, name=None):
    return TF.softsign(x)


@op
def log_sigmoid(x: TensorLike, name=None):
    return TF.logsigmoid(x)


logsigmoid = log_sigmoid


@op
def thresholded_relu(x: TensorLike, threshold: ScalarLike = 1.0, value: ScalarLike = 0.0, name=None):
    return torch.where(x > threshold, x, torch.as_tensor(value, dtype=x.dtype, device=x.device))


def _softmax_input(x, dtype, kernel):
    if dtype is not None:
        return x.to(dtype)
    if not (x.is_floating_point() or x.is_complex()):  # Paddle has no integer or bool kernel
        name = _dtypes.dtype_name(x.dtype)
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), {name}) of kernel "
                           f"`{kernel}` is not registered. Selected wrong DataType `{name}`. Paddle support "
                           "following DataTypes: float64, float32.")
    return x


@op
def softmax(x: TensorLike, axis=-1, dtype: DTypeLike = None, name=None, *, out=None):
    try:
        if dtype is None and type(axis) is int and x.is_floating_point():  # the common case, checks inlined
            return torch.softmax(x, axis)
        return torch.softmax(_softmax_input(x, dtype, "softmax"), _int(axis, api="softmax"))
    except IndexError:
        raise _softmax_axis_error(x, axis) from None


@op
def log_softmax(x: TensorLike, axis=-1, dtype: DTypeLike = None, name=None):
    try:
        return torch.log_softmax(_softmax_input(x, dtype, "log_softmax"), _int(axis, api="log_softmax"))
    except IndexError:
        raise _softmax_axis_error(x, axis) from None


def _softmax_axis_error(x, axis):
    """Paddle's error for an axis outside the input's rank (its softmax infermeta's words)."""
    rank = x.dim()
    if rank == 0:
        hint = "axis <= 0, but received axis:{} > 0:0".format(axis) if axis > 0 else \
            "axis >= -1, but received axis:{} < -1:-1".format(axis)
        return ValueError(f"(InvalidArgument) Attr(axis) value should be in range [-1, 0] when input is 0D Tensor \n"
                          f"  [Hint: Expected {hint}.]")
    hint = f"axis < rank_x, but received axis:{axis} >= rank_x:{rank}" if axis >= rank else \
        f"axis >= -rank_x, but received axis:{axis} < -rank_x:{-rank}"
    return ValueError("(InvalidArgument) Attr(axis) value should be in range [-R, R-1], R is the rank of Input(X).\n"
                      f"  [Hint: Expected {hint}.]")


@op
def prelu(x: TensorLike, weight: TensorLike, data_format="NCHW", name=None):
    if data_format not in ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
        raise ValueError("data_format must be one of 'NC', 'NCL', 'NCHW', 'NCDHW', 'NLC', 'NHWC', 'NDHWC' but "
                         f"receive {data_format}")
    w = weight.reshape(-1)
    n = w.numel()
    if n == 1:
        return torch.where(x >= 0, x, w * x)
    if x.dim() < 2:
        raise ValueError(f"The rank of x must be >= 2 for channel-wise prelu, but got {x.dim()}")
    last = data_format[-1] == "C" and data_format != "NC"
    ch = x.shape[-1] if last else x.shape[1]
    if n == ch:
        shape = [1] * x.dim()
        shape[-1 if last else 1] = n
        return torch.where(x >= 0, x, w.reshape(shape) * x)
    if n == x[0].numel():
        return torch.where(x >= 0, x, w.reshape(x.shape[1:]) * x)
    raise ValueError(f"The weight size {n} must be 1, the number of channels ({ch}) or the size of one sample.")


@op
def rrelu(x: TensorLike, lower=1.0 / 8.0, upper=1.0 / 3.0, training=True, name=None):
    if not 0 <= lower <= 1:
        raise ValueError(f"The lower value must be no less than zero and no greater than one. Received: {lower}.")
    if not 0 <= upper <= 1:
        raise ValueError(f"The upper value must be no less than zero and no greater than one. Received: {upper}.")
    if upper < lower:
        raise ValueError(f"The upper value must be greater than lower value. Received: lower {lower}, upper {upper}.")
    if not training:
        return torch.where(x >= 0, x, x * ((lower + upper) / 2.0))
    # Paddle's kernel draws one float uniform in [lower, upper) per negative element, in element order
    negative = x < 0
    draws = _rng.uniform_(torch.empty(int(negative.sum()), device=x.device), lower, upper)
    a = torch.ones_like(x).masked_scatter_(negative, draws.to(x.dtype))
    return torch.where(x >= 0, x, x * a)


@op
def maxout(x: TensorLike, groups, axis=1, name=None):
    if x.dim() != 4:
        raise ValueError(f"(InvalidArgument) x's dims should be 4, but received x's dims is: {x.dim()}.")
    if axis not in (1, -1, 3):
        raise ValueError(f"Attr(axis) should be 1 when data format is NCHW, -1 or 3 when data format is NHWC. "
                         f"Received Attr(axis): {axis}.")
    ax = axis % x.dim()
    c = x.shape[ax]
    if c % groups:
        raise ValueError(f"The channel of input must be divisible by groups, but got {c} and groups {groups}.")
    shape = list(x.shape[:ax]) + [c // groups, groups] + list(x.shape[ax + 1:])
    return x.reshape(shape).amax(dim=ax + 1)


@op
def glu(x: TensorLike, axis=-1, name=None):
    return TF.glu(x, axis)


@op
def gumbel_softmax(x: TensorLike, temperature=1.0, hard=False, axis=-1, name=None):
    # Paddle's kernel: Gumbel noise -log(-log(u)), u uniform in [1e-5, 1) from Paddle's generator
    g = -torch.log(-torch.log(_rng.uniform_(torch.empty_like(x), 1e-5, 1.0)))
    y = torch.softmax((x + g) / temperature, axis)
    if hard:
        idx = y.argmax(axis, keepdim=True)
        y_hard = torch.zeros_like(y).scatter_(axis, idx, 1.0)
        return y_hard - y.detach() + y
    return y


relu_ = make_inplace(relu, "relu_")
elu_ = make_inplace(elu, "elu_")
hardtanh_ = make_inplace(hardtanh, "hardtanh_")
leaky_relu_ = make_inplace(leaky_relu, "leaky_relu_")
softmax_ = make_inplace(softmax, "softmax_")
tanh_ = make_inplace(tanh, "tanh_")
thresholded_relu_ = make_inplace(thresholded_relu, "thresholded_relu_")


# paddle.nn.functional.swiglu is the fused op (one home: paddle.incubate.nn.functional)
from ...incubate.nn.functional import swiglu  # noqa: E402,F401
