"""Sparse COO / CSR tensors: creation, parts, reprs, conversions, paddle.sparse ops.

Sparse results are returned as their parts (indices/values or crows/cols/values) or
reprs: real Paddle cannot turn a sparse tensor into numpy.
"""
from tests.cases import case


def _coo(paddle):
    return paddle.sparse.sparse_coo_tensor([[0, 1, 1, 2], [2, 0, 3, 1]], [1.5, -2.0, 3.0, 4.0], [3, 4])


def _csr(paddle):
    return paddle.sparse.sparse_csr_tensor([0, 1, 3, 4], [2, 0, 3, 1], [1.5, -2.0, 3.0, 4.0], [3, 4])


def _parts(x):
    if x.is_sparse_coo():
        return [x.indices(), x.values()]
    return [x.crows(), x.cols(), x.values()]


# ---------------------------------------------------------------- creation and parts


@case
def coo_create_parts(paddle):
    x = _coo(paddle)
    return _parts(x) + [x.shape, x.nnz(), x.sparse_dim(), x.dense_dim(), x.is_coalesced(), x.dtype]


@case
def coo_create_repr(paddle):
    return repr(_coo(paddle))


@case
def coo_infer_shape_and_int_values(paddle):
    x = paddle.sparse.sparse_coo_tensor([[0, 3], [1, 2]], [7, 8])
    return [x.shape, repr(x)]


@case
def coo_int32_indices_kept(paddle):
    x = paddle.sparse.sparse_coo_tensor(paddle.to_tensor([[0, 2]], dtype="int32"), [1.0, 2.0], [4])
    return [x.indices(), x.values()]


@case
def coo_dtype_and_stop_gradient(paddle):
    x = paddle.sparse.sparse_coo_tensor([[0, 1]], [1, 2], [3], dtype="float64", stop_gradient=False)
    return [x.dtype, x.stop_gradient, repr(x)]


@case
def coo_hybrid_values(paddle):
    x = paddle.sparse.sparse_coo_tensor([[0, 2]], [[1.0, 2.0], [3.0, 4.0]], [3, 2])
    return [repr(x), x.sparse_dim(), x.dense_dim(), x.to_dense()]


@case
def coo_uncoalesced_then_coalesce(paddle):
    x = paddle.sparse.sparse_coo_tensor([[1, 0, 1], [0, 2, 0]], [1.0, 2.0, 5.0], [2, 3])
    c = x.coalesce()
    # (not x.to_dense(): Paddle's keeps the last duplicate, torch sums them; see docs/compatibility.md)
    return [repr(x), x.is_coalesced(), repr(c), c.is_coalesced(), c.to_dense()]


@case
def coo_indices_not_2d(paddle):
    return paddle.sparse.sparse_coo_tensor([0, 1], [1.0, 2.0], [3])


@case
def coo_nnz_mismatch(paddle):
    return paddle.sparse.sparse_coo_tensor([[0, 1]], [1.0, 2.0, 3.0], [3])


@case
def coo_shape_too_small(paddle):
    return paddle.sparse.sparse_coo_tensor([[0, 5]], [1.0, 2.0], [3])


@case
def csr_create_parts(paddle):
    x = _csr(paddle)
    return _parts(x) + [x.shape, x.nnz(), x.sparse_dim(), x.dense_dim(), x.dtype]


@case
def csr_create_repr(paddle):
    return repr(_csr(paddle))


@case
def csr_infer_shape(paddle):
    return paddle.sparse.sparse_csr_tensor([0, 1, 2], [0, 3], [1.0, 2.0]).shape


@case
def csr_batched(paddle):
    x = paddle.sparse.sparse_csr_tensor([0, 1, 2, 0, 2, 2], [1, 0, 0, 1], [1.0, 2.0, 3.0, 4.0], [2, 2, 2])
    return [repr(x), x.to_dense(), x.nnz()]


@case
def csr_bad_crows_length(paddle):
    return paddle.sparse.sparse_csr_tensor([0, 1, 2], [0, 1], [1.0, 2.0], [3, 3])


@case
def csr_bad_values_length(paddle):
    return paddle.sparse.sparse_csr_tensor([0, 1, 2], [0, 1], [1.0, 2.0, 3.0], [2, 2])


@case
def csr_int32_index_dtype(paddle):
    x = paddle.sparse.sparse_csr_tensor(paddle.to_tensor([0, 1, 2], "int32"), paddle.to_tensor([0, 1], "int32"),
                                        [1.0, 2.0], [2, 2])
    return [x.crows(), x.cols()]


# ---------------------------------------------------------------- predicates and wrong-kind errors


