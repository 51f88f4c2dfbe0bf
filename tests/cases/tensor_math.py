"""The math family: elementwise ops, reductions, scans, matmul family, special functions."""
import numpy as np

from tests.cases import case


def _try(fn):
    """Run fn; an exception becomes the result (compared by type)."""
    try:
        return fn()
    except Exception as e:  # noqa: BLE001
        return e


def _grad(paddle, fn, data, dtype="float32"):
    x = paddle.to_tensor(data, dtype=dtype, stop_gradient=False)
    y = fn(x)
    y.sum().backward()
    return [y, x.grad]


# ---------------------------------------------------------------- unary ops over dtypes

_FLOAT_UNARY = ["acos", "asin", "atan", "atanh", "cos", "cosh", "exp", "expm1", "log", "log10", "log1p", "log2",
                "reciprocal", "rsqrt", "sin", "sinh", "sqrt", "tan", "tanh", "asinh", "erf", "erfinv", "lgamma",
                "digamma", "i0", "i0e", "i1", "i1e", "logit", "gammaln"]
_KEEP_UNARY = ["abs", "ceil", "floor", "trunc", "square", "sign", "round", "frac", "neg", "negative", "conj",
               "positive"]
_PRED_UNARY = ["isfinite", "isinf", "isnan", "isneginf", "isposinf", "isreal", "signbit"]


def _unary_case(name, values):
    def fn(paddle):
        f = getattr(paddle, name)
        x = paddle.to_tensor(values)
        out = [f(x), f(x.astype("float64")), _try(lambda: f(paddle.to_tensor([1, 2, 3], dtype="int32"))),
               _try(lambda: f(paddle.to_tensor([1, 2, 3]))), _try(lambda: f(paddle.to_tensor([True, False]))),
               f(paddle.to_tensor(values[0])), f(paddle.to_tensor(np.zeros([2, 0], np.float32)))]
        if hasattr(paddle.Tensor, name):
            out.append(getattr(x, name)())
        return out

    fn.__name__ = f"unary_{name}"
    fn.__module__ = __name__
    return case(fn)


for _n in _FLOAT_UNARY + _KEEP_UNARY + _PRED_UNARY:
    if _n != "erfinv":  # erfinv of an integer > 1: Paddle gives inf, torch NaN (docs/compatibility.md)
        _unary_case(_n, [0.25, 0.5, 0.75])
_unary_case("acosh", [1.5, 2.0, 3.0])


@case
def unary_erfinv(paddle):
    x = paddle.to_tensor([-0.5, 0.0, 0.75])
    return [paddle.erfinv(x), paddle.erfinv(x.astype("float64")), paddle.erfinv(paddle.to_tensor([0, 1, -1])),
            _try(lambda: paddle.erfinv(paddle.to_tensor([True]))), x.erfinv()]
for _n in ("sigmoid", "sinc", "angle", "deg2rad", "rad2deg", "sgn"):
    _unary_case(_n, [-1.5, 0.0, 2.0])


@case
def unary_special_values(paddle):
    x = paddle.to_tensor([float("nan"), float("inf"), -float("inf"), -0.0, 2.5, -2.5])
    return [paddle.isfinite(x), paddle.isinf(x), paddle.isnan(x), paddle.isneginf(x), paddle.isposinf(x),
            paddle.signbit(x), paddle.round(x), paddle.trunc(x), paddle.sign(x), paddle.abs(x),
            paddle.floor(x), paddle.ceil(x)]


@case
def unary_complex(paddle):
    z = paddle.to_tensor([1 + 2j, -3 - 0.5j])
    return [paddle.abs(z), paddle.exp(z), paddle.sqrt(z), paddle.conj(z), paddle.angle(z), paddle.sgn(z),
            paddle.sign(z), paddle.square(z), paddle.isreal(z), paddle.isfinite(z), paddle.round(z * 1.37),
            paddle.deg2rad(z), paddle.sinc(z), _try(lambda: paddle.erf(z)), _try(lambda: paddle.floor(z)),
            _try(lambda: paddle.frac(z)), _try(lambda: paddle.logit(z))]


@case
def unary_int_edge_dtypes(paddle):
    xi = paddle.to_tensor([-3, 0, 4], dtype="int32")
    return [paddle.abs(xi), paddle.square(xi), paddle.sign(xi), paddle.neg(xi), paddle.round(xi), paddle.frac(xi),
            paddle.neg(paddle.to_tensor([True, False])),
            paddle.sin(paddle.to_tensor([1, 2], dtype="uint8")), paddle.deg2rad(xi), paddle.rad2deg(xi)]


@case
def unary_int_with_default_float64(paddle):
    paddle.set_default_dtype("float64")
    try:
        return [paddle.sin(paddle.to_tensor([1, 2], dtype="int32")), paddle.sqrt(paddle.to_tensor([4]))]
    finally:
        paddle.set_default_dtype("float32")


