"""paddle.distribution.transform: invertible maps between spaces, with their log-Jacobians.

Each transform records its domain/codomain event rank (Paddle's `variable` objects reduced to
what the shape bookkeeping needs).
"""
import enum
import math
import typing

import paddle_on_torch as paddle
from ..tensor.tensor import Tensor

__all__ = ["Transform", "AbsTransform", "AffineTransform", "ChainTransform", "ExpTransform", "IndependentTransform",
           "PowerTransform", "ReshapeTransform", "SigmoidTransform", "SoftmaxTransform", "StackTransform",
           "StickBreakingTransform", "TanhTransform"]


class Type(enum.Enum):
    BIJECTION = "bijection"
    INJECTION = "injection"
    SURJECTION = "surjection"
    OTHER = "other"

    @classmethod
    def is_injective(cls, _type):
        return _type in (cls.BIJECTION, cls.INJECTION)


class _Space:
    """A transform's domain or codomain: all the shape logic needs is the event rank."""

    def __init__(self, event_rank=0, is_discrete=False):
        self.event_rank = event_rank
        self.is_discrete = is_discrete


_real = _Space(0)


def _sum_rightmost(value, n):
    return value.sum(list(range(-n, 0))) if n > 0 else value


def _need_tensor(v, what):
    if not isinstance(v, Tensor):
        raise TypeError(f"Expected '{what}' is a Tensor or Real, but got {type(v)}.")


class Transform:
    """Base class of transforms: `forward`, `inverse`, log-det-Jacobians and shape maps."""

    _type = Type.INJECTION

    def __init__(self):
        super().__init__()

    @classmethod
    def _is_injective(cls):
        return Type.is_injective(cls._type)

    def __call__(self, input):
        from .distribution import Distribution
        from .transformed_distribution import TransformedDistribution

        if isinstance(input, Distribution):
            return TransformedDistribution(input, [self])
        if isinstance(input, Transform):
            return ChainTransform([self, input])
        return self.forward(input)

    def forward(self, x):
        _need_tensor(x, "x")
        if x.dim() < self._domain.event_rank:
            raise ValueError(f"The dimensions of x({x.dim()}) should be grater than or equal to "
                             f"{self._domain.event_rank}")
        return self._forward(x)

    def inverse(self, y):
        _need_tensor(y, "y")
        if y.dim() < self._codomain.event_rank:
            raise ValueError(f"The dimensions of y({y.dim()}) should be grater than or equal to "
                             f"{self._codomain.event_rank}")
        return self._inverse(y)

    def forward_log_det_jacobian(self, x):
        _need_tensor(x, "y")
        if x.dim() < self._domain.event_rank:
            raise ValueError(f"The dimensions of x({x.dim()}) should be grater than or equal to "
                             f"{self._domain.event_rank}")
        if not self._is_injective():
            raise NotImplementedError("forward_log_det_jacobian can't be implemented for non-injectivetransforms.")
        return self._call_forward_log_det_jacobian(x)

    def inverse_log_det_jacobian(self, y):
        if not isinstance(y, Tensor):
            raise TypeError(f"Expected 'y' is a Tensor, but got {type(y)}.")
        if y.dim() < self._codomain.event_rank:
            raise ValueError(f"The dimensions of y({y.dim()}) should be grater than or equal to "
                             f"{self._codomain.event_rank}")
        return self._call_inverse_log_det_jacobian(y)

    def forward_shape(self, shape):
        if not isinstance(shape, typing.Sequence):
            raise TypeError(f"Expected shape is Sequence[int] type, but got {type(shape)}.")
        return self._forward_shape(shape)

    def inverse_shape(self, shape):
        if not isinstance(shape, typing.Sequence):
            raise TypeError(f"Expected shape is Sequence[int] type, but got {type(shape)}.")
        return self._inverse_shape(shape)

    @property
    def _domain(self):
        return _real

    @property
    def _codomain(self):
        return _real

    def _forward(self, x):
        raise NotImplementedError("Forward not implemented")

    def _inverse(self, y):
        raise NotImplementedError("Inverse not implemented")

    def _call_forward_log_det_jacobian(self, x):
        if hasattr(self, "_forward_log_det_jacobian"):
            return self._forward_log_det_jacobian(x)
        if hasattr(self, "_inverse_log_det_jacobian"):
            return -self._inverse_log_det_jacobian(self.forward(x))
        raise NotImplementedError("Neither _forward_log_det_jacobian nor _inverse_log_det_jacobianis implemented. "
                                  "One of them is required.")

    def _call_inverse_log_det_jacobian(self, y):
        if hasattr(self, "_inverse_log_det_jacobian"):
            return self._inverse_log_det_jacobian(y)
        if hasattr(self, "_forward_log_det_jacobian"):
            return -self._forward_log_det_jacobian(self._inverse(y))
        raise NotImplementedError("Neither _forward_log_det_jacobian nor _inverse_log_det_jacobian is implemented. "
                                  "One of them is required")

    def _forward_shape(self, shape):
        return shape

    def _inverse_shape(self, shape):
        return shape


