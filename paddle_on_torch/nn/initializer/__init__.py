"""paddle.nn.initializer: the 12 initializers, calculate_gain and set_global_initializer.

An initializer fills a parameter in place: `init(param)` (Paddle's call) works on any paddle
Tensor and returns None; `_init(t)` does the same on a torch tensor (what create_parameter uses).
Fans are Paddle's, for Paddle's layouts: a 2-D weight is [in, out] (Linear), a conv weight is
[out, in/groups, *k].  Half-precision parameters are sampled in float32 and cast, as Paddle does.  On the CPU the draws are Paddle's
(paddle_on_torch._core.random: Paddle's generator and kernels, in the order Paddle's initializers draw), so
`paddle.seed(s); net = Net()` gives Paddle's weights; an initializer's op seed is the default main program's
random_seed, as in Paddle (0, the global generator, unless a program seed was set).
"""
import math

import numpy as np
import torch

from ..._core import eigen_qr
from ..._core import random as _rng
from ...tensor.tensor import Tensor

__all__ = ["Bilinear", "Constant", "KaimingUniform", "KaimingNormal", "XavierNormal", "XavierUniform", "Assign",
           "Normal", "TruncatedNormal", "Uniform", "Orthogonal", "Dirac", "set_global_initializer",
           "calculate_gain"]

_FLOATS = (torch.float16, torch.bfloat16, torch.float32, torch.float64)


class Initializer:
    """Base class: subclasses implement `_init(t)` on a torch tensor."""

    def __init__(self):
        pass

    def __call__(self, param, block=None):
        return self.forward(param, block)

    def forward(self, param, block=None):
        from ...static import program as _prog

        t = param._t if isinstance(param, Tensor) else param
        # a parameter made in static mode is real and initialised now (the startup program hands its value out):
        # its initializer's ops, the random kernels included, run rather than being recorded into the program
        with torch.no_grad(), _prog.quiet():
            new = self._init(t)
        if new is not None:  # the initializer produced a tensor of another shape (Assign does)
            param._t.data = new
        return None

    def _init(self, t):
        raise NotImplementedError

    def _compute_fans(self, var):
        return _fans(list(var.shape))


def _op_seed():
    """The seed Paddle's initializers pass to their random op: the default main program's random_seed."""
    from ...static import default_main_program

    return getattr(default_main_program(), "random_seed", 0) or 0


def _fans(shape):
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = math.prod(shape[2:])
    return shape[1] * receptive, shape[0] * receptive


def _sample(t, kernel, fill):
    """Fill float tensor `t` with `fill(tmp)`, sampling half precision in float32 as Paddle does."""
    if t.dtype not in _FLOATS and not t.is_complex():
        # Paddle: "(NotFound) The kernel with key (CPU, ..., int32) of kernel `gaussian` is not registered"
        raise RuntimeError(f"(NotFound) The kernel of kernel `{kernel}` is not registered for data type "
                           f"{str(t.dtype).replace('torch.', '')}.")
    if t.dtype in (torch.float16, torch.bfloat16):
        tmp = torch.empty(t.shape, dtype=torch.float32, device=t.device)
        fill(tmp)
        t.copy_(tmp)
    else:
        fill(t)


class Constant(Initializer):
    def __init__(self, value=0.0):
        if value is None:
            raise ValueError("value must not be none.")
        super().__init__()
        self._value = value

    def _init(self, t):
        t.fill_(float(self._value))


class Normal(Initializer):
    def __init__(self, mean=0.0, std=1.0, name=None):
        super().__init__()
        if isinstance(mean, complex):
            if mean.real != mean.imag:
                raise ValueError("if mean is a complex number, its real part should equal imag part, but got real "
                                 f"part: {mean.real} != imag part: {mean.imag}")
            mean = mean.real
        self._mean, self._std_dev = mean, std

    def _init(self, t):
        _sample(t, "gaussian", lambda x: _rng.normal_(x, self._mean, self._std_dev, _op_seed()))


class TruncatedNormal(Initializer):
    """Normal(mean, std) truncated to [a, b] (absolute bounds, as in Paddle's kernel)."""

    def __init__(self, mean=0.0, std=1.0, a=-2.0, b=2.0, name=None):
        super().__init__()
        self._mean, self._std_dev, self._a, self._b = mean, std, a, b

    def _init(self, t):
        if t.dtype is torch.float16 and t.device.type == "cpu":  # Paddle 3.3.1 hands the kernel float16 itself
            raise RuntimeError("(NotFound) The kernel with key (CPU, Undefined(AnyLayout), float16) of kernel "
                               "`truncated_gaussian_random` is not registered. Selected wrong DataType `float16`. "
                               "Paddle support following DataTypes: float64, float32, bfloat16.")
        if _rng.exact(t):  # Paddle's kernel: inversion of the normal CDF between the bounds
            return _sample(t, "truncated_gaussian_random",
                           lambda x: _rng.truncated_normal_(x, self._mean, self._std_dev, self._a, self._b,
                                                            _op_seed()))
        if self._std_dev == 0:  # torch's sampler divides by std
            return _sample(t, "truncated_gaussian_random",
                           lambda x: x.fill_(min(max(self._mean, self._a), self._b)))
        _sample(t, "truncated_gaussian_random",
                lambda x: torch.nn.init.trunc_normal_(x, self._mean, self._std_dev, self._a, self._b))


