"""Discrete distributions (and ContinuousBernoulli, which Paddle builds the same way)."""
import numbers
from collections.abc import Iterable, Sequence

import numpy as np

import paddle_on_torch as paddle
from ..tensor.tensor import Tensor
from .continuous import _dtype_name
from .distribution import Distribution, ExponentialFamily

__all__ = ["Categorical", "Bernoulli", "Geometric", "Poisson", "Binomial", "Multinomial", "ContinuousBernoulli"]

_F = None


def _f():
    return paddle.nn.functional


class Categorical(Distribution):
    """A categorical distribution over the last axis of `logits`.

    Paddle's conventions differ by method: `sample`, `entropy` and `kl_divergence` read `logits` as
    log-probabilities (softmax), while `probs`/`log_prob` read them as unnormalised probabilities
    (logits / logits.sum(-1)).  Both are reproduced.
    """

    def __init__(self, logits, name=None):
        self.name = name if name is not None else "Categorical"
        self.dtype = "float32"
        if self._validate_args(logits):
            self.logits, self.dtype = logits, _dtype_name(logits.dtype)
        else:
            if isinstance(logits, np.ndarray) and str(logits.dtype) in ("float32", "float64"):
                self.dtype = str(logits.dtype)
            self.logits = self._to_tensor(logits)[0]
            if self.dtype != "float32":
                self.logits = paddle.cast(self.logits, self.dtype)
        self._prob = self.logits / paddle.sum(self.logits, axis=-1, keepdim=True)
        super().__init__()

    def sample(self, shape=()):
        shape = list(shape)
        n = int(np.prod(np.array(shape)))
        lshape = list(self.logits.shape)
        logits = self.logits
        if len(lshape) > 1:
            logits = paddle.reshape(logits, [int(np.prod(lshape[:-1])), lshape[-1]])
            out_shape = shape + lshape[:-1]
        else:
            out_shape = shape
        idx = paddle.multinomial(self._logits_to_probs(logits), n, True)
        perm = list(range(idx.dim()))
        perm.insert(0, perm.pop(-1))
        return paddle.reshape(idx.transpose(perm), out_shape)

    def _normalised(self):
        logits = self.logits - paddle.max(self.logits, axis=-1, keepdim=True)
        z = paddle.sum(paddle.exp(logits), axis=-1, keepdim=True)
        return logits, z, paddle.exp(logits) / z

    def kl_divergence(self, other):
        logits, z, prob = self._normalised()
        o_logits, o_z, _ = other._normalised()
        return paddle.sum(prob * (logits - paddle.log(z) - o_logits + paddle.log(o_z)), axis=-1, keepdim=True)

    def entropy(self):
        logits, z, prob = self._normalised()
        return -1.0 * paddle.sum(prob * (logits - paddle.log(z)), axis=-1)

    def probs(self, value):
        if self._prob.dim() == 1:
            return paddle.gather(self._prob, value.reshape([-1])).reshape(value.shape)
        if value.dim() == 1:
            return paddle.take_along_axis(self._prob, paddle.reshape(value, (self._prob.dim() - 1) * [1] + [-1]),
                                          axis=-1)
        return paddle.take_along_axis(self._prob, value, axis=-1)

    def log_prob(self, value):
        return paddle.log(self.probs(value))


def _eps(dtype):
    return float(np.finfo(_dtype_name(dtype)).eps)


