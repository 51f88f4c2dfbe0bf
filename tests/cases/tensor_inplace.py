"""In-place Tensor methods: the torch-kernel fast path (operands of x's dtype and shape) and the cases that
leave it (promotion, integer inputs, broadcasting, autograd, views, static mode), with Paddle's checks."""
from tests.cases import case


def _t(paddle, v, dtype="float32", **kw):
    return paddle.to_tensor(v, dtype=dtype, **kw)


@case
def binary_inplace_same_dtype(paddle):
    x = _t(paddle, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    ids = [id(x)]
    x.add_(_t(paddle, [1.0, 2.0, 3.0]))
    x.subtract_(_t(paddle, [[0.5], [1.5]]))
    x.multiply_(_t(paddle, 2.0))
    x.divide_(_t(paddle, [4.0, 2.0, 1.0]))
    ids.append(id(x))
    return [x, ids[0] == ids[1], x.inplace_version]


@case
def binary_inplace_keywords_and_alpha(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0], "float64")
    x.add_(y=_t(paddle, [1.0, 1.0, 1.0], "float64"))
    x.add_(other=_t(paddle, [1.0, 1.0, 1.0], "float64"), alpha=3)
    x.subtract_(_t(paddle, [1.0, 1.0, 1.0], "float64"), alpha=0.5)
    x.divide_(_t(paddle, [2.0, 2.0, 2.0], "float64"), rounding_mode="floor")
    return x


@case
def binary_inplace_promotes_dtype(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    x.add_(_t(paddle, [1.0, 2.0, 3.0], "float64"))
    return x


@case
def binary_inplace_integer(paddle):
    x = _t(paddle, [4, 9, -7], "int64")
    x.add_(_t(paddle, [1, 1, 1], "int64"))
    x.multiply_(_t(paddle, [2, 2, 2], "int64"))
    y = _t(paddle, [4, 9, -7], "int64")
    y.divide_(_t(paddle, [2, 2, 2], "int64"))
    return [x, y]


@case
def binary_inplace_broadcast_changing_shape_fails(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    x.add_(_t(paddle, [[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]]))


@case
def binary_inplace_multiply_broadcast_fails(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    x.multiply_(_t(paddle, [[2.0]]))


@case
def binary_inplace_shapes_mismatch_fails(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    x.add_(_t(paddle, [1.0, 2.0, 3.0, 4.0]))


@case
def binary_inplace_python_number_fails(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    x.add_(1.5)


@case
def binary_inplace_mixed_int_float_fails(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    x.add_(_t(paddle, [2], "int64"))


@case
def unary_inplace_float_and_int(paddle):
    x = _t(paddle, [1.0, 4.0, 9.0])
    x.sqrt_()
    x.exp_()
    x.tanh_()
    y = _t(paddle, [1.5, -2.5, 0.2], "float64")
    y.floor_()
    z = _t(paddle, [4, 9], "int64")
    z.exp_()
    return [x, y, z, x.inplace_version]


@case
def inplace_version_counts(paddle):
    x = _t(paddle, [1.0, 2.0])
    versions = [x.inplace_version]
    x.add_(x)
    versions.append(x.inplace_version)
    x.exp_()
    versions.append(x.inplace_version)
    x.multiply_(_t(paddle, [1.0, 2.0]))
    versions.append(x.inplace_version)
    return versions


@case
def inplace_on_view_updates_base(paddle):
    a = _t(paddle, [1.0, 2.0, 3.0])
    v = a[1:]
    v.add_(_t(paddle, [10.0, 10.0]))
    v.sqrt_()
    return [a, v]


@case
def inplace_leaf_requiring_grad_fails(paddle):
    x = _t(paddle, [1.0, 2.0], stop_gradient=False)
    x.multiply_(_t(paddle, [2.0, 2.0]))


@case
def inplace_unary_leaf_requiring_grad_fails(paddle):
    x = _t(paddle, [1.0, 2.0], stop_gradient=False)
    x.exp_()


@case
def inplace_leaf_under_no_grad(paddle):
    x = _t(paddle, [1.0, 2.0], stop_gradient=False)
    with paddle.no_grad():
        x.add_(_t(paddle, [1.0, 1.0]))
        x.sqrt_()
    return [x, x.stop_gradient]


@case
def inplace_gradient_flows(paddle):
    a = _t(paddle, [1.0, 2.0], stop_gradient=False)
    b = a * 2
    b.add_(a)
    b.multiply_(a)
    c = a * 1
    c.tanh_()
    (b.sum() + c.sum()).backward()
    return [b, a.grad]


@case
def inplace_comparison_broadcast_fails(paddle):
    x = _t(paddle, [1.0, 2.0])
    x.less_than_(_t(paddle, [[1.0, 2.0], [3.0, 4.0]]))
