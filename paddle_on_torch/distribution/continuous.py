"""Continuous univariate distributions and Dirichlet/Beta."""
import math
import numbers
from collections.abc import Iterable, Sequence

import numpy as np
import torch

import paddle_on_torch as paddle
from .. import _normalize
from .._core import dtype as _dtypes
from .._core import random as _rng
from ..tensor.tensor import Tensor
from .distribution import Distribution, ExponentialFamily
from .transform import AffineTransform, ExpTransform
from .transformed_distribution import TransformedDistribution

__all__ = ["Normal", "Uniform", "Laplace", "Cauchy", "Gumbel", "LogNormal", "StudentT", "Exponential", "Gamma",
           "Chi2", "Beta", "Dirichlet"]

_TINY32 = float(np.finfo("float32").tiny)
_EPS32 = float(np.finfo("float32").eps)


def _dtype_name(d):
    return d if isinstance(d, str) else _dtypes.dtype_name(_dtypes.to_torch_dtype(d))


def _real_param(v, what, dist):
    """Laplace / Cauchy / Gumbel take a real number (-> 0-D default-dtype Tensor) or a Tensor."""
    if isinstance(v, bool) or not isinstance(v, (numbers.Real, Tensor)):
        raise TypeError(f"Expected type of {what} is Real|Variable{'|Value' if dist != 'Laplace' else ''}, "
                        f"but got {type(v)}")
    return paddle.full(shape=(), fill_value=v) if not isinstance(v, Tensor) else v


class _FloatParams(Distribution):
    """Normal and Uniform share Paddle's parameter handling: floats/lists/arrays or all-Tensors."""

    def _init_params(self, a, b, complex_ok=False):
        self.all_arg_is_float = False
        self.dtype = "float32"
        a = float(a) if isinstance(a, int) and not isinstance(a, bool) else a
        b = float(b) if isinstance(b, int) and not isinstance(b, bool) else b
        if self._validate_args(a, b):
            self.dtype = _dtype_name(a.dtype)
            return a, b
        if isinstance(a, float) and isinstance(b, float):
            self.all_arg_is_float = True
        for v in (a, b):
            if isinstance(v, np.ndarray) and str(v.dtype) in ("float32", "float64"):
                self.dtype = str(v.dtype)
                break
        a, b = self._to_tensor(a, b)
        if self.dtype != "float32":
            a, b = paddle.cast(a, self.dtype), paddle.cast(b, self.dtype)
        return a, b

    def _sample_shape(self, shape):
        return list(shape) + list((self._p0 + self._p1).shape)


