"""paddle.nn.initializer: deterministic initializers by value, random ones by dtype/shape (statistics are in
tests/test_initializers.py), argument checks, set_global_initializer and ParamAttr wiring."""
import numpy as np

from tests.cases import case


def _param(paddle, shape, init, dtype="float32", is_bias=False):
    return paddle.create_parameter(shape, dtype, default_initializer=init, is_bias=is_bias)


# ---------------------------------------------------------------- deterministic


@case
def constant_values_and_dtypes(paddle):
    C = paddle.nn.initializer.Constant
    return [_param(paddle, [2, 3], C(1.5)), _param(paddle, [2], C(-2), "float64"), _param(paddle, [3], C(7), "int32"),
            _param(paddle, [2], C(0.25), "float16"), _param(paddle, [2], C(), "float32"),
            _param(paddle, [], C(3.0))]


@case
def constant_none_value(paddle):
    return paddle.nn.initializer.Constant(None)


@case
def constant_on_plain_tensor(paddle):
    x = paddle.zeros([2, 2])
    r = paddle.nn.initializer.Constant(4.0)(x)
    return r, x


@case
def assign_forms(paddle):
    A = paddle.nn.initializer.Assign
    return [_param(paddle, [3], A([1.0, 2.0, 3.0])), _param(paddle, [2, 2], A(np.arange(4).reshape(2, 2))),
            _param(paddle, [2], A((5, 6)), "float64"), _param(paddle, [2], A(paddle.to_tensor([0.5, 1.5]))),
            _param(paddle, [3], A([1, 2, 3]), "int32"), _param(paddle, [2], A([1.0, 2.5]), "float16")]


@case
def assign_other_shape(paddle):
    p = _param(paddle, [2, 2], paddle.nn.initializer.Assign([1.0, 2.0, 3.0]))
    return p.shape, p


@case
def assign_int64_unsupported(paddle):
    return _param(paddle, [3], paddle.nn.initializer.Assign(np.array([1, 2, 3])), "int64")


@case
def assign_bad_value(paddle):
    return paddle.nn.initializer.Assign(3)


@case
def dirac_conv_weights(paddle):
    D = paddle.nn.initializer.Dirac
    return [_param(paddle, [2, 3, 3], D()), _param(paddle, [4, 2, 3, 3], D(groups=2)),
            _param(paddle, [3, 2, 1, 3, 1], D()), _param(paddle, [2, 2, 2], D(), "float64")]


@case
def dirac_keeps_conv_identity(paddle):
    w = _param(paddle, [3, 3, 3, 3], paddle.nn.initializer.Dirac())
    x = paddle.arange(48, dtype="float32").reshape([1, 3, 4, 4])
    return paddle.nn.functional.conv2d(x, w, padding=1)


@case
def dirac_errors(paddle):
    D = paddle.nn.initializer.Dirac
    out = []
    for fn in (lambda: D(groups=0), lambda: _param(paddle, [2, 2], D()), lambda: _param(paddle, [3, 2, 3], D(groups=2))):
        try:
            fn()
        except Exception as e:  # noqa: BLE001
            out.append(type(e).__name__)
    return out


@case
def bilinear_kernel(paddle):
    B = paddle.nn.initializer.Bilinear
    return [_param(paddle, [1, 1, 4, 4], B()), _param(paddle, [2, 1, 3, 3], B()), _param(paddle, [1, 1, 2, 2], B(),
                                                                                        "float64")]


@case
def bilinear_errors(paddle):
    B = paddle.nn.initializer.Bilinear
    out = []
    for shape in ([3, 3], [1, 1, 2, 3]):
        try:
            _param(paddle, shape, B())
        except Exception as e:  # noqa: BLE001
            out.append(type(e).__name__)
    return out


@case
def calculate_gain_table(paddle):
    g = paddle.nn.initializer.calculate_gain
    names = ["sigmoid", "linear", "conv1d", "conv2d", "conv3d", "conv1d_transpose", "conv_transpose2d", "tanh",
             "relu", "leaky_relu", "selu"]
    return [g(n) for n in names] + [g("leaky_relu", 0.2), g("leaky_relu", 1), g("relu", 5)]


@case
def calculate_gain_unknown(paddle):
    return paddle.nn.initializer.calculate_gain("gelu")


# ---------------------------------------------------------------- random: dtype, shape, bounds


@case(random=True)
def random_initializers_dtypes(paddle):
    I = paddle.nn.initializer
    out = []
    for init in (I.Normal(), I.Uniform(), I.TruncatedNormal(), I.XavierNormal(), I.XavierUniform(), I.KaimingNormal(),
                 I.KaimingUniform(), I.Orthogonal()):
        for dtype in ("float32", "float64"):
            out.append(_param(paddle, [4, 3], init, dtype))
    out.append(_param(paddle, [4, 3], I.Normal(), "float16"))
    out.append(_param(paddle, [4, 3], I.XavierUniform(), "bfloat16"))
    return out


@case
def random_initializers_bounds(paddle):
    I = paddle.nn.initializer
    u = _param(paddle, [50, 40], I.Uniform(-0.1, 0.2)).numpy()
    xu = _param(paddle, [30, 20], I.XavierUniform()).numpy()
    ku = _param(paddle, [16, 3, 3, 3], I.KaimingUniform()).numpy()
    tn = _param(paddle, [2000], I.TruncatedNormal(mean=1.0, std=2.0, a=-1.0, b=2.5)).numpy()
    return [bool(u.min() >= -0.1 and u.max() < 0.2), bool(np.abs(xu).max() <= np.sqrt(6 / 50)),
            bool(np.abs(ku).max() <= np.sqrt(2) * np.sqrt(3 / 27)), bool(tn.min() >= -1.0 and tn.max() <= 2.5)]


