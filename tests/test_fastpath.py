"""The C++ per-op fast path (ext/fastpath.cpp, paddle_on_torch/_normalize/fastpath.py) against the Python path
it short-cuts: the same values, dtypes, shapes, stop_gradient, gradients, aten calls and errors, and it stands
aside in static mode, under auto_cast, and before torch.compile traces.  Skipped where the install-time kernels
build lacks it (then every op takes the Python path anyway)."""
import numpy as np
import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from paddle_on_torch import _fastpath
from paddle_on_torch._normalize import fastpath, wrapping
from paddle_on_torch.kernels import cpp

_MODULE = cpp._installed()
pytestmark = pytest.mark.skipif(_MODULE is None or not hasattr(_MODULE, "fastpath_install"),
                                reason="the install-time kernels build has no fast path")


class _AtenLog(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        return func(*args, **(kwargs or {}))


@pytest.fixture
def both(paddle):
    """run(fn) -> (fast path's outcome, Python path's outcome); the fast path is installed again afterwards."""
    def outcome(fn):
        log = _AtenLog()
        try:
            with log:
                r = fn()
        except Exception as e:  # noqa: BLE001
            return ("error", type(e).__name__, str(e))
        return ("ok", _describe(r), log.ops)

    def run(fn):
        if not fastpath.installed():  # (generate_all, in an earlier test, put the Python path back)
            _fastpath.install_from(_MODULE)
        fast = outcome(fn)
        fastpath.uninstall()
        try:
            slow = outcome(fn)
        finally:
            _fastpath.install_from(_MODULE)
        return fast, slow

    yield run
    if not fastpath.installed():
        _fastpath.install_from(_MODULE)


def _describe(r):
    if isinstance(r, (tuple, list)):
        return [_describe(v) for v in r]
    t = r._t
    return (type(r).__name__, str(t.dtype), tuple(t.shape), r.stop_gradient, repr(t.detach().numpy().tolist()))


def _operands(paddle):
    f32 = paddle.to_tensor([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]])
    f64 = paddle.to_tensor([[0.1, 0.2, 0.3], [1.0, 2.0, 3.0]], dtype="float64")
    i32 = paddle.to_tensor([[1, 2, 3], [4, 5, 6]], dtype="int32")
    b = paddle.to_tensor([[True, False, True], [False, True, True]])
    zero_d = paddle.to_tensor(2.0)
    row = paddle.to_tensor([1.0, 2.0, 3.0])
    return {"f32": f32, "f64": f64, "i32": i32, "bool": b, "0d": zero_d, "row": row, "float": 0.1, "int": 3,
            "true": True, "np": np.float32(2.0), "big": 2 ** 70, "short": paddle.ones([4])}


OPS = ["__add__", "__sub__", "__mul__", "__truediv__", "__radd__", "__rsub__", "__rmul__", "__rtruediv__"]


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("left", ["f32", "f64", "i32", "bool", "0d"])
def test_operators_match_the_python_path(paddle, both, op, left):
    vals = _operands(paddle)
    for right, y in vals.items():
        fast, slow = both(lambda: getattr(vals[left], op)(y))
        assert fast == slow, (op, left, right)


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "maximum", "minimum"])
def test_binary_functions_match(paddle, both, name):
    vals = _operands(paddle)
    fn = getattr(paddle, name)
    for left in ("f32", "f64", "i32", "0d"):
        for right, y in vals.items():
            fast, slow = both(lambda: fn(vals[left], y))
            assert fast == slow, (name, left, right)
    fast, slow = both(lambda: fn(vals["f32"], vals["f32"], name="z"))
    assert fast == slow


@pytest.mark.parametrize("name", ["tanh", "exp", "sqrt", "rsqrt", "sigmoid", "log", "sin", "cos", "abs", "neg"])
def test_unary_functions_and_methods_match(paddle, both, name):
    for x in _operands(paddle).values():
        if not paddle.is_tensor(x):
            continue
        assert both(lambda: getattr(paddle, name)(x)) == both(lambda: getattr(x, name)())
        fast, slow = both(lambda: getattr(paddle, name)(x))
        assert fast == slow, (name, x)
    x = paddle.to_tensor([1.0, 2.0])
    out = paddle.empty([2])
    fast, slow = both(lambda: (getattr(paddle, name)(x, out=out), out))
    assert fast == slow