@case
def round_decimals(paddle):
    x = paddle.to_tensor([1.2345, -2.5, 0.5, 1.5, 123.456])
    return [paddle.round(x), paddle.round(x, decimals=2), paddle.round(x, decimals=-1)]


@case
def unary_grads(paddle):
    d = [0.2, 0.5, 0.9]
    return [_grad(paddle, paddle.sqrt, d), _grad(paddle, paddle.exp, d), _grad(paddle, paddle.abs, [-1.0, 0.0, 2.0]),
            _grad(paddle, paddle.tanh, d, "float64"), _grad(paddle, paddle.square, d)]


@case
def unary_out_keyword(paddle):
    x = paddle.to_tensor([1.0, 4.0])
    o = paddle.zeros([2])
    r = paddle.sqrt(x, out=o)
    return [r, o]


@case
def logit_eps(paddle):
    x = paddle.to_tensor([0.0, 0.3, 1.0])
    return [paddle.logit(x), paddle.logit(x, eps=1e-3)]


@case
def nan_to_num_variants(paddle):
    x = paddle.to_tensor([float("nan"), float("inf"), -float("inf"), 1.5])
    return [paddle.nan_to_num(x), paddle.nan_to_num(x, nan=1.0, posinf=9.0, neginf=-9.0),
            paddle.nan_to_num(x.astype("float64")), _try(lambda: paddle.nan_to_num(paddle.to_tensor([1, 2])))]


@case
def frexp_values(paddle):
    x = paddle.to_tensor([[1.0, 8.0], [-3.0, 0.0]])
    return [paddle.frexp(x), paddle.frexp(x.astype("float64")), _try(lambda: paddle.frexp(paddle.to_tensor([1, 2])))]


@case
def polygamma_multigammaln(paddle):
    x = paddle.to_tensor([1.5, 2.0, 3.5])
    return [paddle.polygamma(x, 0), paddle.polygamma(x, 1), paddle.polygamma(x.astype("float64"), 2),
            paddle.multigammaln(x, 1), paddle.multigammaln(paddle.to_tensor([2.5, 3.0]), 2),
            _try(lambda: paddle.polygamma(x, -1)), _try(lambda: paddle.polygamma(x, 1.5))]


@case
def gammainc_pair(paddle):
    x = paddle.to_tensor([0.5, 1.0, 3.0])
    y = paddle.to_tensor([1.0, 2.0, 0.5])
    return [paddle.gammainc(x, y), paddle.gammaincc(x, y), paddle.gammainc(x.astype("float64"), y.astype("float64")),
            _try(lambda: paddle.gammainc(paddle.to_tensor([1, 2]), paddle.to_tensor([1, 2])))]


# ---------------------------------------------------------------- binary ops

_BINARY = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "pow", "maximum", "minimum", "fmax",
           "fmin", "atan2", "hypot", "copysign", "logaddexp", "mod", "floor_mod", "true_divide", "mul", "heaviside"]


def _binary_case(name):
    def fn(paddle):
        f = getattr(paddle, name)
        a = paddle.to_tensor([[1.5, -2.0, 3.0], [4.0, 0.5, -6.0]])
        b = paddle.to_tensor([2.0, 3.0, -1.5])
        ai = paddle.to_tensor([[7, -8, 9], [1, 2, 3]], dtype="int32")
        bi = paddle.to_tensor([2, 3, 4], dtype="int32")
        out = [f(a, b), _try(lambda: f(a.astype("float64"), b)), _try(lambda: f(ai, bi)), _try(lambda: f(ai.astype("int64"), bi)),
               _try(lambda: f(ai, b)), f(paddle.to_tensor(2.0), b), _try(lambda: f(ai, paddle.to_tensor(2.0))),
               _try(lambda: f(paddle.to_tensor([2.0, 3.0]), paddle.to_tensor([1.0, 2.0, 3.0])))]
        if hasattr(paddle.Tensor, name):
            out.append(getattr(a, name)(b))
        return out

    fn.__name__ = f"binary_{name}"
    fn.__module__ = __name__
    return case(fn)


for _n in _BINARY:
    _binary_case(_n)


@case
def binary_scalar_operands(paddle):
    xi = paddle.to_tensor([5, -7, 9], dtype="int32")
    xf = paddle.to_tensor([1.5, -2.5, 3.0])
    # paddle.floor_divide(int, 2) gives int64 and paddle.pow(int, 0.5) truncates the exponent in Paddle;
    # the shim keeps the operators' behaviour for both (docs/compatibility.md)
    return [paddle.remainder(xi, 4), paddle.pow(xi, 2), paddle.pow(xf, 2), paddle.copysign(xi, -1.0), paddle.remainder(xf, 2), xi / 2, xi // 2, xi % 3,
            xi ** 2, 2 ** xf, 10 - xi, xf * 2, xi * 2.5]


