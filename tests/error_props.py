"""Bad input over the op table: the same calls on real Paddle (to record) and on paddle_on_torch (to test).

Each op family has a table of ops and a table of input classes (wrong dtype, mismatched shapes,
out-of-range index and axis, negative and huge sizes, empty and 0-d tensors, NaN / inf, None where a
Tensor goes); `cases()` is their cross product, in a fixed order, as {name: fn(paddle)}.  Inputs are made
with NumPy from fixed values, so both sides see the same data.  tools/record_errors.py runs every case
under real Paddle 3.3.1 and stores what it raised (type and the key part of the message) or returned
(tests/golden/error_props.json); tests/test_errors_props.py runs them under the shim and compares.

Sizes called "huge" are far beyond any address space (2**62 bytes and more), so no side allocates them.
"""
import numpy as np

NAN, INF = float("nan"), float("inf")


# ----------------------------------------------------------------------------------------- inputs

def arr(shape=(2, 3), dtype="float32", start=1):
    """start, start+1, ... in `shape` (1-based by default, so log / sqrt / division stay finite)."""
    n = int(np.prod(shape))
    return (np.arange(n) + start).reshape(shape).astype(dtype)


def t(P, shape=(2, 3), dtype="float32", start=1):
    return P.to_tensor(arr(shape, dtype, start))


def special(P):
    """One row of each special value, a float32 [2, 3]."""
    return P.to_tensor(np.array([[1.0, NAN, 2.0], [INF, -INF, 0.0]], dtype="float32"))


def F(P):
    return P.nn.functional


# ---------------------------------------------------------------------------------- unary elementwise

UNARY = {
    "abs": lambda P, x: P.abs(x), "exp": lambda P, x: P.exp(x), "log": lambda P, x: P.log(x),
    "sqrt": lambda P, x: P.sqrt(x), "sin": lambda P, x: P.sin(x), "tanh": lambda P, x: P.tanh(x),
    "floor": lambda P, x: P.floor(x), "round": lambda P, x: P.round(x), "sign": lambda P, x: P.sign(x),
    "reciprocal": lambda P, x: P.reciprocal(x), "square": lambda P, x: P.square(x),
    "neg": lambda P, x: P.neg(x), "erf": lambda P, x: P.erf(x), "isnan": lambda P, x: P.isnan(x),
    "logical_not": lambda P, x: P.logical_not(x), "bitwise_not": lambda P, x: P.bitwise_not(x),
    "sigmoid": lambda P, x: F(P).sigmoid(x), "relu": lambda P, x: F(P).relu(x),
    "gelu": lambda P, x: F(P).gelu(x), "cast_int32": lambda P, x: P.cast(x, "int32"),
    "clip": lambda P, x: P.clip(x, 0.0, 2.0), "scale": lambda P, x: P.scale(x, 2.0, 1.0),
    "flatten": lambda P, x: P.flatten(x), "numel": lambda P, x: P.numel(x),
}
UNARY_INPUTS = {
    "bool": lambda P: P.to_tensor([[True, False, True]]),
    "int32": lambda P: t(P, dtype="int32"),
    "int64_negative": lambda P: t(P, dtype="int64", start=-3),
    "empty": lambda P: t(P, (0, 3)),
    "zero_d": lambda P: P.to_tensor(2.0),
    "nan_inf": special,
    "list": lambda P: [1.0, 2.0],
    "none": lambda P: None,
}


# --------------------------------------------------------------------------------- binary elementwise

