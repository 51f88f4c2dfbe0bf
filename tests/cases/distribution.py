"""paddle.distribution: parameters' dtypes, densities, moments, entropies, KL, transforms, sample shapes."""
import numpy as np

from tests.cases import case, data


def _pos(shape, seed):
    return np.abs(data(shape, seed)) + 0.5


@case
def normal_params_from_floats_lists_arrays(paddle):
    D = paddle.distribution
    out = []
    for loc, scale in ((0.5, 2), ([0.1, 0.2], [1.0, 2.0]), (np.array([0.1, 0.2]), np.array([1.0, 3.0])),
                       (np.array([0.1], dtype="float32"), np.array([2.0]))):
        n = D.Normal(loc, scale)
        out += [n.loc, n.scale, n.batch_shape, n.event_shape]
    return out


@case
def normal_values(paddle):
    n = paddle.distribution.Normal(paddle.to_tensor(data([3], 1)), paddle.to_tensor(_pos([3], 2)))
    v = paddle.to_tensor(data([3], 3))
    m = paddle.distribution.Normal(paddle.to_tensor(data([3], 4)), paddle.to_tensor(_pos([3], 5)))
    return [n.mean, n.variance, n.entropy(), n.log_prob(v), n.probs(v), n.prob(v), n.kl_divergence(m),
            paddle.distribution.kl_divergence(n, m)]


@case
def normal_float64_value_cast(paddle):
    n = paddle.distribution.Normal(0.0, 1.0)
    return [n.log_prob(paddle.to_tensor([0.5, 1.0], dtype="float64")), n.entropy()]


@case(random=True)
def normal_sample_shapes(paddle):
    D = paddle.distribution
    n = D.Normal(paddle.to_tensor([0.0, 1.0]), paddle.to_tensor([1.0, 2.0]))
    return [n.sample([4]), n.rsample([4, 2]), D.Normal(0.0, 1.0).sample([3]), D.Normal(0.0, 1.0).sample()]


@case
def uniform_values(paddle):
    u = paddle.distribution.Uniform([0.0, 1.0], [2.0, 4.0])
    v = paddle.to_tensor([1.0, 5.0])
    return [u.low, u.high, u.entropy(), u.log_prob(v), u.probs(v), u.prob(v)]


@case(random=True)
def uniform_sample(paddle):
    u = paddle.distribution.Uniform(paddle.to_tensor([0.0, 1.0]), paddle.to_tensor([2.0, 4.0]))
    return [u.sample([3]), paddle.distribution.Uniform(1.0, 2.0).sample([5])]


@case
def uniform_mixed_tensor_and_float(paddle):
    return paddle.distribution.Uniform(paddle.to_tensor(0.0), 1.0)


@case
def categorical_conventions(paddle):
    logits = paddle.to_tensor([[1.0, 2.0, 3.0], [0.5, 0.5, 1.0]])
    c = paddle.distribution.Categorical(logits)
    o = paddle.distribution.Categorical(paddle.to_tensor([[2.0, 1.0, 1.0], [1.0, 1.0, 1.0]]))
    v = paddle.to_tensor([0, 2])
    return [c.probs(v), c.log_prob(v), c.entropy(), c.kl_divergence(o), c.probs(paddle.to_tensor([[1], [0]]))]


@case(random=True)
def categorical_sample(paddle):
    c = paddle.distribution.Categorical(paddle.to_tensor([[1.0, 2.0, 3.0], [0.5, 0.5, 1.0]]))
    return [c.sample([4]), paddle.distribution.Categorical(paddle.to_tensor([1.0, 2.0])).sample([2, 3])]


@case
def bernoulli_values(paddle):
    b = paddle.distribution.Bernoulli(paddle.to_tensor([0.2, 0.7, 1.0]))
    o = paddle.distribution.Bernoulli(paddle.to_tensor([0.5, 0.1, 0.3]))
    v = paddle.to_tensor([1.0, 0.0, 1.0])
    return [b.probs, b.logits, b.mean, b.variance, b.entropy(), b.log_prob(v), b.prob(v), b.cdf(v),
            b.kl_divergence(o), paddle.distribution.Bernoulli(0.3).probs]


@case(random=True)
def bernoulli_sample(paddle):
    b = paddle.distribution.Bernoulli(paddle.to_tensor([0.2, 0.7]))
    return [b.sample([3]), b.rsample([3], temperature=0.5)]