@case
def binary_int_division(paddle):
    a = paddle.to_tensor([7, -7, 7, -7])
    b = paddle.to_tensor([2, 2, -2, -2])
    return [paddle.divide(a, b), paddle.floor_divide(a, b), paddle.remainder(a, b), paddle.mod(a, b)]


@case
def binary_float_division_by_zero(paddle):
    a = paddle.to_tensor([1.0, -1.0, 0.0])
    return [paddle.divide(a, paddle.zeros([3])), paddle.remainder(paddle.to_tensor([5.5, -5.5]), paddle.to_tensor([2.0, 2.0]))]


@case
def binary_nan_handling(paddle):
    a = paddle.to_tensor([float("nan"), 1.0, 2.0])
    b = paddle.to_tensor([1.0, float("nan"), 3.0])
    return [paddle.maximum(a, b), paddle.minimum(a, b), paddle.fmax(a, b), paddle.fmin(a, b)]


@case
def binary_grads(paddle):
    a = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    b = paddle.to_tensor([3.0, 2.0, 1.0], stop_gradient=False)
    y = paddle.maximum(a, b) + paddle.divide(a, b) + paddle.pow(a, b)
    y.sum().backward()
    return [y, a.grad, b.grad]


@case
def binary_broadcast_grad(paddle):
    a = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    b = paddle.to_tensor([10.0, 20.0], stop_gradient=False)
    y = paddle.multiply(a, b)
    y.sum().backward()
    return [y, a.grad, b.grad, y.stop_gradient]


@case
def gcd_lcm(paddle):
    a = paddle.to_tensor([12, 18, -20, 0])
    b = paddle.to_tensor([8, 12, 6, 5])
    return [paddle.gcd(a, b), paddle.lcm(a, b), paddle.gcd(a.astype("int32"), b.astype("int32")),
            paddle.gcd(a, paddle.to_tensor(4))]


@case
def ldexp_nextafter(paddle):
    x = paddle.to_tensor([1.0, 2.0, -3.0])
    e = paddle.to_tensor([1, 2, 3], dtype="int32")
    return [paddle.ldexp(x, e), paddle.ldexp(paddle.to_tensor([1, 2, 3]), paddle.to_tensor([2, 2, 2])),
            paddle.nextafter(x, paddle.to_tensor([2.0, 1.0, 0.0])),
            _try(lambda: paddle.nextafter(paddle.to_tensor([1, 2]), paddle.to_tensor([2, 3])))]


@case
def ldexp_dtypes_and_forms(paddle):
    """ldexp casts both to float64 when either is, else to the default dtype; broadcasting, 0-D, keywords, the
    method and the in-place twin (which casts x in place), gradients through a float exponent."""
    x = paddle.to_tensor([1.0, 2.0, -3.0])
    x.stop_gradient = False
    y = paddle.ldexp(x, paddle.to_tensor([1.5, 2.0, -1.0]))
    y.sum().backward()
    z = paddle.to_tensor([1, 2], "int32")
    r = z.ldexp_(paddle.to_tensor([1, 2], "int32"))
    return [y, x.grad, paddle.ldexp(paddle.to_tensor([1.0, 2.0], "float16"), paddle.to_tensor([1, 2], "int32")),
            paddle.ldexp(paddle.to_tensor([1.0, 2.0], "float64"), paddle.to_tensor([0.5, 2.0])),
            paddle.ldexp(paddle.to_tensor([[1.0], [2.0]]), paddle.to_tensor([1, 2, 3])),
            paddle.ldexp(paddle.to_tensor(3.0), paddle.to_tensor(2)),
            paddle.ldexp(x=x.detach(), y=paddle.to_tensor([1, 2, 3], "int32")),
            x.detach().ldexp(paddle.to_tensor([1.5, 2.5, 0.0])), r, z,
            paddle.ldexp(paddle.to_tensor([3, 4]), paddle.to_tensor([-1, -3]))]


@case
def ldexp_number_exponent(paddle):
    return paddle.ldexp(paddle.to_tensor([3.0]), 2)


@case
def ldexp_list_operand(paddle):
    return paddle.ldexp([1.0, 2.0], paddle.to_tensor([1, 2]))


@case
def ldexp_out_keyword(paddle):
    return paddle.ldexp(paddle.to_tensor([1.0]), paddle.to_tensor([1]), out=paddle.zeros([1]))


@case
def bitwise_shifts(paddle):
    x = paddle.to_tensor([-16, 8, 1, 100], dtype="int32")
    s = paddle.to_tensor([2, 1, 3, 0], dtype="int32")
    xb = paddle.to_tensor([250, 8], dtype="uint8")
    return [paddle.bitwise_left_shift(x, s), paddle.bitwise_right_shift(x, s),
            paddle.bitwise_right_shift(x, s, is_arithmetic=False), paddle.bitwise_left_shift(x, s, False),
            paddle.bitwise_right_shift(xb, paddle.to_tensor([2, 1], dtype="uint8")),
            paddle.bitwise_right_shift(x.astype("int64"), s.astype("int64"), is_arithmetic=False),
            x << s, x >> s, _try(lambda: paddle.bitwise_left_shift(paddle.to_tensor([1.0]), paddle.to_tensor([1.0])))]