@case
def sparse_predicates(paddle):
    d, c, r = paddle.to_tensor([[0.0, 1.0]]), _coo(paddle), _csr(paddle)
    return [[t.is_sparse(), t.is_sparse_coo(), t.is_sparse_csr()] for t in (d, c, r)]


@case
def dense_sparse_dim(paddle):
    d = paddle.to_tensor([[1, 2, 3]])
    return [d.sparse_dim(), d.dense_dim()]


@case
def dense_indices_error(paddle):
    return paddle.to_tensor([[0.0, 1.0]]).indices()


@case
def coo_crows_error(paddle):
    return _coo(paddle).crows()


@case
def csr_indices_error(paddle):
    return _csr(paddle).indices()


@case
def dense_nnz_error(paddle):
    return paddle.to_tensor([1.0]).nnz()


@case
def csr_is_coalesced_error(paddle):
    return _csr(paddle).is_coalesced()


@case
def is_same_shape_sparse_dense(paddle):
    return [paddle.sparse.is_same_shape(_coo(paddle), paddle.zeros([3, 4])), _csr(paddle).is_same_shape(
        paddle.zeros([4, 3])), paddle.zeros([3, 4]).is_same_shape(_csr(paddle))]


# ---------------------------------------------------------------- conversions


@case
def dense_to_coo_and_back(paddle):
    d = paddle.to_tensor([[0.0, 1.5, 0.0], [-2.0, 0.0, 3.0]])
    s = d.to_sparse_coo(2)
    return [repr(s), s.is_coalesced(), s.to_dense()]


@case
def dense_to_coo_sparse_dim_1(paddle):
    d = paddle.to_tensor([[0.0, 1.5], [0.0, 0.0], [2.0, 0.0]])
    return repr(d.to_sparse_coo(1))


@case
def dense_to_coo_bad_sparse_dim(paddle):
    return paddle.to_tensor([[1.0, 0.0]]).to_sparse_coo(3)


@case
def dense_to_coo_zero_sparse_dim(paddle):
    return paddle.to_tensor([[1.0, 0.0]]).to_sparse_coo(0)


@case
def dense_to_csr_and_back(paddle):
    d = paddle.to_tensor([[0, 5, 0, 0], [0, 0, 0, 0], [7, 0, 8, 0]], dtype="int32")
    s = d.to_sparse_csr()
    return [repr(s), s.to_dense()]


@case
def dense_3d_to_csr(paddle):
    d = paddle.to_tensor([[[1.0, 0.0], [0.0, 2.0]], [[0.0, 3.0], [4.0, 0.0]]])
    return repr(d.to_sparse_csr())


@case
def dense_1d_to_csr_error(paddle):
    return paddle.to_tensor([1.0, 0.0]).to_sparse_csr()


@case
def csr_to_coo_and_coo_to_csr(paddle):
    return [repr(_csr(paddle).to_sparse_coo(2)), repr(_coo(paddle).to_sparse_csr())]


@case
def to_dense_of_dense_error(paddle):
    return paddle.to_tensor([1.0]).to_dense()


@case
def int_and_large_repr(paddle):
    d = (paddle.arange(60).reshape([6, 10]) % 7 == 0).astype("int64")
    return [repr(d.to_sparse_coo(2)), repr(paddle.arange(1, 41).astype("float32").reshape([2, 20]).to_sparse_csr())]


# ---------------------------------------------------------------- unary


@case
def unary_on_values_coo(paddle):
    x = _coo(paddle)
    sp = paddle.sparse
    return [_parts(f(x)) for f in (sp.sin, sp.tanh, sp.atan, sp.asinh, sp.square, sp.abs, sp.neg, sp.expm1,
                                    sp.deg2rad, sp.rad2deg)]


@case
def unary_on_values_csr(paddle):
    x = paddle.sparse.abs(_csr(paddle))
    sp = paddle.sparse
    return [_parts(f(x)) for f in (sp.sqrt, sp.log1p, sp.tan, sp.sinh, sp.asin, sp.atanh)]


@case
def sparse_pow(paddle):
    return [_parts(paddle.sparse.pow(_coo(paddle), 3)), _parts(paddle.sparse.pow(_csr(paddle), 2.0))]


@case
def sparse_isnan(paddle):
    x = paddle.to_tensor([[0.0, float("nan")], [1.0, 0.0]]).to_sparse_coo(2)
    return repr(paddle.sparse.isnan(x))


@case
def sparse_cast(paddle):
    c = paddle.sparse.cast(_coo(paddle), "int32", "float64")
    r = paddle.sparse.cast(_csr(paddle), None, "int64")
    return [c.indices(), c.values(), repr(r)]


