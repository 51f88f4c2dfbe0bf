"""Random initializers: shape, dtype and distribution statistics against Paddle's formulas.

The golden cases (tests/cases/nn_init.py) check deterministic initializers by value and random ones by
dtype/shape only; here large samples check mean/std/bounds to a loose tolerance, with the fans computed
for Paddle's layouts (a 2-D weight is [in, out], a conv weight [out, in, *k]).
"""
import math

import numpy as np
import pytest


def _sample(paddle, shape, init, dtype="float32"):
    p = paddle.create_parameter(shape, dtype, default_initializer=init)
    assert list(p.shape) == list(shape) and str(p.dtype) == f"paddle.{dtype}"
    assert p.stop_gradient is False
    return p.astype("float32").numpy().astype("float64") if dtype in ("float16", "bfloat16") else p.numpy()


def _close(value, want, tol):
    assert abs(value - want) <= tol, (value, want)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_normal(paddle, dtype):
    a = _sample(paddle, [400, 500], paddle.nn.initializer.Normal(mean=1.5, std=0.5), dtype)
    _close(a.mean(), 1.5, 0.01)
    _close(a.std(), 0.5, 0.01)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_uniform(paddle, dtype):
    a = _sample(paddle, [400, 500], paddle.nn.initializer.Uniform(low=-2.0, high=4.0), dtype)
    assert a.min() >= -2.0 and a.max() <= 4.0
    _close(a.mean(), 1.0, 0.02)
    _close(a.std(), 6 / math.sqrt(12), 0.02)


def test_truncated_normal(paddle):
    a = _sample(paddle, [200000], paddle.nn.initializer.TruncatedNormal(mean=0.0, std=1.0))
    assert a.min() >= -2.0 and a.max() <= 2.0
    _close(a.mean(), 0.0, 0.01)
    _close(a.std(), 0.8796, 0.01)  # std of N(0, 1) truncated to [-2, 2]
    b = _sample(paddle, [200000], paddle.nn.initializer.TruncatedNormal(mean=3.0, std=2.0, a=1.0, b=5.0))
    assert b.min() >= 1.0 and b.max() <= 5.0
    _close(b.mean(), 3.0, 0.02)


@pytest.mark.parametrize("shape,fan_in,fan_out", [([300, 500], 300, 500), ([64, 32, 3, 3], 288, 576),
                                                  ([1000], 1000, 1000)])
def test_xavier(paddle, shape, fan_in, fan_out):
    I = paddle.nn.initializer
    u = _sample(paddle, shape, I.XavierUniform())
    limit = math.sqrt(6.0 / (fan_in + fan_out))
    assert np.abs(u).max() <= limit
    _close(u.std(), limit / math.sqrt(3), 0.03 * limit)
    n = _sample(paddle, shape, I.XavierNormal(gain=2.0))
    _close(n.std(), 2.0 * math.sqrt(2.0 / (fan_in + fan_out)), 0.03 * 2.0 * math.sqrt(2.0 / (fan_in + fan_out)))
    f = _sample(paddle, [200, 300], I.XavierUniform(fan_in=10, fan_out=14))
    _close(np.abs(f).max(), 0.5, 0.01)


@pytest.mark.parametrize("shape,fan_in,fan_out", [([300, 500], 300, 500), ([64, 32, 3, 3], 288, 576)])
def test_kaiming(paddle, shape, fan_in, fan_out):
    I = paddle.nn.initializer
    n = _sample(paddle, shape, I.KaimingNormal())
    _close(n.std(), math.sqrt(2.0 / fan_in), 0.03 * math.sqrt(2.0 / fan_in))
    _close(n.mean(), 0.0, 0.01)
    u = _sample(paddle, shape, I.KaimingUniform(nonlinearity="leaky_relu", negative_slope=0.2))
    limit = math.sqrt(2.0 / (1 + 0.04)) * math.sqrt(3.0 / fan_in)
    assert np.abs(u).max() <= limit
    _close(np.abs(u).max(), limit, 0.02 * limit)
    o = _sample(paddle, shape, I.KaimingNormal(mode="fan_out", nonlinearity="tanh"))
    _close(o.std(), 5.0 / 3 / math.sqrt(fan_out), 0.03 * 5.0 / 3 / math.sqrt(fan_out))
    e = _sample(paddle, shape, I.KaimingUniform(fan_in=50))
    _close(np.abs(e).max(), math.sqrt(2.0) * math.sqrt(3.0 / 50), 0.01)


@pytest.mark.parametrize("shape", [[30, 50], [50, 30], [16, 4, 3, 3], [8, 8]])
def test_orthogonal(paddle, shape):
    w = _sample(paddle, shape, paddle.nn.initializer.Orthogonal(gain=1.5), "float64")
    m = w.reshape(shape[0], -1)
    gram = m @ m.T if m.shape[0] <= m.shape[1] else m.T @ m
    np.testing.assert_allclose(gram, 2.25 * np.eye(gram.shape[0]), atol=1e-10)


def test_random_initializers_differ_between_calls(paddle):
    I = paddle.nn.initializer
    for init in (I.Normal(), I.Uniform(), I.XavierUniform(), I.KaimingNormal(), I.TruncatedNormal(), I.Orthogonal()):
        assert not np.array_equal(_sample(paddle, [8, 8], init), _sample(paddle, [8, 8], init))


def test_seed_reproduces(paddle):
    I = paddle.nn.initializer
    paddle.seed(7)
    a = _sample(paddle, [4, 4], I.XavierNormal())
    paddle.seed(7)
    b = _sample(paddle, [4, 4], I.XavierNormal())
    np.testing.assert_array_equal(a, b)


def test_default_layer_initializers(paddle):
    class L(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.w = self.create_parameter([200, 300])
            self.b = self.create_parameter([300], is_bias=True)

    layer = L()
    w = layer.w.numpy()
    limit = math.sqrt(6.0 / 500)
    assert np.abs(w).max() <= limit and np.abs(w).max() > 0.98 * limit  # XavierUniform
    assert not layer.b.numpy().any()  # Constant(0)