BINARY = {
    "add": lambda P, x, y: P.add(x, y), "subtract": lambda P, x, y: P.subtract(x, y),
    "multiply": lambda P, x, y: P.multiply(x, y), "divide": lambda P, x, y: P.divide(x, y),
    "floor_divide": lambda P, x, y: P.floor_divide(x, y), "remainder": lambda P, x, y: P.remainder(x, y),
    "pow": lambda P, x, y: P.pow(x, y), "maximum": lambda P, x, y: P.maximum(x, y),
    "minimum": lambda P, x, y: P.minimum(x, y), "fmax": lambda P, x, y: P.fmax(x, y),
    "atan2": lambda P, x, y: P.atan2(x, y), "equal": lambda P, x, y: P.equal(x, y),
    "less_than": lambda P, x, y: P.less_than(x, y), "logical_and": lambda P, x, y: P.logical_and(x, y),
    "bitwise_and": lambda P, x, y: P.bitwise_and(x, y), "op_add": lambda P, x, y: x + y,
    "op_floordiv": lambda P, x, y: x // y, "op_mod": lambda P, x, y: x % y, "op_lt": lambda P, x, y: x < y,
    "where": lambda P, x, y: P.where(x > 2, x, y),
}
BINARY_INPUTS = {
    "shape_mismatch": lambda P: (t(P), t(P, (4,))),
    "shape_mismatch_2d": lambda P: (t(P), t(P, (3, 2))),
    "int32_float32": lambda P: (t(P, dtype="int32"), t(P)),
    "float32_int64": lambda P: (t(P), t(P, dtype="int64")),
    "int32_int64": lambda P: (t(P, dtype="int32"), t(P, dtype="int64")),
    "bool_float32": lambda P: (P.to_tensor([[True, False, True]]), t(P, (1, 3))),
    "float32_float64": lambda P: (t(P), t(P, dtype="float64")),
    "empty_broadcast": lambda P: (t(P, (0, 3)), t(P, (3,))),
    "empty_mismatch": lambda P: (t(P, (0, 3)), t(P)),
    "zero_d_and_vector": lambda P: (P.to_tensor(2.0), t(P, (3,))),
    "nan_inf": lambda P: (special(P), P.to_tensor(np.array([[NAN, 1.0, -INF], [INF, INF, NAN]], "float32"))),
    "int_zero_divisor": lambda P: (t(P, dtype="int64"), P.to_tensor(np.array([[0, 1, 0], [2, 0, 3]]))),
    "none": lambda P: (t(P), None),
}


# ------------------------------------------------------------------------------------------ matmul-like

MATMUL = {
    "matmul": lambda P, x, y: P.matmul(x, y), "mm": lambda P, x, y: P.mm(x, y), "bmm": lambda P, x, y: P.bmm(x, y),
    "dot": lambda P, x, y: P.dot(x, y), "outer": lambda P, x, y: P.outer(x, y),
    "inner": lambda P, x, y: P.inner(x, y), "kron": lambda P, x, y: P.kron(x, y),
    "cross": lambda P, x, y: P.cross(x, y), "op_matmul": lambda P, x, y: x @ y,
    "linear": lambda P, x, y: F(P).linear(x, y),
}
MATMUL_INPUTS = {
    "inner_mismatch": lambda P: (t(P, (2, 3)), t(P, (4, 5))),
    "vector_mismatch": lambda P: (t(P, (3,)), t(P, (4,))),
    "batch_mismatch": lambda P: (t(P, (2, 2, 3)), t(P, (3, 3, 4))),
    "int64_float32": lambda P: (t(P, (2, 3), "int64"), t(P, (3, 2))),
    "float32_int64": lambda P: (t(P, (2, 3)), t(P, (3, 2), "int64")),
    "float32_float64": lambda P: (t(P, (2, 3)), t(P, (3, 2), "float64")),
    "bool": lambda P: (P.to_tensor([[True, False]]), P.to_tensor([[True], [False]])),
    "zero_d": lambda P: (P.to_tensor(2.0), t(P, (3,))),
    "empty": lambda P: (t(P, (0, 3)), t(P, (3, 2))),
    "nan_inf": lambda P: (special(P), t(P, (3, 2))),
}


# ------------------------------------------------------------------------------------------ reductions