class Normal(_FloatParams):
    """The normal (Gaussian) distribution N(loc, scale^2); a complex `loc` gives the complex Gaussian."""

    def __init__(self, loc, scale, name=None):
        self.name = name if name is not None else "Normal"
        self._complex_gaussian = False
        if isinstance(loc, (tuple, list)):
            loc = np.array(loc)
            loc = loc.astype({np.dtype("float64"): "float32", np.dtype("complex128"): "complex64"}.get(loc.dtype,
                                                                                                      loc.dtype))
        if isinstance(scale, (tuple, list)):
            scale = np.array(scale, dtype=np.float32)
        is_complex = isinstance(loc, complex) or (isinstance(loc, np.ndarray) and loc.dtype.kind == "c") or (
            isinstance(loc, Tensor) and loc.is_complex())
        if is_complex:
            self._complex_gaussian = True
            self.all_arg_is_float = isinstance(loc, complex) and isinstance(scale, float)
            if isinstance(loc, np.ndarray):
                part = "float32" if loc.dtype == np.complex64 else "float64"
                loc = paddle.complex(paddle.to_tensor(loc.real, part), paddle.to_tensor(loc.imag, part))
            elif isinstance(loc, complex):
                loc = paddle.complex(paddle.to_tensor(loc.real, "float32"), paddle.to_tensor(loc.imag, "float32"))
            if isinstance(scale, np.ndarray):
                scale = paddle.to_tensor(scale, dtype=str(scale.dtype))
            elif isinstance(scale, (int, float)):
                scale = paddle.to_tensor(float(scale), dtype="float32")
            self.loc, self.scale = loc, scale
            self.dtype = _dtype_name(loc.dtype)
        else:
            self.loc, self.scale = self._init_params(loc, scale)
        super().__init__(self.loc.shape)

    _p0 = property(lambda self: self.loc)
    _p1 = property(lambda self: self.scale)

    @property
    def mean(self):
        return self.loc

    @property
    def variance(self):
        return self.scale.pow(2)

    def sample(self, shape=(), seed=0):
        if not isinstance(shape, Iterable):
            raise TypeError("sample shape must be Iterable object.")
        out_shape = self._sample_shape(shape)
        # Paddle's gaussian op (its op seed; complex: both parts from successive draws), as Paddle's sample
        eps = paddle.tensor.random.gaussian(out_shape, mean=0.0 + 0j if self._complex_gaussian else 0.0, std=1.0,
                                            seed=seed, dtype=self.dtype)
        out = eps * (paddle.zeros(out_shape, dtype=self.dtype) + self.scale) + self.loc
        return paddle.reshape(out, list(shape)) if self.all_arg_is_float else out

    def rsample(self, shape=()):
        if not isinstance(shape, Iterable):
            raise TypeError("sample shape must be Iterable object.")
        shape = list(self._extend_shape(tuple(shape)))
        # Paddle draws eps in the default dtype (float32) whatever the parameters' dtype
        eps = paddle.normal(0.0 + 0j if self._complex_gaussian else 0.0, 1.0, shape)
        return self.loc + eps * self.scale

    def entropy(self):
        shape = list((self.loc + self.scale).shape)
        if self._complex_gaussian:
            zero = paddle.full(shape, 0.0, self.scale.dtype)
            return (1.0 + zero) + (math.log(math.pi) + 2.0 * paddle.log(self.scale + zero))
        zero = paddle.full(shape, 0.0, self.dtype)
        return (0.5 + zero) + (0.5 * math.log(2 * math.pi) + paddle.log(self.scale + zero))

    def _sq_dist(self, value):
        d = value - self.loc
        return d.conj() * d if self._complex_gaussian else d * d

    def log_prob(self, value):
        value = self._check_values_dtype_in_probs(self.loc, value)
        var = self.scale * self.scale
        log_scale = paddle.log(self.scale)
        if self._complex_gaussian:
            return -1.0 * self._sq_dist(value) / var - (2.0 * log_scale + math.log(math.pi))
        return -1.0 * self._sq_dist(value) / (2.0 * var) - (log_scale + math.log(math.sqrt(2.0 * math.pi)))

    def probs(self, value):
        value = self._check_values_dtype_in_probs(self.loc, value)
        var = self.scale * self.scale
        if self._complex_gaussian:
            return paddle.exp(-1.0 * self._sq_dist(value) / var) / (math.pi * var)
        return paddle.exp(-1.0 * self._sq_dist(value) / (2.0 * var)) / (math.sqrt(2 * math.pi) * self.scale)

    def kl_divergence(self, other):
        if self._complex_gaussian != other._complex_gaussian:
            raise ValueError("The kl divergence must be computed between two distributions in the same number field.")
        ratio = self.scale / other.scale
        ratio = ratio * ratio
        t1 = (self.loc - other.loc) / other.scale
        if self._complex_gaussian:
            return ratio + t1.conj() * t1 - 1.0 - paddle.log(ratio)
        t1 = t1 * t1
        return 0.5 * ratio + 0.5 * (t1 - 1.0 - paddle.log(ratio))


class Uniform(_FloatParams):
    """The uniform distribution on [low, high)."""

    def __init__(self, low, high, name=None):
        self.name = name if name is not None else "Uniform"
        self.batch_size_unknown = False
        self.low, self.high = self._init_params(low, high)
        super().__init__(self.low.shape)

    _p0 = property(lambda self: self.low)
    _p1 = property(lambda self: self.high)

    def sample(self, shape=(), seed=0):
        out_shape = self._sample_shape(shape)
        u = paddle.uniform(out_shape, dtype=self.dtype, min=0.0, max=1.0, seed=seed)
        out = u * (paddle.zeros(out_shape, dtype=self.dtype) + (self.high - self.low)) + self.low
        return paddle.reshape(out, list(shape)) if self.all_arg_is_float else out

    def _inside(self, value):
        return paddle.cast(self.low < value, value.dtype) * paddle.cast(value < self.high, value.dtype)

    def log_prob(self, value):
        value = self._check_values_dtype_in_probs(self.low, value)
        return paddle.log(self._inside(value)) - paddle.log(self.high - self.low)

    def probs(self, value):
        value = self._check_values_dtype_in_probs(self.low, value)
        return self._inside(value) / (self.high - self.low)

    def entropy(self):
        return paddle.log(self.high - self.low)