@case
def sparse_unary_keeps_stop_gradient(paddle):
    x = paddle.to_tensor([[0.0, 2.0]], stop_gradient=False).to_sparse_coo(2)
    y = paddle.sparse.sin(x)
    return [x.stop_gradient, y.stop_gradient, repr(y)]


@case
def sparse_activations(paddle):
    x = _coo(paddle)
    f = paddle.sparse.nn.functional
    return [repr(f.relu(x)), _parts(f.relu6(paddle.sparse.multiply(x, 2.0))), _parts(f.leaky_relu(_csr(paddle), 0.2)),
            _parts(paddle.sparse.nn.ReLU()(_csr(paddle))), _parts(paddle.sparse.nn.LeakyReLU(0.5)(x))]


@case
def sparse_softmax(paddle):
    x = _coo(paddle)
    return [repr(paddle.sparse.nn.functional.softmax(x)), repr(paddle.sparse.nn.Softmax()(_csr(paddle)))]


@case
def sparse_softmax_coo_other_axes(paddle):
    """A COO tensor takes any axis (sparse or dense ones); unstored entries count as -inf."""
    d = paddle.to_tensor([[1.0, 0.0, 2.0], [3.0, 2.0, 0.0]])
    f = paddle.sparse.nn.functional.softmax
    return [f(d.to_sparse_coo(2), axis=0).to_dense(), f(d.to_sparse_coo(2), axis=-2).to_dense(),
            f(d.to_sparse_coo(1), axis=0).to_dense(), f(d.to_sparse_coo(1), axis=1).to_dense()]


@case
def sparse_softmax_csr_axis_1(paddle):
    """A CSR tensor only along axis=-1: Paddle refuses 1 also on a 2-D tensor."""
    return paddle.sparse.nn.functional.softmax(_csr(paddle), axis=1)


# ---------------------------------------------------------------- binary


