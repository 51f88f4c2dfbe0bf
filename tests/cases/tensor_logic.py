"""Comparison, logical and bitwise ops, equal_all / allclose / isclose (paddle.tensor.logic)."""
import numpy as np

from tests.cases import case


def _ints(paddle):
    return paddle.to_tensor([[1, 5, 3], [4, 2, 6]])


@case
def compare_same_dtype(paddle):
    x = _ints(paddle)
    y = paddle.to_tensor([[1, 2, 3], [6, 5, 4]])
    return [paddle.equal(x, y), paddle.not_equal(x, y), paddle.less_than(x, y), paddle.less_equal(x, y),
            paddle.greater_than(x, y), paddle.greater_equal(x, y)]


@case
def compare_aliases(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    y = paddle.to_tensor([2.0, 2.0, 2.0])
    return [paddle.gt(x, y), paddle.ge(x, y), paddle.lt(x, y), paddle.le(x, y), paddle.eq(x, y), paddle.ne(x, y),
            paddle.less(x, y), paddle.greater(x, y)]


@case
def compare_with_python_scalar(paddle):
    x = paddle.to_tensor([1.5, 2.0, 3.5])
    return [paddle.equal(x, 2.0), paddle.equal(x, 2), x > 2, x <= 2.0, x == 3.5, x != 1.5]


@case
def compare_broadcast(paddle):
    x = paddle.to_tensor([[1.0], [2.0], [3.0]])
    y = paddle.to_tensor([1.0, 2.0, 3.0, 4.0])
    return [paddle.less_than(x, y), paddle.equal(x, y)]


@case
def compare_float_int_mixed(paddle):
    return paddle.equal(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([1, 3]))


@case
def compare_0d_with_vector(paddle):
    return paddle.greater_than(paddle.to_tensor([1, 2, 3]), paddle.to_tensor(2.0))


@case
def compare_nan(paddle):
    x = paddle.to_tensor([float("nan"), 1.0])
    return [paddle.equal(x, x), paddle.not_equal(x, x), paddle.less_than(x, x)]


@case
def compare_methods(paddle):
    x = paddle.to_tensor([1, 2, 3], dtype="int32")
    y = paddle.to_tensor([3, 2, 1], dtype="int32")
    return [x.equal(y), x.not_equal(y), x.less_than(y), x.greater_equal(y), x.less_equal(y), x.greater_than(y)]


@case
def compare_bool_and_float16(paddle):
    a = paddle.to_tensor([True, False])
    b = paddle.to_tensor([1.0, 2.0], dtype="float16")
    return [paddle.equal(a, a), paddle.less_than(b, b), paddle.equal(b, b)]


@case
def compare_stop_gradient(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    return paddle.equal(x, x)


@case
def equal_all_cases(paddle):
    x = paddle.to_tensor([1, 2, 3])
    return [paddle.equal_all(x, paddle.to_tensor([1, 2, 3])), paddle.equal_all(x, paddle.to_tensor([1, 2, 4])),
            paddle.equal_all(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([1.0, 2.0])),
            paddle.equal_all(paddle.to_tensor(1.0), paddle.to_tensor(1.0))]


@case
def equal_all_shape_mismatch(paddle):
    return paddle.equal_all(paddle.to_tensor([1, 2, 3]), paddle.to_tensor([1, 2]))


@case
def equal_all_method(paddle):
    x = paddle.to_tensor([[1.0, 2.0]])
    return x.equal_all(x)


@case
def allclose_basic(paddle):
    x = paddle.to_tensor([10000.0, 1e-07])
    y = paddle.to_tensor([10000.1, 1e-08])
    return [paddle.allclose(x, y), paddle.allclose(x, y, rtol=1e-05, atol=1e-08),
            paddle.allclose(x, x), x.allclose(y, rtol=0.1)]


@case
def allclose_nan(paddle):
    x = paddle.to_tensor([1.0, float("nan")])
    y = paddle.to_tensor([1.0, float("nan")])
    return [paddle.allclose(x, y), paddle.allclose(x, y, equal_nan=True)]


@case
def allclose_float64(paddle):
    x = paddle.to_tensor([1.0, 2.0], dtype="float64")
    return paddle.allclose(x, x + 1e-9)


@case
def allclose_int_rejected(paddle):
    x = paddle.to_tensor([1, 2])
    return paddle.allclose(x, x)


@case
def isclose_basic(paddle):
    x = paddle.to_tensor([10000.0, 1e-07, float("nan")])
    y = paddle.to_tensor([10000.1, 1e-08, float("nan")])
    return [paddle.isclose(x, y), paddle.isclose(x, y, equal_nan=True), x.isclose(y, rtol=0.5, atol=0.1)]


@case
def isclose_float64_2d(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], dtype="float64")
    return paddle.isclose(x, x + 1e-6, rtol=0.0, atol=1e-5)


_CLOSE_X = [1.0, 2.0, float("nan"), float("inf"), -float("inf"), 0.0, 100.0, 3.0]
_CLOSE_Y = [1.0, 2.5, float("nan"), float("inf"), float("inf"), 1e-9, 100.001, 3.00003]


@case
def isclose_paddles_rule(paddle):
    """Paddle's kernel: x == y, or |x - y| <= atol + rtol * |y| with no finiteness test (-inf is close to inf
    where the bound is inf), negative tolerances taken as given; a NaN only to a NaN under equal_nan."""
    x, y = paddle.to_tensor(_CLOSE_X), paddle.to_tensor(_CLOSE_Y)
    x64, y64 = x.astype("float64"), y.astype("float64")
    return [paddle.isclose(x, y), paddle.isclose(x, y, equal_nan=True), paddle.isclose(x, y, rtol=-1.0),
            paddle.isclose(x, y, rtol=0.5, atol=-1.0), paddle.isclose(x, y, rtol=-0.5, atol=-1.0),
            paddle.isclose(x64, y64, rtol=0.3), paddle.isclose(x, y, rtol=1e-5, atol=0.0),
            paddle.isclose(x, y, rtol=paddle.to_tensor(0.1, "float64")), paddle.isclose(x, y, rtol="0.1"),
            paddle.isclose(paddle.to_tensor(1.0), paddle.to_tensor(1.5), atol=0.6),
            paddle.isclose(paddle.zeros([0]), paddle.zeros([0]))]


@case
def allclose_paddles_rule(paddle):
    x, y = paddle.to_tensor(_CLOSE_X[3:5]), paddle.to_tensor(_CLOSE_Y[3:5])
    a, b = paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([1.0, 2.1])
    ints = paddle.to_tensor([3, -5], "int32"), paddle.to_tensor([1, -2], "int32")
    bools = paddle.to_tensor([True]), paddle.to_tensor([False])
    return [paddle.allclose(x, y), paddle.allclose(a, a, rtol=-1.0), paddle.allclose(a, b, rtol=-1.0, atol=5.0),
            paddle.allclose(a, b, rtol=paddle.to_tensor(0.1)), paddle.allclose(a, b, rtol=np.float32(0.1)),
            paddle.allclose(a, b, rtol=np.float64(0.01)), paddle.allclose(*ints, rtol=0.5, atol=0.6),
            paddle.allclose(*ints, atol=3.0), paddle.allclose(*bools), paddle.allclose(*bools, rtol=0.0, atol=0.0),
            paddle.allclose(paddle.to_tensor([1, 5]), paddle.to_tensor([1, 2]), atol=2.9999)]


@case
def allclose_int_rtol(paddle):
    return paddle.allclose(paddle.ones([2]), paddle.ones([2]), rtol=1)


@case
def allclose_bool_atol(paddle):
    return paddle.allclose(paddle.ones([2]), paddle.ones([2]), atol=True)


@case
def allclose_int_tensor_rtol(paddle):
    return paddle.allclose(paddle.ones([2]), paddle.ones([2]), rtol=paddle.to_tensor(1))


@case
def allclose_two_element_rtol(paddle):
    return paddle.allclose(paddle.ones([2]), paddle.ones([2]), rtol=paddle.to_tensor([0.1, 0.2]))


@case
def allclose_none_atol(paddle):
    return paddle.allclose(paddle.ones([2]), paddle.ones([2]), atol=None)


@case
def allclose_int_equal_nan(paddle):
    return paddle.allclose(paddle.ones([2]), paddle.ones([2]), equal_nan=1)


@case
def allclose_list_operand(paddle):
    return paddle.allclose(paddle.ones([2]), [1.0, 1.0])


@case
def allclose_numpy_operand(paddle):
    return paddle.allclose(np.ones([2], "float32"), paddle.ones([2]))


@case
def allclose_rank_mismatch(paddle):
    return paddle.allclose(paddle.ones([2, 2]), paddle.ones([2]))


@case
def allclose_shape_before_tolerance_and_dtype(paddle):
    return paddle.allclose(paddle.ones([3]), paddle.ones([2], "float64"), rtol=1)


@case
def allclose_tolerance_before_dtype(paddle):
    return paddle.allclose(paddle.ones([2]), paddle.ones([2], "float64"), rtol=1)


@case
def allclose_dtype_mismatch(paddle):
    return paddle.allclose(paddle.ones([2], "int32"), paddle.ones([2], "int64"))


@case
def isclose_float32_tensor_rtol(paddle):
    return paddle.isclose(paddle.ones([2]), paddle.ones([2]), rtol=paddle.to_tensor(0.1))


@case
def isclose_int_tolerances(paddle):
    return paddle.isclose(paddle.ones([2]), paddle.ones([2]), rtol=1, atol=1)


@case
def isclose_numpy_bool_equal_nan(paddle):
    return paddle.isclose(paddle.ones([2]), paddle.ones([2]), equal_nan=np.bool_(True))


@case
def isclose_scalar_operand(paddle):
    return paddle.isclose(paddle.ones([2]), 1.0)


@case
def isclose_extent_mismatch(paddle):
    return paddle.isclose(paddle.ones([3]), paddle.ones([2]))


@case
def logical_ops_bool(paddle):
    a = paddle.to_tensor([True, False, True, False])
    b = paddle.to_tensor([True, True, False, False])
    return [paddle.logical_and(a, b), paddle.logical_or(a, b), paddle.logical_xor(a, b), paddle.logical_not(a)]


@case
def logical_ops_numeric(paddle):
    a = paddle.to_tensor([0, 1, 2, 0])
    b = paddle.to_tensor([0.0, 0.0, 3.5, 1.0])
    return [paddle.logical_and(a, a), paddle.logical_or(b, b), paddle.logical_not(b), paddle.logical_xor(a, a)]


@case
def logical_ops_broadcast(paddle):
    a = paddle.to_tensor([[True], [False]])
    b = paddle.to_tensor([True, False, True])
    return [paddle.logical_and(a, b), a.logical_or(b), a.logical_xor(b), b.logical_not()]


@case
def logical_mixed_dtypes(paddle):
    return paddle.logical_and(paddle.to_tensor([1, 0]), paddle.to_tensor([True, True]))


@case
def bitwise_ints(paddle):
    x = paddle.to_tensor([-5, -1, 7])
    y = paddle.to_tensor([-2, 4, 3])
    return [paddle.bitwise_and(x, y), paddle.bitwise_or(x, y), paddle.bitwise_xor(x, y), paddle.bitwise_not(x),
            paddle.bitwise_invert(x)]


@case
def bitwise_bool_and_uint8(paddle):
    a = paddle.to_tensor([True, False])
    u = paddle.to_tensor([1, 255], dtype="uint8")
    return [paddle.bitwise_and(a, a), paddle.bitwise_not(a), paddle.bitwise_not(u), paddle.bitwise_xor(u, u),
            ~a, a | a, u & u, u ^ u]


@case
def bitwise_python_scalar_rejected(paddle):
    return paddle.to_tensor([1, 2]) & 1


@case
def bitwise_reflected_scalar(paddle):
    return True & paddle.to_tensor([True, False])


@case
def allclose_dtype_mismatch(paddle):
    x = paddle.to_tensor([1.0, 2.0])
    return paddle.allclose(x, x.astype("float64"))


@case
def allclose_shape_mismatch(paddle):
    return paddle.allclose(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([1.0]))


@case
def equal_all_dtype_mismatch(paddle):
    return paddle.equal_all(paddle.to_tensor([1, 2]), paddle.to_tensor([1.0, 2.0]))


@case
def bitwise_float_rejected(paddle):
    x = paddle.to_tensor([1.0])
    return paddle.bitwise_and(x, x)


@case
def bitwise_methods(paddle):
    x = paddle.to_tensor([12, 10], dtype="int32")
    return [x.bitwise_and(x), x.bitwise_or(paddle.to_tensor([1, 1], dtype="int32")), x.bitwise_not(), x.bitwise_xor(x)]


@case
def is_empty_and_is_tensor(paddle):
    return [paddle.is_empty(paddle.zeros([0, 3])), paddle.is_empty(paddle.zeros([2])), paddle.is_tensor(paddle.zeros([1])),
            paddle.is_tensor(np.zeros(2)), paddle.is_tensor(3), paddle.zeros([2]).is_empty()]


@case
def inplace_compare(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    y = paddle.to_tensor([2.0, 2.0, 2.0])
    x.less_than_(y)
    return x


@case
def inplace_logical(paddle):
    x = paddle.to_tensor([True, False])
    x.logical_not_()
    y = paddle.to_tensor([5, 3])
    y.bitwise_and_(paddle.to_tensor([1, 1]))
    return [x, y]