class Laplace(Distribution):
    """The Laplace distribution with location `loc` and scale `scale`."""

    def __init__(self, loc, scale):
        loc, scale = _real_param(loc, "loc", "Laplace"), _real_param(scale, "scale", "Laplace")
        if (scale.dim() > 0 or loc.dim() > 0) and loc.dtype == scale.dtype:
            loc, scale = paddle.broadcast_tensors([loc, scale])
        self.loc, self.scale = loc, scale
        super().__init__(self.loc.shape)

    @property
    def mean(self):
        return self.loc

    @property
    def stddev(self):
        return 2 ** 0.5 * self.scale

    @property
    def variance(self):
        return self.stddev.pow(2)

    def _validate_value(self, value):
        if isinstance(value, numbers.Real):
            value = paddle.full(shape=(), fill_value=value)
        if value.dtype != self.scale.dtype:
            value = paddle.cast(value, self.scale.dtype)
        if self.scale.dim() > 0 or self.loc.dim() > 0 or value.dim() > 0:
            return paddle.broadcast_tensors([self.loc, self.scale, value])
        return self.loc, self.scale, value

    def log_prob(self, value):
        loc, scale, value = self._validate_value(value)
        return -paddle.log(2 * scale) - paddle.abs(value - loc) / scale

    def entropy(self):
        return 1 + paddle.log(2 * self.scale)

    def cdf(self, value):
        loc, scale, value = self._validate_value(value)
        return 0.5 - 0.5 * (value - loc).sign() * paddle.expm1(-(value - loc).abs() / scale)

    def icdf(self, value):
        loc, scale, value = self._validate_value(value)
        term = value - 0.5
        return loc - scale * term.sign() * paddle.log1p(-2 * term.abs())

    def sample(self, shape=()):
        with paddle.no_grad():
            return self.rsample(shape)

    def rsample(self, shape=()):
        eps = 2.22045e-16 if self.loc.dtype in (paddle.float64, paddle.complex128) else 1.19209e-07
        shape = list(self._extend_shape(tuple(shape)))
        u = paddle.uniform(shape, dtype=self.loc.dtype, min=float(np.nextafter(-1, 1)) + eps / 2, max=1.0 - eps / 2)
        return self.loc - self.scale * u.sign() * paddle.log1p(-u.abs())

    def kl_divergence(self, other):
        t = paddle.abs(self.loc - other.loc)
        return (self.scale * paddle.exp(-t / self.scale) + t) / other.scale + paddle.log(other.scale / self.scale) - 1


class Cauchy(Distribution):
    """The Cauchy distribution with location `loc` and scale `scale`."""

    def __init__(self, loc, scale, name=None):
        self.name = name if name is not None else "Cauchy"
        loc, scale = _real_param(loc, "loc", "Cauchy"), _real_param(scale, "scale", "Cauchy")
        if loc.shape != scale.shape:
            loc, scale = paddle.broadcast_tensors([loc, scale])
        self.loc, self.scale = loc, scale
        self.dtype = self.loc.dtype
        super().__init__(batch_shape=self.loc.shape, event_shape=())

    @property
    def mean(self):
        raise ValueError("Cauchy distribution has no mean.")

    @property
    def variance(self):
        raise ValueError("Cauchy distribution has no variance.")

    @property
    def stddev(self):
        raise ValueError("Cauchy distribution has no stddev.")

    def sample(self, shape=(), name=None):
        with paddle.no_grad():
            return self.rsample(shape, name)

    def rsample(self, shape=(), name=None):
        if not isinstance(shape, (np.ndarray, Tensor, list, tuple)):
            raise TypeError(f"Expected type of shape is Sequence[int], but got {type(shape)}")
        shape = list(self._extend_shape(tuple(shape)))
        u = paddle.rand(shape, dtype=self.dtype)
        return self.loc.expand(shape) + self.scale.expand(shape) * paddle.tan(np.pi * (u - 0.5))

    def _check_value(self, value):
        if not isinstance(value, Tensor):
            raise TypeError(f"Expected type of value is Variable or Value, but got {type(value)}")
        value = self._check_values_dtype_in_probs(self.loc, value)
        return paddle.broadcast_tensors([self.loc, self.scale, value])

    def prob(self, value):
        return self.log_prob(value).exp()

    def log_prob(self, value):
        loc, scale, value = self._check_value(value)
        return -paddle.square((value - loc) / scale).log1p() - (
            paddle.full(loc.shape, np.log(np.pi), dtype=self.dtype) + scale.log())

    def cdf(self, value):
        loc, scale, value = self._check_value(value)
        return paddle.atan((value - loc) / scale) / np.pi + 0.5

    def entropy(self):
        return paddle.full(self.loc.shape, np.log(4 * np.pi), dtype=self.dtype) + self.scale.log()

    def kl_divergence(self, other):
        if not isinstance(other, Cauchy):
            raise TypeError(f"Expected type of other is Cauchy, but got {type(other)}")
        t1 = (paddle.pow(self.scale + other.scale, 2) + paddle.pow(self.loc - other.loc, 2)).log()
        return t1 - (4 * (self.scale * other.scale)).log()


