"""Creation: to_tensor edges, zeros/ones/full/empty(+_like), arange, linspace, eye, diag, tril/triu, ..."""
import numpy as np

from tests.cases import case


@case
def to_tensor_nested_mixed(paddle):
    return [paddle.to_tensor([[1, 2.5], [3, 4]]), paddle.to_tensor([True, 1]), paddle.to_tensor([1, 2j]),
            paddle.to_tensor(np.array(3.0)), paddle.to_tensor([[]])]


@case
def to_tensor_dtype_casts(paddle):
    return [paddle.to_tensor([1.7, -2.2], dtype="int32"), paddle.to_tensor(1, dtype="float64"),
            paddle.to_tensor([1, 0], dtype="bool"), paddle.to_tensor(np.array([1, 2], np.int32), dtype=paddle.float16),
            paddle.to_tensor(2.5, dtype="bfloat16")]


@case
def to_tensor_ragged(paddle):
    return paddle.to_tensor([[1, 2], [3]])


@case
def to_tensor_from_numpy_dtypes(paddle):
    return [paddle.to_tensor(np.array([1, 2], dtype=d)) for d in ("uint8", "int16", "float16", "bool", "complex64")]


@case
def to_tensor_lists_holding_numpy(paddle):
    """Paddle builds a list with np.array: NumPy's dtype stays (int8, uint8, int16, bool), except floats and complexes
    (the default dtype) and int32 (int64)."""
    arr = np.array([1, 0], dtype="int8")
    lists = [[arr, arr], (np.array([1], "uint8"), np.array([2], "int8")), [np.array([1, 0], bool)],
             [np.array([1], "int16")], [np.float16(1), np.float16(2)], [np.array([1], "int32")], [np.int8(3)],
             [np.bool_(True)], [[np.int16(1)], [np.int16(2)]], [np.int16(1), 2], [np.array([1j], "complex128")],
             [np.array([1], "uint16")]]
    return [paddle.to_tensor(v) for v in lists] + [paddle.to_tensor([np.float32(1)], dtype="float64")]


@case
def zeros_ones_full(paddle):
    return [paddle.zeros([2, 3]), paddle.ones([2], dtype="int32"), paddle.full([2, 2], 3), paddle.full([2], 1.5),
            paddle.full([2], True), paddle.full([1], 7, dtype="int64"), paddle.zeros([]), paddle.ones((2,), "bool"),
            paddle.zeros(paddle.to_tensor([2, 1])), paddle.full([2], paddle.to_tensor(4.0))]


@case
def full_shape_from_tensor_elements(paddle):
    return paddle.ones([paddle.to_tensor(2), 3])


@case
def full_nan_inf(paddle):
    return [paddle.full([2], float("inf")), paddle.full([1], float("nan"), dtype="float64")]


@case
def zeros_negative_shape(paddle):
    return paddle.zeros([-2, 3])


@case(random=True)
def empty_shapes(paddle):
    return [paddle.empty([2, 3]), paddle.empty([2], dtype="int32"), paddle.empty_like(paddle.zeros([3], "float64"))]


@case
def like_functions(paddle):
    x = paddle.to_tensor([[1, 2, 3]], dtype="int32")
    return [paddle.zeros_like(x), paddle.ones_like(x, dtype="float32"), paddle.full_like(x, 2.7),
            paddle.full_like(x, 5, dtype="float64"), paddle.ones_like(paddle.to_tensor([True]))]


