"""paddle.nn.initializer (first slice: the initializers nn.Layer defaults need).

Each initializer fills a torch tensor in place through `_init(t)`; calling it
on a paddle Parameter (`init(param)`) does the same, as in Paddle.  Fans are
computed for Paddle's layouts (Linear weights are [in, out]).
"""
import math

import torch

__all__ = ["Initializer", "Constant", "Normal", "Uniform", "XavierNormal", "XavierUniform", "KaimingNormal",
           "KaimingUniform", "calculate_gain"]


def _fans(shape):
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    rf = math.prod(shape[2:])
    return shape[1] * rf, shape[0] * rf


class Initializer:
    def _init(self, t):
        raise NotImplementedError

    def __call__(self, param, block=None):
        with torch.no_grad():
            self._init(param._t)
        return param


class Constant(Initializer):
    def __init__(self, value=0.0):
        self.value = value

    def _init(self, t):
        t.fill_(self.value)


class Normal(Initializer):
    def __init__(self, mean=0.0, std=1.0, name=None):
        self.mean, self.std = mean, std

    def _init(self, t):
        t.normal_(self.mean, self.std)


class Uniform(Initializer):
    def __init__(self, low=-1.0, high=1.0, name=None):
        self.low, self.high = low, high

    def _init(self, t):
        t.uniform_(self.low, self.high)


class XavierUniform(Initializer):
    def __init__(self, fan_in=None, fan_out=None, gain=1.0, name=None):
        self.fan_in, self.fan_out, self.gain = fan_in, fan_out, gain

    def _init(self, t):
        fi, fo = _fans(list(t.shape))
        fi, fo = self.fan_in or fi, self.fan_out or fo
        limit = self.gain * math.sqrt(6.0 / float(fi + fo))
        t.uniform_(-limit, limit)


class XavierNormal(Initializer):
    def __init__(self, fan_in=None, fan_out=None, gain=1.0, name=None):
        self.fan_in, self.fan_out, self.gain = fan_in, fan_out, gain

    def _init(self, t):
        fi, fo = _fans(list(t.shape))
        fi, fo = self.fan_in or fi, self.fan_out or fo
        t.normal_(0.0, self.gain * math.sqrt(2.0 / float(fi + fo)))


def calculate_gain(nonlinearity, param=None):
    table = {"sigmoid": 1, "linear": 1, "conv1d": 1, "conv2d": 1, "conv3d": 1, "conv1d_transpose": 1,
             "conv2d_transpose": 1, "conv3d_transpose": 1, "tanh": 5.0 / 3, "relu": math.sqrt(2.0),
             "selu": 3.0 / 4}
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity not in table:
        raise ValueError(f"nonlinearity function {nonlinearity} is not supported now.")
    return table[nonlinearity]


class KaimingNormal(Initializer):
    def __init__(self, fan_in=None, negative_slope=0.0, nonlinearity="relu"):
        self.fan_in, self.slope, self.nonlinearity = fan_in, negative_slope, nonlinearity

    def _init(self, t):
        fi = self.fan_in or _fans(list(t.shape))[0]
        t.normal_(0.0, calculate_gain(self.nonlinearity, self.slope) / math.sqrt(float(fi)))


class KaimingUniform(Initializer):
    def __init__(self, fan_in=None, negative_slope=0.0, nonlinearity="relu"):
        self.fan_in, self.slope, self.nonlinearity = fan_in, negative_slope, nonlinearity

    def _init(self, t):
        fi = self.fan_in or _fans(list(t.shape))[0]
        limit = calculate_gain(self.nonlinearity, self.slope) * math.sqrt(3.0 / float(fi))
        t.uniform_(-limit, limit)