@case
def beta_dirichlet(paddle):
    D = paddle.distribution
    b = D.Beta(paddle.to_tensor([0.5, 2.0]), paddle.to_tensor([1.5, 3.0]))
    b2 = D.Beta(2.0, 1.0)
    d = D.Dirichlet(paddle.to_tensor(_pos([2, 3], 7)))
    d2 = D.Dirichlet(paddle.to_tensor(_pos([2, 3], 8)))
    v = paddle.to_tensor([0.3, 0.6])
    dv = paddle.to_tensor([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])
    return [b.mean, b.variance, b.log_prob(v), b.prob(v), b.entropy(), b2.entropy(), D.kl_divergence(b, b2),
            d.mean, d.variance, d.log_prob(dv), d.entropy(), D.kl_divergence(d, d2), d.batch_shape, d.event_shape]


@case(random=True)
def beta_dirichlet_samples(paddle):
    D = paddle.distribution
    return [D.Beta(paddle.to_tensor([0.5, 2.0]), paddle.to_tensor([1.5, 3.0])).sample([4]),
            D.Dirichlet(paddle.to_tensor([1.0, 2.0, 3.0])).sample([5])]


@case
def gamma_exponential_chi2(paddle):
    D = paddle.distribution
    g = D.Gamma(paddle.to_tensor([1.5, 3.0]), paddle.to_tensor([2.0, 0.5]))
    g2 = D.Gamma(paddle.to_tensor([2.0, 1.0]), paddle.to_tensor([1.0, 1.5]))
    e = D.Exponential(paddle.to_tensor([0.5, 2.0]))
    e2 = D.Exponential(paddle.to_tensor([1.0, 1.0]))
    c = D.Chi2(paddle.to_tensor([3.0, 5.0]))
    v = paddle.to_tensor([0.7, 2.5])
    return [g.mean, g.variance, g.log_prob(v), g.prob(v), g.entropy(), g.kl_divergence(g2), D.kl_divergence(g, g2),
            e.mean, e.variance, e.log_prob(v), e.prob(v), e.cdf(v), e.icdf(paddle.to_tensor([0.1, 0.9])),
            e.entropy(), D.kl_divergence(e, e2), c.mean, c.log_prob(v), c.entropy(), D.Gamma(1.0, 2.0).concentration,
            D.Exponential(1.0).rate]


@case
def chi2_nonpositive_df(paddle):
    return paddle.distribution.Chi2(paddle.to_tensor([0.0, 1.0]))


@case(random=True)
def gamma_exponential_samples(paddle):
    D = paddle.distribution
    return [D.Gamma(paddle.to_tensor([1.5, 3.0]), paddle.to_tensor([2.0, 0.5])).sample([3]),
            D.Exponential(paddle.to_tensor([0.5, 2.0])).rsample([2, 2]), D.Chi2(paddle.to_tensor(3.0)).sample([4])]


@case
def laplace_cauchy_gumbel(paddle):
    D = paddle.distribution
    la = D.Laplace(paddle.to_tensor([0.0, 1.0]), paddle.to_tensor([1.0, 2.0]))
    la2 = D.Laplace(paddle.to_tensor([0.5, 0.0]), paddle.to_tensor([1.5, 1.0]))
    ca = D.Cauchy(paddle.to_tensor([0.0, 1.0]), paddle.to_tensor([1.0, 2.0]))
    ca2 = D.Cauchy(0.5, 1.5)
    gu = D.Gumbel(paddle.to_tensor([0.0, 1.0]), paddle.to_tensor([1.0, 2.0]))
    v = paddle.to_tensor([0.3, -1.2])
    return [la.mean, la.stddev, la.variance, la.log_prob(v), la.entropy(), la.cdf(v),
            la.icdf(paddle.to_tensor([0.2, 0.7])), D.kl_divergence(la, la2), la.log_prob(0.5),
            ca.log_prob(v), ca.prob(v), ca.cdf(v), ca.entropy(), ca.kl_divergence(ca2),
            gu.mean, gu.variance, gu.stddev, gu.prob(v), gu.log_prob(v), gu.cdf(v), gu.entropy()]


@case
def cauchy_has_no_mean(paddle):
    return paddle.distribution.Cauchy(0.0, 1.0).mean


@case
def laplace_bad_type(paddle):
    return paddle.distribution.Laplace("a", 1.0)


@case(random=True)
def laplace_cauchy_gumbel_samples(paddle):
    D = paddle.distribution
    return [D.Laplace(0.0, 1.0).sample([3]), D.Cauchy(paddle.to_tensor([0.0, 1.0]), 1.0).rsample([2]),
            D.Gumbel(paddle.to_tensor([0.0, 1.0]), paddle.to_tensor([1.0, 2.0])).sample([3])]