class Bernoulli(ExponentialFamily):
    """The Bernoulli distribution; `probs` is clipped to [eps, 1 - eps] as in Paddle."""

    def __init__(self, probs, name=None):
        self.name = name or "Bernoulli"
        if self._validate_args(probs):
            self.probs, self.dtype = probs, _dtype_name(probs.dtype)
        else:
            [self.probs] = self._to_tensor(probs)
            self.dtype = paddle.get_default_dtype()
        e = _eps(self.dtype)
        self.probs = paddle.clip(self.probs, min=e, max=1 - e).astype(self.dtype)
        self.logits = self._probs_to_logits(self.probs, is_binary=True)
        super().__init__(batch_shape=self.probs.shape, event_shape=())

    @property
    def mean(self):
        return self.probs

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    def sample(self, shape=()):
        shape = list(self._extend_shape(tuple(shape)))
        with paddle.no_grad():
            return paddle.bernoulli(self.probs.expand(shape))

    def rsample(self, shape=(), temperature=1.0):
        shape = list(self._extend_shape(tuple(shape)))
        t = paddle.full(shape=(), fill_value=temperature, dtype=self.dtype)
        probs = self.probs.expand(shape)
        u = paddle.rand(shape, dtype=self.dtype)
        return ((u.log() - (-u).log1p()) + (probs.log() - (-probs).log1p())) / t

    def _value(self, value, what):
        if not isinstance(value, Tensor):
            raise TypeError(f"The type of '{what}' in {self.name}_{what} must be Tensor, but received "
                            f"{type(value)}.")
        return self._check_values_dtype_in_probs(self.probs, value)

    def cdf(self, value):
        value = self._check_values_dtype_in_probs(self.probs, value)
        probs, value = paddle.broadcast_tensors([self.probs, value])
        zeros, ones = paddle.zeros_like(probs), paddle.ones_like(probs)
        return paddle.where(value < 0, zeros, paddle.where(value < 1, ones - probs, ones))

    def log_prob(self, value):
        value = self._check_values_dtype_in_probs(self.probs, value)
        logits, value = paddle.broadcast_tensors([self.logits, value])
        return -_f().binary_cross_entropy_with_logits(logits, value, reduction="none")

    def prob(self, value):
        return self.log_prob(value).exp()

    def entropy(self):
        return _f().binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    def kl_divergence(self, other):
        F = _f()
        a, b = self.logits, other.logits
        pa, qa = F.sigmoid(a), F.sigmoid(-a)
        return (-F.softplus(-a) * pa - (-F.softplus(-b)) * pa) + (-F.softplus(a) * qa - (-F.softplus(b)) * qa)


class Geometric(Distribution):
    """The number of failures before the first success, success probability `probs`."""

    def __init__(self, probs):
        if isinstance(probs, numbers.Real) and not isinstance(probs, bool):
            probs = paddle.full(shape=(), fill_value=probs, dtype=paddle.float32)
        elif not isinstance(probs, Tensor):
            raise TypeError("Expected type of probs is Number.Real|Tensor|framework.Variable|Value, but got "
                            f"{type(probs)}")
        self.probs = probs
        super().__init__(tuple(probs.shape))

    @property
    def mean(self):
        return 1.0 / self.probs - 1.0

    @property
    def variance(self):
        return (1.0 / self.probs - 1.0) / self.probs

    @property
    def stddev(self):
        return paddle.sqrt(self.variance)

    @staticmethod
    def _check_k(k):
        if not isinstance(k, (numbers.Integral, Tensor)):
            raise TypeError(f"Expected type of k is number.Real|framework.Variable|Value, but got {type(k)}")

    def pmf(self, k):
        self._check_k(k)
        return paddle.pow(1.0 - self.probs, k) * self.probs

    def log_pmf(self, k):
        self._check_k(k)
        return paddle.log(self.pmf(k))

    def sample(self, shape=()):
        with paddle.no_grad():
            return self.rsample(shape)

    def rsample(self, shape=()):
        shape = list(Distribution._extend_shape(self, shape))
        u = paddle.uniform(shape, min=float(np.finfo("float32").tiny), max=1.0, dtype=self.probs.dtype)
        return paddle.floor(paddle.log(u) / paddle.log1p(-self.probs))

    def entropy(self):
        p = self.probs
        return -((1.0 - p) * paddle.log(1.0 - p) + p * paddle.log(p)) / p

    def cdf(self, k):
        self._check_k(k)
        return 1.0 - paddle.pow(1.0 - self.probs, k + 1)

    def kl_divergence(self, other):
        if not isinstance(other, Geometric):
            raise TypeError(f"Exacted type of other is geometric.Geometric, but got {type(other)}")
        p, q = self.probs, other.probs
        return p * paddle.log(p / q) + (1.0 - p) * paddle.log((1.0 - p) / (1.0 - q))