class Gumbel(TransformedDistribution):
    """The Gumbel (type-I extreme value) distribution."""

    def __init__(self, loc, scale):
        loc, scale = _real_param(loc, "loc", "Gumbel"), _real_param(scale, "scale", "Gumbel")
        if loc.shape != scale.shape:
            loc, scale = paddle.broadcast_tensors([loc, scale])
        self.loc, self.scale = loc, scale
        self.base_dist = Uniform(paddle.full_like(self.loc, _TINY32), paddle.full_like(self.loc, float(1 - _EPS32)))
        self.transforms = ()
        super().__init__(self.base_dist, self.transforms)

    @property
    def mean(self):
        return self.loc + self.scale * np.euler_gamma

    @property
    def variance(self):
        return paddle.pow(self.scale, 2) * paddle.full(self.loc.shape, math.pi * math.pi, self.scale.dtype) / 6

    @property
    def stddev(self):
        return paddle.sqrt(self.variance)

    def prob(self, value):
        y = (self.loc - value.astype(self.loc.dtype)) / self.scale.astype(self.loc.dtype)
        return paddle.exp(y - paddle.exp(y)) / self.scale.astype(y.dtype)

    def log_prob(self, value):
        return paddle.log(self.prob(value))

    def cdf(self, value):
        return paddle.exp(-paddle.exp(-(value - self.loc.astype(value.dtype)) / self.scale.astype(value.dtype)))

    def entropy(self):
        return paddle.log(self.scale) + 1 + np.euler_gamma

    def sample(self, shape=()):
        with paddle.no_grad():
            return self.rsample(shape)

    def rsample(self, shape=()):
        u = self._base.sample(shape)
        return AffineTransform(self.loc, -self.scale).forward(paddle.log(-paddle.log(u)))


class LogNormal(TransformedDistribution):
    """exp(X) for X ~ Normal(loc, scale)."""

    def __init__(self, loc, scale):
        self._base = Normal(loc=loc, scale=scale)
        self.loc, self.scale = self._base.loc, self._base.scale
        super().__init__(self._base, [ExpTransform()])

    @property
    def mean(self):
        return paddle.exp(self._base.mean + self._base.variance / 2)

    @property
    def variance(self):
        return paddle.expm1(self._base.variance) * paddle.exp(2 * self._base.mean + self._base.variance)

    def entropy(self):
        return self._base.entropy() + self._base.mean

    def probs(self, value):
        return paddle.exp(self.log_prob(value))

    def kl_divergence(self, other):
        return self._base.kl_divergence(other._base)


class Exponential(ExponentialFamily):
    """The exponential distribution with rate `rate`."""

    def __init__(self, rate):
        if self._validate_args(rate):
            self.rate, self.dtype = rate, _dtype_name(rate.dtype)
        else:
            [self.rate] = self._to_tensor(rate)
            self.dtype = paddle.get_default_dtype()
        super().__init__(self.rate.shape)

    @property
    def mean(self):
        return self.rate.reciprocal()

    @property
    def variance(self):
        return self.rate.pow(-2)

    def sample(self, shape=()):
        with paddle.no_grad():
            return self.rsample(shape)

    def rsample(self, shape=()):
        shape = list(self._extend_shape(shape))
        u = paddle.uniform(shape, min=_TINY32, max=1.0, dtype=self.rate.dtype)
        return -paddle.log(u) / self.rate

    def prob(self, value):
        return self.rate * paddle.exp(-self.rate * value)

    def log_prob(self, value):
        return paddle.log(self.rate) - self.rate * value

    def entropy(self):
        return 1.0 - paddle.log(self.rate)

    def cdf(self, value):
        return 1.0 - paddle.exp(-self.rate * value)

    def icdf(self, value):
        return -paddle.log1p(-value) / self.rate

    def kl_divergence(self, other):
        if not isinstance(other, Exponential):
            raise TypeError(f"Expected type of other is Exponential, but got {type(other)}")
        ratio = other.rate / self.rate
        return -paddle.log(ratio) + ratio - 1

    @property
    def _natural_parameters(self):
        return (-self.rate,)

    def _log_normalizer(self, x):
        return -paddle.log(-x)


