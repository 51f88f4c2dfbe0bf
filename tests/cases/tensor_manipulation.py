"""paddle.tensor.manipulation: reshape/transpose/concat/split/gather/scatter/... and their Tensor methods."""
import numpy as np

from tests.cases import case


def _a(paddle, *shape, dtype="float32"):
    n = 1
    for s in shape:
        n *= s
    return paddle.arange(n).astype(dtype).reshape(list(shape))


# ---------------------------------------------------------------- reshape / view family


@case
def reshape_zero_and_minus_one(paddle):
    x = _a(paddle, 2, 3, 4)
    return [paddle.reshape(x, [0, -1]), x.reshape([-1, 0, 2]), x.reshape((4, 6)), x.reshape([24]), x.reshape([])
            if False else x.reshape([2, 0, 4])]


@case
def reshape_shape_as_tensors(paddle):
    x = _a(paddle, 2, 3, dtype="int32")
    return [paddle.reshape(x, paddle.to_tensor([3, 2])), paddle.reshape(x, [paddle.to_tensor(3), 2]),
            paddle.reshape(x, [paddle.to_tensor([6])])]


@case
def reshape_0d_and_to_0d(paddle):
    return [paddle.to_tensor(3.0).reshape([1]), paddle.to_tensor([3.0]).reshape([]), paddle.to_tensor(2).reshape([-1])]


@case
def reshape_bad_size(paddle):
    return _a(paddle, 2, 3).reshape([4, 2])


@case
def reshape_two_minus_one(paddle):
    return _a(paddle, 2, 3).reshape([-1, -1])


@case
def reshape_grad(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0, 4.0], stop_gradient=False)
    y = x.reshape([2, 2]) * paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    y.sum().backward()
    return [y, x.grad]


@case
def reshape_inplace(paddle):
    x = _a(paddle, 2, 3)
    y = x.reshape_([3, 2])
    return [x, y is x]


@case
def flatten_axes(paddle):
    x = _a(paddle, 2, 3, 4, dtype="int64")
    return [paddle.flatten(x), x.flatten(1), x.flatten(0, 1), x.flatten(-2, -1), paddle.flatten(paddle.to_tensor(5.0))]


@case
def flatten_bad_axes(paddle):
    return paddle.flatten(_a(paddle, 2, 3), start_axis=1, stop_axis=0)


@case
def ravel_noncontiguous(paddle):
    return paddle.ravel(_a(paddle, 2, 3).t())


@case
def unflatten_cases(paddle):
    x = _a(paddle, 4, 6)
    return [paddle.unflatten(x, 1, [2, 3]), paddle.unflatten(x, -2, [2, -1]), x.unflatten(0, (4, 1))]


@case
def view_shape_and_dtype(paddle):
    x = _a(paddle, 2, 4)
    return [x.view([4, 2]), x.view([-1]), paddle.view(x, "int32"), x.view(paddle.float16).shape]


@case
def view_as_cases(paddle):
    return paddle.view_as(_a(paddle, 2, 3), paddle.zeros([3, 2]))


@case
def squeeze_variants(paddle):
    x = paddle.zeros([1, 3, 1, 2])
    return [paddle.squeeze(x).shape, x.squeeze(0).shape, x.squeeze([0, 2]).shape, x.squeeze(1).shape,
            x.squeeze(-2).shape, x.squeeze((1, 2)).shape, paddle.squeeze(paddle.zeros([1])).shape]


@case
def squeeze_out_of_range(paddle):
    return paddle.squeeze(paddle.zeros([1, 3]), axis=3)


@case
def unsqueeze_variants(paddle):
    x = paddle.zeros([3, 2])
    return [x.unsqueeze(0).shape, x.unsqueeze(-1).shape, x.unsqueeze([0, 2]).shape, x.unsqueeze([0, -1]).shape,
            paddle.unsqueeze(x, paddle.to_tensor([1, 2])).shape, paddle.unsqueeze(paddle.to_tensor(1.0), 0),
            x.unsqueeze((-1, 0)).shape]


@case
def squeeze_unsqueeze_inplace(paddle):
    x = paddle.zeros([1, 3])
    x.squeeze_()
    y = paddle.zeros([3])
    y.unsqueeze_(1)
    return [x.shape, y.shape]