REDUCE = {
    "sum": lambda P, x, a: P.sum(x, axis=a), "mean": lambda P, x, a: P.mean(x, axis=a),
    "max": lambda P, x, a: P.max(x, axis=a), "min": lambda P, x, a: P.min(x, axis=a),
    "amax": lambda P, x, a: P.amax(x, axis=a), "prod": lambda P, x, a: P.prod(x, axis=a),
    "argmax": lambda P, x, a: P.argmax(x, axis=a), "argmin": lambda P, x, a: P.argmin(x, axis=a),
    "std": lambda P, x, a: P.std(x, axis=a), "var": lambda P, x, a: P.var(x, axis=a),
    "median": lambda P, x, a: P.median(x, axis=a), "logsumexp": lambda P, x, a: P.logsumexp(x, axis=a),
    "all": lambda P, x, a: P.all(x, axis=a), "any": lambda P, x, a: P.any(x, axis=a),
    "nansum": lambda P, x, a: P.nansum(x, axis=a), "count_nonzero": lambda P, x, a: P.count_nonzero(x, axis=a),
    "norm": lambda P, x, a: P.linalg.norm(x, axis=a),
    "cumsum": lambda P, x, a: P.cumsum(x, axis=a), "cumprod": lambda P, x, a: P.cumprod(x, dim=a),
    "softmax": lambda P, x, a: F(P).softmax(x, axis=-1 if a is None else a),
    "sort": lambda P, x, a: P.sort(x, axis=-1 if a is None else a),
    "argsort": lambda P, x, a: P.argsort(x, axis=-1 if a is None else a),
    "topk": lambda P, x, a: P.topk(x, 1, axis=a),
    "unique": lambda P, x, a: P.unique(x, axis=a),
}
REDUCE_INPUTS = {
    "axis_too_big": lambda P: (t(P), 2),
    "axis_too_small": lambda P: (t(P), -3),
    "axis_repeated": lambda P: (t(P), [0, 0]),
    "axis_float": lambda P: (t(P), 1.5),
    "axis_str": lambda P: (t(P), "1"),
    "empty_all": lambda P: (t(P, (0, 3)), None),
    "empty_axis0": lambda P: (t(P, (0, 3)), 0),
    "empty_axis1": lambda P: (t(P, (0, 3)), 1),
    "zero_d": lambda P: (P.to_tensor(2.0), None),
    "zero_d_axis0": lambda P: (P.to_tensor(2.0), 0),
    "zero_d_axis1": lambda P: (P.to_tensor(2.0), 1),
    "bool": lambda P: (P.to_tensor([[True, False, True]]), None),
    "int32": lambda P: (t(P, dtype="int32"), 1),
    "nan_inf": lambda P: (special(P), 1),
    "nan_inf_all": lambda P: (special(P), None),
    "none": lambda P: (None, None),
}


# -------------------------------------------------------------------------------- shapes and sizes

SHAPED = {
    "zeros": lambda P, s: P.zeros(s), "ones": lambda P, s: P.ones(s), "full": lambda P, s: P.full(s, 1.5),
    "empty": lambda P, s: P.empty(s), "rand": lambda P, s: P.rand(s), "randn": lambda P, s: P.randn(s),
    "randint": lambda P, s: P.randint(0, 5, s),
    "reshape": lambda P, s: P.reshape(t(P, (2, 6)), s),
    "expand": lambda P, s: P.expand(t(P, (1, 12)), s),
    "broadcast_to": lambda P, s: P.broadcast_to(t(P, (1, 12)), s),
    "tile": lambda P, s: P.tile(t(P, (2, 3)), s),
    "view": lambda P, s: t(P, (2, 6)).view(s),
}
RANDOM_SHAPED = ("empty", "rand", "randn", "randint")
SHAPED_INPUTS = {
    "ok": [3, 4],
    "negative": [-2, 12],
    "two_minus_ones": [-1, -1],
    "zero": [0, 12],
    "wrong_numel": [5, 5],
    "float_dim": [2.5, 4],
    "huge": [2**40, 2**20],  # 2**62 bytes of float32: no allocator gives them
    "huge_overflow": [2**62, 2**62],
    "string": "12",
    "none": None,
}