class AbsTransform(Transform):
    """y = |x|; the inverse gives both preimages (-y, y)."""

    _type = Type.SURJECTION

    def _forward(self, x):
        return x.abs()

    def _inverse(self, y):
        return -y, y

    def _inverse_log_det_jacobian(self, y):
        zero = paddle.zeros([], dtype=y.dtype)
        return zero, zero


class AffineTransform(Transform):
    """y = loc + scale * x."""

    _type = Type.BIJECTION

    def __init__(self, loc, scale):
        if not isinstance(loc, Tensor):
            raise TypeError(f"Expected 'loc' is a Tensor, but got {type(loc)}")
        if not isinstance(scale, Tensor):
            raise TypeError(f"Expected scale is a Tensor, but got {type(scale)}")
        self._loc, self._scale = loc, scale
        super().__init__()

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    def _forward(self, x):
        return self._loc + self._scale * x

    def _inverse(self, y):
        return (y - self._loc) / self._scale

    def _forward_log_det_jacobian(self, x):
        return paddle.abs(self._scale).log()

    def _forward_shape(self, shape):
        return tuple(paddle.broadcast_shape(paddle.broadcast_shape(list(shape), self._loc.shape), self._scale.shape))

    _inverse_shape = _forward_shape


class ChainTransform(Transform):
    """The composition of `transforms`, applied first to last."""

    def __init__(self, transforms):
        if not isinstance(transforms, typing.Sequence):
            raise TypeError(f"Expected type of 'transforms' is Sequence, but got {type(transforms)}")
        if not all(isinstance(t, Transform) for t in transforms):
            raise TypeError("All elements of transforms should be Transform type.")
        self.transforms = transforms
        super().__init__()

    def _is_injective(self):
        return all(t._is_injective() for t in self.transforms)

    def _forward(self, x):
        for t in self.transforms:
            x = t.forward(x)
        return x

    def _inverse(self, y):
        for t in reversed(self.transforms):
            y = t.inverse(y)
        return y

    def _forward_log_det_jacobian(self, x):
        value = 0.0
        rank = self._domain.event_rank
        for t in self.transforms:
            value += _sum_rightmost(t.forward_log_det_jacobian(x), rank - t._domain.event_rank)
            x = t.forward(x)
            rank += t._codomain.event_rank - t._domain.event_rank
        return value

    def _forward_shape(self, shape):
        for t in self.transforms:
            shape = t.forward_shape(shape)
        return shape

    def _inverse_shape(self, shape):
        for t in self.transforms:  # Paddle walks the list forwards here too
            shape = t.inverse_shape(shape)
        return shape

    @property
    def _domain(self):
        rank = self.transforms[-1]._codomain.event_rank
        for t in reversed(self.transforms):
            rank -= t._codomain.event_rank - t._domain.event_rank
            rank = max(rank, t._domain.event_rank)
        return _Space(rank)

    @property
    def _codomain(self):
        rank = self.transforms[0]._domain.event_rank
        for t in self.transforms:
            rank += t._codomain.event_rank - t._domain.event_rank
            rank = max(rank, t._codomain.event_rank)
        return _Space(rank)


class ExpTransform(Transform):
    """y = exp(x)."""

    _type = Type.BIJECTION

    def _forward(self, x):
        return x.exp()

    def _inverse(self, y):
        return y.log()

    def _forward_log_det_jacobian(self, x):
        return x