class Poisson(Distribution):
    """The Poisson distribution with rate `rate` (a Python number becomes a shape-[1] Tensor)."""

    def __init__(self, rate):
        self.dtype = paddle.get_default_dtype()
        if isinstance(rate, (float, int)):
            rate = paddle.to_tensor([rate], dtype=self.dtype)
        else:
            self.dtype = _dtype_name(rate.dtype)
        self.rate = rate
        super().__init__(self.rate.shape)

    @property
    def mean(self):
        return self.rate

    @property
    def variance(self):
        return self.rate

    def sample(self, shape=()):
        if not isinstance(shape, Sequence):
            raise TypeError("sample shape must be Sequence object.")
        rate = paddle.broadcast_to(self.rate, shape=list(tuple(shape) + tuple(self.batch_shape)))
        with paddle.no_grad():
            return paddle.poisson(rate)

    def _support(self, rate):
        """0 .. max(rate + 30 sqrt(max rate)) (or + 30 when every rate < 1): where the mass lies."""
        top = paddle.max(rate)
        s = paddle.sqrt(top) if bool(top >= 1.0) else paddle.ones_like(rate, dtype=self.dtype)
        upper = paddle.max(paddle.cast(rate + 30 * s, "int32"))
        return paddle.arange(0, upper, dtype=self.dtype)

    def entropy(self):
        values = self._support(self.rate).reshape((-1,) + (1,) * len(self.batch_shape))
        lp = self.log_prob(values)
        ent = -(paddle.exp(lp) * lp).sum(0)
        return ent * paddle.cast(self.rate != paddle.to_tensor(0.0, dtype=self.dtype), self.dtype)

    def log_prob(self, value):
        value = paddle.cast(value, self.dtype)
        return paddle.nan_to_num(-self.rate + value * paddle.log(self.rate) - paddle.lgamma(value + 1),
                                 neginf=-_eps(self.rate.dtype))

    def prob(self, value):
        return paddle.exp(self.log_prob(value))

    def kl_divergence(self, other):
        if self.batch_shape != other.batch_shape:
            raise ValueError("KL divergence of two poisson distributions should share the same `batch_shape`.")
        top = paddle.max(paddle.maximum(self.rate, other.rate))
        support = paddle.arange(0, paddle.max(self._support(top)), dtype=self.dtype)
        support = support.reshape((-1,) + (1,) * len(self.batch_shape))
        lp1, lp2 = self.log_prob(support), other.log_prob(support)
        return (paddle.exp(lp1) * (lp1 - lp2)).sum(0)


class Binomial(Distribution):
    """The binomial distribution: successes in `total_count` trials of probability `probs`."""

    def __init__(self, total_count, probs):
        self.dtype = paddle.get_default_dtype()
        if isinstance(probs, float):
            probs = paddle.to_tensor(probs, dtype=self.dtype)
        else:
            self.dtype = probs.dtype
        if isinstance(total_count, int):
            total_count = paddle.to_tensor(total_count, dtype=self.dtype)
        else:
            total_count = paddle.cast(total_count, self.dtype)
        self.total_count, self.probs = paddle.broadcast_tensors([total_count, probs])
        super().__init__(self.total_count.shape)

    @property
    def mean(self):
        return self.total_count * self.probs

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, shape=()):
        if not isinstance(shape, Sequence):
            raise TypeError("sample shape must be Sequence object.")
        out = list(tuple(shape) + tuple(self.batch_shape))
        with paddle.no_grad():
            n = paddle.cast(paddle.broadcast_to(self.total_count, shape=out), "int32")
            return paddle.cast(paddle.binomial(n, paddle.broadcast_to(self.probs, shape=out)), self.dtype)

    def _enumerate_support(self):
        values = paddle.arange(1 + paddle.max(self.total_count), dtype=self.dtype)
        return values.reshape((-1,) + (1,) * len(self.batch_shape))

    def entropy(self):
        lp = self.log_prob(self._enumerate_support())
        return -(paddle.exp(lp) * lp).sum(0)

    def log_prob(self, value):
        value = paddle.cast(value, self.dtype)
        n = self.total_count
        log_comb = paddle.lgamma(n + 1.0) - paddle.lgamma(n - value + 1.0) - paddle.lgamma(value + 1.0)
        e = _eps(self.probs.dtype)
        p = paddle.clip(self.probs, min=e, max=1 - e)
        return paddle.nan_to_num(log_comb + value * paddle.log(p) + (n - value) * paddle.log(1 - p), neginf=-e)

    def prob(self, value):
        return paddle.exp(self.log_prob(value))

    def kl_divergence(self, other):
        support = self._enumerate_support()
        lp1, lp2 = self.log_prob(support), other.log_prob(support)
        return (paddle.exp(lp1) * (lp1 - lp2)).sum(0)


