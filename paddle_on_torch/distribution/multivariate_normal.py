"""paddle.distribution.MultivariateNormal."""
import math
from collections.abc import Sequence

import torch
from torch.distributions import multivariate_normal as _tmvn

import paddle_on_torch as paddle
from .. import _normalize
from .continuous import _dtype_name
from .distribution import Distribution

__all__ = ["MultivariateNormal"]


def _mahalanobis(L, x):
    # torch's batched solve is the same computation as Paddle's batch_mahalanobis
    return _normalize.wrap(_tmvn._batch_mahalanobis(L._t, x._t))


def _precision_to_scale_tril(P):
    return _normalize.wrap(_tmvn._precision_to_scale_tril(P._t))


class MultivariateNormal(Distribution):
    """N(loc, Sigma), Sigma given by exactly one of covariance_matrix, precision_matrix, scale_tril."""

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None):
        self.dtype = paddle.get_default_dtype()
        if isinstance(loc, (float, int)):
            loc = paddle.to_tensor([loc], dtype=self.dtype)
        else:
            self.dtype = _dtype_name(loc.dtype)
        if loc.dim() < 1:
            loc = loc.reshape((1,))
        self.covariance_matrix = self.precision_matrix = self.scale_tril = None
        given = [(n, m) for n, m in (("scale_tril", scale_tril), ("covariance_matrix", covariance_matrix),
                                     ("precision_matrix", precision_matrix)) if m is not None]
        if len(given) != 1:
            raise ValueError("Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.")
        name, m = given[0]
        if m.dim() < 2:
            what = "scale_tril matrix" if name == "scale_tril" else name
            raise ValueError(f"{what} must be at least two-dimensional, with optional leading batch dimensions")
        m = paddle.cast(m, self.dtype)
        batch_shape = paddle.broadcast_shape(m.shape[:-2], loc.shape[:-1])
        setattr(self, name, m.expand([*batch_shape, m.shape[-2], m.shape[-1]]))
        self.loc = loc.expand([*batch_shape, -1])
        if name == "scale_tril":
            self._unbroadcasted_scale_tril = m
        elif name == "covariance_matrix":
            self._unbroadcasted_scale_tril = paddle.linalg.cholesky(m)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(m)
        super().__init__(batch_shape, self.loc.shape[-1:])

    @property
    def mean(self):
        return self.loc

    @property
    def variance(self):
        return paddle.square(self._unbroadcasted_scale_tril).sum(-1).expand(
            list(self._batch_shape + self._event_shape))

    def sample(self, shape=()):
        with paddle.no_grad():
            return self.rsample(shape)

    def rsample(self, shape=()):
        if not isinstance(shape, Sequence):
            raise TypeError("sample shape must be Sequence object.")
        eps = paddle.cast(paddle.normal(shape=list(self._extend_shape(shape))), self.dtype)
        return self.loc + paddle.matmul(self._unbroadcasted_scale_tril, eps.unsqueeze(-1)).squeeze(-1)

    def _half_log_det(self):
        return self._unbroadcasted_scale_tril.diagonal(axis1=-2, axis2=-1).log().sum(-1)

    def log_prob(self, value):
        value = paddle.cast(value, self.dtype)
        m = _mahalanobis(self._unbroadcasted_scale_tril, value - self.loc)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + m) - self._half_log_det()

    def prob(self, value):
        return paddle.exp(self.log_prob(value))

    def entropy(self):
        h = 0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + self._half_log_det()
        return h if len(self._batch_shape) == 0 else h.expand(list(self._batch_shape))

    def kl_divergence(self, other):
        if self._batch_shape != other._batch_shape and self._event_shape != other._event_shape:
            raise ValueError("KL divergence of two Multivariate Normal distributions should share the same "
                             "`batch_shape` and `event_shape`.")
        L1, L2 = self._unbroadcasted_scale_tril, other._unbroadcasted_scale_tril
        cov1 = paddle.matmul(L1, L1.mT)
        cov2 = paddle.matmul(L2, L2.mT)
        trace = paddle.linalg.solve(cov2, cov1).diagonal(axis1=-2, axis2=-1).sum(-1)
        trace = trace + _mahalanobis(L2, self.loc - other.loc)
        return other._half_log_det() - self._half_log_det() + 0.5 * (trace - self._event_shape[0])