@case
def lognormal_studentt(paddle):
    D = paddle.distribution
    ln = D.LogNormal(paddle.to_tensor([0.0, 0.5]), paddle.to_tensor([1.0, 0.5]))
    ln2 = D.LogNormal(paddle.to_tensor([0.2, 0.1]), paddle.to_tensor([0.7, 1.5]))
    st = D.StudentT(paddle.to_tensor([1.5, 3.0, 0.5]), 0.5, 2.0)
    v = paddle.to_tensor([0.8, 2.0])
    return [ln.mean, ln.variance, ln.entropy(), ln.log_prob(v), ln.probs(v), D.kl_divergence(ln, ln2),
            ln.batch_shape, st.mean, st.variance, st.entropy(), st.log_prob(paddle.to_tensor([0.1, 1.0, 3.0])),
            st.loc]


@case
def geometric_poisson_binomial(paddle):
    D = paddle.distribution
    g = D.Geometric(paddle.to_tensor([0.3, 0.6]))
    g2 = D.Geometric(0.5)
    p = D.Poisson(paddle.to_tensor([1.5, 4.0]))
    p2 = D.Poisson(paddle.to_tensor([2.0, 3.0]))
    b = D.Binomial(10, paddle.to_tensor([0.3, 0.6]))
    b2 = D.Binomial(10, paddle.to_tensor([0.5, 0.5]))
    k = paddle.to_tensor([2.0, 5.0])
    return [g.mean, g.variance, g.stddev, g.pmf(2), g.log_pmf(k), g.cdf(k), g.entropy(), D.kl_divergence(g, g2),
            p.mean, p.log_prob(k), p.prob(k), p.entropy(), D.kl_divergence(p, p2), D.Poisson(2.0).rate,
            b.mean, b.variance, b.log_prob(k), b.prob(k), b.entropy(), D.kl_divergence(b, b2), b.total_count]


@case(random=True)
def discrete_samples(paddle):
    D = paddle.distribution
    return [D.Geometric(paddle.to_tensor([0.3, 0.6])).sample([3]), D.Poisson(paddle.to_tensor([1.5, 4.0])).sample([2]),
            D.Binomial(10, paddle.to_tensor([0.3, 0.6])).sample([4]),
            D.Multinomial(5, paddle.to_tensor([0.2, 0.3, 0.5])).sample([2])]


@case
def multinomial_values(paddle):
    m = paddle.distribution.Multinomial(6, paddle.to_tensor([[1.0, 2.0, 3.0], [0.2, 0.0, 0.8]]))
    v = paddle.to_tensor([[1, 2, 3], [2, 0, 4]])
    return [m.probs, m.mean, m.variance, m.log_prob(v), m.prob(v), m.entropy()]


@case
def continuous_bernoulli_values(paddle):
    D = paddle.distribution
    c = D.ContinuousBernoulli(paddle.to_tensor([0.2, 0.5, 0.9]))
    c2 = D.ContinuousBernoulli(paddle.to_tensor([0.4, 0.7, 0.1]))
    v = paddle.to_tensor([0.1, 0.5, 0.8])
    return [c.mean, c.variance, c.log_prob(v), c.prob(v), c.entropy(), c.cdf(v), c.icdf(v), D.kl_divergence(c, c2)]


@case
def multivariate_normal_values(paddle):
    D = paddle.distribution
    cov = paddle.to_tensor([[2.0, 0.3], [0.3, 1.0]])
    m = D.MultivariateNormal(paddle.to_tensor([0.5, -0.5]), covariance_matrix=cov)
    m2 = D.MultivariateNormal(paddle.to_tensor([0.0, 0.0]), precision_matrix=paddle.to_tensor([[1.0, 0.2], [0.2, 2.0]]))
    m3 = D.MultivariateNormal(paddle.to_tensor([[0.0, 1.0], [1.0, 0.0]]),
                              scale_tril=paddle.to_tensor([[1.0, 0.0], [0.5, 2.0]]))
    v = paddle.to_tensor([0.2, 0.4])
    return [m.mean, m.variance, m.log_prob(v), m.prob(v), m.entropy(), D.kl_divergence(m, m2), m2.variance,
            m3.log_prob(v), m3.entropy(), m3.batch_shape, m3.event_shape]


@case(random=True)
def multivariate_normal_sample(paddle):
    m = paddle.distribution.MultivariateNormal(paddle.to_tensor([0.5, -0.5]),
                                               covariance_matrix=paddle.to_tensor([[2.0, 0.3], [0.3, 1.0]]))
    return [m.sample([3]), m.rsample([2, 2])]


@case
def independent_and_transformed(paddle):
    D = paddle.distribution
    n = D.Normal(paddle.to_tensor(data([2, 3], 1)), paddle.to_tensor(_pos([2, 3], 2)))
    ind = D.Independent(n, 1)
    v = paddle.to_tensor(data([2, 3], 3))
    td = D.TransformedDistribution(n, [D.AffineTransform(paddle.to_tensor(1.0), paddle.to_tensor(2.0)),
                                       D.ExpTransform()])
    return [ind.batch_shape, ind.event_shape, ind.log_prob(v), ind.entropy(), td.log_prob(paddle.exp(v)),
            td.batch_shape, td.event_shape]