# ------------------------------------------------------------------------------------------ indexing

INDEXING = {
    "index_select": lambda P, x, i: P.index_select(x, i, axis=0),
    "gather": lambda P, x, i: P.gather(x, i, axis=0),
    "take_along_axis": lambda P, x, i: P.take_along_axis(x, i.reshape([1, -1]), axis=1),
    "put_along_axis": lambda P, x, i: P.put_along_axis(x, i.reshape([1, -1]), 0.0, axis=1),
    "scatter": lambda P, x, i: P.scatter(x, i, P.zeros([i.shape[0], 3]) if i.ndim else P.zeros([3])),
    "index_add": lambda P, x, i: P.index_add(x, i, 0, P.ones([i.shape[0] if i.ndim else 1, 3])),
    "embedding": lambda P, x, i: F(P).embedding(i, x),
    "one_hot": lambda P, x, i: F(P).one_hot(i, 2),
    "gather_nd": lambda P, x, i: P.gather_nd(x, i.reshape([-1, 1])),
    "getitem": lambda P, x, i: x[i],
    "take": lambda P, x, i: P.take(x, i),
    "index_fill": lambda P, x, i: P.index_fill(x, i, 0, -1.0),
    "cross_entropy": lambda P, x, i: F(P).cross_entropy(x, i.reshape([-1, 1])[:2]),
    "nll_loss": lambda P, x, i: F(P).nll_loss(x, i.reshape([-1])[:2]),
}
INDEX_INPUTS = {  # x is [2, 3] float32 unless said
    "past_the_end": lambda P: (t(P), P.to_tensor([0, 5])),
    "negative_past_the_start": lambda P: (t(P), P.to_tensor([0, -9])),
    "negative_in_range": lambda P: (t(P), P.to_tensor([1, -1])),
    "float_index": lambda P: (t(P), P.to_tensor([0.0, 1.0])),
    "bool_index": lambda P: (t(P), P.to_tensor([True, False])),
    "int32_index": lambda P: (t(P), P.to_tensor([1, 0], dtype="int32")),
    "empty_index": lambda P: (t(P), P.to_tensor(np.zeros([0], "int64"))),
    "zero_d_index": lambda P: (t(P), P.to_tensor(1)),
    "zero_d_x": lambda P: (P.to_tensor(2.0), P.to_tensor([0])),
    "empty_x": lambda P: (t(P, (0, 3)), P.to_tensor([0])),
    "none": lambda P: (t(P), None),
}


# ------------------------------------------------------------------------- axis- and list-taking ops

AXIS_OPS = {
    "concat": lambda P, x, a: P.concat([x, x], axis=a), "stack": lambda P, x, a: P.stack([x, x], axis=a),
    "split": lambda P, x, a: P.split(x, 2, axis=a), "chunk": lambda P, x, a: P.chunk(x, 2, axis=a),
    "unbind": lambda P, x, a: P.unbind(x, axis=a), "squeeze": lambda P, x, a: P.squeeze(x, axis=a),
    "unsqueeze": lambda P, x, a: P.unsqueeze(x, axis=a), "flip": lambda P, x, a: P.flip(x, axis=a),
    "roll": lambda P, x, a: P.roll(x, 1, axis=a),
    "repeat_interleave": lambda P, x, a: P.repeat_interleave(x, 2, axis=a),
    "diff": lambda P, x, a: P.diff(x, axis=a), "flatten_start": lambda P, x, a: P.flatten(x, start_axis=a),
    "transpose_perm": lambda P, x, a: P.transpose(x, [a, 0]), "moveaxis": lambda P, x, a: P.moveaxis(x, a, 0),
    "log_softmax": lambda P, x, a: F(P).log_softmax(x, axis=a), "normalize": lambda P, x, a: F(P).normalize(x, axis=a),
    "kthvalue": lambda P, x, a: P.kthvalue(x, 1, axis=a), "mode": lambda P, x, a: P.mode(x, axis=a),
}
AXIS_INPUTS = {
    "axis_too_big": lambda P: (t(P), 3), "axis_too_small": lambda P: (t(P), -4),
    "axis_float": lambda P: (t(P), 0.5), "zero_d": lambda P: (P.to_tensor(2.0), 0),
    "empty": lambda P: (t(P, (0, 3)), 1), "nan_inf": lambda P: (special(P), 1),
}