@case
def binary_mixed_int_float_rejected(paddle):
    return paddle.add(paddle.to_tensor([1, 2]), paddle.to_tensor([1.0, 2.0]))


@case
def binary_shape_mismatch(paddle):
    return paddle.multiply(paddle.ones([2, 3]), paddle.ones([4]))


@case
def add_alpha_and_out(paddle):
    x = paddle.to_tensor([1.0, 2.0])
    y = paddle.to_tensor([10.0, 20.0])
    o = paddle.zeros([2])
    return [paddle.add(x, y, alpha=2), paddle.subtract(x, y, alpha=0.5), paddle.add(x, y, out=o), o]


# ---------------------------------------------------------------- reductions

_REDUCE = ["sum", "nansum", "prod", "max", "min", "amax", "amin", "logsumexp", "all", "any", "count_nonzero"]


def _reduce_case(name):
    def fn(paddle):
        f = getattr(paddle, name)
        x = paddle.to_tensor([[[1.5, 2.0, -3.0], [4.0, 0.0, 6.0]], [[1.0, 1.0, 2.0], [0.5, -1.0, 3.0]]])
        out = [f(x), f(x, axis=0), f(x, axis=-1), f(x, axis=[0, 2]), f(x, axis=(1,)), f(x, axis=[]),
               f(x, axis=1, keepdim=True), f(x, keepdim=True), f(x, axis=[-1, 0], keepdim=True),
               f(x, axis=paddle.to_tensor(1)), f(x.astype("float64"), axis=1), f(paddle.to_tensor(2.5)),
               f(paddle.to_tensor(2.5), axis=0), f(paddle.to_tensor(2.5), axis=-1),
               _try(lambda: f(x.astype("int32"), axis=1)), _try(lambda: f(x.astype("int64"))),
               _try(lambda: f(x > 1, axis=0)),
               _try(lambda: f(x, axis=3)), _try(lambda: f(x, axis=-4)), _try(lambda: f(x, axis=[0, 0])),
               _try(lambda: f(x, axis=[0, -3])), _try(lambda: f(paddle.to_tensor(2.5), axis=1)),
               _try(lambda: f(x, axis=1.0))]
        if hasattr(paddle.Tensor, name):
            out.append(getattr(x, name)(axis=1))
        return out

    fn.__name__ = f"reduce_{name}"
    fn.__module__ = __name__
    return case(fn)


for _n in _REDUCE:
    _reduce_case(_n)


@case
def sum_result_dtypes(paddle):
    x = paddle.to_tensor([[1, 2], [3, 4]])
    return [paddle.sum(x.astype(d)) for d in ("bool", "int8", "uint8", "int16", "int32", "int64", "float16",
                                              "float32", "float64")] + [
        paddle.sum(x.astype("int32"), dtype="int32"), paddle.sum(x, dtype="float64"),
        paddle.sum(x.astype("float32"), dtype="int64"), paddle.sum(x.astype("bool"), axis=0),
        paddle.nansum(x.astype("int32")), paddle.prod(x.astype("int32")), paddle.prod(x.astype("int32"), dtype="int64"),
        paddle.prod(x.astype("float32"), dtype="float64", axis=[0, 1])]