# ---------------------------------------------------------------- transpose family


@case
def transpose_and_permute(paddle):
    x = _a(paddle, 2, 3, 4)
    return [paddle.transpose(x, [2, 0, 1]), x.transpose([1, 0, 2]).shape, paddle.permute(x, [2, 1, 0]).shape,
            x.permute(1, 2, 0).shape, x.transpose([-1, 0, 1]).shape]


@case
def transpose_wrong_length(paddle):
    return paddle.transpose(_a(paddle, 2, 3), [0])


@case
def moveaxis_swapaxes_t(paddle):
    x = _a(paddle, 2, 3, 4)
    return [paddle.moveaxis(x, 0, -1).shape, paddle.moveaxis(x, [0, 1], [2, 0]).shape, paddle.swapaxes(x, 0, 2).shape,
            paddle.t(_a(paddle, 2, 3)), paddle.t(paddle.to_tensor([1, 2]))]


@case
def t_of_3d_fails(paddle):
    return paddle.t(_a(paddle, 2, 2, 2))


# ---------------------------------------------------------------- concat / stack / split


@case
def concat_axes(paddle):
    a, b = _a(paddle, 2, 3), paddle.ones([2, 3])
    return [paddle.concat([a, b]), paddle.concat([a, b], axis=1), paddle.concat((a, b), axis=-1),
            paddle.concat([a, b], axis=paddle.to_tensor(1)), paddle.concat([a])]


@case
def concat_mixed_dtype(paddle):
    return paddle.concat([paddle.to_tensor([1, 2], dtype="int32"), paddle.to_tensor([1.5, 2.5])])


@case
def concat_shape_mismatch(paddle):
    return paddle.concat([paddle.zeros([2, 3]), paddle.zeros([2, 4])], axis=0)


@case
def stack_axes(paddle):
    a, b = paddle.to_tensor([1, 2]), paddle.to_tensor([3, 4])
    return [paddle.stack([a, b]), paddle.stack([a, b], axis=1), paddle.stack([a, b], axis=-1),
            paddle.stack([paddle.to_tensor(1.0), paddle.to_tensor(2.0)])]


@case
def stack_shape_mismatch(paddle):
    return paddle.stack([paddle.zeros([2]), paddle.zeros([3])])


@case
def hvd_stacks(paddle):
    a, b = paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 4.0])
    return [paddle.hstack([a, b]), paddle.vstack([a, b]), paddle.dstack([a, b]), paddle.column_stack([a, b]),
            paddle.row_stack([a, b])]


@case
def split_variants(paddle):
    x = _a(paddle, 6, 4)
    return [paddle.split(x, 3), paddle.split(x, [1, 2, 3]), paddle.split(x, [2, -1, 1]), paddle.split(x, 2, axis=1),
            paddle.split(x, [1, 3], axis=-1), x.split(2, axis=paddle.to_tensor(1))]


@case
def split_uneven_fails(paddle):
    return paddle.split(_a(paddle, 5), 2)


@case
def split_sections_wrong_sum(paddle):
    return paddle.split(_a(paddle, 5), [2, 2])


@case
def chunk_variants(paddle):
    x = _a(paddle, 6, 4)
    return [paddle.chunk(x, 2), x.chunk(3, axis=0), paddle.chunk(x, 4, axis=-1)]


@case
def chunk_uneven_fails(paddle):
    return paddle.chunk(_a(paddle, 5), 2)


@case
def tensor_split_variants(paddle):
    x = _a(paddle, 7, dtype="int64")
    y = _a(paddle, 2, 7)
    return [paddle.tensor_split(x, 3), paddle.tensor_split(x, [2, 5]), paddle.tensor_split(y, 2, axis=1),
            paddle.tensor_split(x, (1, 1, 9))]


@case
def hsplit_vsplit_dsplit(paddle):
    x = _a(paddle, 4, 4, 2)
    return [paddle.hsplit(x, 2), paddle.vsplit(x, [1, 3]), paddle.dsplit(x, 2), paddle.hsplit(_a(paddle, 6), 3)]