def _pair(paddle):
    a = paddle.to_tensor([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    b = paddle.to_tensor([[4.0, 0.0, 0.0], [5.0, 0.0, -3.0]])
    return a, b


@case
def sparse_add_sub_coo(paddle):
    a, b = _pair(paddle)
    x, y = a.to_sparse_coo(2), b.to_sparse_coo(2)
    return [repr(paddle.sparse.add(x, y)), repr(paddle.sparse.subtract(x, y))]


@case
def sparse_add_sub_csr(paddle):
    a, b = _pair(paddle)
    x, y = a.to_sparse_csr(), b.to_sparse_csr()
    return [repr(paddle.sparse.add(x, y)), repr(paddle.sparse.subtract(x, y))]


@case
def sparse_multiply_union_pattern(paddle):
    a, b = _pair(paddle)
    return [repr(paddle.sparse.multiply(a.to_sparse_coo(2), b.to_sparse_coo(2))),
            repr(paddle.sparse.multiply(a.to_sparse_csr(), b.to_sparse_csr()))]


@case
def sparse_divide_every_position(paddle):
    a, b = _pair(paddle)
    return [repr(paddle.sparse.divide(a.to_sparse_coo(2), b.to_sparse_coo(2))),
            repr(paddle.sparse.divide(a.to_sparse_csr(), b.to_sparse_csr()))]


@case
def sparse_scalar_multiply_divide(paddle):
    x = _coo(paddle)
    return [repr(paddle.sparse.multiply(x, 2.0)), repr(paddle.sparse.divide(_csr(paddle), 4.0))]


@case
def sparse_add_scalar_error(paddle):
    return paddle.sparse.add(_coo(paddle), 1.0)


@case
def sparse_add_dense_error(paddle):
    return paddle.sparse.subtract(_coo(paddle), paddle.ones([3, 4]))


@case
def sparse_add_shape_mismatch(paddle):
    return paddle.sparse.add(_coo(paddle), paddle.ones([2, 2]).to_sparse_coo(2))


@case
def sparse_add_mixed_layouts_error(paddle):
    return paddle.sparse.add(_coo(paddle), _csr(paddle))


@case
def sparse_add_int_float_error(paddle):
    a, _ = _pair(paddle)
    return paddle.sparse.add(a.to_sparse_coo(2), a.astype("int64").to_sparse_coo(2))


# ---------------------------------------------------------------- matrix products
# Real Paddle has only GPU kernels for these (on CPU it raises NotImplementedError/RuntimeError);
# where it does, the case returns the dense computation, which is what the sparse product must equal.


def _or_dense(fn, dense):
    try:
        return fn()
    except (NotImplementedError, RuntimeError):
        return dense()


@case
def sparse_matmul_dense(paddle):
    y = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
    return [_or_dense(lambda: paddle.sparse.matmul(x, y), lambda: paddle.matmul(x.to_dense(), y))
            for x in (_coo(paddle), _csr(paddle))]


@case
def sparse_mv(paddle):
    v = paddle.to_tensor([1.0, -1.0, 2.0, 0.5])
    return [_or_dense(lambda: paddle.sparse.mv(x, v), lambda: paddle.mv(x.to_dense(), v))
            for x in (_coo(paddle), _csr(paddle))]


@case
def sparse_addmm(paddle):
    inp = paddle.ones([3, 2])
    y = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
    return [_or_dense(lambda: paddle.sparse.addmm(inp, x, y, 0.5, 2.0),
                      lambda: 0.5 * inp + 2.0 * paddle.matmul(x.to_dense(), y)) for x in (_coo(paddle), _csr(paddle))]


@case
def sparse_masked_matmul(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    y = paddle.to_tensor([[1.0, 0.0, 2.0, 1.0], [0.0, 1.0, 1.0, -1.0]])
    mask = _csr(paddle)
    return _or_dense(lambda: paddle.sparse.masked_matmul(x, y, mask).to_dense(),
                     lambda: paddle.matmul(x, y) * (mask.to_dense() != 0).astype("float32"))


@case
def sparse_mask_as(paddle):
    x = paddle.arange(12, dtype="float32").reshape([3, 4])
    return [repr(paddle.sparse.mask_as(x, _coo(paddle))), repr(paddle.sparse.mask_as(x, _csr(paddle)))]


# ---------------------------------------------------------------- reductions and shape changes


@case
def sparse_sum_coo(paddle):
    x = _coo(paddle)
    s = paddle.sparse.sum
    return [repr(s(x)), repr(s(x, 0)), repr(s(x, -1)), repr(s(x, 1, keepdim=True)), repr(s(x, dtype="float64"))]


@case
def sparse_sum_hybrid(paddle):
    x = paddle.to_tensor([[[1.0, 2.0], [0.0, 0.0]], [[0.0, 0.0], [3.0, 4.0]], [[5.0, 0.0], [0.0, 6.0]]])
    x = x.to_sparse_coo(2)
    s = paddle.sparse.sum
    return [repr(s(x, 0)), repr(s(x, 1)), repr(s(x, 2)), repr(s(x, 0, keepdim=True))]


@case
def sparse_sum_csr(paddle):
    x = _csr(paddle)
    return [repr(paddle.sparse.sum(x)), repr(paddle.sparse.sum(x, -1))]


@case
def sparse_sum_csr_axis0_error(paddle):
    return paddle.sparse.sum(_csr(paddle), 0)


@case
def sparse_transpose(paddle):
    return [repr(paddle.sparse.transpose(_coo(paddle), [1, 0])), repr(paddle.sparse.transpose(_csr(paddle), [1, 0]))]


@case
def sparse_transpose_batched_csr(paddle):
    d = paddle.to_tensor([[[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]], [[0.0, 4.0, 0.0], [5.0, 0.0, 6.0]]])
    x = d.to_sparse_csr()
    return [repr(paddle.sparse.transpose(x, [0, 2, 1])), paddle.sparse.transpose(x, [1, 0, 2]).to_dense()]


@case
def sparse_reshape(paddle):
    return [repr(paddle.sparse.reshape(_coo(paddle), [2, 6])), repr(paddle.sparse.reshape(_coo(paddle), [-1])),
            repr(paddle.sparse.reshape(_csr(paddle), [6, 2]))]


@case
def sparse_reshape_hybrid(paddle):
    x = paddle.to_tensor([[0.0, 1.0], [2.0, 0.0], [0.0, 0.0], [3.0, 3.0]]).to_sparse_coo(1)
    return repr(paddle.sparse.reshape(x, [2, 2, 2]))


@case
def sparse_slice(paddle):
    return [repr(paddle.sparse.slice(_coo(paddle), [0, 1], [1, 0], [3, -1])),
            repr(paddle.sparse.slice(_coo(paddle), [1], [-2], [4])),
            repr(paddle.sparse.slice(_csr(paddle), [0, 1], [0, 1], [2, 4]))]


@case
def sparse_coalesce_fn(paddle):
    x = paddle.sparse.sparse_coo_tensor([[2, 0, 2], [1, 1, 1]], [1.0, 2.0, 3.0], [3, 2])
    return repr(paddle.sparse.coalesce(x))


# ---------------------------------------------------------------- autograd


@case
def sparse_to_dense_backward(paddle):
    x = paddle.to_tensor([[0.0, 2.0], [3.0, 0.0]], stop_gradient=False)
    y = paddle.sparse.square(x.to_sparse_coo(2)).to_dense()
    y.sum().backward()
    return [y, x.grad]