@case
def sum_torch_style_keywords(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    return [paddle.sum(input=x, dim=1),
            x.sum(1), paddle.sum(x, 1, keepdim=True)]


@case
def nansum_values(paddle):
    x = paddle.to_tensor([[float("nan"), 1.0], [2.0, float("nan")]])
    return [paddle.nansum(x), paddle.nansum(x, axis=0), paddle.nansum(x.astype("float64"), axis=[1], keepdim=True)]


@case
def max_min_grad_ties(paddle):
    d = [[1.0, 3.0, 3.0], [2.0, 2.0, 1.0]]
    return [_grad(paddle, lambda x: paddle.max(x), d), _grad(paddle, lambda x: paddle.max(x, axis=1), d),
            _grad(paddle, lambda x: paddle.min(x, axis=0), d), _grad(paddle, lambda x: paddle.amax(x), d),
            _grad(paddle, lambda x: paddle.amin(x, axis=1, keepdim=True), d)]


@case
def sum_prod_grads(paddle):
    d = [[1.0, 2.0], [3.0, 4.0]]
    return [_grad(paddle, lambda x: paddle.sum(x, axis=0), d), _grad(paddle, lambda x: paddle.prod(x, axis=1), d),
            _grad(paddle, lambda x: paddle.logsumexp(x), d), _grad(paddle, lambda x: paddle.prod(x), d)]


@case
def reductions_of_empty(paddle):
    e = paddle.zeros([0, 3])
    return [paddle.sum(e), paddle.sum(e, axis=0), paddle.prod(e, axis=0), paddle.all(e > 0), paddle.any(e > 0),
            paddle.count_nonzero(e), paddle.logsumexp(e, axis=0)]


@case
def logsumexp_large_values(paddle):
    x = paddle.to_tensor([[1000.0, 1000.0], [-1000.0, 5.0]])
    return [paddle.logsumexp(x), paddle.logsumexp(x, axis=1), paddle.logsumexp(paddle.to_tensor([1, 2, 3]))]


@case
def all_any_dtypes(paddle):
    x = paddle.to_tensor([[0.0, 1.0], [2.0, 3.0]])
    return [paddle.all(x), paddle.any(x), paddle.all(x.astype("int32"), axis=1), paddle.any(x.astype("int64")),
            paddle.all(x > 0, axis=[0, 1]), paddle.any(x > 5, keepdim=True)]


@case
def count_nonzero_variants(paddle):
    x = paddle.to_tensor([[0, 1, 2], [0, 0, 3]])
    return [paddle.count_nonzero(x), paddle.count_nonzero(x, axis=1), paddle.count_nonzero(x, axis=[0, 1], keepdim=True),
            paddle.count_nonzero(x > 0, axis=0), paddle.count_nonzero(x.astype("float32"), axis=-1, keepdim=True)]


# ---------------------------------------------------------------- scans


def _scan_case(name):
    def fn(paddle):
        f = getattr(paddle, name)
        x = paddle.to_tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]])
        out = [f(x), f(x, 0), f(x, -1), f(paddle.to_tensor(2.5)), f(paddle.to_tensor(2.5), 0),
               _try(lambda: f(x.astype("int32"), 1)), _try(lambda: f(x.astype("int64"))), _try(lambda: f(x > 0, 1)),
               _try(lambda: f(x, 2)), _try(lambda: f(x, -3)), f(x.astype("float64"), 1)]
        if hasattr(paddle.Tensor, name):
            out.append(getattr(x, name)(1))
        return out

    fn.__name__ = f"scan_{name}"
    fn.__module__ = __name__
    return case(fn)


for _n in ("cumsum", "cumprod", "cummax", "cummin", "logcumsumexp"):
    _scan_case(_n)


@case
def scan_dtype_arguments(paddle):
    xi = paddle.to_tensor([[1, 2, 3], [4, 5, 6]], dtype="int32")
    x = xi.astype("float32")
    return [paddle.cumsum(xi, dtype="int64"), paddle.cumsum(x, axis=1, dtype="float64"),
            paddle.cumsum(xi, axis=paddle.to_tensor(1)), paddle.cumprod(x, dim=1, dtype="float64"),
            paddle.logcumsumexp(x, axis=0, dtype="float64"), paddle.cummax(x, axis=1, dtype="int32"),
            _try(lambda: paddle.cummin(x, axis=1, dtype="float32"))]


@case
def scan_grads(paddle):
    d = [[1.0, 3.0, 2.0], [2.0, 1.0, 4.0]]
    return [_grad(paddle, lambda x: paddle.cumsum(x, 1), d), _grad(paddle, lambda x: paddle.cumprod(x, 1), d),
            _grad(paddle, lambda x: paddle.cummax(x, 1)[0], d), _grad(paddle, lambda x: paddle.logcumsumexp(x, 0), d)]


# ---------------------------------------------------------------- clip, scale, lerp, ...


@case
def clip_variants(paddle):
    x = paddle.to_tensor([[-2.0, 0.5], [3.0, 10.0]])
    xi = paddle.to_tensor([-5, 0, 5, 10], dtype="int32")
    return [paddle.clip(x, -1.0, 2.0), paddle.clip(x, min=0.0), paddle.clip(x, max=1.0), paddle.clip(x),
            paddle.clip(xi, -1, 6), paddle.clip(xi.astype("int64"), 2.5, 7.5),
            paddle.clip(x, paddle.to_tensor(0.0), paddle.to_tensor(1.0)), _try(lambda: paddle.clip(x, 3.0, 1.0)),
            x.clip(0.0, 1.0), paddle.clamp(x, -1.0, 1.0)]


@case
def clip_grad(paddle):
    return _grad(paddle, lambda x: paddle.clip(x, 0.0, 1.0), [-1.0, 0.5, 2.0])