@case
def like_stop_gradient(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    return [paddle.zeros_like(x), paddle.full_like(x, 3.0)]


@case
def arange_dtype_rules(paddle):
    return [paddle.arange(5), paddle.arange(1, 4), paddle.arange(0.0, 1.0, 0.25), paddle.arange(1, 2, 0.5),
            paddle.arange(5, dtype="float32"), paddle.arange(10, 0, -3), paddle.arange(paddle.to_tensor(3)),
            paddle.arange(paddle.to_tensor(1.0), 3)]


@case
def arange_int32_tensor_bounds(paddle):
    return [paddle.arange(paddle.to_tensor(4, dtype="int32")), paddle.arange(0, 5, 2, "int32")]


@case
def arange_empty_and_zero_step(paddle):
    return paddle.arange(3, 1)


@case
def arange_zero_step(paddle):
    return paddle.arange(0, 3, 0)


@case
def range_case(paddle):
    return [paddle.range(0, 5, 2), paddle.range(1.0, 2.0, 0.5)]


@case
def linspace_cases(paddle):
    return [paddle.linspace(0, 10, 5), paddle.linspace(0, 1, 1), paddle.linspace(0, 10, 4, dtype="int32"),
            paddle.linspace(-1.0, 1.0, 5, dtype="float64"), paddle.linspace(paddle.to_tensor(0.0), 1, 3),
            paddle.linspace(5, 0, 3, dtype="int64")]


@case
def linspace_zero_num(paddle):
    return paddle.linspace(0, 1, 0)


@case
def logspace_cases(paddle):
    return [paddle.logspace(0, 3, 4), paddle.logspace(0, 3, 4, base=2.0), paddle.logspace(0, 2, 3, dtype="int32"),
            paddle.logspace(1.0, 2.0, 3, dtype="float64")]


@case
def eye_cases(paddle):
    return [paddle.eye(3), paddle.eye(2, 3), paddle.eye(3, dtype="int32"), paddle.eye(2, num_columns=1, dtype="int64"),
            paddle.eye(0)]


@case
def eye_negative(paddle):
    return paddle.eye(-1)


@case
def diag_cases(paddle):
    v = paddle.to_tensor([1, 2, 3])
    m = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    return [paddle.diag(v), paddle.diag(v, offset=1), paddle.diag(v, offset=-2, padding_value=9), paddle.diag(m),
            paddle.diag(m, 1), paddle.diag(m, -1), paddle.diag(paddle.to_tensor([1.5, 2.0]), padding_value=-1.0)]


@case
def diag_3d_rejected(paddle):
    return paddle.diag(paddle.zeros([2, 2, 2]))


@case
def diagflat_cases(paddle):
    return [paddle.diagflat(paddle.to_tensor([1, 2])), paddle.diagflat(paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]]), 1),
            paddle.diagflat(paddle.to_tensor([1, 2]), offset=-1)]


