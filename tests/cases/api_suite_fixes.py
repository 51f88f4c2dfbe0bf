"""Fixes from issue 17's outside suite of Paddle API tests: weight_norm's g in static mode, BatchNorm under
set_default_dtype('float64'), and paddle.normal & co. with a negative std (Paddle accepts it)."""
import numpy as np

from tests.cases import case


def _static_weight_norm(paddle, make, dim):
    """weight_norm applied in static mode, its g and v fetched after the startup program ran (as the suite does)."""
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            layer = make()
            paddle.nn.utils.weight_norm(layer, dim=dim)
            exe = paddle.static.Executor()
            exe.run(startup)
            return exe.run(main, fetch_list=[layer.weight_g, layer.weight_v])
    finally:
        paddle.disable_static()


@case
def weight_norm_static_matches_dynamic(paddle):
    const = paddle.nn.initializer.Constant(4.0)
    out = []
    for make, dims in [(lambda: paddle.nn.Conv2D(3, 5, 3, weight_attr=const), (0, 1, 2, 3)),
                       (lambda: paddle.nn.Conv1D(4, 5, 2, weight_attr=const), (0, 2)),
                       (lambda: paddle.nn.Linear(4, 7, weight_attr=const), (0, 1))]:
        for dim in dims:
            layer = make()
            paddle.nn.utils.weight_norm(layer, dim=dim)
            g, v = _static_weight_norm(paddle, make, dim)
            out.append([layer.weight_g, g, float(np.abs(v - 4.0).max())])
    return out


@case
def weight_norm_values(paddle):
    out = []
    for dim in (0, 1, -1, None, 2):
        conv = paddle.nn.Conv2D(2, 3, 2)
        conv.weight.set_value((np.arange(24).reshape(3, 2, 2, 2) / 7 - 1.5).astype("float32"))
        paddle.nn.utils.weight_norm(conv, dim=dim)
        y = conv(paddle.to_tensor(np.ones([1, 2, 3, 3], "float32")))
        out.append([conv.weight_g, conv.weight, y])
        paddle.nn.utils.remove_weight_norm(conv)
        out.append(conv.weight)
    return out


@case
def batch_norm_in_default_float64(paddle):
    paddle.set_default_dtype("float64")
    try:
        out = []
        for make, shape in [(lambda: paddle.nn.BatchNorm1D(3), [2, 3]), (lambda: paddle.nn.BatchNorm2D(3), [2, 3, 2, 2]),
                            (lambda: paddle.nn.BatchNorm3D(3), [2, 3, 1, 2, 2]),
                            (lambda: paddle.nn.BatchNorm(3), [2, 3, 2, 2])]:
            m = make()
            out.append({k: str(v.dtype) for k, v in m.state_dict().items()})
            x = paddle.to_tensor(np.arange(np.prod(shape)).reshape(shape) / 7.0)
            try:
                out += [m(x), m._mean, m._variance]
                m.eval()
                out.append(m(x))
            except ValueError as e:
                out.append(type(e).__name__)
        return out
    finally:
        paddle.set_default_dtype("float32")


@case
def batch_norm_in_default_float16(paddle):
    paddle.set_default_dtype("float16")
    try:
        m = paddle.nn.BatchNorm2D(2)
        return {k: str(v.dtype) for k, v in m.state_dict().items()}
    finally:
        paddle.set_default_dtype("float32")


@case
def batch_norm_mixed_dtypes_refused(paddle):
    x = paddle.ones([2, 3, 2, 2], dtype="float64")
    m = paddle.nn.BatchNorm2D(3)
    return m(x)


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