@case
def scale_variants(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    xi = paddle.to_tensor([1, 2, 3], dtype="int32")
    return [paddle.scale(x, 2.0, 1.0), paddle.scale(x, 2.0, 1.0, bias_after_scale=False),
            paddle.scale(x, paddle.to_tensor(3.0)), paddle.scale(xi, 2.5, 1.0), paddle.scale(xi.astype("int64"), 2),
            paddle.scale(x.astype("float64"), 0.5), paddle.scale(paddle.to_tensor(2.0), 3.0), x.scale(scale=-1.0)]


@case
def lerp_variants(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    y = paddle.to_tensor([10.0, 20.0, 30.0])
    return [paddle.lerp(x, y, 0.5), paddle.lerp(x, y, paddle.to_tensor([0.0, 0.5, 1.0])),
            paddle.lerp(x.astype("float64"), y.astype("float64"), 0.25), x.lerp(y, 0.1),
            paddle.lerp(x, paddle.to_tensor([[1.0], [2.0]]), 0.5)]


@case
def stanh_values(paddle):
    x = paddle.to_tensor([-1.0, 0.0, 2.0])
    return [paddle.stanh(x), paddle.stanh(x, scale_a=1.0, scale_b=2.0), paddle.stanh(x.astype("float64"))]


@case
def increment_values(paddle):
    x = paddle.to_tensor([1.5])
    y = paddle.increment(x, 2.0)
    xi = paddle.to_tensor([3], dtype="int32")
    return [y, x, paddle.increment(xi), paddle.increment(paddle.to_tensor(1.0))]


@case
def add_n_variants(paddle):
    a = paddle.to_tensor([[1.0, 2.0]])
    b = paddle.to_tensor([[3.0, 4.0]])
    return [paddle.add_n([a, b, a]), paddle.add_n([a]), paddle.add_n(a),
            paddle.add_n([paddle.to_tensor([1, 2]), paddle.to_tensor([3, 4])])]


@case
def add_n_grad(paddle):
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    b = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
    y = paddle.add_n([a, b, a])
    y.sum().backward()
    return [y, a.grad, b.grad]


@case
def diff_variants(paddle):
    x = paddle.to_tensor([[1, 3, 6], [2, 2, 9]])
    xf = paddle.to_tensor([1.0, 4.0, 9.0, 16.0])
    return [paddle.diff(x), paddle.diff(x, axis=0), paddle.diff(xf, n=2), paddle.diff(xf, n=1),
            paddle.diff(xf, prepend=paddle.to_tensor([0.0]), append=paddle.to_tensor([20.0, 30.0])),
            paddle.diff(x > 2), x.diff(axis=-1)]


@case
def trace_variants(paddle):
    x = paddle.arange(24, dtype="float32").reshape([2, 3, 4])
    m = paddle.to_tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    return [paddle.trace(m), paddle.trace(m, offset=1), paddle.trace(m, offset=-2), paddle.trace(m, offset=5),
            paddle.trace(x, axis1=1, axis2=2), paddle.trace(x, offset=1, axis1=-1, axis2=0),
            paddle.trace(m.astype("int32")), m.trace()]


@case
def kron_variants(paddle):
    a = paddle.to_tensor([[1, 2], [3, 4]])
    b = paddle.to_tensor([[0, 1], [1, 0]])
    return [paddle.kron(a, b), paddle.kron(a.astype("float32"), paddle.to_tensor([1.0, 2.0])),
            paddle.kron(paddle.to_tensor([1.0, 2.0]), paddle.ones([2, 2, 1]))]


@case
def cross_variants(paddle):
    x = paddle.to_tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 2.0, 3.0]])
    y = paddle.to_tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [4.0, 5.0, 6.0]])
    return [paddle.cross(x, y), paddle.cross(x, y, axis=1), paddle.cross(x, y, axis=0),
            paddle.cross(x.astype("int64"), y.astype("int64"), axis=-1)]


@case
def cross_bad_axis(paddle):
    return paddle.cross(paddle.ones([2, 4]), paddle.ones([2, 4]), axis=1)