class Multinomial(Distribution):
    """Counts of `total_count` draws from the categories of `probs` (last axis, normalised)."""

    def __init__(self, total_count, probs):
        if not isinstance(total_count, int) or total_count < 1:
            raise ValueError("input parameter total_count must be int type and grater than zero.")
        if probs.dim() < 1:
            raise ValueError("probs parameter should not be none and over one dimension")
        self.probs = probs / probs.sum(-1, keepdim=True)
        self.total_count = total_count
        self._categorical = Categorical(logits=self._probs_to_logits(probs))
        super().__init__(probs.shape[:-1], probs.shape[-1:])

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def prob(self, value):
        return paddle.exp(self.log_prob(value))

    def log_prob(self, value):
        if paddle.is_integer(value):
            value = paddle.cast(value, self.probs.dtype)
        logits, value = paddle.broadcast_tensors([paddle.log(self.probs), value])
        logits = paddle.where((value == 0) & paddle.isinf(logits), paddle.zeros_like(logits), logits)
        return paddle.lgamma(value.sum(-1) + 1) - paddle.lgamma(value + 1).sum(-1) + (value * logits).sum(-1)

    def sample(self, shape=()):
        if not isinstance(shape, Iterable):
            raise TypeError("sample shape must be Iterable object.")
        draws = self._categorical.sample([self.total_count, *list(shape)])
        return _f().one_hot(draws, self.probs.shape[-1]).cast(self.probs.dtype).sum(0)

    def entropy(self):
        n = paddle.full(shape=[], fill_value=self.total_count, dtype=self.probs.dtype)
        support = paddle.arange(self.total_count + 1, dtype=self.probs.dtype).reshape(
            (-1,) + (1,) * len(self.probs.shape))[1:]
        pmf = paddle.exp(self._binomial_logpmf(n, support))
        return n * self._categorical.entropy() - paddle.lgamma(n + 1) + (pmf * paddle.lgamma(support + 1)).sum([0, -1])

    def _binomial_logpmf(self, count, value):
        logits = self._probs_to_logits(self.probs, is_binary=True)
        relu = (logits.clip(min=0) + logits - logits.clip(max=0)) / 2
        norm = count * relu + count * paddle.log1p(paddle.exp(-paddle.abs(logits))) - paddle.lgamma(count + 1)
        return value * logits - paddle.lgamma(value + 1) - paddle.lgamma(count - value + 1) - norm