class IndependentTransform(Transform):
    """`base` with its rightmost `reinterpreted_batch_rank` batch axes treated as event axes."""

    def __init__(self, base, reinterpreted_batch_rank):
        if not isinstance(base, Transform):
            raise TypeError(f"Expected 'base' is Transform type, but get {type(base)}")
        if reinterpreted_batch_rank <= 0:
            raise ValueError("Expected 'reinterpreted_batch_rank' is grater than zero, but got "
                             f"{reinterpreted_batch_rank}")
        self._base = base
        self._reinterpreted_batch_rank = reinterpreted_batch_rank
        super().__init__()

    def _is_injective(self):
        return self._base._is_injective()

    def _forward(self, x):
        return self._base.forward(x)

    def _inverse(self, y):
        return self._base.inverse(y)

    def _forward_log_det_jacobian(self, x):
        return self._base.forward_log_det_jacobian(x).sum(list(range(-self._reinterpreted_batch_rank, 0)))

    def _forward_shape(self, shape):
        return self._base.forward_shape(shape)

    def _inverse_shape(self, shape):
        return self._base.inverse_shape(shape)

    @property
    def _domain(self):
        return _Space(self._base._domain.event_rank + self._reinterpreted_batch_rank)

    @property
    def _codomain(self):
        return _Space(self._base._codomain.event_rank + self._reinterpreted_batch_rank)


class PowerTransform(Transform):
    """y = x ** power."""

    _type = Type.BIJECTION

    def __init__(self, power):
        if not isinstance(power, Tensor):
            raise TypeError(f"Expected 'power' is a tensor, but got {type(power)}")
        self._power = power
        super().__init__()

    @property
    def power(self):
        return self._power

    def _forward(self, x):
        return x.pow(self._power)

    def _inverse(self, y):
        return y.pow(1 / self._power)

    def _forward_log_det_jacobian(self, x):
        return (self._power * x.pow(self._power - 1)).abs().log()

    def _forward_shape(self, shape):
        return tuple(paddle.broadcast_shape(list(shape), self._power.shape))

    _inverse_shape = _forward_shape


class ReshapeTransform(Transform):
    """Reshape the event part of x from `in_event_shape` to `out_event_shape`."""

    _type = Type.BIJECTION

    def __init__(self, in_event_shape, out_event_shape):
        if not isinstance(in_event_shape, typing.Sequence) or not isinstance(out_event_shape, typing.Sequence):
            raise TypeError("Expected type of 'in_event_shape' and 'out_event_shape' is Sequence[int], but got "
                            f"'in_event_shape': {in_event_shape}, 'out_event_shape': {out_event_shape}")
        n_in, n_out = math.prod(in_event_shape), math.prod(out_event_shape)
        if n_in != n_out:
            raise ValueError(f"The numel of 'in_event_shape' should be 'out_event_shape', but got {n_in}!={n_out}")
        self._in_event_shape = tuple(in_event_shape)
        self._out_event_shape = tuple(out_event_shape)
        super().__init__()

    @property
    def in_event_shape(self):
        return self._in_event_shape

    @property
    def out_event_shape(self):
        return self._out_event_shape

    @property
    def _domain(self):
        return _Space(len(self._in_event_shape))

    @property
    def _codomain(self):
        return _Space(len(self._out_event_shape))

    def _forward(self, x):
        return x.reshape(tuple(x.shape)[:x.dim() - len(self._in_event_shape)] + self._out_event_shape)

    def _inverse(self, y):
        return y.reshape(tuple(y.shape)[:y.dim() - len(self._out_event_shape)] + self._in_event_shape)

    @staticmethod
    def _swap(shape, src, dst):
        if len(shape) < len(src):
            raise ValueError(f"Expected length of 'shape' is not less than {len(src)}, but got {len(shape)}")
        if tuple(shape[len(shape) - len(src):]) != src:
            raise ValueError(f"Event shape mismatch, expected: {src}, but got {shape[len(shape) - len(src):]}")
        return tuple(shape[:len(shape) - len(src)]) + dst

    def _forward_shape(self, shape):
        return self._swap(shape, self._in_event_shape, self._out_event_shape)

    def _inverse_shape(self, shape):
        return self._swap(shape, self._out_event_shape, self._in_event_shape)

    def _forward_log_det_jacobian(self, x):
        return paddle.zeros(x.shape[:x.dim() - len(self._in_event_shape)], dtype=x.dtype)


class SigmoidTransform(Transform):
    """y = sigmoid(x)."""

    def _forward(self, x):
        return paddle.nn.functional.sigmoid(x)

    def _inverse(self, y):
        return y.log() - (-y).log1p()

    def _forward_log_det_jacobian(self, x):
        F = paddle.nn.functional
        return -F.softplus(-x) - F.softplus(x)


