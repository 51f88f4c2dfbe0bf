"""Search and sort: argmax/argmin, argsort/sort, topk, where, nonzero, searchsorted, kthvalue, mode, unique."""
from tests.cases import case


def _m(paddle):
    return paddle.to_tensor([[3.0, 1.0, 4.0, 1.0], [5.0, 9.0, 2.0, 6.0], [5.0, 3.0, 5.0, 8.0]])


def _distinct(paddle):  # no ties: kthvalue's index among equal values is unspecified in Paddle
    return paddle.to_tensor([[3.0, 1.0, 4.0, 1.5], [5.0, 9.0, 2.0, 6.0], [5.5, 3.0, 5.0, 8.0]])


@case
def argmax_argmin_axis_none(paddle):
    x = _m(paddle)
    return [paddle.argmax(x), paddle.argmin(x), paddle.argmax(x, keepdim=True), paddle.argmin(x, keepdim=True)]


@case
def argmax_axes(paddle):
    x = _m(paddle)
    return [paddle.argmax(x, axis=0), paddle.argmax(x, axis=1), paddle.argmax(x, axis=-1, keepdim=True),
            paddle.argmin(x, axis=1), x.argmax(axis=0), x.argmin(-1)]


@case
def argmax_dtype_int32(paddle):
    x = _m(paddle)
    return [paddle.argmax(x, axis=1, dtype="int32"), paddle.argmin(x, dtype=paddle.int32)]


@case
def argmax_bad_dtype(paddle):
    return paddle.argmax(_m(paddle), dtype="float32")


@case
def argmax_int_and_ties(paddle):
    x = paddle.to_tensor([[1, 3, 3], [2, 2, 0]])
    return [paddle.argmax(x, axis=1), paddle.argmin(x, axis=1), paddle.argmax(x)]


@case
def argmax_0d(paddle):
    return [paddle.argmax(paddle.to_tensor(3.0)), paddle.argmax(paddle.to_tensor(3.0), axis=0)]


@case
def argmax_float_axis(paddle):
    return paddle.argmax(_m(paddle), axis=1.0)


@case
def argsort_basic(paddle):
    x = _m(paddle)
    return [paddle.argsort(x), paddle.argsort(x, axis=0), paddle.argsort(x, descending=True),
            paddle.argsort(x, axis=1, stable=True), x.argsort(descending=True, stable=True)]


@case
def sort_basic(paddle):
    x = _m(paddle)
    return [paddle.sort(x), paddle.sort(x, axis=0), paddle.sort(x, descending=True), x.sort(axis=0, descending=True)]


@case
def sort_ints_and_nan(paddle):
    return [paddle.sort(paddle.to_tensor([3, -1, 2])), paddle.sort(paddle.to_tensor([2.0, float("nan"), 1.0])),
            paddle.argsort(paddle.to_tensor([2.0, float("nan"), 1.0]))]


@case
def sort_0d(paddle):
    return [paddle.sort(paddle.to_tensor(2.0)), paddle.argsort(paddle.to_tensor(2.0))]


@case
def msort_case(paddle):
    return paddle.msort(_m(paddle))


@case
def topk_basic(paddle):
    x = _m(paddle)
    return [paddle.topk(x, 2), paddle.topk(x, 1, axis=0), paddle.topk(x, 2, largest=False),
            x.topk(k=3, axis=-1)]


@case
def topk_tensor_k(paddle):
    x = paddle.to_tensor([1, 4, 5, 7])
    return paddle.topk(x, k=paddle.to_tensor(2))


@case
def topk_too_large(paddle):
    return paddle.topk(paddle.to_tensor([1.0, 2.0]), 3)


@case
def where_three_arg(paddle):
    c = paddle.to_tensor([True, False, True])
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    y = paddle.to_tensor([-1.0, -2.0, -3.0])
    return [paddle.where(c, x, y), paddle.where(x > 1.5, x, 0.0), paddle.where(c, 1.0, y), paddle.where(x > 2, 1, 0)]


