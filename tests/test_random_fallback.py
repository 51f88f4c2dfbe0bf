"""Without the C++ random kernels (no compiler here), CPU random ops fall back to torch's generator: the same
shapes, dtypes and distributions, other numbers (docs/random.md)."""
import numpy as np


def test_samplers_fall_back_to_torch(paddle, monkeypatch):
    from paddle_on_torch._core import random as _rng

    monkeypatch.setattr(_rng, "_ops", None)
    paddle.seed(3)
    a = paddle.randn([2, 3])
    paddle.seed(3)
    b = paddle.randn([2, 3])
    assert a.shape == [2, 3] and str(a.dtype) == "paddle.float32"
    np.testing.assert_array_equal(a.numpy(), b.numpy())  # still reproducible under paddle.seed (torch's stream)
    assert paddle.randint(0, 5, [4]).numpy().max() < 5
    assert sorted(paddle.randperm(6).numpy().tolist()) == list(range(6))
    y = paddle.nn.functional.dropout(paddle.ones([100]), 0.5)
    assert set(np.unique(y.numpy()).tolist()) <= {0.0, 2.0}
    w = paddle.nn.Linear(3, 4).weight
    assert w.shape == [3, 4] and float(w.abs().max()) <= (6 / 7) ** 0.5