# ops with a count or size argument
COUNT_OPS = {
    "split_sections": lambda P, n: P.split(t(P), n, axis=1),
    "topk_k": lambda P, n: P.topk(t(P), n, axis=1),
    "chunk_n": lambda P, n: P.chunk(t(P), n, axis=1),
    "repeat_interleave_n": lambda P, n: P.repeat_interleave(t(P), n, axis=1),
    "arange_end": lambda P, n: P.arange(0, n),
    "linspace_num": lambda P, n: P.linspace(0, 1, n),
    "eye_n": lambda P, n: P.eye(n),
    "randperm_n": lambda P, n: P.randperm(n),
    "one_hot_classes": lambda P, n: F(P).one_hot(P.to_tensor([0, 1]), n),
    "kthvalue_k": lambda P, n: P.kthvalue(t(P), n, axis=1),
    "tril_diagonal": lambda P, n: P.tril(t(P), n),
    "diagonal_offset": lambda P, n: P.diagonal(t(P), n),
}
RANDOM_COUNT = ("randperm_n",)
COUNT_INPUTS = {"zero": 0, "negative": -2, "too_big": 5, "float": 1.5, "huge": 2**62, "list_mismatch": [1, 1]}


# ----------------------------------------------------------------------------------- nn.functional

def _img(P, shape=(1, 2, 4, 4), dtype="float32"):
    return P.to_tensor((arr(shape, dtype) / 10).astype(dtype))