@case
def where_broadcast(paddle):
    c = paddle.to_tensor([[True], [False]])
    return paddle.where(c, paddle.to_tensor([1, 2, 3]), paddle.to_tensor([[7], [8]]))


@case
def where_one_arg(paddle):
    x = paddle.to_tensor([[0.0, 1.0], [2.0, 0.0]])
    return [paddle.where(x), paddle.where(x > 0)]


@case
def where_mixed_dtypes(paddle):
    return paddle.where(paddle.to_tensor([True, False]), paddle.to_tensor([1, 2]), paddle.to_tensor([1.5, 2.5]))


@case
def nonzero_cases(paddle):
    x = paddle.to_tensor([[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]])
    v = paddle.to_tensor([0, 1, 0, 3])
    return [paddle.nonzero(x), paddle.nonzero(x, as_tuple=True), paddle.nonzero(v), paddle.nonzero(v, as_tuple=True),
            x.nonzero()]


@case
def nonzero_empty_and_0d(paddle):
    return [paddle.nonzero(paddle.zeros([3])), paddle.nonzero(paddle.zeros([2, 2]), as_tuple=True)]


@case
def nonzero_0d_rejected(paddle):
    return paddle.nonzero(paddle.to_tensor(1.0))


@case
def argwhere_case(paddle):
    return [paddle.argwhere(paddle.to_tensor([[1, 0], [0, 1]])), paddle.to_tensor([0.0, 2.0]).argwhere()]


@case
def searchsorted_cases(paddle):
    s = paddle.to_tensor([1, 3, 5, 7, 9])
    v = paddle.to_tensor([[3, 6, 9], [3, 6, 9]])
    return [paddle.searchsorted(s, v), paddle.searchsorted(s, v, right=True), paddle.searchsorted(s, v, out_int32=True)]


@case
def searchsorted_batched(paddle):
    s = paddle.to_tensor([[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]])
    v = paddle.to_tensor([[4.0], [1.0]])
    return paddle.searchsorted(s, v)


@case
def bucketize_cases(paddle):
    s = paddle.to_tensor([2, 4, 8, 16])
    x = paddle.to_tensor([[0, 8, 4, 16], [-1, 2, 8, 4]])
    return [paddle.bucketize(x, s), paddle.bucketize(x, s, right=True), paddle.bucketize(x, s, out_int32=True),
            x.bucketize(s)]


@case
def bucketize_2d_sequence_rejected(paddle):
    return paddle.bucketize(paddle.to_tensor([1.0]), paddle.to_tensor([[1.0, 2.0]]))


@case
def kthvalue_cases(paddle):
    x = _distinct(paddle)
    return [paddle.kthvalue(x, 2), paddle.kthvalue(x, 1, axis=0), paddle.kthvalue(x, 2, axis=1, keepdim=True),
            x.kthvalue(3)]


@case
def kthvalue_k_too_large(paddle):
    return paddle.kthvalue(paddle.to_tensor([1.0, 2.0]), 3)


@case
def mode_cases(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 2.0, 3.0], [4.0, 4.0, 1.0, 1.0]])
    return [paddle.mode(x), paddle.mode(x, axis=0), paddle.mode(x, keepdim=True)]


@case
def unique_flags(paddle):
    x = paddle.to_tensor([2, 3, 3, 1, 5, 3])
    return [paddle.unique(x), paddle.unique(x, return_index=True), paddle.unique(x, return_inverse=True),
            paddle.unique(x, return_counts=True),
            paddle.unique(x, return_index=True, return_inverse=True, return_counts=True)]


@case
def unique_axis(paddle):
    x = paddle.to_tensor([[2, 1, 3], [3, 0, 1], [2, 1, 3]])
    return [paddle.unique(x), paddle.unique(x, axis=0), paddle.unique(x, return_index=True, return_inverse=True,
                                                                       return_counts=True, axis=0),
            paddle.unique(x, axis=1, return_inverse=True)]


