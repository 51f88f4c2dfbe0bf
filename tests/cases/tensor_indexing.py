"""Tensor.__getitem__ / __setitem__: every index form Paddle accepts, value casting, autograd, errors."""
import numpy as np

from tests.cases import case


def _x(paddle, dtype="int64"):
    return paddle.arange(24).reshape([2, 3, 4]).astype(dtype)


# ---------------------------------------------------------------- getitem: basic


@case
def get_ints_and_negative(paddle):
    x = _x(paddle)
    return [x[1], x[-1, -2], x[1, 2, 3], x[0][1], x[np.int64(1)]]


@case
def get_slices(paddle):
    x = _x(paddle)
    return [x[:, 1:3], x[0, ::2], x[..., 1::2], x[5:10], x[-10:1], x[:, -2:], x[1:1]]


@case
def get_negative_steps(paddle):
    x = _x(paddle)
    return [x[::-1], x[:, ::-2], x[1, 2:0:-1, ::-3], x[:, 10:-10:-1], x[:, 0:2:-1], x[..., -1:0:-2]]


@case
def get_none_and_ellipsis(paddle):
    x = _x(paddle)
    return [x[None].shape, x[None, 0, None].shape, x[..., 1], x[0, ..., None].shape, x[...].shape, x[:, None, ..., 0]]


@case
def get_slice_bounds_as_tensors(paddle):
    x = _x(paddle)
    return x[paddle.to_tensor(0):paddle.to_tensor(1), paddle.to_tensor(1)]


@case
def get_0d(paddle):
    s = paddle.to_tensor(5.0)
    return [s[None], s[...], s[None, None].shape]


# ---------------------------------------------------------------- getitem: advanced


@case
def get_int_lists(paddle):
    x = _x(paddle)
    return [x[[0, 1, 0]], x[[0, 1], [1, 2]], x[[-1, -2]], x[[]].shape, x[([0, 1], [1, 2])]]


@case
def get_nested_list_is_tensor_index(paddle):
    return _x(paddle)[[[0, 1], [1, 0]]].shape


@case
def get_advanced_placement(paddle):
    x = _x(paddle)
    return [x[[0, 1], :, [1, 2]], x[:, [0, 1], [1, 2]], x[:, [0, 1], 1], x[0, :, [0, 1]], x[..., [0, 3]]]


@case
def get_tensor_indices(paddle):
    x = _x(paddle, "float32")
    return [x[paddle.to_tensor([1, 0])], x[paddle.to_tensor(1)], x[paddle.to_tensor([[1, 0], [0, 0]])].shape,
            x[paddle.to_tensor([1, 0], dtype="int32"), 2], x[np.array([0, 1]), 1]]


@case
def get_bool_masks(paddle):
    x = _x(paddle)
    return [x[x > 20], x[paddle.to_tensor([True, False])], x[[True, False]], x[True].shape, x[False].shape,
            x[paddle.to_tensor([[True, False, True], [False, False, True]])], x[paddle.to_tensor([True, False]), 1],
            x[:, paddle.to_tensor([False, True, True])], x[np.array([False, True])]]


@case
def get_list_of_bool_and_int_is_int(paddle):
    return _x(paddle)[[True, 1]].shape


@case
def get_keeps_dtype_and_grad(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], dtype="float64", stop_gradient=False)
    return [x[0], x[:, ::-1], x[[1, 0]], x[x > 1.5]]


@case
def get_grad_flows(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0, 4.0], stop_gradient=False)
    y = x[::-1] * paddle.to_tensor([1.0, 2.0, 3.0, 4.0]) + x[[0, 0]].sum() + x[1:3].sum()
    y.sum().backward()
    return x.grad


@case
def get_view_shares_memory(paddle):
    x = paddle.arange(12).reshape([3, 4])
    a = x[0]
    b = x[:, 1:3]
    c = x[[0, 1]]
    x[0, 1] = 77
    return [a, b, c]


@case
def get_view_write_back(paddle):
    x = paddle.arange(12).reshape([3, 4])
    a = x[1]
    a[2] = 99
    return x


# ---------------------------------------------------------------- getitem: errors


@case
def get_int_out_of_range(paddle):
    return _x(paddle)[2]


@case
def get_negative_out_of_range(paddle):
    return _x(paddle)[0, -4]


@case
def get_too_many_indices(paddle):
    return _x(paddle)[0, 0, 0, 0]


@case
def get_index_0d(paddle):
    return paddle.to_tensor(5)[0]


@case
def get_zero_step(paddle):
    return _x(paddle)[::0]


@case
def get_two_ellipses(paddle):
    return _x(paddle)[..., 0, ...]


@case
def get_float_index(paddle):
    return _x(paddle)[1.0]


@case
def get_float_tensor_index(paddle):
    return _x(paddle)[paddle.to_tensor([1.0])]


@case
def get_int16_tensor_index(paddle):
    return _x(paddle)[paddle.to_tensor([1], dtype="int16")]


@case
def get_string_index(paddle):
    return _x(paddle)["a"]


@case
def get_bool_mask_wrong_shape(paddle):
    return _x(paddle)[paddle.to_tensor([True, False, True])]


