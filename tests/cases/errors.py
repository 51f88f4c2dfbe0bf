"""Bad input as Paddle reports it (issue 18), and NaN in the search and sort ops.

The wider sweep over the op table is tests/test_errors_props.py (goldens by tools/record_errors.py).
"""
from tests.cases import case

NAN = float("nan")


def _x(paddle):
    return paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])


@case
def zeros_too_big_to_allocate(paddle):
    return paddle.zeros([2**40, 2**20])  # 2**62 bytes: refused by the allocator, on both sides


@case
def index_select_index_past_the_end(paddle):
    return paddle.index_select(_x(paddle), paddle.to_tensor([0, 5]), axis=0)


@case
def index_select_negative_index_past_the_start(paddle):
    return paddle.index_select(_x(paddle), paddle.to_tensor([0, -3]), axis=0)


@case
def embedding_id_past_the_end(paddle):
    return paddle.nn.functional.embedding(paddle.to_tensor([0, 9]), _x(paddle))


@case
def embedding_layer_id_past_the_end(paddle):
    emb = paddle.nn.Embedding(4, 3)
    return emb(paddle.to_tensor([[1, 4]]))


@case
def take_along_axis_index_past_the_end(paddle):
    return paddle.take_along_axis(_x(paddle), paddle.to_tensor([[9]]), axis=1)


@case
def integer_floor_divide_by_zero(paddle):
    return paddle.to_tensor([1, 2]) // 0


@case
def integer_floor_divide_by_zero_tensor(paddle):
    return paddle.floor_divide(paddle.to_tensor([1, 2]), paddle.to_tensor([0, 1]))


@case
def integer_remainder_by_zero(paddle):
    return paddle.to_tensor([1, 2]) % 0


@case
def float_floor_divide_by_zero(paddle):
    return paddle.to_tensor([1.0, -2.0, 0.0]) // 0


@case
def max_of_empty(paddle):
    return paddle.max(paddle.zeros([0, 3]))


@case
def min_of_empty_along_the_empty_axis(paddle):
    return paddle.min(paddle.zeros([0, 3]), axis=0)


@case
def max_of_empty_along_a_full_axis(paddle):
    return paddle.max(paddle.zeros([0, 3]), axis=1)


@case
def matmul_int64_float32(paddle):
    return paddle.matmul(paddle.to_tensor([[1, 2]]), paddle.to_tensor([[1.0], [2.0]]))


@case
def matmul_float32_int64(paddle):
    return paddle.matmul(paddle.to_tensor([[1.0, 2.0]]), paddle.to_tensor([[1], [2]]))


@case
def argmax_argmin_skip_nan(paddle):
    v = paddle.to_tensor([1.0, NAN, 2.0])
    w = paddle.to_tensor([NAN, 3.0, NAN, 1.0, 2.0])
    return [paddle.argmax(v), paddle.argmin(v), paddle.argmax(w), paddle.argmin(w), v.argmax(), w.argmin()]


@case
def argmax_argmin_nan_edges(paddle):
    out = []
    for vals in ([NAN, NAN], [NAN, 1.0], [1.0, NAN], [NAN], [float("inf"), NAN, 1.0], [-float("inf"), NAN],
                 [NAN, -float("inf")], [NAN, float("inf")]):
        v = paddle.to_tensor(vals)
        out += [paddle.argmax(v), paddle.argmin(v)]
    return out


@case
def argmax_argmin_nan_along_axes(paddle):
    m = paddle.to_tensor([[1.0, NAN, 2.0], [NAN, NAN, NAN], [5.0, 4.0, NAN]])
    return [paddle.argmax(m, axis=1), paddle.argmin(m, axis=1), paddle.argmax(m, axis=0),
            paddle.argmin(m, axis=0, keepdim=True), paddle.argmax(m), paddle.argmin(m),
            paddle.argmax(m, axis=-1, dtype="int32")]


@case
def argmax_nan_float64(paddle):
    v = paddle.to_tensor([1.0, NAN, 2.0], dtype="float64")
    return [paddle.argmax(v), paddle.argmin(v)]


@case
def max_min_propagate_nan(paddle):
    m = paddle.to_tensor([[1.0, NAN, 2.0], [3.0, 4.0, 5.0]])
    return [paddle.max(m), paddle.min(m), paddle.max(m, axis=1), paddle.min(m, axis=0), paddle.amax(m, axis=1),
            paddle.amin(m), m.max(axis=1, keepdim=True)]


@case
def sort_argsort_with_nan(paddle):
    w = paddle.to_tensor([NAN, 3.0, NAN, 1.0, 2.0])
    return [paddle.sort(w), paddle.argsort(w), paddle.sort(w, descending=True), paddle.argsort(w, descending=True)]


@case
def topk_with_nan(paddle):
    w = paddle.to_tensor([NAN, 3.0, NAN, 1.0, 2.0])
    return list(paddle.topk(w, 3)) + list(paddle.topk(w, 3, largest=False))
