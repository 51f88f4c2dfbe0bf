"""paddle.distribution: probability distributions, transforms and KL divergence.

Written with paddle_on_torch's own functions (so dtypes, shapes and stop_gradient follow Paddle's
rules), sampling on torch's generators.  See docs/compatibility.md for where results differ.
"""
from .. import _report
# Paddle's submodules, loaded with the package as in Paddle (paddle.distribution.gumbel.Gumbel)
from . import (bernoulli, beta, binomial, categorical, cauchy, chi2, continuous, continuous_bernoulli, dirichlet,
               discrete, distribution, exponential, exponential_family, gamma, geometric, gumbel,
               independent, kl, laplace, lkj_cholesky, lognormal, multinomial, multivariate_normal,
               normal, poisson, student_t, transform, transformed_distribution, uniform)  # noqa: F401,E501
from .continuous import (Beta, Cauchy, Chi2, Dirichlet, Exponential, Gamma, Gumbel, Laplace,  # noqa: F401
                         LogNormal, Normal, StudentT, Uniform)
from .discrete import (Bernoulli, Binomial, Categorical, ContinuousBernoulli, Geometric,  # noqa: F401
                       Multinomial, Poisson)
from .distribution import Distribution, ExponentialFamily  # noqa: F401
from .kl import kl_divergence, register_kl  # noqa: F401
from .lkj_cholesky import LKJCholesky  # noqa: F401
from .multivariate_normal import MultivariateNormal  # noqa: F401
from .transform import (AbsTransform, AffineTransform, ChainTransform, ExpTransform,  # noqa: F401
                        IndependentTransform, PowerTransform, ReshapeTransform, SigmoidTransform, SoftmaxTransform,
                        StackTransform, StickBreakingTransform, TanhTransform, Transform)
from .transformed_distribution import Independent, TransformedDistribution  # noqa: F401

__getattr__ = _report.module_getattr("paddle.distribution")
