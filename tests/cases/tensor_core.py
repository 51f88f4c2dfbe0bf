"""The Tensor object itself: creation dtypes, repr, attributes, operators, promotion, autograd basics."""
import numpy as np

from tests.cases import case

# ---------------------------------------------------------------- to_tensor dtype inference


@case
def to_tensor_python_scalars(paddle):
    return [paddle.to_tensor(v) for v in (1, 1.5, True, 1 + 2j)]


@case
def to_tensor_lists(paddle):
    return [paddle.to_tensor(v) for v in ([1, 2], [1.0, 2], [[1], [2]], (1, 2), [], [True, False])]


@case
def to_tensor_numpy_keeps_dtype(paddle):
    return [paddle.to_tensor(np.array([1.0, 2.0])), paddle.to_tensor(np.float32(1)), paddle.to_tensor(np.int32(3)),
            paddle.to_tensor(np.array([1, 2], dtype=np.int8)), paddle.to_tensor([np.float64(1)])]


@case
def to_tensor_of_tensors(paddle):
    return paddle.to_tensor([paddle.to_tensor(1.0), paddle.to_tensor(2.0)])


@case
def to_tensor_dtype_and_stop_gradient(paddle):
    x = paddle.to_tensor([1, 2], dtype="float32", stop_gradient=False)
    return x, x.stop_gradient, paddle.to_tensor(x).stop_gradient


@case
def to_tensor_bad_data(paddle):
    return paddle.to_tensor(object())


# ---------------------------------------------------------------- repr


@case
def repr_float_vector(paddle):
    return repr(paddle.to_tensor([0.5, 1.0, 1.5]))


@case
def repr_negative_and_mixed(paddle):
    return repr(paddle.to_tensor([[-1.5, 2.0], [3.25, -4.0]]))


@case
def repr_int_bool_complex_0d(paddle):
    return [repr(paddle.to_tensor(3)), repr(paddle.to_tensor([True, False])), repr(paddle.to_tensor([1 + 2j, -3j])),
            repr(paddle.to_tensor(2.5)), repr(paddle.to_tensor([], dtype="float32"))]


@case
def repr_large_summarised(paddle):
    return repr(paddle.arange(2000).reshape([40, 50]).astype("float32"))


@case
def repr_wraps_long_rows(paddle):
    return repr(paddle.ones([3, 30]))


@case
def repr_3d(paddle):
    return repr(paddle.arange(24).reshape([2, 3, 4]))


@case
def repr_stop_gradient_false(paddle):
    return repr(paddle.to_tensor([1.0, 2.0], stop_gradient=False) * 2)


@case
def repr_printoptions(paddle):
    paddle.set_printoptions(precision=3, sci_mode=True)
    s = repr(paddle.to_tensor([1.23456, 100.5]))
    paddle.set_printoptions(precision=8, sci_mode=False)
    return s


@case
def repr_bfloat16_float16_float64(paddle):
    x = paddle.to_tensor([1.5, 2.25])
    return [repr(x.astype("bfloat16")), repr(x.astype("float16")), repr(x.astype("float64"))]


@case
def repr_nan_inf(paddle):
    return repr(paddle.to_tensor([float("nan"), float("inf"), -float("inf"), 1.5]))


@case
def str_of_dtype_and_place(paddle):
    x = paddle.to_tensor([1.0])
    return [str(x.dtype), repr(x.dtype), str(paddle.int64), str(x.place), str(x.shape), repr(x.shape)]


# ---------------------------------------------------------------- attributes


@case
def shape_size_ndim(paddle):
    x = paddle.zeros([2, 3])
    return [list(x.shape), x.shape == [2, 3], x.size, x.ndim, x.dim(), x.size == 6, x.shape[1:]]


@case
def dtype_equality(paddle):
    x = paddle.to_tensor([1, 2])
    return [x.dtype == paddle.int64, x.dtype == paddle.float32, x.dtype == "int64", paddle.float32 == paddle.float32]


@case
def default_dtype_switch(paddle):
    paddle.set_default_dtype("float64")
    r = [paddle.to_tensor(1.5), paddle.zeros([2]), paddle.get_default_dtype()]
    paddle.set_default_dtype("float32")
    return r


@case
def numpy_item_tolist(paddle):
    x = paddle.to_tensor([[1.5, 2.0]])
    return [x.numpy(), x[0, 1].item(), x.tolist(), float(paddle.to_tensor(2.5)), int(paddle.to_tensor(3))]


@case
def item_of_many_elements_fails(paddle):
    return paddle.to_tensor([1, 2]).item()


@case
def len_and_iter(paddle):
    x = paddle.to_tensor([[1, 2], [3, 4]])
    return [len(x), [r for r in x]]


@case
def astype_and_cast(paddle):
    x = paddle.to_tensor([1.7, -2.2])
    return [x.astype("int32"), x.astype(paddle.float64), paddle.cast(x, "bool"), x.astype(np.float16)]


@case
def transpose_property_T(paddle):
    return paddle.arange(6).reshape([2, 3]).T


# ---------------------------------------------------------------- operators and promotion


