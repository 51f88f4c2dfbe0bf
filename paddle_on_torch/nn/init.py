"""paddle.nn.init: Paddle 3.3's torch-style in-place initialisers, each one of paddle.nn.initializer's classes
applied to the tensor (what Paddle's own functions do)."""
from .. import _report
from .initializer import (Constant, Dirac, KaimingNormal, KaimingUniform, Normal, Orthogonal,  # noqa: F401
                          TruncatedNormal, Uniform, XavierNormal, XavierUniform, calculate_gain)


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    return KaimingUniform(negative_slope=a, nonlinearity=nonlinearity, mode=mode)(tensor)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    return KaimingNormal(negative_slope=a, nonlinearity=nonlinearity, mode=mode)(tensor)


def xavier_uniform_(tensor, gain=1.0, fan_in=None, fan_out=None):
    return XavierUniform(gain=gain, fan_in=fan_in, fan_out=fan_out)(tensor)


def xavier_normal_(tensor, gain=1.0, fan_in=None, fan_out=None):
    return XavierNormal(gain=gain, fan_in=fan_in, fan_out=fan_out)(tensor)


def uniform_(tensor, a=0.0, b=1.0):
    return Uniform(low=a, high=b)(tensor)


def normal_(tensor, mean=0.0, std=1.0):
    return Normal(mean=mean, std=std)(tensor)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0):
    return TruncatedNormal(mean=mean, std=std, a=a, b=b)(tensor)


def constant_(tensor, val):
    return Constant(value=val)(tensor)


def ones_(tensor):
    return Constant(value=1.0)(tensor)


def zeros_(tensor):
    return Constant(value=0.0)(tensor)


def dirac_(tensor, groups=1):
    return Dirac(groups=groups)(tensor)


def eye_(tensor):
    """The identity matrix written into a 2-D tensor, in place (returns None, as Paddle's dygraph path)."""
    if len(tensor.shape) != 2:
        raise AssertionError(f"Only support 2 dimensional tensor, but got {len(tensor.shape)}.")
    import torch

    with torch.no_grad():
        tensor._t.copy_(torch.eye(tensor.shape[0], tensor.shape[1], dtype=tensor._t.dtype, device=tensor._t.device))
    return None


def orthogonal_(tensor, gain=1):
    return Orthogonal(gain=gain)(tensor)


__getattr__ = _report.module_getattr("paddle.nn.init")