class Gamma(ExponentialFamily):
    """The gamma distribution with shape `concentration` and rate `rate`."""

    def __init__(self, concentration, rate):
        if self._validate_args(concentration, rate):
            self.concentration, self.rate = concentration, rate
            self.dtype = _dtype_name(concentration.dtype)
        else:
            self.concentration, self.rate = self._to_tensor(concentration, rate)
            self.dtype = paddle.get_default_dtype()
        super().__init__(self.concentration.shape)

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def variance(self):
        return self.concentration / self.rate.pow(2)

    def prob(self, value):
        return paddle.exp(self.log_prob(value))

    def log_prob(self, value):
        c, r = self.concentration, self.rate
        return c * paddle.log(r) + (c - 1) * paddle.log(value) - r * value - paddle.lgamma(c)

    def entropy(self):
        c = self.concentration
        return c - paddle.log(self.rate) + paddle.lgamma(c) + (1.0 - c) * paddle.digamma(c)

    def sample(self, shape=()):
        with paddle.no_grad():
            return self.rsample(shape)

    def rsample(self, shape=()):
        shape = list(Distribution._extend_shape(self, shape))
        return paddle.standard_gamma(self.concentration.expand(shape)) / self.rate.expand(shape)

    def kl_divergence(self, other):
        if not isinstance(other, Gamma):
            raise TypeError(f"Expected type of other is Exponential, but got {type(other)}")
        a, b = self.concentration, other.concentration
        return (b * paddle.log(self.rate / other.rate) + (paddle.lgamma(b) - paddle.lgamma(a))
                + (a - b) * paddle.digamma(a) + (other.rate - self.rate) * (a / self.rate))

    def _natural_parameters(self):  # a method, not a property, in Paddle
        return (self.concentration - 1, -self.rate)

    def _log_normalizer(self, x, y):
        return paddle.lgamma(x + 1) + (x + 1) * paddle.log(-y.reciprocal())


class Chi2(Gamma):
    """The chi-squared distribution with `df` degrees of freedom (Gamma(df/2, 1/2))."""

    def __init__(self, df):
        if self._validate_args(df):
            self.df, self.dtype = df, _dtype_name(df.dtype)
        else:
            [self.df] = self._to_tensor(df)
            self.dtype = paddle.get_default_dtype()
        self.rate = paddle.full_like(self.df, 0.5)
        if not bool(paddle.all(self.df > 0)):
            raise ValueError("The arg of `df` must be positive.")
        super().__init__(self.df * 0.5, self.rate)