@case
def transforms_values(paddle):
    D = paddle.distribution
    x = paddle.to_tensor(data([2, 3], 9))
    y = paddle.to_tensor([[0.2, 0.3, 0.5], [0.1, 0.6, 0.3]])
    out = []
    for t in (D.ExpTransform(), D.SigmoidTransform(), D.TanhTransform(),
              D.AffineTransform(paddle.to_tensor(0.5), paddle.to_tensor(-2.0)), D.PowerTransform(paddle.to_tensor(2.0))):
        xx = x.abs() if isinstance(t, D.PowerTransform) else x
        fx = t.forward(xx)
        out += [fx, t.inverse(fx), t.forward_log_det_jacobian(xx), t.inverse_log_det_jacobian(fx)]
    sb = D.StickBreakingTransform()
    out += [sb.forward(x), sb.inverse(y), sb.forward_log_det_jacobian(x), sb.forward_shape([2, 3]),
            sb.inverse_shape([2, 3])]
    sm = D.SoftmaxTransform()
    out += [sm.forward(x), sm.inverse(y)]
    ab = D.AbsTransform()
    out += [ab.forward(x), list(ab.inverse(y))]
    ch = D.ChainTransform([D.AffineTransform(paddle.to_tensor(1.0), paddle.to_tensor(3.0)), D.ExpTransform()])
    out += [ch.forward(x), ch.inverse(ch.forward(x)), ch.forward_log_det_jacobian(x)]
    it = D.IndependentTransform(D.ExpTransform(), 1)
    out += [it.forward_log_det_jacobian(x)]
    rs = D.ReshapeTransform((3,), (3, 1))
    out += [rs.forward(x), rs.forward_shape((5, 3)), rs.inverse_shape((5, 3, 1)), rs.forward_log_det_jacobian(x)]
    st = D.StackTransform([D.ExpTransform(), D.TanhTransform()], axis=0)
    out += [st.forward(x), st.inverse(st.forward(x)), st.forward_log_det_jacobian(x)]
    return out


@case
def transform_errors(paddle):
    D = paddle.distribution
    errs = []
    for f in (lambda: D.ReshapeTransform((2,), (3,)), lambda: D.AffineTransform(1.0, 2.0),
              lambda: D.SoftmaxTransform().forward_log_det_jacobian(paddle.ones([2])),
              lambda: D.ExpTransform().forward(1.0), lambda: D.IndependentTransform(D.ExpTransform(), 0)):
        try:
            f()
            errs.append(None)
        except Exception as e:  # noqa: BLE001
            errs.append(type(e).__name__)
    return errs


@case
def kl_register_and_missing(paddle):
    D = paddle.distribution

    class MyNormal(D.Normal):
        pass

    @D.register_kl(MyNormal, MyNormal)
    def _kl(p, q):
        return paddle.to_tensor(7.0)

    a = MyNormal(0.0, 1.0)
    try:
        D.kl_divergence(D.Normal(0.0, 1.0), D.Gamma(1.0, 1.0))
        err = None
    except NotImplementedError:
        err = "NotImplementedError"
    return [D.kl_divergence(a, MyNormal(1.0, 2.0)), D.kl_divergence(a, D.Normal(1.0, 2.0)), err]


@case
def gradients_flow(paddle):
    loc = paddle.to_tensor([0.5, 1.0], stop_gradient=False)
    n = paddle.distribution.Normal(loc, paddle.to_tensor([1.0, 2.0]))
    lp = n.log_prob(paddle.to_tensor([0.0, 0.0])).sum()
    lp.backward()
    return [lp, loc.grad]


@case
def lkj_cholesky_log_prob(paddle):
    D = paddle.distribution
    L = paddle.to_tensor([[1.0, 0.0, 0.0], [0.6, 0.8, 0.0], [0.0, 0.6, 0.8]])
    return [D.LKJCholesky(3, 2.0).log_prob(L), D.LKJCholesky(3, paddle.to_tensor([0.5, 1.5])).log_prob(L),
            D.LKJCholesky(3, 2.0, "cvine").log_prob(L), D.LKJCholesky(3, 2.0).event_shape]


@case(random=True)
def lkj_cholesky_sample(paddle):
    D = paddle.distribution
    return [D.LKJCholesky(3, 2.0).sample([2]), D.LKJCholesky(4, paddle.to_tensor([0.5, 1.5]), "cvine").sample([3]),
            D.LKJCholesky(2, 1.0, "cvine").sample()]