class Uniform(Initializer):
    def __init__(self, low=-1.0, high=1.0, name=None):
        super().__init__()
        self._low, self._high = low, high

    def _init(self, t):
        _sample(t, "uniform", lambda x: _rng.uniform_(x, self._low, self._high, _op_seed()))


class _Xavier(Initializer):
    _uniform = True

    def __init__(self, fan_in=None, fan_out=None, gain=1.0, name=None):
        super().__init__()
        self._fan_in, self._fan_out, self._gain = fan_in, fan_out, gain

    def _init(self, t):
        f_in, f_out = _fans(list(t.shape))
        fan_in = f_in if self._fan_in is None else self._fan_in
        fan_out = f_out if self._fan_out is None else self._fan_out
        zero = 0 in (fan_in, fan_out)
        if self._uniform:
            limit = 0.0 if zero else self._gain * math.sqrt(6.0 / float(fan_in + fan_out))
            _sample(t, "uniform", lambda x: _rng.uniform_(x, -limit, limit, _op_seed()))
        else:
            std = 0.0 if zero else self._gain * math.sqrt(2.0 / float(fan_in + fan_out))
            _sample(t, "gaussian", lambda x: _rng.normal_(x, 0.0, std, _op_seed()))


class XavierUniform(_Xavier):
    _uniform = True


class XavierNormal(_Xavier):
    _uniform = False


class _Kaiming(Initializer):
    _uniform = True

    def __init__(self, fan_in=None, negative_slope=0.0, nonlinearity="relu", mode="fan_in"):
        super().__init__()
        if mode not in ("fan_in", "fan_out"):
            raise ValueError("The mode of KaimingNormal/KaimingUniform should be 'fan_in' or 'fan_out', "
                             f"but received {mode}.")
        if mode == "fan_out" and fan_in is not None:
            raise ValueError("The mode of KaimingNormal/KaimingUniform is 'fan_out', but fan_in is set. "
                             "Please set fan_in to None.")
        self._fan_in, self._negative_slope, self._nonlinearity, self._mode = fan_in, negative_slope, nonlinearity, mode

    def _init(self, t):
        f_in, f_out = _fans(list(t.shape))
        if self._mode == "fan_out":
            fan_in = f_out
        else:
            fan_in = f_in if self._fan_in is None else self._fan_in
        gain = calculate_gain(self._nonlinearity, self._negative_slope)
        if self._uniform:
            limit = gain * math.sqrt(3.0 / float(fan_in))
            _sample(t, "uniform", lambda x: _rng.uniform_(x, -limit, limit, _op_seed()))
        else:
            std = gain / math.sqrt(float(fan_in))
            _sample(t, "gaussian", lambda x: _rng.normal_(x, 0.0, std, _op_seed()))


class KaimingUniform(_Kaiming):
    _uniform = True


class KaimingNormal(_Kaiming):
    _uniform = False


class Orthogonal(Initializer):
    def __init__(self, gain=1.0, name=None):
        assert gain is not None, "gain should not be None"
        super().__init__()
        self._gain = gain

    def _init(self, t):
        shape = list(t.shape)
        assert len(shape) >= 2, "Only Tensor with 2 or more dimensions can be initialized by Orthogonal"
        if t.dtype not in (torch.float32, torch.float64):
            raise RuntimeError(f"(NotFound) The kernel of kernel `qr` is not registered for data type "
                               f"{str(t.dtype).replace('torch.', '')}.")
        rows, cols = shape[0], math.prod(shape[1:])
        normal = _rng.normal_(torch.empty(max(rows, cols), min(rows, cols), dtype=t.dtype, device=t.device),
                              0.0, 1.0, _op_seed())
        if _rng.exact(normal) and eigen_qr.supported(*normal.shape, normal.numpy().dtype):
            q, r = (torch.from_numpy(v) for v in eigen_qr.qr(normal.numpy()))  # Paddle's CPU QR, its sum orders
        else:  # (from 48 columns: LAPACK's QR, a few ulps from Paddle's Eigen one)
            q, r = torch.linalg.qr(normal, mode="reduced")
        q = q * torch.sign(torch.diagonal(r))
        if rows < cols:
            q = q.T
        t.copy_(q.reshape(shape) * self._gain)