NN = {
    "conv2d_channels": lambda P: F(P).conv2d(_img(P), P.ones([3, 3, 3, 3])),
    "conv2d_3d_input": lambda P: F(P).conv2d(_img(P, (2, 4, 4)), P.ones([3, 2, 3, 3])),
    "conv2d_kernel_too_big": lambda P: F(P).conv2d(_img(P), P.ones([3, 2, 5, 5])),
    "conv2d_int": lambda P: F(P).conv2d(_img(P, dtype="int32"), P.ones([3, 2, 3, 3], "int32")),
    "conv2d_groups": lambda P: F(P).conv2d(_img(P), P.ones([3, 1, 3, 3]), groups=2),
    "conv2d_negative_padding": lambda P: F(P).conv2d(_img(P), P.ones([3, 2, 3, 3]), padding=-1),
    "conv2d_zero_stride": lambda P: F(P).conv2d(_img(P), P.ones([3, 2, 3, 3]), stride=0),
    "max_pool2d_kernel_too_big": lambda P: F(P).max_pool2d(_img(P), 5),
    "max_pool2d_zero_kernel": lambda P: F(P).max_pool2d(_img(P), 0),
    "avg_pool2d_3d_input": lambda P: F(P).avg_pool2d(_img(P, (2, 4)), 2),
    "adaptive_avg_pool2d_zero": lambda P: F(P).adaptive_avg_pool2d(_img(P), 0),
    "interpolate_no_size": lambda P: F(P).interpolate(_img(P)),
    "interpolate_negative": lambda P: F(P).interpolate(_img(P), size=[-2, 4]),
    "pad_negative_past": lambda P: F(P).pad(_img(P), [-5, 0, 0, 0]),
    "pad_odd_list": lambda P: F(P).pad(_img(P), [1, 1, 1]),
    "dropout_p_above_1": lambda P: F(P).dropout(t(P), p=1.5),
    "dropout_p_negative": lambda P: F(P).dropout(t(P), p=-0.1),
    "layer_norm_shape": lambda P: F(P).layer_norm(t(P), [4]),
    "batch_norm_channels": lambda P: F(P).batch_norm(_img(P), P.zeros([3]), P.ones([3]), training=False),
    "cross_entropy_label_past": lambda P: F(P).cross_entropy(t(P), P.to_tensor([[0], [3]])),
    "cross_entropy_label_negative": lambda P: F(P).cross_entropy(t(P), P.to_tensor([[0], [-2]])),
    "cross_entropy_float_label": lambda P: F(P).cross_entropy(t(P), P.to_tensor([[0.0], [1.0]])),
    "cross_entropy_batch_mismatch": lambda P: F(P).cross_entropy(t(P), P.to_tensor([[0], [1], [2]])),
    "cross_entropy_nan": lambda P: F(P).cross_entropy(special(P), P.to_tensor([[0], [1]])),
    "mse_loss_shape": lambda P: F(P).mse_loss(t(P), t(P, (3, 2))),
    "mse_loss_int": lambda P: F(P).mse_loss(t(P, dtype="int64"), t(P, dtype="int64")),
    "bce_out_of_range": lambda P: F(P).binary_cross_entropy(t(P), P.ones([2, 3])),
    "softmax_int": lambda P: F(P).softmax(t(P, dtype="int64")),
    "embedding_float_ids": lambda P: F(P).embedding(P.to_tensor([0.0, 1.0]), t(P)),
    "embedding_padding_idx_past": lambda P: F(P).embedding(P.to_tensor([0, 1]), t(P), padding_idx=5),
    "linear_bias_shape": lambda P: F(P).linear(t(P), P.ones([3, 4]), P.ones([5])),
    "Linear_negative_features": lambda P: P.nn.Linear(-1, 3),
    "Linear_zero_features": lambda P: P.nn.Linear(0, 3)(t(P, (2, 0))),
    "Conv2D_zero_channels": lambda P: P.nn.Conv2D(0, 3, 3),
    "Embedding_negative_size": lambda P: P.nn.Embedding(-3, 2),
    "BatchNorm2D_3d_input": lambda P: P.nn.BatchNorm2D(2)(_img(P, (2, 4, 4))),
}
RANDOM_NN = ("dropout_p_above_1", "dropout_p_negative")


# ---------------------------------------------------------------------------------- creation, linalg