class ContinuousBernoulli(Distribution):
    """The continuous Bernoulli distribution on [0, 1]; near probs = 0.5 (inside `lims`) Paddle
    switches to Taylor expansions, reproduced here."""

    def __init__(self, probs, lims=(0.499, 0.501)):
        self.dtype = paddle.get_default_dtype()
        if isinstance(probs, (float, int)):
            probs = paddle.to_tensor([probs], dtype=self.dtype)
        else:
            self.dtype = probs.dtype
        self.lims = paddle.to_tensor(lims, dtype=self.dtype)
        e = _eps(probs.dtype)
        self.probs = paddle.clip(probs, min=e, max=1 - e)
        super().__init__(self.probs.shape)

    def _outside(self):
        return paddle.logical_or(self.probs <= self.lims[0], self.probs > self.lims[1])

    def _cut_probs(self):
        return paddle.where(self._outside(), self.probs, self.lims[0] * paddle.ones_like(self.probs))

    @staticmethod
    def _atanh(v):
        return 0.5 * (paddle.log1p(v) - paddle.log1p(-v))

    def _log_constant(self):
        p = self._cut_probs()
        below = paddle.where(p <= 0.5, p, paddle.zeros_like(p))
        above = paddle.where(p >= 0.5, p, paddle.ones_like(p))
        exact = paddle.log(2.0 * paddle.abs(self._atanh(1.0 - 2.0 * p))) - paddle.where(
            p <= 0.5, paddle.log1p(-2.0 * below), paddle.log(2.0 * above - 1.0))
        x = paddle.square(self.probs - 0.5)
        taylor = paddle.log(paddle.to_tensor(2.0, dtype=self.dtype)) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return paddle.where(self._outside(), exact, taylor)

    @property
    def mean(self):
        p = self._cut_probs()
        exact = p / (2.0 * p - 1.0) + paddle.to_tensor(1.0, dtype=self.dtype) / (2.0 * self._atanh(1.0 - 2.0 * p))
        x = self.probs - 0.5
        return paddle.where(self._outside(), exact, 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * paddle.square(x)) * x)

    @property
    def variance(self):
        p = self._cut_probs()
        exact = p * (p - 1.0) / paddle.square(1.0 - 2.0 * p) + paddle.to_tensor(1.0, dtype=self.dtype) / paddle.square(
            paddle.log1p(-p) - paddle.log(p))
        x = paddle.square(self.probs - 0.5)
        return paddle.where(self._outside(), exact, 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x)

    def sample(self, shape=()):
        with paddle.no_grad():
            return self.rsample(shape)

    def rsample(self, shape=()):
        if not isinstance(shape, Sequence):
            raise TypeError("sample shape must be Sequence object.")
        u = paddle.uniform(shape=list(tuple(shape) + tuple(self.batch_shape)), dtype=self.dtype, min=0, max=1)
        return self.icdf(u)

    def log_prob(self, value):
        value = paddle.cast(value, self.dtype)
        e = _eps(self.probs.dtype)
        ce = paddle.nan_to_num(value * paddle.log(self.probs) + (1.0 - value) * paddle.log(1 - self.probs), neginf=-e)
        return self._log_constant() + ce

    def prob(self, value):
        return paddle.exp(self.log_prob(value))

    def entropy(self):
        log_p, log_q = paddle.log(self.probs), paddle.log1p(-self.probs)
        return paddle.where(self.probs == paddle.to_tensor(0.5, dtype=self.dtype), paddle.full_like(self.probs, 0.0),
                            -self._log_constant() + self.mean * (log_q - log_p) - log_q)

    def cdf(self, value):
        value = paddle.cast(value, self.dtype)
        p = self._cut_probs()
        cdfs = (paddle.pow(p, value) * paddle.pow(1.0 - p, 1.0 - value) + p - 1.0) / (2.0 * p - 1.0)
        inner = paddle.where(self._outside(), cdfs, value)
        return paddle.where(value <= paddle.to_tensor(0.0, dtype=self.dtype), paddle.zeros_like(value),
                            paddle.where(value >= paddle.to_tensor(1.0, dtype=self.dtype), paddle.ones_like(value),
                                         inner))

    def icdf(self, value):
        value = paddle.cast(value, self.dtype)
        p = self._cut_probs()
        return paddle.where(self._outside(), (paddle.log1p(-p + value * (2.0 * p - 1.0)) - paddle.log1p(-p))
                            / (paddle.log(p) - paddle.log1p(-p)), value)

    def kl_divergence(self, other):
        if self.batch_shape != other.batch_shape:
            raise ValueError("KL divergence of two Continuous Bernoulli distributions should share the same "
                             "`batch_shape`.")
        log_q, log_1q = paddle.log(other.probs), paddle.log1p(-other.probs)
        return -self.entropy() - (other._log_constant() + self.mean * (log_q - log_1q) + log_1q)
