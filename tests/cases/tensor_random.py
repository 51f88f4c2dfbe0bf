"""Random tensors: shapes, dtypes and argument errors (values come from another generator); a
negative std in paddle.normal & co. (Paddle accepts it)."""
import numpy as np

from tests.cases import case


@case(random=True)
def rand_randn_shapes(paddle):
    return [paddle.rand([2, 3]), paddle.randn([4]), paddle.rand([2], dtype="float64"), paddle.randn((1, 2), "float64"),
            paddle.rand(paddle.to_tensor([2, 2])), paddle.standard_normal([3]), paddle.rand([]),
            paddle.rand([2, paddle.to_tensor(3)])]


@case(random=True)
def rand_default_dtype_float64(paddle):
    paddle.set_default_dtype("float64")
    r = [paddle.rand([2]), paddle.randn([2]), paddle.uniform([2]), paddle.normal(shape=[2])]
    paddle.set_default_dtype("float32")
    return r


@case
def rand_int_dtype_rejected(paddle):
    return paddle.rand([2], dtype="int32")


@case
def randn_int_dtype_rejected(paddle):
    return paddle.randn([2], dtype="int64")


@case(random=True)
def randint_cases(paddle):
    return [paddle.randint(5, shape=[3]), paddle.randint(-3, 3, [2, 2]), paddle.randint(0, 10, [2], dtype="int32"),
            paddle.randint(10), paddle.randint(low=1, high=4)]


@case
def randint_values_in_range(paddle):
    x = paddle.randint(-2, 3, [1000]).numpy()
    return [bool((x >= -2).all()), bool((x < 3).all())]


@case
def randint_low_ge_high(paddle):
    return paddle.randint(5, 5, [2])


@case
def randint_float_dtype_rejected(paddle):
    return paddle.randint(0, 5, [2], dtype="float32")


@case(random=True)
def randint_like_cases(paddle):
    x = paddle.zeros([2, 3], dtype="float32")
    return [paddle.randint_like(x, 5), paddle.randint_like(x, -1, 3, dtype="int32"),
            paddle.randint_like(paddle.zeros([2], dtype="int64"), 10)]


@case(random=True)
def randperm_cases(paddle):
    return [paddle.randperm(5), paddle.randperm(3, dtype="int32"), paddle.randperm(4, "float64"), paddle.randperm(0)]


@case
def randperm_is_permutation(paddle):
    return paddle.sort(paddle.randperm(10))


@case
def randperm_negative(paddle):
    return paddle.randperm(-1)


@case
def randperm_bool_n(paddle):
    return paddle.randperm(True)


@case
def randperm_float_n(paddle):
    return paddle.randperm(3.0)


@case
def randperm_none_n(paddle):
    return paddle.randperm(None)


@case(random=True)
def randperm_tensor_n_and_dtypes(paddle):
    return [paddle.randperm(paddle.to_tensor(3)), paddle.randperm(3, dtype=np.int32), paddle.randperm(3, "float32")]


@case
def random_module_initial_seed(paddle):
    """paddle.random (Paddle 3.3's torch.random twin) holds initial_seed: the seed paddle.seed or the CPU
    generator's manual_seed set last."""
    paddle.seed(123)
    first = paddle.random.initial_seed()
    paddle.base.core.default_cpu_generator().manual_seed(9)
    return [paddle.random.__all__, first, paddle.random.initial_seed(), type(first).__name__]


@case(random=True)
def normal_cases(paddle):
    m = paddle.to_tensor([0.0, 1.0, 2.0])
    return [paddle.normal(1.0, 2.0, [2, 3]), paddle.normal(m), paddle.normal(std=m),
            paddle.normal(m.astype("float64"), 1.0), paddle.normal(shape=[2])]


@case(random=True)
def uniform_cases(paddle):
    return [paddle.uniform([2, 3]), paddle.uniform([2], "float64", min=2.0, max=3.0), paddle.uniform(shape=[1], seed=3)]


@case
def uniform_tensor_bounds(paddle):
    x = paddle.uniform([1000], min=paddle.to_tensor(0.5), max=paddle.to_tensor(0.75)).numpy()
    return [bool(x.min() >= 0.5), bool(x.max() < 0.75)]


@case
def uniform_range_respected(paddle):
    x = paddle.uniform([1000], min=2.0, max=3.0).numpy()
    return [bool((x >= 2.0).all()), bool((x < 3.0).all())]


@case
def uniform_int_rejected(paddle):
    return paddle.uniform([2], dtype="int32")


@case(random=True)
def like_cases(paddle):
    x = paddle.zeros([2, 2], dtype="float64")
    return [paddle.rand_like(x), paddle.randn_like(x), paddle.rand_like(x, dtype="float32"),
            paddle.randn_like(paddle.zeros([3], dtype="float16"))]


@case(random=True)
def bernoulli_cases(paddle):
    p = paddle.to_tensor([[0.0, 1.0], [0.5, 0.2]])
    return [paddle.bernoulli(p), paddle.bernoulli(p.astype("float64"))]