# ---------------------------------------------------------------- setitem


def _y(paddle, dtype="int64"):
    return paddle.arange(12).reshape([3, 4]).astype(dtype)


@case
def set_basic_forms(paddle):
    out = []
    for idx, val in [(0, 5), ((1, 2), -1), ((slice(None), 1), 7), (slice(0, 2), 9), ((Ellipsis, 0), 5),
                     ((None, 0), 3), (True, 1), ((slice(None, None, 2), slice(1, None, 2)), 0)]:
        y = _y(paddle)
        y[idx] = val
        out.append(y)
    return out


@case
def set_tensor_values_broadcast(paddle):
    y = _y(paddle)
    y[:, 1] = paddle.to_tensor([7])
    y[0:2] = paddle.to_tensor([1, 2, 3, 4])
    y[2] = paddle.to_tensor([[10, 20, 30, 40]])
    z = _y(paddle, "float32")
    z[:] = paddle.ones([1, 3, 4])
    return [y, z]


@case
def set_negative_steps(paddle):
    a = _y(paddle)
    a[::-1, 0] = paddle.to_tensor([10, 20, 30])
    b = _y(paddle)
    b[::-2] = paddle.to_tensor([[1, 2, 3, 4], [5, 6, 7, 8]])
    c = _y(paddle, "float32")
    c[1, ::-1] = 0.5
    d = _y(paddle)
    d[2:0:-1, 3:0:-2] = paddle.to_tensor([[1, 2], [3, 4]])
    return [a, b, c, d]


@case
def set_masks_and_advanced(paddle):
    a = _y(paddle)
    a[a > 6] = 0
    b = _y(paddle)
    b[b > 8] = paddle.to_tensor([100, 200, 300])
    c = _y(paddle)
    c[paddle.to_tensor([True, False, True])] = paddle.to_tensor([1, 2, 3, 4])
    d = _y(paddle)
    d[[0, 2], [1, 3]] = paddle.to_tensor([50, 60])
    e = _y(paddle)
    e[[0, 2]] = -1
    f = _y(paddle, "float32")
    f[paddle.to_tensor([1]), paddle.to_tensor([2])] = 3.5
    return [a, b, c, d, e, f]


@case
def set_value_dtype_cast(paddle):
    a = _y(paddle)
    a[0] = 1.7
    a[1] = -1.7
    a[2] = True
    b = _y(paddle)
    b[0] = paddle.to_tensor([1.5, 2.5, 3.5, 4.5])
    c = _y(paddle, "float32")
    c[0] = 3
    c[1] = paddle.to_tensor([1.0, 2.0, 3.0, 4.0], dtype="float64")
    d = _y(paddle)
    d[0] = np.array([1, 2, 3, 4])
    d[1] = np.array([1.5, 2, 3, 4])
    d[2, 0] = np.float64(9.5)  # a float subclass: accepted
    e = paddle.zeros([2, 3], dtype="bfloat16")
    e[0] = 1.5
    f = paddle.zeros([2], dtype="bool")
    f[1] = 1
    return [a, b, c, d, e, f]


@case
def set_returns_none_and_keeps_identity(paddle):
    y = _y(paddle)
    r = y.__setitem__(0, 1)
    return [r, y.shape, y.dtype]


@case
def set_grad_to_value(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    v = paddle.to_tensor(5.0, stop_gradient=False)
    x[1] = v * 2
    (x * x).sum().backward()
    return [x, x.stop_gradient, v.grad]


@case
def set_grad_through_overwritten(paddle):
    a = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    x = a * 1
    x[0] = 10.0
    (x * paddle.to_tensor([1.0, 2.0, 3.0])).sum().backward()
    return [a.grad, x.stop_gradient]


@case
def set_grad_negative_step(paddle):
    a = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    v = paddle.to_tensor([7.0, 8.0], stop_gradient=False)
    x = a * 1
    x[2:0:-1] = v
    (x * paddle.to_tensor([1.0, 2.0, 3.0])).sum().backward()
    return [x, a.grad, v.grad]


@case
def set_on_leaf_requiring_grad_fails(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    x[0] = 5.0


@case
def set_on_leaf_under_no_grad(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    with paddle.no_grad():
        x[0] = 5.0
    return x


@case
def set_list_value_fails(paddle):
    y = _y(paddle)
    y[0] = [1, 2, 3, 4]


@case
def set_numpy_int_scalar_fails(paddle):
    y = _y(paddle)
    y[0] = np.int32(9)


@case
def set_none_value_fails(paddle):
    y = _y(paddle)
    y[0] = None


@case
def set_bad_shape_fails(paddle):
    y = _y(paddle, "float32")
    y[0:2] = paddle.ones([3])


@case
def set_bad_shape_bigger_fails(paddle):
    y = _y(paddle, "float32")
    y[0] = paddle.ones([2, 4])


@case
def set_out_of_range_fails(paddle):
    y = _y(paddle)
    y[5] = 1


@case
def set_float_index_fails(paddle):
    y = _y(paddle)
    y[paddle.to_tensor([0.0])] = 1
