"""paddle.distribution.kl_divergence and register_kl: KL(p || q) dispatched on both types."""
import functools
import warnings

import paddle_on_torch as paddle
from .continuous import Beta, Cauchy, Dirichlet, Exponential, Gamma, Laplace, LogNormal, Normal, Uniform
from .discrete import Bernoulli, Binomial, Categorical, ContinuousBernoulli, Geometric, Poisson
from .distribution import Distribution, ExponentialFamily, _sum_rightmost
from .multivariate_normal import MultivariateNormal

__all__ = ["register_kl", "kl_divergence"]

_REGISTER_TABLE = {}


def kl_divergence(p, q):
    """KL(p || q) by the most specific registered implementation for (type(p), type(q))."""
    return _dispatch(type(p), type(q))(p, q)


def register_kl(cls_p, cls_q):
    """Decorator registering `f(p, q)` as the KL divergence of a (cls_p, cls_q) pair."""
    if not (isinstance(cls_p, type) and issubclass(cls_p, Distribution)
            and isinstance(cls_q, type) and issubclass(cls_q, Distribution)):
        raise TypeError("cls_p and cls_q must be subclass of Distribution")

    def decorator(f):
        _REGISTER_TABLE[cls_p, cls_q] = f
        return f

    return decorator


@functools.total_ordering
class _Compare:
    """Orders (cls_p, cls_q) pairs by specificity, left to right."""

    def __init__(self, *classes):
        self.classes = classes

    def __eq__(self, other):
        return self.classes == other.classes

    def __le__(self, other):
        for x, y in zip(self.classes, other.classes):
            if not issubclass(x, y):
                return False
            if x is not y:
                break
        return True


def _dispatch(cls_p, cls_q):
    matches = [(a, b) for a, b in _REGISTER_TABLE if issubclass(cls_p, a) and issubclass(cls_q, b)]
    if not matches:
        raise NotImplementedError
    left = min(_Compare(*m) for m in matches).classes
    right = min(_Compare(*reversed(m)) for m in matches).classes
    right = tuple(reversed(right))
    if _REGISTER_TABLE[left] is not _REGISTER_TABLE[right]:
        warnings.warn(f"Ambiguous kl_divergence({cls_p.__name__}, {cls_q.__name__}). "
                      f"Please register_kl({left[0].__name__}, {right[1].__name__})", RuntimeWarning)
    return _REGISTER_TABLE[left]


def _by_method(p, q):
    return p.kl_divergence(q)


for _cls in (Bernoulli, Binomial, Categorical, Cauchy, ContinuousBernoulli, Normal, MultivariateNormal, Uniform,
             Laplace, Geometric, Exponential, Gamma, Poisson):
    register_kl(_cls, _cls)(_by_method)


@register_kl(Beta, Beta)
def _kl_beta_beta(p, q):
    pa, pb, qa, qb = p.alpha, p.beta, q.alpha, q.beta
    ps, qs = pa + pb, qa + qb
    return (qa.lgamma() + qb.lgamma() + ps.lgamma() - (pa.lgamma() + pb.lgamma() + qs.lgamma())
            + (pa - qa) * pa.digamma() + (pb - qb) * pb.digamma() + (qs - ps) * ps.digamma())


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(p, q):
    pc, qc = p.concentration, q.concentration
    return (pc.sum(-1).lgamma() - qc.sum(-1).lgamma() - (pc.lgamma() - qc.lgamma()).sum(-1)
            + ((pc - qc) * (pc.digamma() - pc.sum(-1).digamma().unsqueeze(-1))).sum(-1))


@register_kl(LogNormal, LogNormal)
def _kl_lognormal_lognormal(p, q):
    return p._base.kl_divergence(q._base)


@register_kl(ExponentialFamily, ExponentialFamily)
def _kl_expfamily_expfamily(p, q):
    """Same-type exponential families: the Bregman divergence of the log-normaliser."""
    if type(p) is not type(q):
        raise NotImplementedError
    p_params = []
    for v in p._natural_parameters:
        v = v.detach()
        v.stop_gradient = False
        p_params.append(v)
    p_norm = p._log_normalizer(*p_params)
    try:
        grads = paddle.grad(p_norm, p_params, create_graph=True)
    except RuntimeError as e:
        raise TypeError(f"Can't compute kl_divergence({type(p).__name__}, {type(q).__name__}) use bregman "
                        f"divergence. Please register_kl({type(p).__name__}, {type(q).__name__}).") from e
    kl = q._log_normalizer(*q._natural_parameters) - p_norm
    for pp, qp, g in zip(p_params, q._natural_parameters, grads):
        kl = kl - _sum_rightmost((qp - pp) * g, len(q.event_shape))
    return kl