@case
def renorm_values(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    return [paddle.renorm(x, 2.0, 0, 5.0), paddle.renorm(x, 1.0, 1, 4.0), paddle.renorm(x, 2.0, -1, 100.0)]


@case
def vander_variants(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    return [paddle.vander(x), paddle.vander(x, n=2), paddle.vander(x, increasing=True),
            paddle.vander(paddle.to_tensor([1, 2, 3]), n=4), paddle.vander(x, n=0)]


@case
def cartesian_prod_and_combinations(paddle):
    a = paddle.to_tensor([1, 2, 3])
    b = paddle.to_tensor([4, 5])
    return [paddle.cartesian_prod([a, b]), paddle.cartesian_prod([a]), paddle.combinations(a),
            paddle.combinations(a, r=3), paddle.combinations(a, with_replacement=True),
            paddle.combinations(a.astype("float32"), r=1)]


@case
def multiplex_values(paddle):
    a = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    b = paddle.to_tensor([[10.0, 20.0], [30.0, 40.0], [50.0, 60.0]])
    idx = paddle.to_tensor([[1], [0], [1]], dtype="int32")
    return [paddle.multiplex([a, b], idx), _try(lambda: paddle.multiplex([a, b], idx.astype("int64")))]


@case
def trapezoid_variants(paddle):
    y = paddle.to_tensor([[1.0, 2.0, 4.0], [0.0, 3.0, 1.0]])
    x = paddle.to_tensor([0.0, 1.0, 3.0])
    return [paddle.trapezoid(y), paddle.trapezoid(y, dx=0.5), paddle.trapezoid(y, x=x), paddle.trapezoid(y, axis=0),
            paddle.cumulative_trapezoid(y), paddle.cumulative_trapezoid(y, x=x), paddle.cumulative_trapezoid(y, dx=2.0, axis=0)]


@case
def reduce_as_variants(paddle):
    x = paddle.arange(24, dtype="float32").reshape([2, 3, 4])
    return [paddle.reduce_as(x, paddle.zeros([3, 4])), paddle.reduce_as(x, paddle.zeros([2, 1, 4])),
            paddle.reduce_as(x, paddle.zeros([1, 4])), paddle.reduce_as(x.astype("int32"), paddle.zeros([4])),
            paddle.reduce_as(x, paddle.zeros([2, 3, 4]))]


@case
def take_variants(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    return [paddle.take(x, paddle.to_tensor([0, 5, -1])), paddle.take(x, paddle.to_tensor([[1, 2], [3, 4]], dtype="int32")),
            paddle.take(x, paddle.to_tensor([7, -8]), mode="wrap"), paddle.take(x, paddle.to_tensor([7, -8]), mode="clip"),
            _try(lambda: paddle.take(x, paddle.to_tensor([6]))), _try(lambda: paddle.take(x, paddle.to_tensor([1.0]))),
            x.take(paddle.to_tensor([2]))]


@case
def inverse_variants(paddle):
    m = paddle.to_tensor([[2.0, 1.0], [1.0, 3.0]])
    b = paddle.to_tensor([[[1.0, 2.0], [3.0, 4.0]], [[4.0, 0.0], [0.0, 0.5]]], dtype="float64")
    return [paddle.inverse(m), paddle.inverse(b), m.inverse(), _try(lambda: paddle.inverse(paddle.ones([2, 3]))),
            _try(lambda: paddle.inverse(paddle.to_tensor([[1, 2], [3, 4]])))]


@case
def broadcast_shapes_variants(paddle):
    return [paddle.broadcast_shapes([2, 1], [3]), paddle.broadcast_shapes([2, 1, 3], [4, 1], [1]),
            paddle.broadcast_shape([1, 3], [2, 1]), paddle.broadcast_shapes([0, 1], [3]),
            _try(lambda: paddle.broadcast_shapes([2], [3]))]


# ---------------------------------------------------------------- matmul family


@case
def matmul_variants(paddle):
    a = paddle.arange(6, dtype="float32").reshape([2, 3])
    b = paddle.arange(12, dtype="float32").reshape([3, 4])
    v = paddle.to_tensor([1.0, 2.0, 3.0])
    bat = paddle.ones([5, 2, 3])
    return [paddle.matmul(a, b), paddle.matmul(a, v), paddle.matmul(v, b), paddle.matmul(v, v),
            paddle.matmul(a, a, transpose_y=True), paddle.matmul(a, a, transpose_x=True),
            paddle.matmul(bat, b), paddle.matmul(bat, bat, transpose_y=True),
            paddle.matmul(paddle.to_tensor([[1, 2]]), paddle.to_tensor([[3], [4]])), a @ b]


@case
def matmul_shape_mismatch(paddle):
    return paddle.matmul(paddle.ones([2, 3]), paddle.ones([2, 3]))


@case
def matmul_grad(paddle):
    a = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    b = paddle.to_tensor([[1.0], [-1.0]], stop_gradient=False)
    y = paddle.matmul(a, b)
    y.sum().backward()
    return [y, a.grad, b.grad]


@case
def mm_bmm_mv_dot(paddle):
    a = paddle.arange(6, dtype="float32").reshape([2, 3])
    b = paddle.arange(6, dtype="float32").reshape([3, 2])
    v = paddle.to_tensor([1.0, 0.0, -1.0])
    return [paddle.mm(a, b), paddle.bmm(a.unsqueeze(0), b.unsqueeze(0)), paddle.mv(a, v), paddle.dot(v, v),
            paddle.dot(a, a), paddle.dot(paddle.to_tensor([1, 2]), paddle.to_tensor([3, 4])), a.mm(b)]


@case
def bmm_bad_rank(paddle):
    return paddle.bmm(paddle.ones([2, 3]), paddle.ones([3, 2]))


@case
def inner_outer(paddle):
    a = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    v = paddle.to_tensor([1.0, -1.0])
    return [paddle.inner(a, a), paddle.inner(v, v), paddle.inner(a, v), paddle.outer(v, paddle.to_tensor([1.0, 2.0, 3.0])),
            paddle.outer(a, v), paddle.outer(paddle.to_tensor([1, 2]), paddle.to_tensor([3, 4]))]


@case
def addmm_baddbmm(paddle):
    inp = paddle.ones([2, 2])
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    y = paddle.to_tensor([[1.0, 0.0], [0.0, 1.0]])
    return [paddle.addmm(inp, x, y), paddle.addmm(inp, x, y, beta=0.5, alpha=2.0), paddle.addmm(paddle.ones([2]), x, y),
            paddle.baddbmm(inp.unsqueeze(0), x.unsqueeze(0), y.unsqueeze(0), beta=2.0, alpha=3.0)]


# ---------------------------------------------------------------- paddle.special


@case
def special_namespace(paddle):
    x = paddle.to_tensor([[0.5, 1.0], [2.0, -1.0]])
    return [paddle.special.expm1(x), paddle.special.logsumexp(x), paddle.special.logsumexp(x, axis=1),
            paddle.special.expm1(paddle.to_tensor([1, 2]))]


@case
def special_softmax(paddle):
    x = paddle.arange(24, dtype="float32").reshape([2, 3, 4]) / 10
    return [paddle.special.softmax(x), paddle.special.softmax(x[0]), paddle.special.softmax(x[0, 0]),
            paddle.special.softmax(x.unsqueeze(0)), paddle.special.softmax(x, dim=-1),
            paddle.special.softmax(x, 1, dtype="float64"), paddle.special.softmax(paddle.to_tensor(1.0)),
            _try(lambda: paddle.special.softmax(paddle.to_tensor([1, 2])))]


@case
def out_keyword_carries_the_result_for_autograd(paddle):
    """out= makes `out` the op's output: its stop_gradient follows the inputs, gradients flow from it to them, and
    the returned Tensor is another wrapper of it (its stop_gradient is out's, also when only out requires grad)."""
    res = []
    for f, shape in ((lambda x, o: paddle.tril(x, out=o), [2, 2]), (lambda x, o: paddle.add(x, x, out=o), [2, 2]),
                     (lambda x, o: paddle.matmul(x, x, out=o), [2, 2]), (lambda x, o: paddle.exp(x, out=o), [2, 2]),
                     (lambda x, o: paddle.clip(x, 1.5, 3.5, out=o), [2, 2]),
                     (lambda x, o: paddle.logsumexp(x, axis=1, keepdim=True, out=o), [2, 1]),
                     (lambda x, o: paddle.sum(x, axis=1, keepdim=True, out=o), [2, 1])):
        x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        x.stop_gradient = False
        o = paddle.zeros(shape)
        r = f(x, o)
        (o * 3).sum().backward()
        plain = paddle.zeros(shape)
        plain.stop_gradient = False
        q = f(paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]]), plain)
        res += [o, r.stop_gradient, r is o, x.grad, plain.stop_gradient, q.stop_gradient]
    return res