MISC = {
    "to_tensor_ragged": lambda P: P.to_tensor([[1, 2], [3]]),
    "to_tensor_str": lambda P: P.to_tensor("abc"),
    "to_tensor_bad_dtype": lambda P: P.to_tensor([1, 2], dtype="int33"),
    "to_tensor_nan_to_int": lambda P: P.to_tensor([NAN, INF], dtype="int32"),
    "cast_bad_dtype": lambda P: P.cast(t(P), "floaty"),
    "astype_nan_inf_int64": lambda P: special(P).astype("int64").shape,
    "full_nan_int": lambda P: P.full([2], NAN, dtype="int64"),
    "arange_zero_step": lambda P: P.arange(0, 5, 0),
    "arange_wrong_direction": lambda P: P.arange(0, 5, -1),
    "arange_inf": lambda P: P.arange(0, INF),
    "linspace_nan": lambda P: P.linspace(0, NAN, 3),
    "eye_negative": lambda P: P.eye(-1),
    "reshape_two_minus_ones": lambda P: P.reshape(t(P), [-1, -1]),
    "reshape_zero_copies": lambda P: P.reshape(t(P), [0, 0, 0]),
    "transpose_perm_short": lambda P: P.transpose(t(P), [0]),
    "transpose_perm_repeated": lambda P: P.transpose(t(P), [0, 0]),
    "concat_rank_mismatch": lambda P: P.concat([t(P), t(P, (3,))]),
    "concat_shape_mismatch": lambda P: P.concat([t(P), t(P, (2, 4))], axis=0),
    "concat_dtype_mismatch": lambda P: P.concat([t(P), t(P, dtype="int64")]),
    "concat_empty_list": lambda P: P.concat([]),
    "stack_shape_mismatch": lambda P: P.stack([t(P), t(P, (3, 2))]),
    "split_uneven": lambda P: P.split(t(P), 2, axis=1),
    "split_sections_sum": lambda P: P.split(t(P), [1, 1], axis=1),
    "split_two_minus_ones": lambda P: P.split(t(P), [-1, -1, 1], axis=1),
    "slice_axes_mismatch": lambda P: P.slice(t(P), axes=[0, 1], starts=[0], ends=[1]),
    "getitem_past_the_end": lambda P: t(P)[5],
    "getitem_too_many": lambda P: t(P)[0, 0, 0],
    "getitem_float": lambda P: t(P)[1.5],
    "getitem_bool_mask_shape": lambda P: t(P)[P.to_tensor([True, False, True])],
    "setitem_shape": lambda P: t(P).__setitem__(0, t(P, (4,))),
    "setitem_past_the_end": lambda P: t(P).__setitem__(9, 0.0),
    "masked_select_shape": lambda P: P.masked_select(t(P), P.to_tensor([True, False])),
    "masked_select_float_mask": lambda P: P.masked_select(t(P), t(P)),
    "masked_fill_float_mask": lambda P: P.masked_fill(t(P), t(P), 0.0),
    "where_shape": lambda P: P.where(P.to_tensor([True, False]), t(P), t(P, (3,))),
    "where_float_cond": lambda P: P.where(t(P), t(P), t(P)),
    "expand_shrink": lambda P: P.expand(t(P), [2, 2]),
    "squeeze_non_one": lambda P: P.squeeze(t(P), axis=0),
    "unsqueeze_too_many": lambda P: P.unsqueeze(t(P), axis=[5]),
    "flatten_start_after_stop": lambda P: P.flatten(t(P, (2, 3, 4)), start_axis=2, stop_axis=1),
    "inv_singular": lambda P: P.linalg.inv(P.ones([2, 2])),
    "inv_non_square": lambda P: P.linalg.inv(t(P)),
    "det_non_square": lambda P: P.linalg.det(t(P)),
    "cholesky_not_pd": lambda P: P.linalg.cholesky(P.to_tensor([[1.0, 2.0], [2.0, 1.0]])),
    "solve_shape": lambda P: P.linalg.solve(t(P, (2, 2)), t(P, (3, 1))),
    "inv_int": lambda P: P.linalg.inv(t(P, (2, 2), "int64")),
    "pow_int_negative_exponent": lambda P: P.pow(t(P, dtype="int64"), -1),
    "sqrt_int": lambda P: P.sqrt(t(P, dtype="int64")),
    "mean_int": lambda P: P.mean(t(P, dtype="int64")),
    "std_int": lambda P: P.std(t(P, dtype="int64")),
    "sort_bool": lambda P: P.sort(P.to_tensor([True, False])),
    "bitwise_and_float": lambda P: P.bitwise_and(t(P), t(P)),
    "logical_and_mismatch": lambda P: P.logical_and(P.to_tensor([True, False]), P.to_tensor([True, False, True])),
    "clip_min_above_max": lambda P: P.clip(t(P), 3.0, 1.0),
    "histogram_min_above_max": lambda P: P.histogram(t(P), bins=3, min=5, max=1),
    "bincount_negative": lambda P: P.bincount(P.to_tensor([1, -1])),
    "multinomial_negative": lambda P: P.multinomial(P.to_tensor([0.5, -0.5])),
    "searchsorted_rank": lambda P: P.searchsorted(t(P), t(P, (3,))),
    "numpy_of_requires_grad": lambda P: P.to_tensor([1.0], stop_gradient=False).numpy(),
    "item_of_many": lambda P: t(P).item(),
    "float_of_many": lambda P: float(t(P)),
    "bool_of_many": lambda P: bool(t(P)),
    "backward_non_scalar_no_grad": lambda P: t(P).backward(),
    "grad_of_stop_gradient": lambda P: P.grad(t(P).sum(), [t(P)]),
}
RANDOM_MISC = ()