@case
def bernoulli_extremes(paddle):
    return paddle.bernoulli(paddle.to_tensor([0.0, 1.0, 1.0, 0.0]))


@case(random=True)
def multinomial_cases(paddle):
    p = paddle.to_tensor([0.2, 0.3, 0.5])
    p2 = paddle.to_tensor([[0.1, 0.9], [0.7, 0.3]])
    return [paddle.multinomial(p), paddle.multinomial(p, 2), paddle.multinomial(p, 5, replacement=True),
            paddle.multinomial(p2, 1)]


@case
def multinomial_too_many_without_replacement(paddle):
    return paddle.multinomial(paddle.to_tensor([0.5, 0.5]), 3)


@case
def multinomial_deterministic(paddle):
    return paddle.multinomial(paddle.to_tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 2.0]]), 1)


@case(random=True)
def poisson_cases(paddle):
    return [paddle.poisson(paddle.to_tensor([1.0, 2.0])), paddle.poisson(paddle.ones([2, 2], dtype="float64"))]


@case
def poisson_zero_rate(paddle):
    return paddle.poisson(paddle.zeros([3]))


@case(random=True)
def standard_gamma_and_binomial(paddle):
    return [paddle.standard_gamma(paddle.to_tensor([1.0, 2.0])),
            paddle.binomial(paddle.to_tensor([10, 20]), paddle.to_tensor([0.5, 0.2]))]


@case(random=True)
def log_normal_case(paddle):
    return [paddle.log_normal(shape=[2, 3]), paddle.log_normal(1.0, 0.5, [2])]


@case(random=True)
def inplace_random(paddle):
    x = paddle.zeros([3])
    y = paddle.zeros([3], dtype="float64")
    return [x.uniform_(), y.normal_(), paddle.zeros([2]).bernoulli_(0.5), paddle.zeros([2]).exponential_()]


@case
def seed_reproducible(paddle):
    paddle.seed(7)
    a = paddle.rand([4])
    paddle.seed(7)
    b = paddle.rand([4])
    return bool((a.numpy() == b.numpy()).all())


@case(random=True)
def complex_samplers(paddle):
    return [paddle.randn([2], dtype="complex64"), paddle.standard_normal([2], dtype="complex128"),
            paddle.rand([2], dtype="complex64"), paddle.normal(1 + 1j, 1.0, [3])]


@case
def randn_complex_part_std(paddle):
    x = paddle.randn([100000], dtype="complex64").numpy()
    return [round(float(x.real.std()), 1), round(float(x.imag.std()), 1)]


@case
def randint_like_cases_errors(paddle):
    return paddle.randint_like(paddle.zeros([2]), 5, 2)


@case
def randint_negative_high_none(paddle):
    return paddle.randint(-5)


@case
def multinomial_bad_inputs(paddle):
    out = []
    for p in ([[[0.5, 0.5]]], [-0.5, 0.5], [0.0, 0.0]):
        try:
            paddle.multinomial(paddle.to_tensor(p), 1)
            out.append("ok")
        except ValueError:
            out.append("ValueError")
    return out


@case
def uniform_default_range(paddle):
    x = paddle.uniform([2000]).numpy()
    return [bool(x.min() >= 0.0), bool(x.max() < 1.0)]


@case
def size_varargs(paddle):
    return [paddle.rand(2, 3).shape, paddle.randn(4).shape, paddle.zeros(2, 2).shape, paddle.ones(3).shape,
            paddle.empty(1, 2).shape, paddle.full([2], 1.0).shape]


# ---------------------------------------------------------------- normal & co. with a negative std (Paddle accepts it)
def _stats(t):
    a = t.numpy().astype("float64")
    return [str(t.dtype), list(t.shape), round(float(a.std()), 1), round(float(a.mean()), 1)]


@case
def normal_with_negative_std(paddle):
    n = 200000
    return [_stats(paddle.normal(3.0, -2.0, [n])), _stats(paddle.normal(paddle.full([n], 3.0), -2.0)),
            _stats(paddle.normal(3.0, paddle.full([n], -2.0))), _stats(paddle.zeros([n]).normal_(3.0, -2.0)),
            _stats(paddle.tensor.random.gaussian([n], 1.0, -2.0)), _stats(paddle.log_normal(0.0, -0.5, [n])),
            _stats(paddle.zeros([n]).log_normal_(0.0, -0.5)), _stats(paddle.normal(0.0, 0.0, [n])),
            _stats(paddle.zeros([n]).log_normal_(1.0, 0.0)), bool(np.isnan(paddle.normal(0.0, float("nan"), [4]).numpy()).all())]


@case
def normal_initializer_with_negative_std(paddle):
    p = paddle.create_parameter([200000], "float32")
    paddle.nn.initializer.Normal(1.0, -2.0)(p)
    return _stats(p)