class Dirac(Initializer):
    """Identity-preserving conv weights: out[g*n + j, j, centre...] = 1 for each group g."""

    def __init__(self, groups=1, name=None):
        assert groups > 0 and isinstance(groups, int), " 'groups' must be a positive integer. "
        super().__init__()
        self._groups = groups

    def _init(self, t):
        shape = list(t.shape)
        if t.dtype not in _FLOATS:
            raise TypeError(f"The data type of 'Out' in Dirac must be ['float16', 'bfloat16', 'float32', "
                            f"'float64'], but received {str(t.dtype).replace('torch.', '')}.")
        assert len(shape) in (3, 4, 5), "Only Tensor with 3/4/5 dimensions can be initialized by Dirac"
        assert shape[0] % self._groups == 0, "Tensor 0-dimension must be divisible by groups"
        per_group = shape[0] // self._groups
        centre = tuple(s // 2 for s in shape[2:])
        t.zero_()
        for g in range(self._groups):
            for j in range(min(per_group, shape[1])):
                t[(g * per_group + j, j) + centre] = 1.0


class Assign(Initializer):
    """Fill with given values (numpy array, list, tuple or Tensor); the parameter takes their shape."""

    def __init__(self, value, name=None):
        if isinstance(value, (list, tuple)):
            value = np.array(value)
        if isinstance(value, Tensor):
            value = value.numpy()
        assert isinstance(value, np.ndarray)
        super().__init__()
        self._value = value

    def _init(self, t):
        ok = (torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.int32, torch.int8, torch.uint8)
        if t.dtype not in ok:
            raise ValueError(f"Unsupported dtype {self._value.dtype}")
        new = torch.as_tensor(np.asarray(self._value, dtype=np.float64 if t.is_floating_point() else np.int64))
        new = new.to(dtype=t.dtype, device=t.device)
        if list(new.shape) == list(t.shape):
            t.copy_(new)
            return None
        return new


class Bilinear(Initializer):
    """Bilinear-upsampling kernels for a [C_out, C_in, K, K] transposed-conv weight."""

    def __init__(self):
        super().__init__()

    def _init(self, t):
        shape = list(t.shape)
        if len(shape) != 4:
            raise ValueError("the length of shape must be 4.")
        if shape[2] != shape[3]:
            raise ValueError("shape[2] must be equal to shape[3].")
        if t.dtype not in _FLOATS:
            raise TypeError(f"Unsupported dtype {_dtype_name(t.dtype)}")
        if math.prod(shape) > 1024 * 1024:
            raise ValueError("The size of input is too big. ")
        size = shape[3]
        f = math.ceil(size / 2.0)
        c = (2 * f - 1 - f % 2) / (2.0 * f)
        # Paddle's loop computes y = (i / size) % size with true division, so y is fractional
        idx = np.arange(math.prod(shape), dtype=np.float64)
        x, y = idx % size, (idx / size) % size
        w = ((1 - np.abs(x / f - c)) * (1 - np.abs(y / f - c))).astype(np.float32)
        w = torch.from_numpy(w.reshape(shape)).to(t.device)
        if t.dtype is not torch.float32:
            return w  # Paddle 3.3.1 leaves a float16/bfloat16/float64 parameter float32 here
        t.copy_(w)


def _dtype_name(dt):
    from ..._core.dtype import dtype_name

    return dtype_name(dt)


def calculate_gain(nonlinearity, param=None):
    param = 0.01 if param is None else float(param)
    gains = {"sigmoid": 1, "linear": 1, "conv1d": 1, "conv2d": 1, "conv3d": 1, "conv1d_transpose": 1,
             "conv_transpose1d": 1, "conv2d_transpose": 1, "conv_transpose2d": 1, "conv3d_transpose": 1,
             "conv_transpose3d": 1, "tanh": 5.0 / 3, "relu": math.sqrt(2.0),
             "leaky_relu": math.sqrt(2.0 / (1 + param**2)), "selu": 3.0 / 4}
    if nonlinearity not in gains:
        raise ValueError(f"nonlinearity function {nonlinearity} is not supported now.")
    return gains[nonlinearity]


_global_weight_initializer = None
_global_bias_initializer = None


def set_global_initializer(weight_init, bias_init=None):
    """Initializers create_parameter uses instead of a layer's defaults (None restores the defaults)."""
    global _global_weight_initializer, _global_bias_initializer
    _global_weight_initializer, _global_bias_initializer = weight_init, bias_init


def _global_initializer(is_bias):
    return _global_bias_initializer if is_bias else _global_weight_initializer