@case
def arithmetic_int_tensor(paddle):
    x = paddle.to_tensor([-7, 5, 3])
    return [x + 1, x - 2, x * 3, x / 2, x // 2, x % 3, x ** 2, -x, abs(x), x + 1.5]


@case
def arithmetic_reflected(paddle):
    x = paddle.to_tensor(2)
    f = paddle.to_tensor(2.0)
    return [3 + x, 3 - x, 3 * x, 3 / x, 3 // x, 3 % x, 3 ** x, 3 ** f, 3.5 - x]


@case
def float_mod_and_floordiv_signs(paddle):
    x = paddle.to_tensor([-7.5, 7.5])
    return [x % 2, x // 2, paddle.to_tensor([-7, 7]) % -3]


@case
def promotion_float_float(paddle):
    a = paddle.ones([2], dtype="float32")
    return [a + paddle.ones([2], dtype="float64"), a + paddle.ones([2], dtype="float16"),
            paddle.ones([2], dtype="bfloat16") + paddle.ones([2], dtype="float16")]


@case
def promotion_int_float_tensors_fail(paddle):
    return paddle.ones([2], dtype="int32") + paddle.ones([2], dtype="float32")


@case
def promotion_int32_int64_fail(paddle):
    return paddle.ones([2], dtype="int32") + paddle.ones([2], dtype="int64")


@case
def promotion_with_0d_tensor(paddle):
    i32 = paddle.ones([2], dtype="int32")
    return [i32 + paddle.to_tensor(2.0), i32 + paddle.to_tensor(2), paddle.to_tensor(2) + i32,
            paddle.ones([2]) + paddle.to_tensor(2.0, dtype="float64"), paddle.to_tensor(True) + i32]


@case
def promotion_complex_real(paddle):
    return [paddle.ones([2], dtype="complex64") + paddle.ones([2], dtype="float64"),
            paddle.ones([2], dtype="int32") + paddle.ones([2], dtype="complex64")]


@case
def comparison_ops(paddle):
    x = paddle.to_tensor([1, 2, 3])
    return [x == 2, x != 2, x < 2, x <= 2, x > 2, x >= 2, 2 < x]


@case
def comparison_mixed_dtypes_fail(paddle):
    return paddle.to_tensor([1, 2]) == paddle.to_tensor([1.0, 2.0])


@case
def bitwise_and_logical(paddle):
    a = paddle.to_tensor([True, False, True])
    b = paddle.to_tensor([True, True, False])
    i = paddle.to_tensor([6, 3])
    return [a & b, a | b, a ^ b, ~a, ~i, i & paddle.to_tensor([3, 1]), i << 1, i >> 1]


@case
def broadcast_mismatch_fails(paddle):
    return paddle.to_tensor([1, 2]) + paddle.to_tensor([1, 2, 3])


@case
def matmul_operator(paddle):
    return paddle.arange(6, dtype="float32").reshape([2, 3]) @ paddle.ones([3])


@case
def bool_of_tensor(paddle):
    return [bool(paddle.to_tensor([1])), bool(paddle.to_tensor(0.0))]


@case
def bool_of_many_fails(paddle):
    return bool(paddle.to_tensor([1, 2]))


# ---------------------------------------------------------------- autograd basics


@case
def backward_and_grad(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = (x * x).sum()
    y.backward()
    return [y, x.grad, y.stop_gradient]


@case
def backward_non_scalar_fills_ones(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (x * 3).backward()
    return x.grad


@case
def grad_accumulates_and_clears(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (x * 2).sum().backward()
    (x * 2).sum().backward()
    g = x.grad.numpy().copy()
    x.clear_grad()
    return [g, x.grad]


@case
def stop_gradient_propagation(paddle):
    a = paddle.to_tensor([1.0], stop_gradient=False)
    b = paddle.to_tensor([2.0])
    return [(a + b).stop_gradient, (b * 2).stop_gradient, a.detach().stop_gradient]


@case
def stop_gradient_cuts_history(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * 2
    y.stop_gradient = True
    z = x * 3 + y
    z.sum().backward()
    return x.grad


@case
def no_grad_context(paddle):
    x = paddle.to_tensor([1.0], stop_gradient=False)
    with paddle.no_grad():
        y = x * 2
    return y.stop_gradient


@case
def backward_on_stop_gradient_fails(paddle):
    paddle.to_tensor([1.0]).sum().backward()


@case
def inplace_methods(paddle):
    x = paddle.to_tensor([1.0, 4.0])
    y = x.add_(paddle.to_tensor([1.0, 1.0]))
    x.sqrt_()
    x.scale_(2.0)
    return [x, y is x]


@case
def inplace_on_leaf_requiring_grad_fails(paddle):
    x = paddle.to_tensor([1.0], stop_gradient=False)
    x.add_(paddle.to_tensor([1.0]))


@case
def out_keyword(paddle):
    out = paddle.zeros([2])
    r = paddle.add(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 4.0]), out=out)
    return [r, out]


@case
def torch_style_keywords(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    return [paddle.sum(input=x, dim=0), paddle.add(x, x, alpha=2), x.sum(dim=1, keepdim=True), paddle.cat([x, x], 0)]


@case
def setitem_getitem_basic(paddle):
    x = paddle.arange(12).reshape([3, 4])
    a = x[1]
    b = x[:, 1:3]
    c = x[-1, ::2]
    x[0, 0] = 100
    x[1] = paddle.to_tensor([7, 7, 7, 7])
    return [a, b, c, x]


# ---------------------------------------------------------------- intrinsic methods and attributes


@case
def layout_and_memory_attributes(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    return [str(x.type), repr(x.type), x.layout, x.stride(), x.get_strides(), x.strides, x.offset, x.itemsize,
            x.element_size(), x.device, x.is_contiguous(), x.inplace_version, x.is_leaf]


@case
def tensor_to_dtype_and_device(paddle):
    x = paddle.to_tensor([[1.5, 2.0]])
    return [x.to("float64"), x.to("cpu", "int32"), x.to(dtype="float16"), x.to(paddle.to_tensor([1]))]


@case
def to_and_astype_copies_and_stop_gradient(paddle):
    # integer results of a tensor that needs gradients keep stop_gradient False; `to` copies even for the same
    # dtype, `astype` returns the tensor itself then, paddle.cast copies
    x = paddle.to_tensor([1.5, 2.0], stop_gradient=False)
    outs = [x.to("int32"), x.to(paddle.int16), x.to("cpu", "int64"), x.to(paddle.to_tensor([1], dtype="int32")),
            x.astype("int32"), paddle.cast(x, "int64"), x.to("float64")]
    return [[o.dtype, o.stop_gradient] for o in outs] + [
        x.to("float32") is x, x.astype("float32") is x, paddle.cast(x, "float32") is x, x.to("cpu") is x]


@case
def new_factories_follow_the_tensor(paddle):
    x = paddle.to_tensor([1.0, 2.0])
    return [x.new_full([2], 3), x.new_ones([2]), x.new_zeros((2, 3), dtype="int32"), x.new_empty([2, 1]).shape]


@case
def inplace_fills(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])
    return [x.clone().zero_(), x.clone().fill_(7), x.clone().fill_diagonal_(0.5),
            x.clone().fill_diagonal_(-1.0, offset=1), paddle.zeros([5, 2]).fill_diagonal_(1.0, wrap=True)]


@case
def copy_and_set_value(paddle):
    x = paddle.zeros([2])
    x.copy_(paddle.to_tensor([1.0, 2.0]))
    y = paddle.zeros([2])
    y.set_value(paddle.to_tensor([3.0, 4.0]))
    return [x, y]


@case
def set_value_shape_mismatch_fails(paddle):
    paddle.zeros([2]).set_value(paddle.ones([3]))


@case(random=True)
def random_inplace_fills_keep_shape_and_dtype(paddle):
    x = paddle.zeros([3, 2])
    return [x.uniform_(), x.normal_(), x.exponential_(), x.cauchy_(), x.log_normal_()]


@case
def dtype_shorthand_methods(paddle):
    x = paddle.to_tensor([1.5, -2.5])
    return [str(getattr(x, m)().dtype) for m in ("float", "double", "half", "bfloat16", "int", "long", "short",
                                                  "char", "byte", "bool")]


@case
def apply_function(paddle):
    x = paddle.to_tensor([1.0, 2.0])
    return x.apply(lambda t: t * 2)


@case
def apply_on_grad_tensor_fails(paddle):
    paddle.to_tensor([1.0], stop_gradient=False).apply(lambda t: t)


@case
def format_0d(paddle):
    return [f"{paddle.to_tensor(2.5):.3f}", f"{paddle.to_tensor(3):>4}"]


@case
def hook_sees_grad_and_can_replace_it(paddle):
    seen = []
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    x.register_hook(lambda g: seen.append(g) or None)
    y = x * 3
    y.register_hook(lambda g: g * 2)
    y.sum().backward()
    return [seen[0], x.grad]


@case
def retain_grads_on_intermediate(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * 2
    y.retain_grads()
    (y * y).sum().backward()
    return [y.grad, x.grad]


@case
def version_strings(paddle):
    v = paddle.version
    return [paddle.__version__, v.full_version, v.major, v.minor, v.patch, v.rc, v.is_tagged, v.xpu_xre(),
            v.tensorrt(), v.cuda_archs()]


@case
def reconstruct_from(paddle):
    t1 = paddle.to_tensor([1.0, 3.0], stop_gradient=False)
    t2 = paddle.to_tensor([2.0])
    t1.reconstruct_from_(t2)
    t2[0] = 5.0  # shares t2's data
    a = paddle.to_tensor([1, 2])
    a.reconstruct_from_(paddle.to_tensor([1.5]))
    c = paddle.to_tensor([1.0], stop_gradient=False) * 2
    d = paddle.to_tensor([7.0])
    d.reconstruct_from_(c)
    errors = []
    try:
        t1.reconstruct_from_(3)
    except Exception as e:  # noqa: BLE001 - the error type is the answer
        errors.append(type(e).__name__)
    return [t1, a, d, errors]