@case
def unbind_unstack(paddle):
    x = _a(paddle, 2, 3)
    return [paddle.unbind(x), paddle.unbind(x, axis=1), x.unbind(-1), paddle.unstack(x, axis=1)]


# ---------------------------------------------------------------- expand / tile / broadcast


@case
def expand_variants(paddle):
    x = paddle.to_tensor([1, 2, 3], dtype="int32")
    return [paddle.expand(x, [2, 3]), x.expand([2, -1]), paddle.expand(x, paddle.to_tensor([2, 3])),
            paddle.expand(paddle.to_tensor(1.0), [2]), paddle.expand_as(x, paddle.zeros([2, 3]))]


@case
def expand_bad(paddle):
    return paddle.expand(paddle.to_tensor([1, 2]), [3])


@case
def broadcast_to_and_tensors(paddle):
    x = paddle.to_tensor([[1], [2]])
    return [paddle.broadcast_to(x, [2, 3]), paddle.broadcast_tensors([x, paddle.zeros([1, 3], dtype="int64")]),
            paddle.broadcast_shape([2, 1, 3], [4, 1])]


@case
def tile_variants(paddle):
    x = paddle.to_tensor([[1, 2], [3, 4]])
    return [paddle.tile(x, [2, 1]), x.tile([2]), paddle.tile(x, [2, 1, 2]), paddle.tile(x, paddle.to_tensor([1, 2])),
            paddle.tile(paddle.to_tensor(5), [3])]


@case
def repeat_method(paddle):
    x = paddle.to_tensor([[1, 2], [3, 4]])
    return [x.repeat(2, 1), x.repeat([1, 1, 2])]


@case
def repeat_interleave_variants(paddle):
    x = paddle.to_tensor([[1, 2], [3, 4]])
    return [paddle.repeat_interleave(x, 2), paddle.repeat_interleave(x, 2, axis=0),
            paddle.repeat_interleave(x, paddle.to_tensor([1, 2]), axis=1), x.repeat_interleave(3, axis=-1)]


# ---------------------------------------------------------------- flip / roll / rot90


@case
def flip_roll_rot90(paddle):
    x = _a(paddle, 2, 3)
    return [paddle.flip(x, 0), paddle.flip(x, [0, 1]), x.flip(-1), paddle.roll(x, 1), paddle.roll(x, -1, axis=1),
            paddle.roll(x, [1, 2], axis=[0, 1]), paddle.rot90(x), paddle.rot90(x, k=2), paddle.rot90(x, k=-1, axes=[1, 0])]


@case
def rot90_bad_axes(paddle):
    return paddle.rot90(_a(paddle, 2, 3), axes=[0, 0])


# ---------------------------------------------------------------- cast


@case
def cast_dtypes(paddle):
    x = paddle.to_tensor([-1.7, 0.0, 2.5])
    return [paddle.cast(x, "int32"), paddle.cast(x, paddle.bool), x.cast("float64"), x.astype("uint8").dtype,
            paddle.cast(paddle.to_tensor([1, 0]), "complex64"), paddle.cast(x, np.int64)]