@case
def orthogonal_is_orthogonal(paddle):
    w = _param(paddle, [4, 6], paddle.nn.initializer.Orthogonal(gain=2.0)).numpy().astype("float64")
    t = _param(paddle, [6, 2, 2], paddle.nn.initializer.Orthogonal()).numpy().reshape(6, 4).astype("float64")
    return bool(np.allclose(w @ w.T, 4 * np.eye(4), atol=1e-5)), bool(np.allclose(t.T @ t, np.eye(4), atol=1e-5))


@case
def random_on_int_dtype(paddle):
    out = []
    for init in (paddle.nn.initializer.Normal(), paddle.nn.initializer.Uniform(),
                 paddle.nn.initializer.KaimingNormal()):
        try:
            _param(paddle, [2], init, "int32")
        except Exception as e:  # noqa: BLE001
            out.append(type(e).__name__)
    return out


@case
def initializer_argument_checks(paddle):
    I = paddle.nn.initializer
    out = []
    for fn in (lambda: I.KaimingNormal(mode="fan_avg"), lambda: I.KaimingUniform(fan_in=3, mode="fan_out"),
               lambda: I.Orthogonal(gain=None), lambda: I.Normal(mean=1 + 2j),
               lambda: _param(paddle, [3], I.Orthogonal())):
        try:
            fn()
            out.append("ok")
        except Exception as e:  # noqa: BLE001
            out.append(type(e).__name__)
    return out


@case
def xavier_zero_fan_gives_zeros(paddle):
    I = paddle.nn.initializer
    return _param(paddle, [0, 3], I.XavierUniform()), _param(paddle, [3], I.XavierNormal(fan_in=0, fan_out=0))


@case
def kaiming_explicit_fan_in_scale(paddle):
    # a Uniform bound fixed by fan_in: |w| <= gain * sqrt(3 / fan_in); with fan_in huge the values are tiny
    w = _param(paddle, [8, 8], paddle.nn.initializer.KaimingUniform(fan_in=1e8)).numpy()
    return bool(np.abs(w).max() <= np.sqrt(2) * np.sqrt(3e-8))


@case
def initializer_called_returns_none(paddle):
    I = paddle.nn.initializer
    x = paddle.zeros([3, 3])
    return [I.Normal()(x), I.Constant(1.0)(x), I.Dirac()(paddle.zeros([2, 2, 3])), I.Orthogonal()(x),
            x.shape, x.stop_gradient]


# ---------------------------------------------------------------- wiring


@case
def set_global_initializer_affects_defaults(paddle):
    I = paddle.nn.initializer

    class L(paddle.nn.Layer):
        def __init__(self, wattr=None):
            super().__init__()
            self.w = self.create_parameter([2, 2], attr=wattr)
            self.b = self.create_parameter([2], is_bias=True)
            self.d = self.create_parameter([2], default_initializer=I.Constant(9.0))

    I.set_global_initializer(I.Constant(1.0), I.Constant(2.0))
    try:
        a = L()
        b = L(wattr=I.Constant(5.0))
        c = paddle.create_parameter([2], "float32")
    finally:
        I.set_global_initializer(None)
    d = L()
    return a.w, a.b, a.d, b.w, c, d.b, bool((d.w.numpy() != 1.0).any())


@case
def set_global_weight_only(paddle):
    I = paddle.nn.initializer
    I.set_global_initializer(I.Constant(3.0))
    try:
        p = paddle.create_parameter([2], "float32", is_bias=True)
        q = paddle.create_parameter([2], "float32")
    finally:
        I.set_global_initializer(None, None)
    return p, q


@case
def param_attr_initializer_wins_over_default(paddle):
    I = paddle.nn.initializer
    attr = paddle.ParamAttr(initializer=I.Constant(0.5))
    p = paddle.create_parameter([2], "float32", attr=attr, default_initializer=I.Constant(8.0))
    q = paddle.create_parameter([2], "float32", default_initializer=I.Constant(8.0))
    return p, q, attr.initializer is not None, attr.name


@case
def initializer_class_hierarchy(paddle):
    I = paddle.nn.initializer
    return [isinstance(cls(), I.Initializer) for cls in (I.Constant, I.Normal, I.TruncatedNormal, I.Uniform,
                                                         I.XavierNormal, I.XavierUniform, I.KaimingNormal,
                                                         I.KaimingUniform, I.Orthogonal, I.Dirac, I.Bilinear)]


@case
def initializer_named_arguments(paddle):
    I = paddle.nn.initializer
    return [_param(paddle, [2], I.Constant(value=2.0)), _param(paddle, [2], I.Assign(value=[1.0, 2.0])),
            _param(paddle, [2], I.Normal(mean=1.0, std=0.0)), _param(paddle, [2], I.Uniform(low=3.0, high=3.0)),
            _param(paddle, [2], I.TruncatedNormal(mean=2.0, std=0.0, a=0.0, b=5.0)),
            _param(paddle, [2, 2], I.XavierNormal(fan_in=1, fan_out=1, gain=0.0)),
            _param(paddle, [2, 2], I.KaimingNormal(fan_in=4, negative_slope=0.0, nonlinearity="linear",
                                                   mode="fan_in")).shape]