class SoftmaxTransform(Transform):
    """y = softmax(x) over the last axis (not injective: the inverse is log y)."""

    _type = Type.OTHER

    @property
    def _domain(self):
        return _Space(1)

    @property
    def _codomain(self):
        return _Space(1)

    def _forward(self, x):
        x = (x - x.max(-1, keepdim=True)).exp()
        return x / x.sum(-1, keepdim=True)

    def _inverse(self, y):
        return y.log()

    def _forward_shape(self, shape):
        if len(shape) < 1:
            raise ValueError(f"Expected length of shape is grater than 1, but got {len(shape)}")
        return shape

    _inverse_shape = _forward_shape


class StackTransform(Transform):
    """Apply transforms[i] to slice i of x along `axis`."""

    def __init__(self, transforms, axis=0):
        if not transforms or not isinstance(transforms, typing.Sequence):
            raise TypeError(f"Expected 'transforms' is Sequence[Transform], but got {type(transforms)}.")
        if not all(isinstance(t, Transform) for t in transforms):
            raise TypeError("Expected all element in transforms is Transform Type.")
        if not isinstance(axis, int):
            raise TypeError(f"Expected 'axis' is int, but got{type(axis)}.")
        self._transforms = transforms
        self._axis = axis

    def _is_injective(self):
        return all(t._is_injective() for t in self._transforms)

    @property
    def transforms(self):
        return self._transforms

    @property
    def axis(self):
        return self._axis

    def _map(self, v, method):
        if not -v.dim() <= self._axis < v.dim():
            raise ValueError(f"Input dimensions {v.dim()} should be grater than stack transform axis {self._axis}.")
        if v.shape[self._axis] != len(self._transforms):
            raise ValueError(f"Input size along {self._axis} should be equal to the length of transforms.")
        parts = paddle.unstack(v, self._axis)
        return paddle.stack([getattr(t, method)(p) for p, t in zip(parts, self._transforms)], self._axis)

    def _forward(self, x):
        return self._map(x, "forward")

    def _inverse(self, y):
        return self._map(y, "inverse")

    def _forward_log_det_jacobian(self, x):
        return self._map(x, "forward_log_det_jacobian")

    @property
    def _domain(self):
        return _Space(self._stack_rank("_domain"))

    @property
    def _codomain(self):
        return _Space(self._stack_rank("_codomain"))

    def _stack_rank(self, which):
        rank = max(getattr(t, which).event_rank for t in self._transforms)
        return rank + 1 if self._axis + rank < 0 else rank


class StickBreakingTransform(Transform):
    """Unconstrained R^K -> the (K+1)-simplex by stick breaking."""

    _type = Type.BIJECTION

    @staticmethod
    def _offset_log(n, k):
        # log(n - [1..k] + 1) in float32, as Paddle builds it from paddle.ones (default dtype)
        return (n + 1 - paddle.ones([k]).cumsum(-1)).log()

    def _forward(self, x):
        F = paddle.nn.functional
        k = x.shape[-1]
        z = F.sigmoid(x - self._offset_log(k, k))
        rest = (1 - z).cumprod(-1)
        pad = [0] * 2 * (x.dim() - 1)
        return F.pad(z, pad + [0, 1], value=1) * F.pad(rest, pad + [1, 0], value=1)

    def _inverse(self, y):
        head = y[..., :-1]
        offset = y.shape[-1] - paddle.ones([head.shape[-1]]).cumsum(-1)
        return head.log() - (1 - head.cumsum(-1)).log() + offset.log()

    def _forward_log_det_jacobian(self, x):
        y = self.forward(x)
        x = x - self._offset_log(x.shape[-1], x.shape[-1])
        return (-x + paddle.nn.functional.log_sigmoid(x) + y[..., :-1].log()).sum(-1)

    def _forward_shape(self, shape):
        if not shape:
            raise ValueError(f"Expected 'shape' is not empty, but got {shape}")
        return (*shape[:-1], shape[-1] + 1)

    def _inverse_shape(self, shape):
        if not shape:
            raise ValueError(f"Expected 'shape' is not empty, but got {shape}")
        return (*shape[:-1], shape[-1] - 1)

    @property
    def _domain(self):
        return _Space(1)

    @property
    def _codomain(self):
        return _Space(1)


class TanhTransform(Transform):
    """y = tanh(x)."""

    _type = Type.BIJECTION

    def _forward(self, x):
        return x.tanh()

    def _inverse(self, y):
        return y.atanh()

    def _forward_log_det_jacobian(self, x):
        # the numerically stable form log(1 - tanh(x)^2) = 2 (log 2 - x - softplus(-2x))
        return 2.0 * (math.log(2.0) - x - paddle.nn.functional.softplus(-2.0 * x))