def _unary(op, inp):
    return lambda P: UNARY[op](P, UNARY_INPUTS[inp](P))


def _binary(table, inputs, op, inp):
    return lambda P: table[op](P, *inputs[inp](P))


def _reduce(op, inp):
    return lambda P: REDUCE[op](P, *REDUCE_INPUTS[inp](P))


def _shaped(op, inp):
    return lambda P: SHAPED[op](P, SHAPED_INPUTS[inp])


def _axis(op, inp):
    return lambda P: AXIS_OPS[op](P, *AXIS_INPUTS[inp](P))


def _count(op, inp):
    return lambda P: COUNT_OPS[op](P, COUNT_INPUTS[inp])


def _plain(fn):
    return lambda P: fn(P)


def cases():
    """{case name: (fn(paddle), random)}: the cross product of each family's ops and input classes, in order.
    `random` cases are compared on dtype and shape only when they return."""
    out = {}
    for op in UNARY:
        for inp in UNARY_INPUTS:
            out[f"unary/{op}/{inp}"] = (_unary(op, inp), False)
    for op in BINARY:
        for inp in BINARY_INPUTS:
            out[f"binary/{op}/{inp}"] = (_binary(BINARY, BINARY_INPUTS, op, inp), False)
    for op in MATMUL:
        for inp in MATMUL_INPUTS:
            out[f"matmul/{op}/{inp}"] = (_binary(MATMUL, MATMUL_INPUTS, op, inp), False)
    for op in REDUCE:
        for inp in REDUCE_INPUTS:
            out[f"reduce/{op}/{inp}"] = (_reduce(op, inp), False)
    for op in SHAPED:
        for inp in SHAPED_INPUTS:
            out[f"shape/{op}/{inp}"] = (_shaped(op, inp), op in RANDOM_SHAPED)
    for op in INDEXING:
        for inp in INDEX_INPUTS:
            out[f"index/{op}/{inp}"] = (_binary(INDEXING, INDEX_INPUTS, op, inp), False)
    for op in AXIS_OPS:
        for inp in AXIS_INPUTS:
            out[f"axis/{op}/{inp}"] = (_axis(op, inp), False)
    for op in COUNT_OPS:
        for inp in COUNT_INPUTS:
            out[f"count/{op}/{inp}"] = (_count(op, inp), op in RANDOM_COUNT)
    for name, fn in NN.items():
        out[f"nn/{name}"] = (_plain(fn), name in RANDOM_NN)
    for name, fn in MISC.items():
        out[f"misc/{name}"] = (_plain(fn), name in RANDOM_MISC)
    return out


# ------------------------------------------------------------------------------------- the answers

def key_message(e):
    """The part of an error message worth keeping (tests/golden.key_message)."""
    from tests import golden

    return golden.key_message(e)


def prefix(msg):
    """Paddle's error class in a message: '(InvalidArgument) ...' -> 'InvalidArgument' (None without one)."""
    if msg.startswith("(") and ")" in msg[:40]:
        return msg[1:msg.index(")")] or None
    return None


def describe(run):
    """Run a case: its error as {"error", "prefix", "message"}, else what tests/golden.describe makes of it."""
    from tests import golden

    try:
        r = run()
    except Exception as e:  # noqa: BLE001 - the error is the answer
        m = key_message(e)
        return {"error": golden.error_class(e), "prefix": prefix(m), "message": m}
    return golden.describe(r)