@case
def unique_dtype_and_2d(paddle):
    x = paddle.to_tensor([[1.5, 0.5], [1.5, 2.0]])
    return [paddle.unique(x, return_inverse=True, dtype="int32"), x.unique(return_counts=True)]


@case
def masked_select_cases(paddle):
    x = _m(paddle)
    return [paddle.masked_select(x, x > 4.0), x.masked_select(paddle.to_tensor([True, False, True, False]))]


@case
def masked_select_non_bool_mask(paddle):
    x = paddle.to_tensor([1.0, 2.0])
    return paddle.masked_select(x, paddle.to_tensor([1, 0]))


@case
def index_sample_case(paddle):
    x = _m(paddle)
    return paddle.index_sample(x, paddle.to_tensor([[0, 1], [2, 3], [3, 3]]))


@case
def searchsorted_mixed_dtype_and_0d(paddle):
    return [paddle.searchsorted(paddle.to_tensor([1, 3, 5]), paddle.to_tensor([2.0, 4.0])),
            paddle.searchsorted(paddle.to_tensor([1.0, 3.0, 5.0]), paddle.to_tensor(2.0)),
            paddle.searchsorted(paddle.to_tensor([1, 3, 5]), paddle.to_tensor([3]), side="right"),
            paddle.bucketize(paddle.to_tensor(3.0), paddle.to_tensor([1.0, 5.0]))]


@case
def where_scalar_combinations(paddle):
    c = paddle.to_tensor([True, False])
    return [paddle.where(c, 1, 0), paddle.where(c, paddle.to_tensor([1.0, 2.0], stop_gradient=False), 0.0),
            paddle.where(c, paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([1.0, 2.0], dtype="float64"))]


@case
def where_float_and_int_scalars_rejected(paddle):
    return paddle.where(paddle.to_tensor([True, False]), 1.0, 0)


@case
def where_non_bool_condition(paddle):
    return paddle.where(paddle.to_tensor([1, 0]), paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 4.0]))


@case
def where_only_x(paddle):
    return paddle.where(paddle.to_tensor([True, False]), paddle.to_tensor([1.0, 2.0]))


@case
def argmax_axis_out_of_range(paddle):
    return paddle.argmax(_m(paddle), axis=2)


@case
def argmax_tensor_axis_and_0d_keepdim(paddle):
    return [paddle.argmax(_m(paddle), axis=paddle.to_tensor(1)), paddle.argmax(paddle.to_tensor(3.0), keepdim=True),
            paddle.argmin(_m(paddle), axis=0, keepdim=True, dtype="int32")]


@case
def topk_0d_and_smallest(paddle):
    return [paddle.topk(paddle.to_tensor(1.0), 1), paddle.topk(paddle.to_tensor([[3, 1, 2]]), 2, axis=1, largest=False)]


@case
def sort_axis_out_of_range(paddle):
    return paddle.sort(_m(paddle), axis=2)


@case
def kthvalue_k_zero(paddle):
    return paddle.kthvalue(paddle.to_tensor([1.0, 2.0]), 0)


@case
def index_sample_1d_index_rejected(paddle):
    return paddle.index_sample(_m(paddle), paddle.to_tensor([0, 1, 2]))


@case
def unique_misc(paddle):
    return [paddle.unique(paddle.to_tensor(2.0)), paddle.unique(paddle.to_tensor([3, 1, 3, 1, 2]), return_index=True),
            paddle.unique(paddle.zeros([0]), return_counts=True),
            paddle.unique(paddle.to_tensor([[2, 1], [2, 1]]), axis=-1, return_index=True)]


@case
def unique_float_dtype_rejected(paddle):
    return paddle.unique(paddle.to_tensor([2, 3]), return_inverse=True, dtype="float32")


@case
def masked_select_broadcast_and_grad(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    return [paddle.masked_select(x, paddle.to_tensor([True, False])),
            paddle.masked_select(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([[True], [False]]))]