@case
def clip_tensor_bounds(paddle):
    """clip with bounds given as Tensors: each read as its one element (0-D or [1]), cast to x's dtype, no
    gradient to it; an integer x meeting a float bound is computed in float32; the method form too."""
    x = paddle.to_tensor([-1.0, 0.5, 2.0])
    x.stop_gradient = False
    m = paddle.to_tensor(-0.5)
    m.stop_gradient = False
    y = paddle.clip(x, m, 1.0)
    y.sum().backward()
    return [y, x.grad, m.grad is None, paddle.clip(x.detach(), paddle.to_tensor([-0.5]), 1.0),
            paddle.clip(x.detach(), -0.5, paddle.to_tensor(1.0)), paddle.clip(x.detach(), paddle.to_tensor(-0.5)),
            paddle.clip(x.detach(), paddle.to_tensor(-0.5, "float64"), 1.0),
            paddle.clip(paddle.to_tensor([-1, 0, 2]), paddle.to_tensor(-1), 1),
            paddle.clip(paddle.to_tensor([-1, 0, 2]), paddle.to_tensor(-0.5), 1),
            paddle.clip(paddle.to_tensor(3.0), paddle.to_tensor([-0.5]), paddle.to_tensor([1.0])),
            x.detach().clip(paddle.to_tensor([-0.5]), 1.0)]


@case
def clip_two_element_bound(paddle):
    return paddle.clip(paddle.to_tensor([-1.0, 0.5, 2.0]), paddle.to_tensor([-0.5, 0.2]), 1.0)


@case
def math_attributes_as_zero_d_tensors(paddle):
    x = paddle.to_tensor([[-1.0, 0.5], [2.0, -3.0]])
    t = paddle.to_tensor
    return [paddle.stanh(x, t(0.5), 1.0), paddle.addmm(x, x, x, beta=t(0.5), alpha=2.0), paddle.renorm(x, 2, 0, t(1.0))]


@case
def integer_attributes_as_tensors(paddle):
    """diag / diagonal take their offset, normalize its p, as 0-D Tensors (read as their value)."""
    x = paddle.to_tensor([[-1.0, 0.5, 3.0], [2.0, -3.0, 1.0], [0.0, 1.0, 2.0]])
    one = paddle.to_tensor(1)
    return [paddle.diagonal(x, one), paddle.diag(paddle.to_tensor([1.0, 2.0]), one), paddle.diag(x, one),
            paddle.nn.functional.normalize(x, p=paddle.to_tensor(1.0))]