def test_relu_matmul_reshape_getitem_reductions_neg_match(paddle, both):
    F = paddle.nn.functional
    m, v = paddle.rand([3, 4]), paddle.rand([4])
    m64 = paddle.rand([4, 2], dtype="float64")
    for fn in (lambda: F.relu(m - 0.5), lambda: paddle.matmul(m, m.T), lambda: m @ m.T, lambda: m @ v,
               lambda: m @ m64, lambda: paddle.matmul(m, m, transpose_y=True), lambda: m @ m,
               lambda: m.reshape([4, 3]), lambda: m.reshape([-1]), lambda: m.reshape([0, 2, 2]),
               lambda: m.reshape((2, 6)), lambda: paddle.reshape(m, [5, 5]), lambda: m.reshape([2.0, 6]),
               lambda: m[1], lambda: m[-1], lambda: m[3], lambda: m[0][2], lambda: m[0][2][0], lambda: m[1:],
               lambda: m[1:3], lambda: m[:], lambda: m[-2:], lambda: m[::2], lambda: m[5:9], lambda: m[2:1],
               lambda: m[0:3:-1], lambda: m[::0], lambda: m[True:], lambda: m[0.5:], lambda: m[:2][0][1:3],
               lambda: paddle.to_tensor(1.0)[0:1], lambda: paddle.to_tensor([1, 2, 3])[1:],
               lambda: m.sum(), lambda: paddle.sum(m64), lambda: m.mean(), lambda: paddle.mean(m64),
               lambda: m.sum(0), lambda: m.mean(keepdim=True), lambda: paddle.to_tensor([1, 2]).sum(),
               lambda: paddle.to_tensor([1, 2]).mean(), lambda: paddle.to_tensor(2.5).sum(),
               lambda: -m, lambda: paddle.to_tensor([1, 2]).reshape([2, 1])):
        fast, slow = both(fn)
        assert fast == slow


def test_errors_are_paddles(paddle, both):
    a, b = paddle.ones([2, 3]), paddle.ones([4])
    for fn in (lambda: a + b, lambda: paddle.add(a, b), lambda: a @ b, lambda: a.reshape([7]), lambda: a[5]):
        fast, slow = both(fn)
        assert fast == slow and fast[0] == "error"


def test_gradients_and_stop_gradient(paddle, both):
    def step():
        x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
        w = paddle.create_parameter([3], "float32")
        w.set_value(paddle.to_tensor([0.5, -1.0, 2.0]))
        y = paddle.tanh(x * w + 1.0) / (2.0 - x)
        z = (y @ w).reshape([1])[0] + y[1:].sum() - x[:2].mean()
        z.backward()
        return y, z, x.grad, w.grad

    fast, slow = both(step)
    assert fast == slow and fast[1][0][3] is False and fast[0] == "ok"


def test_stands_aside_in_static_mode_and_under_auto_cast(paddle, both):
    calls = []

    def make(impl):
        def recorded(*args, **kwargs):
            calls.append(impl)
            return impl(*args, **kwargs)
        return recorded

    a = paddle.ones([2])
    wrapping.set_impl_hook(make)
    try:
        a + a, paddle.tanh(a), a * 2.0
    finally:
        wrapping.set_impl_hook(None)
    assert len(calls) == 3
    with paddle.amp.auto_cast(dtype="bfloat16"):
        fast, slow = both(lambda: paddle.matmul(paddle.ones([2, 2]), paddle.ones([2, 2])))
    assert fast == slow


def test_suspended_puts_python_back_for_its_duration(paddle):
    Tensor = paddle.Tensor
    _fastpath.install_from(_MODULE)
    assert type(Tensor.__dict__["__add__"]).__name__ == "method_descriptor"
    with fastpath.suspended():
        assert not fastpath.installed() and hasattr(Tensor.__dict__["__add__"], "__code__")
        assert paddle.tanh.__globals__["_fast"] is None
    assert fastpath.installed() and paddle.tanh.__globals__["_fast"] is not None
    assert type(Tensor.__dict__["__add__"]).__name__ == "method_descriptor"


@pytest.mark.compile
def test_to_static_traces_the_python_path_and_eager_keeps_the_fast_one(paddle):
    """Every trace (the first call, and a retrace for another shape) meets Python code (full_graph: a C++ entry
    would be an error), and the fast path is back for eager code after each call."""
    f = paddle.jit.to_static(lambda x: paddle.tanh(x * 2.0 + x) - x[0:1].sum(), full_graph=True)
    for n in (2, 3, 5):
        x = paddle.arange(1, n + 1, dtype="float32")
        np.testing.assert_allclose(f(x).numpy(), np.tanh(3.0 * np.arange(1, n + 1)) - 1.0, atol=1e-6)
        assert fastpath.installed() and paddle.tanh.__globals__["_fast"] is not None
    graphs = dict(torch._dynamo.utils.counters["stats"])
    for _ in range(3):  # the same shape again, with the fast path on between calls: no recompile
        f(x)
    assert dict(torch._dynamo.utils.counters["stats"]) == graphs