@case
def diag_embed_cases(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    return [paddle.diag_embed(x), paddle.diag_embed(x, offset=1), paddle.diag_embed(x, dim1=0, dim2=2),
            paddle.diag_embed(x, offset=-1, dim1=-1, dim2=0)]


@case
def meshgrid_cases(paddle):
    a = paddle.to_tensor([1, 2, 3])
    b = paddle.to_tensor([4, 5])
    c = paddle.to_tensor([0.5, 1.5])
    return [paddle.meshgrid(a, b), paddle.meshgrid([a, b]), paddle.meshgrid((a,)), paddle.meshgrid(c, c, c)]


@case
def meshgrid_mixed_dtypes(paddle):
    return paddle.meshgrid(paddle.to_tensor([1, 2]), paddle.to_tensor([4.0, 5.0]))


@case
def tril_triu_cases(paddle):
    x = paddle.arange(12).reshape([3, 4])
    return [paddle.tril(x), paddle.tril(x, 1), paddle.tril(x, diagonal=-1), paddle.triu(x), paddle.triu(x, -1),
            x.triu(2), x.tril(0)]


@case
def tril_batched_and_1d(paddle):
    return paddle.tril(paddle.ones([2, 2, 2]))


@case
def tril_1d_rejected(paddle):
    return paddle.tril(paddle.ones([3]))


@case
def tril_triu_indices(paddle):
    return [paddle.tril_indices(4, 4), paddle.tril_indices(3, 4, 1), paddle.tril_indices(4, 3, -1, "int32"),
            paddle.triu_indices(3), paddle.triu_indices(3, 4, 1), paddle.triu_indices(4, 3, -1, dtype="int32")]


@case
def assign_cases(paddle):
    x = paddle.to_tensor([1.0, 2.0])
    out = paddle.zeros([2])
    paddle.assign(paddle.to_tensor([5.0, 6.0]), output=out)
    return [paddle.assign(x), paddle.assign(np.array([1, 2], dtype=np.int32)), paddle.assign([1.5, 2.5]),
            paddle.assign(3.0), paddle.assign(np.array([[1.0]])), out, paddle.assign([1, 2]), paddle.assign(True)]


@case
def assign_keeps_grad_flag(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    return paddle.assign(x).stop_gradient


@case
def clone_cases(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = paddle.clone(x)
    z = x.clone()
    (y * 3).sum().backward()
    return [y, z, x.grad]


@case
def complex_polar(paddle):
    re = paddle.to_tensor([1.0, 2.0])
    im = paddle.to_tensor([3.0, -1.0])
    return [paddle.complex(re, im), paddle.complex(re.astype("float64"), im.astype("float64")),
            paddle.polar(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([0.0, 1.5707964]))]


@case
def complex_broadcast(paddle):
    return paddle.complex(paddle.to_tensor([[1.0], [2.0]]), paddle.to_tensor([1.0, 0.0]))


@case
def complex_int_rejected(paddle):
    return paddle.complex(paddle.to_tensor([1]), paddle.to_tensor([1]))


@case
def attribute_functions(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 3.0]])
    c = paddle.to_tensor([1 + 2j, 3 - 1j])
    i = paddle.to_tensor([1, 2])
    return [paddle.shape(x), paddle.rank(x), paddle.real(c), paddle.imag(c), c.real(), c.imag(),
            paddle.is_complex(c), paddle.is_complex(x), paddle.is_floating_point(x), paddle.is_floating_point(i),
            paddle.is_integer(i), paddle.is_integer(x), paddle.is_integer(paddle.to_tensor([True])),
            x.is_floating_point(), i.is_integer(), c.is_complex()]


@case
def attribute_real_imag_complex128(paddle):
    x = paddle.to_tensor([1 + 2j, -3j], dtype="complex128")
    return [paddle.real(x), paddle.imag(x)]


@case
def attribute_shape_0d(paddle):
    return [paddle.shape(paddle.to_tensor(1.0)), paddle.rank(paddle.to_tensor(1.0)), paddle.shape(paddle.zeros([0, 2]))]


@case
def attribute_real_grad(paddle):
    c = paddle.to_tensor([1 + 2j], stop_gradient=False)
    return paddle.real(c).stop_gradient


@case
def to_tensor_mixed_tensor_list(paddle):
    return [paddle.to_tensor([paddle.to_tensor(1), paddle.to_tensor(2.0)]),
            paddle.to_tensor([paddle.to_tensor([1]), [2]]), paddle.to_tensor([np.float32(1.5), 2]),
            paddle.to_tensor([np.int32(1), 2]), paddle.to_tensor([True, 1.5])]


@case
def to_tensor_numpy_scalars_and_views(paddle):
    return [paddle.to_tensor(np.float64(1.5)), paddle.to_tensor(np.bool_(True)), paddle.to_tensor(np.zeros((2, 3))[:, ::2]),
            paddle.to_tensor(np.arange(6).reshape(2, 3).T), paddle.to_tensor([1, 2 ** 40])]


@case
def to_tensor_uint16_is_bfloat16(paddle):
    return paddle.to_tensor(np.array([16256, 16384], dtype=np.uint16))


@case
def to_tensor_overflow(paddle):
    return paddle.to_tensor(2 ** 63)


@case
def to_tensor_string_rejected(paddle):
    return paddle.to_tensor("abc")


@case
def full_fill_value_kinds(paddle):
    return [paddle.full([2], "0.5"), paddle.full([2], 1 + 2j), paddle.full([2], np.float64(1.5)),
            paddle.full([2], np.int32(3)), paddle.full([2], paddle.to_tensor([3])), paddle.full_like(paddle.to_tensor([1, 2]), True),
            paddle.full_like(paddle.to_tensor([1.0, 2.0]), "nan"), paddle.full([2], -7, dtype="int32")]


@case
def full_list_fill_rejected(paddle):
    return paddle.full([2], [1])


@case
def arange_more(paddle):
    return [paddle.arange(np.int32(3)), paddle.arange(paddle.to_tensor(3.5, dtype="float64")),
            paddle.arange(0, 1, paddle.to_tensor(0.5)), paddle.arange(1.0, dtype="int64"), paddle.arange(0.5, 3, dtype="int32"),
            paddle.arange(np.float64(3)), paddle.arange(-1.0, -3.0, -0.5), paddle.arange(0, 10, 3, dtype="float64"),
            paddle.arange(5, 0, 1)]


@case
def linspace_more(paddle):
    return [paddle.linspace(-1, 1, 5, dtype="int32"), paddle.linspace(0, 1, 3.0),
            paddle.linspace(0.1, 0.7, 4), paddle.linspace(0, 1, paddle.to_tensor(3)), paddle.linspace(2, 2, 1)]


@case
def linspace_negative_num(paddle):
    return paddle.linspace(0, 1, -1)


@case
def logspace_zero_num(paddle):
    return paddle.logspace(0, 1, 0)


@case
def logspace_more(paddle):
    return [paddle.logspace(0, 1, 3, dtype="int32"), paddle.logspace(0, 3, 4, base=paddle.to_tensor(2.0)),
            paddle.logspace(2, 0, 3, dtype="float64")]


@case
def eye_tensor_and_float_rows(paddle):
    return [paddle.eye(paddle.to_tensor(2)), paddle.eye(2, 0)]


@case
def eye_float_rows_rejected(paddle):
    return paddle.eye(2.0)


@case
def diag_more(paddle):
    return [paddle.diag(paddle.to_tensor(1.0)), paddle.diag(paddle.to_tensor([[1, 2], [3, 4]]), padding_value=5),
            paddle.diag(paddle.to_tensor([[1.0, 2.0, 3.0]]), offset=5), paddle.diagflat(paddle.to_tensor(2.0)),
            paddle.diag(paddle.to_tensor([1, 2]), offset=-1, padding_value=7)]


@case
def diag_embed_same_dims_rejected(paddle):
    return paddle.diag_embed(paddle.to_tensor([1.0, 2.0]), dim1=0, dim2=0)


@case
def meshgrid_0d_and_xy(paddle):
    a = paddle.to_tensor([1.0, 2.0])
    return [paddle.meshgrid(paddle.to_tensor(1.0), a), paddle.meshgrid(a, paddle.to_tensor([1.0, 2.0, 3.0]), indexing="xy")]


@case
def meshgrid_2d_rejected(paddle):
    return paddle.meshgrid(paddle.to_tensor([[1.0]]), paddle.to_tensor([1.0, 2.0]))


@case
def assign_more(paddle):
    return [paddle.assign(3), paddle.assign(np.float32(2)), paddle.assign(np.array(2.0)), paddle.assign([[1, 2]]),
            paddle.assign((1, 2.5)), paddle.assign([paddle.to_tensor(1.0)])]


@case
def complex_dtype_mismatch(paddle):
    return paddle.complex(paddle.to_tensor([1.0]), paddle.to_tensor([1.0], dtype="float64"))


@case
def polar_mixed_and_int(paddle):
    return paddle.polar(paddle.to_tensor([1.0]), paddle.to_tensor([1.0], dtype="float64"))


@case
def polar_int_rejected(paddle):
    return paddle.polar(paddle.to_tensor([1]), paddle.to_tensor([1]))


@case
def tril_triu_grad_and_0d_rejected(paddle):
    return paddle.triu(paddle.to_tensor(1.0))


@case
def zeros_float_shape_rejected(paddle):
    return paddle.zeros([2.5])


@case(random=True)
def inplace_creation_samplers(paddle):
    return [paddle.zeros([3]).cauchy_(), paddle.zeros([3]).geometric_(0.5), paddle.cauchy_(paddle.zeros([2])),
            paddle.geometric_(paddle.zeros([2]), 0.3)]


@case
def shape_args_spread_and_size(paddle):
    return [paddle.ones(2, 3, 4, 5).shape, paddle.zeros(3, dtype="int32"), paddle.empty(2, 3, dtype="int8").shape,
            paddle.zeros(size=[2]).shape, paddle.full(size=[3], fill_value=1), paddle.full(2, 3.0),
            paddle.zeros([2], "int32", None), paddle.rand(2, 3, dtype="float64").shape]


@case
def shape_args_given_twice(paddle):
    return paddle.zeros([2], size=[3])


@case
def shape_args_too_many_positional(paddle):
    return paddle.ones([2], "float32", None, None)


@case
def factories_requires_grad(paddle):
    made = [paddle.zeros([2], requires_grad=True), paddle.ones([], requires_grad=True),
            paddle.full([2], 1.5, requires_grad=True), paddle.zeros_like(paddle.ones([2]), requires_grad=True),
            paddle.arange(3, dtype="float32", requires_grad=True), paddle.linspace(0, 1, 3, requires_grad=True),
            paddle.eye(2, requires_grad=True), paddle.zeros([2], dtype="int64", requires_grad=True),
            paddle.arange(3, requires_grad=True), paddle.rand([2], requires_grad=True),
            paddle.empty([2], requires_grad=False)]
    return [[str(t.dtype), t.stop_gradient] for t in made]


@case
def factories_requires_grad_not_true(paddle):
    """requires_grad=1 / a numpy True: most factories claim grad only for `requires_grad is True`; arange, range,
    linspace, tensor and as_tensor take its truth value (Paddle's code differs per factory)."""
    x = paddle.to_tensor([1.0, 2.0])
    made = [paddle.zeros([2], requires_grad=1), paddle.ones([2], requires_grad=1), paddle.full([2], 1.0, requires_grad=1),
            paddle.empty([2], requires_grad=1), paddle.eye(2, requires_grad=1), paddle.rand([2], requires_grad=1),
            paddle.randn([2], requires_grad=1), paddle.randperm(3, requires_grad=1),
            paddle.zeros_like(x, requires_grad=1), paddle.ones_like(x, requires_grad=1),
            paddle.full_like(x, 2.0, requires_grad=1), paddle.empty_like(x, requires_grad=1),
            paddle.rand_like(x, requires_grad=1), paddle.randn_like(x, requires_grad=1),
            paddle.zeros([2], requires_grad=np.bool_(True)),
            paddle.arange(3, requires_grad=1), paddle.range(0, 3, requires_grad=1),
            paddle.linspace(0, 1, 3, requires_grad=1), paddle.linspace(0, 1, 3, requires_grad=np.bool_(True)),
            paddle.tensor([1.0], requires_grad=1), paddle.as_tensor([1.0], requires_grad=1)]
    return [t.stop_gradient for t in made]


@case
def factories_without_requires_grad(paddle):
    """randint / randint_like / normal / logspace / to_tensor take no requires_grad= in Paddle 3.3.1."""
    out = []
    for f in (lambda: paddle.randint(0, 3, [2], requires_grad=True),
              lambda: paddle.randint_like(paddle.ones([2]), 0, 3, requires_grad=True),
              lambda: paddle.normal(shape=[2], requires_grad=True), lambda: paddle.logspace(0, 1, 3, requires_grad=True),
              lambda: paddle.to_tensor([1.0], requires_grad=True)):
        try:
            f()
            out.append("accepted")
        except TypeError:
            out.append("TypeError")
    return out