class StudentT(Distribution):
    """Student's t distribution with `df` degrees of freedom, location `loc` and scale `scale`."""

    def __init__(self, df, loc, scale, name=None):
        self.name = name if name is not None else "StudentT"
        self.df, self.loc, self.scale = self._broadcast_all(df, loc, scale)
        if not bool((self.df >= 0.0).all()):
            raise ValueError("Every element of input parameter `df` should be nonnegative.")
        if not bool((self.scale >= 0.0).all()):
            raise ValueError("Every element of input parameter `scale` should be nonnegative.")
        super().__init__(self.df.shape)
        self._chi2 = Gamma(0.5 * self.df, paddle.full_like(self.df, 0.5))

    @property
    def mean(self):
        return paddle.where(self.df > 1.0, self.loc, paddle.full_like(self.loc, fill_value=float("nan")))

    @property
    def variance(self):
        df = self.df.clone().detach()
        var = paddle.where(self.df > 2.0, self.scale.pow(2) * df / (df - 2),
                           paddle.full_like(df, fill_value=float("nan")))
        return paddle.where((self.df <= 2.0).logical_and(self.df > 1.0), paddle.full_like(var, float("inf")), var)

    def sample(self, shape=()):
        if not isinstance(shape, Sequence):
            raise TypeError("sample shape must be Sequence object.")
        z = paddle.normal(shape=list(self._extend_shape(shape)))
        chi2 = self._chi2.sample(shape)
        return self.loc + self.scale * (z * paddle.rsqrt(chi2 / self.df))

    def entropy(self):
        df = self.df
        lbeta = paddle.lgamma(0.5 * df) + math.lgamma(0.5) - paddle.lgamma(0.5 * (df + 1))
        return (self.scale.log() + 0.5 * (df + 1) * (paddle.digamma(0.5 * (df + 1)) - paddle.digamma(0.5 * df))
                + 0.5 * df.log() + lbeta)

    def log_prob(self, value):
        value = self._check_values_dtype_in_probs(self.df, value)
        df = self.df
        y = (value - self.loc) / self.scale
        z = (self.scale.log() + 0.5 * df.log() + 0.5 * math.log(math.pi) + paddle.lgamma(0.5 * df)
             - paddle.lgamma(0.5 * (df + 1.0)))
        return -0.5 * (df + 1.0) * paddle.log1p(y ** 2.0 / df) - z

    def prob(self, value):
        return paddle.exp(self.log_prob(value))


class Dirichlet(ExponentialFamily):
    """The Dirichlet distribution with concentration parameters `concentration` (last axis = event)."""

    def __init__(self, concentration):
        if concentration.dim() < 1 or math.prod(concentration.shape) == 0:
            raise ValueError("`concentration` parameter must be at least one dimensional")
        self.concentration = concentration
        super().__init__(concentration.shape[:-1], concentration.shape[-1:])

    @property
    def mean(self):
        return self.concentration / self.concentration.sum(-1, keepdim=True)

    @property
    def variance(self):
        c = self.concentration
        c0 = c.sum(-1, keepdim=True)
        return c * (c0 - c) / (c0.pow(2) * (c0 + 1))

    def sample(self, shape=()):
        c = self.concentration.expand(list(self._extend_shape(tuple(shape))))
        with torch.no_grad():
            return _normalize.wrap(_rng.dirichlet(c._t))  # Paddle's draws on the CPU

    def prob(self, value):
        return paddle.exp(self.log_prob(value))

    def log_prob(self, value):
        c = self.concentration
        return (paddle.log(value) * (c - 1.0)).sum(-1) + paddle.lgamma(c.sum(-1)) - paddle.lgamma(c).sum(-1)

    def entropy(self):
        c = self.concentration
        c0 = c.sum(-1)
        k = c.shape[-1]
        return (paddle.lgamma(c).sum(-1) - paddle.lgamma(c0) - (k - c0) * paddle.digamma(c0)
                - ((c - 1.0) * paddle.digamma(c)).sum(-1))

    @property
    def _natural_parameters(self):
        return (self.concentration,)

    def _log_normalizer(self, x):
        return x.lgamma().sum(-1) - paddle.lgamma(x.sum(-1))


class Beta(ExponentialFamily):
    """The beta distribution, as a two-category Dirichlet."""

    def __init__(self, alpha, beta):
        if isinstance(alpha, numbers.Real):
            alpha = paddle.full(shape=[], fill_value=alpha)
        if isinstance(beta, numbers.Real):
            beta = paddle.full(shape=[], fill_value=beta)
        self.alpha, self.beta = paddle.broadcast_tensors([alpha, beta])
        self._dirichlet = Dirichlet(paddle.stack([self.alpha, self.beta], -1))
        super().__init__(self._dirichlet._batch_shape)

    @property
    def mean(self):
        return self.alpha / (self.alpha + self.beta)

    @property
    def variance(self):
        s = self.alpha + self.beta
        return self.alpha * self.beta / (s.pow(2) * (s + 1))

    def prob(self, value):
        return paddle.exp(self.log_prob(value))

    def log_prob(self, value):
        return self._dirichlet.log_prob(paddle.stack([value, 1.0 - value], -1))

    def sample(self, shape=()):
        return paddle.squeeze(self._dirichlet.sample(tuple(shape))[..., 0], axis=-1)

    def entropy(self):
        return self._dirichlet.entropy()

    @property
    def _natural_parameters(self):
        return (self.alpha, self.beta)

    def _log_normalizer(self, x, y):
        return paddle.lgamma(x) + paddle.lgamma(y) - paddle.lgamma(x + y)