@case
def cast_keeps_grad(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = paddle.cast(x, "float64")
    (y * y).sum().backward()
    return [y.stop_gradient, x.grad, paddle.cast(x, "int32").stop_gradient]


@case
def cast_inplace(paddle):
    x = paddle.to_tensor([1.5, 2.5])
    y = paddle.cast_(x, "float64")
    return [x, y is x]


# ---------------------------------------------------------------- gather / scatter family


@case
def gather_variants(paddle):
    x = _a(paddle, 3, 4)
    return [paddle.gather(x, paddle.to_tensor([2, 0])), paddle.gather(x, paddle.to_tensor([3, 1]), axis=1),
            paddle.gather(x, paddle.to_tensor(1)), x.gather(paddle.to_tensor([1], dtype="int32"), axis=paddle.to_tensor(1)),
            paddle.gather(x, paddle.to_tensor([[0], [2]]))]


@case
def gather_torch_style(paddle):
    x = _a(paddle, 3, 3)
    return paddle.gather(x, 1, paddle.to_tensor([[0, 0], [1, 0], [2, 2]]))


@case
def gather_float_index_fails(paddle):
    return paddle.gather(_a(paddle, 3), paddle.to_tensor([1.0]))


@case
def gather_nd_variants(paddle):
    x = _a(paddle, 2, 3, 4)
    return [paddle.gather_nd(x, paddle.to_tensor([[0, 1], [1, 2]])), paddle.gather_nd(x, paddle.to_tensor([[1]])),
            paddle.gather_nd(x, paddle.to_tensor([[0, 1, 2]])), paddle.gather_nd(x, paddle.to_tensor([[[1, 0]]]))]


@case
def index_select_variants(paddle):
    x = _a(paddle, 3, 4)
    return [paddle.index_select(x, paddle.to_tensor([0, 2])), x.index_select(paddle.to_tensor([3, 0]), axis=1),
            paddle.index_select(x, paddle.to_tensor([1], dtype="int32"), axis=-1)]


@case
def scatter_overwrite_and_add(paddle):
    x = paddle.ones([4, 2])
    idx = paddle.to_tensor([1, 3, 1])
    upd = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    idx2 = paddle.to_tensor([0, 2])
    upd2 = paddle.to_tensor([[7.0, 8.0], [9.0, 10.0]])
    return [paddle.scatter(x, idx2, upd2), paddle.scatter(x, idx, upd, overwrite=False),
            x.scatter(idx2, upd2, overwrite=False)]


@case
def scatter_torch_style(paddle):
    x = paddle.zeros([3, 3])
    return [paddle.scatter(x, 1, paddle.to_tensor([[0], [1], [2]]), paddle.ones([3, 1])),
            paddle.scatter(x, 0, paddle.to_tensor([[1, 2]]), paddle.to_tensor([[4.0, 5.0]]), reduce="add")]


@case
def scatter_inplace(paddle):
    x = paddle.zeros([3, 2])
    y = x.scatter_(paddle.to_tensor([1]), paddle.to_tensor([[1.0, 1.0]]))
    return [x, y is x]


@case
def scatter_nd_add_and_scatter_nd(paddle):
    x = paddle.zeros([3, 4])
    idx = paddle.to_tensor([[1], [1], [2]])
    upd = paddle.ones([3, 4])
    idx2 = paddle.to_tensor([[0, 1], [0, 1], [2, 3]])
    return [paddle.scatter_nd_add(x, idx, upd), paddle.scatter_nd_add(x, idx2, paddle.to_tensor([1.0, 2.0, 3.0])),
            paddle.scatter_nd(idx2, paddle.to_tensor([1.0, 2.0, 3.0]), [3, 4]),
            paddle.scatter_nd(paddle.to_tensor([[1]]), paddle.ones([1, 2], dtype="int32"), [2, 2])]


@case
def take_along_axis_variants(paddle):
    x = _a(paddle, 3, 4)
    return [paddle.take_along_axis(x, paddle.to_tensor([[0], [2], [1]]), 1),
            paddle.take_along_axis(x, paddle.to_tensor([[0, 1, 2, 0]]), 0),
            paddle.take_along_axis(x, paddle.to_tensor([[1]]), axis=-1),
            paddle.take_along_axis(x, paddle.to_tensor([[1, 0]]), 1, broadcast=False)]


@case
def take_along_axis_rank_mismatch(paddle):
    return paddle.take_along_axis(_a(paddle, 3, 4), paddle.to_tensor([1]), 0)


@case
def put_along_axis_reductions(paddle):
    x = paddle.to_tensor([[10, 30, 20], [60, 40, 50]])
    idx = paddle.to_tensor([[0]])
    return [paddle.put_along_axis(x, idx, 99, 1), paddle.put_along_axis(x, idx, paddle.to_tensor([[1]]), 0, "add"),
            paddle.put_along_axis(x, paddle.to_tensor([[1, 1]]), paddle.to_tensor([[2, 3]]), 1, "mul",
                                  broadcast=False),
            paddle.put_along_axis(x.astype("float32"), paddle.to_tensor([[0, 0], [1, 1]]),
                                  paddle.to_tensor([[1.0, 3.0], [2.0, 4.0]]), 1, "mean", broadcast=False),
            paddle.put_along_axis(x, paddle.to_tensor([[0, 0]]), paddle.to_tensor([[5, 7]]), 1, "amax",
                                  include_self=False, broadcast=False),
            paddle.put_along_axis(x, paddle.to_tensor([[2, 2]]), paddle.to_tensor([[5, 7]]), 1, "amin",
                                  broadcast=False)]


@case
def put_along_axis_float_values_into_int(paddle):
    x = paddle.to_tensor([[1, 2], [3, 4]])
    return paddle.put_along_axis(x, paddle.to_tensor([[1], [0]]), 2.7, 1)


@case
def scatter_add_and_reduce(paddle):
    x = paddle.ones([2, 3])
    idx = paddle.to_tensor([[0, 1, 0]])
    src = paddle.to_tensor([[1.0, 2.0, 3.0]])
    return [paddle.scatter_add(x, 0, idx, src), paddle.scatter_reduce(x, 1, idx, src, "sum"),
            paddle.scatter_reduce(x, 1, idx, src, "prod", include_self=False),
            paddle.scatter_reduce(x, 1, idx, src, "amax"), paddle.scatter_reduce(x, 1, idx, src, "mean")]


@case
def index_add_fill_put(paddle):
    x = paddle.zeros([3, 2])
    return [paddle.index_add(x, paddle.to_tensor([0, 2, 0]), 0, paddle.ones([3, 2])),
            paddle.index_fill(x, paddle.to_tensor([1]), 1, 5.0),
            paddle.index_fill(x, paddle.to_tensor([0, 2], dtype="int32"), 0, paddle.to_tensor(-1.0)),
            paddle.index_put(x, (paddle.to_tensor([0, 2]), paddle.to_tensor([1, 0])), paddle.to_tensor([1.0, 2.0])),
            paddle.index_put(x, (paddle.to_tensor([0, 0]),), paddle.ones([2]), accumulate=True)]


@case
def index_add_inplace(paddle):
    x = paddle.zeros([3])
    x.index_add_(paddle.to_tensor([1, 1]), 0, paddle.to_tensor([1.0, 2.0]))
    return x


@case
def masked_fill_select_scatter(paddle):
    x = _a(paddle, 2, 3)
    m = paddle.to_tensor([[True, False, True], [False, False, True]])
    return [paddle.masked_fill(x, m, -1.0), paddle.masked_fill(x, paddle.to_tensor([True, False, False]), 7),
            paddle.masked_fill(x, m, paddle.to_tensor(3.0)), paddle.masked_select(x, m),
            paddle.masked_scatter(x, m, paddle.to_tensor([10.0, 20.0, 30.0, 40.0]))]


@case
def masked_fill_int_with_float(paddle):
    return paddle.masked_fill(paddle.to_tensor([1, 2, 3]), paddle.to_tensor([True, False, True]), 2.5)


# ---------------------------------------------------------------- slice family


@case
def slice_variants(paddle):
    x = _a(paddle, 3, 4, 5)
    return [paddle.slice(x, [0, 1], [1, 0], [3, 2]), paddle.slice(x, [2], [-3], [100]),
            paddle.slice(x, [0], [paddle.to_tensor(1)], [paddle.to_tensor(2)]), paddle.slice(x, [1], [-100], [-1]),
            paddle.slice(x, axes=[0], starts=paddle.to_tensor([1]), ends=paddle.to_tensor([3]))]


@case
def strided_slice_variants(paddle):
    x = _a(paddle, 3, 4, 5)
    return [paddle.strided_slice(x, [0, 2], [0, 1], [3, 5], [2, 2]),
            paddle.strided_slice(x, [1], [-1], [-5], [-1]),
            paddle.strided_slice(x, [2], [4], [0], [-2]),
            paddle.strided_slice(x, [0, 1], [2, 10], [-10, -10], [-1, -3])]


@case
def narrow_crop(paddle):
    x = _a(paddle, 3, 4)
    return [paddle.narrow(x, 1, 1, 2), paddle.narrow(x, -2, 0, 1), paddle.crop(x, [2, 2], [1, 1]),
            paddle.crop(x, [-1, 2], [1, 0]), paddle.crop(x, shape=[2, 3])]


@case
def slice_scatter_select_scatter_diagonal_scatter(paddle):
    x = paddle.zeros([3, 4])
    return [paddle.slice_scatter(x, paddle.ones([3, 2]), axes=[1], starts=[0], ends=[4], strides=[2]),
            paddle.select_scatter(x, paddle.ones([4]), 0, 1),
            paddle.diagonal_scatter(x, paddle.ones([3]), offset=1),
            paddle.diagonal_scatter(x, paddle.ones([2]), offset=-1)]


@case
def unfold_as_strided(paddle):
    x = _a(paddle, 8)
    return [paddle.unfold(x, 0, 3, 2), paddle.as_strided(x, [3, 2], [2, 1]), paddle.as_strided(x, [2, 2], [1, 3], 4)]  # Paddle's offset counts bytes


# ---------------------------------------------------------------- complex views


@case
def as_complex_as_real(paddle):
    x = _a(paddle, 2, 2)
    c = paddle.as_complex(x)
    return [c, paddle.as_real(c), paddle.view_as_complex(x), paddle.view_as_real(c)]


@case
def as_complex_bad_last_dim(paddle):
    return paddle.as_complex(_a(paddle, 2, 3))


# ---------------------------------------------------------------- unique family


@case
def unique_consecutive_variants(paddle):
    x = paddle.to_tensor([1, 1, 2, 2, 3, 1, 1, 2])
    return [paddle.unique_consecutive(x), paddle.unique_consecutive(x, return_inverse=True, return_counts=True),
            paddle.unique_consecutive(x, return_counts=True, dtype="int32"),
            paddle.unique_consecutive(paddle.to_tensor([[2, 1, 3], [2, 1, 3], [3, 1, 3]]), axis=0)]


@case
def unique_variants(paddle):
    x = paddle.to_tensor([2, 3, 3, 1, 5, 3])
    y = paddle.to_tensor([[2, 1, 3], [3, 0, 1], [2, 1, 3]])
    return [paddle.unique(x), paddle.unique(x, return_index=True, return_inverse=True, return_counts=True),
            paddle.unique(y), paddle.unique(y, axis=0, return_inverse=True), paddle.unique(x, dtype="int32",
                                                                                             return_counts=True)]


# ---------------------------------------------------------------- misc


@case
def atleast_nd(paddle):
    a, b = paddle.to_tensor(1.0), paddle.to_tensor([1, 2])
    return [paddle.atleast_1d(a), paddle.atleast_2d(b), paddle.atleast_3d(b), paddle.atleast_1d(a, b),
            paddle.atleast_3d(_a(paddle, 2, 2)).shape]


@case
def shard_index_cases(paddle):
    label = paddle.to_tensor([[16], [1], [10], [19]])
    return [paddle.shard_index(label, 20, 2, 0), paddle.shard_index(label, 20, 2, 1, ignore_value=-5)]


@case
def tolist_and_tensordot(paddle):
    x = _a(paddle, 2, 3)
    y = _a(paddle, 3, 2)
    return [paddle.tolist(x), paddle.tensordot(x, y, axes=1), paddle.tensordot(x, x, axes=2),
            paddle.tensordot(x, y, axes=[[1], [0]]), paddle.tensordot(x, y, axes=[[0, 1], [1, 0]])]


@case
def tensordot_size_one_axis_contracts_a_sum(paddle):
    # Paddle pairs a size-1 axis with the other side's axis summed (torch would refuse the lists' sizes)
    x, y = _a(paddle, 2, 1, 4), _a(paddle, 3, 4, 5)
    x.stop_gradient = y.stop_gradient = False
    out = paddle.tensordot(x, y, [[1, 2], [0, 1]])
    out.sum().backward()
    return [out, x.grad, y.grad, paddle.tensordot(_a(paddle, 2, 3, 1), y, [[1], [0, 2]]),
            paddle.tensordot(_a(paddle, 2, 3), _a(paddle, 1, 4), 1)]


@case
def tensordot_axes_spellings(paddle):
    x, y = _a(paddle, 2, 3, 4), _a(paddle, 3, 4, 5)
    return [paddle.tensordot(x, y, np.int64(2)), paddle.tensordot(x, y, [[-2, -1], [0, 1]]),
            paddle.tensordot(x, y, [paddle.to_tensor([1, 2]), paddle.to_tensor([0, 1])]),
            paddle.tensordot(x, y, paddle.to_tensor([[1, 2], [0, 1]])), paddle.tensordot(x, y, [[1, 2], [0]]),
            paddle.tensordot(_a(paddle, 3, 3, 4), y, [1]), paddle.tensordot(x, y, [[], []]),
            paddle.tensordot(x, y, dims=((1, 2), (0, 1)))]


@case
def tensordot_axis_named_twice(paddle):
    return paddle.tensordot(_a(paddle, 3, 3), _a(paddle, 3, 3), [[0, -2], [0, 1]])


@case
def tensordot_negative_axes_count(paddle):
    return paddle.tensordot(_a(paddle, 2, 3), _a(paddle, 3, 4), -1)


@case
def tensordot_axes_count_past_rank(paddle):
    return paddle.tensordot(_a(paddle, 2, 3), _a(paddle, 3, 4), 3)


@case
def tensordot_zero_d_tensor_axes(paddle):
    return paddle.tensordot(_a(paddle, 2, 3), _a(paddle, 3, 4), paddle.to_tensor(1))


@case
def tensordot_mixed_dtypes(paddle):
    return paddle.tensordot(_a(paddle, 2, 3), _a(paddle, 3, 2, dtype="float64"), 1)


@case
def block_diag_cases(paddle):
    return paddle.block_diag([paddle.to_tensor([[1, 2], [3, 4]]), paddle.to_tensor([[5]]), paddle.to_tensor([6, 7])])


@case
def fill_zero_and_diagonal(paddle):
    x = paddle.ones([3, 3])
    x.fill_(2.5)
    y = paddle.ones([2, 3])
    y.zero_()
    z = paddle.zeros([3, 3])
    z.fill_diagonal_(4.0)
    w = paddle.zeros([5, 2])
    w.fill_diagonal_(1.0, wrap=True)
    v = paddle.zeros([2, 4])
    v.fill_diagonal_(3.0, offset=1)
    return [x, y, z, w, v]


@case
def fill_diagonal_tensor_cases(paddle):
    x = paddle.zeros([3, 4])
    return [paddle.Tensor.fill_diagonal_tensor(x, paddle.to_tensor([1.0, 2.0, 3.0])),
            x.fill_diagonal_tensor(paddle.to_tensor([1.0, 2.0, 3.0]), offset=1),
            paddle.zeros([2, 3, 4]).fill_diagonal_tensor(paddle.ones([4, 2]), dim1=0, dim2=1)]


@case
def manipulation_grads(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    y = paddle.concat([x, x * 2], axis=1)
    z = paddle.gather(y, paddle.to_tensor([1, 1]))
    w = paddle.transpose(z, [1, 0]).flatten()
    (w * paddle.arange(8).astype("float32")).sum().backward()
    return [w, x.grad]


@case
def masked_fill_value_tensors(paddle):
    """masked_fill's value: a number, a 0-D Tensor, or a Tensor of any rank broadcast as Paddle's ([1], [2] along
    the last axis, [[v]]); the in-place twin takes a [1] value too."""
    x = paddle.to_tensor([[1.0, -2.0], [3.0, -4.0]])
    m = x > 0
    y = x.clone()
    values = (paddle.to_tensor([9.0]), paddle.to_tensor([9.0, 8.0]), paddle.to_tensor([[9.0]]), paddle.to_tensor(9.0),
              9.0, 9)
    return [paddle.masked_fill(x, m, v) for v in values] + [
        paddle.masked_fill(x, paddle.to_tensor([True, False]), paddle.to_tensor([7.0])),
        y.masked_fill_(m, paddle.to_tensor([5.0])), y]


@case
def masked_fill_value_of_another_dtype(paddle):
    x = paddle.to_tensor([[1.0, -2.0], [3.0, -4.0]])
    return paddle.masked_fill(x, x > 0, paddle.to_tensor(9))
