"""Edge cases around the per-op fast paths (the tiny-GPT ops: ones, full_like, transpose, where, arange,
softmax, tril, dtype strings, Parameters as op inputs): each fast path must give what Paddle's general path
gives, for the arguments it takes and for the ones it passes on."""
import numpy as np

from tests.cases import case


# ---------------------------------------------------------------- ones / zeros / empty
@case
def ones_dtype_spellings(paddle):
    return [paddle.ones([2, 2], dtype="bool"), paddle.ones([2], dtype=paddle.int32), paddle.ones([2], dtype=np.float64),
            paddle.ones([2], "int64"), paddle.zeros([2], dtype=np.dtype("int8")), paddle.ones([2], dtype=bool),
            paddle.ones([2], dtype="bool"), paddle.zeros([1], dtype="float16"), paddle.ones([2], dtype=paddle.bool)]


@case
def ones_dtype_unknown_string(paddle):
    return paddle.ones([2], dtype="float31")


@case
def ones_dtype_unknown_string_twice(paddle):  # an unknown name is not remembered as anything
    try:
        paddle.ones([2], dtype="int65")
    except Exception:  # noqa: BLE001
        pass
    return paddle.ones([2], dtype="int65")


@case
def ones_shape_forms(paddle):
    return [paddle.ones((2, 3)), paddle.ones([3]), paddle.ones([]), paddle.ones(paddle.to_tensor([2, 2])),
            paddle.ones([paddle.to_tensor(2), 2]), paddle.ones(2, 3), paddle.ones(shape=[1, 2]), paddle.zeros([0, 3]),
            paddle.ones([np.int64(2), 2]), paddle.empty([2, 0]).shape]


@case
def ones_negative_size(paddle):
    return paddle.ones([2, -1], dtype="bool")


@case
def zeros_negative_size_tuple(paddle):
    return paddle.zeros((-3,))


@case
def empty_negative_size(paddle):
    return paddle.empty([1, -2])


@case
def ones_float_size(paddle):
    return paddle.ones([2.0, 3])


@case
def ones_default_dtype_follows_set_default_dtype(paddle):
    paddle.set_default_dtype("float64")
    try:
        return [paddle.ones([2]), paddle.zeros([1, 1]), paddle.ones([2], dtype="float32")]
    finally:
        paddle.set_default_dtype("float32")


@case
def ones_stop_gradient(paddle):
    return [paddle.ones([2]).stop_gradient, paddle.zeros([2, 1], dtype="float64").stop_gradient]


# ---------------------------------------------------------------- full_like
@case
def full_like_float_input(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    return [paddle.full_like(x, float("-inf")), paddle.full_like(x, 2), paddle.full_like(x, 0.5, dtype="int32"),
            paddle.full_like(x, 7, dtype="float64"), paddle.full_like(x, float("nan")),
            paddle.full_like(paddle.to_tensor([1.0], dtype="float16"), 1.5)]


@case
def full_like_int_input(paddle):
    return [paddle.full_like(paddle.to_tensor([1, 2]), 2.7), paddle.full_like(paddle.to_tensor([1, 2]), -1.5),
            paddle.full_like(paddle.to_tensor([1, 2]), 4), paddle.full_like(paddle.to_tensor([True, False]), 1)]


@case
def full_like_transposed_input(paddle):  # a non-contiguous input: the result is laid out afresh
    x = paddle.arange(6, dtype="float32").reshape([2, 3]).transpose([1, 0])
    y = paddle.full_like(x, 1.5)
    return [y, y.reshape([6]), y.is_contiguous()]


@case
def full_like_of_grad_input(paddle):  # the result never tracks gradients
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    return [paddle.full_like(x, 3.0), paddle.full_like(x * 2, float("-inf")).stop_gradient]


# ---------------------------------------------------------------- transpose
@case
def transpose_list_forms(paddle):
    x = paddle.arange(24, dtype="float32").reshape([2, 3, 4])
    return [x.transpose([2, 0, 1]), x.transpose([-1, -3, 1]), x.transpose((1, 0, 2)),
            x.transpose([np.int64(1), 0, 2]), paddle.transpose(x, perm=[0, 2, 1])]


@case
def transpose_list_with_tensor_element(paddle):
    x = paddle.arange(6, dtype="float32").reshape([2, 3])
    return x.transpose([paddle.to_tensor(1), 0])


@case
def transpose_list_duplicate_axes(paddle):
    return paddle.ones([2, 3]).transpose([0, 0])


@case
def transpose_list_axis_out_of_range(paddle):
    return paddle.ones([2, 3]).transpose([0, 2])


@case
def transpose_list_too_long(paddle):
    return paddle.ones([2, 3]).transpose([0, 1, 2])


@case
def transpose_short_list_keeps_the_rest(paddle):
    x = paddle.arange(24, dtype="float32").reshape([2, 3, 4])
    return x.transpose([1, 0])


@case
def transpose_keeps_grad(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    y = x.transpose([1, 0])
    (y * paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    return [y.stop_gradient, x.grad]


# ---------------------------------------------------------------- where
@case
def where_tensor_and_scalar_operands(paddle):
    c = paddle.to_tensor([True, False, True])
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    return [paddle.where(c, x, paddle.full_like(x, float("-inf"))), paddle.where(c, x, 0.0),
            paddle.where(c, 1.0, x), paddle.where(c, paddle.to_tensor([1, 2, 3]), paddle.to_tensor([4, 5, 6]))]


@case
def where_causal_mask(paddle):
    att = paddle.arange(8, dtype="float32").reshape([2, 2, 2])
    causal = paddle.tril(paddle.ones([2, 2], dtype="bool"))
    return paddle.where(causal, att, paddle.full_like(att, float("-inf")))


@case
def where_condition_not_bool(paddle):
    x = paddle.to_tensor([1.0, 2.0])
    return paddle.where(paddle.to_tensor([1, 0]), x, x)


@case
def where_mixed_dtypes(paddle):
    c = paddle.to_tensor([True, False])
    return paddle.where(c, paddle.to_tensor([1, 2]), paddle.to_tensor([1.5, 2.5]))


@case
def where_keeps_grad(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = paddle.where(paddle.to_tensor([True, False]), x, paddle.zeros([2]))
    y.sum().backward()
    return [y.stop_gradient, x.grad]


# ---------------------------------------------------------------- tril / triu, arange, softmax
@case
def tril_triu_bool_and_1d(paddle):
    return [paddle.tril(paddle.ones([3, 3], dtype="bool")), paddle.triu(paddle.ones([2, 3]), 1),
            paddle.tril(paddle.ones([2, 2, 2]), -1)]


@case
def triu_1d_rejected(paddle):
    return paddle.triu(paddle.ones([3]))


@case
def arange_position_ids(paddle):
    ids = paddle.zeros([2, 5], dtype="int64")
    return [paddle.arange(0, ids.shape[1], dtype="int64"), paddle.arange(0, 5, 2, dtype="int64"),
            paddle.arange(1, 4, dtype="int32"), paddle.arange(3, dtype="int64"), paddle.arange(2, 8, 1)]


@case
def softmax_forms(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
    F = paddle.nn.functional
    return [F.softmax(x, axis=-1), F.softmax(x, axis=0), F.softmax(x, axis=np.int64(1)),
            F.softmax(x, axis=paddle.to_tensor(1)), F.softmax(x, dtype="float64"),
            F.softmax(x.astype("float64"), axis=1), paddle.nn.Softmax(axis=0)(x)]


@case
def softmax_int_input_rejected(paddle):
    return paddle.nn.functional.softmax(paddle.to_tensor([1, 2]))


# ---------------------------------------------------------------- Parameters as op inputs
@case
def parameters_as_op_inputs(paddle):
    lin = paddle.nn.Linear(2, 3)
    for p in (lin.weight, lin.bias):
        p.set_value(np.arange(np.prod(p.shape), dtype="float32").reshape(p.shape) / 4)
    x = paddle.to_tensor([[1.0, -1.0]])
    y = paddle.matmul(x, lin.weight) + lin.bias
    z = paddle.nn.functional.linear(x, lin.weight, lin.bias)
    t = paddle.matmul(y, lin.weight, transpose_y=True)
    (y.sum() + t.sum()).backward()
    return [y, z, t, y.stop_gradient, lin.weight.grad, lin.bias.grad]


@case
def activation_layers_with_arguments(paddle):
    x = paddle.to_tensor([-2.0, -0.5, 0.5, 2.0])
    nn = paddle.nn
    return [nn.GELU(approximate=True)(x), nn.GELU()(x), nn.LeakyReLU(0.2)(x), nn.Hardtanh(-1.0, 0.5)(x),
            nn.ELU()(x), nn.Softplus(2, 10)(x)]


@case
def log_softmax_bool_input_rejected(paddle):
    return paddle.nn.functional.log_softmax(paddle.to_tensor([True, False]))


@case
def clear_gradients_skips_frozen_parameters(paddle):
    lin = paddle.nn.Linear(2, 2)
    for p in (lin.weight, lin.bias):
        p.set_value(np.ones(p.shape, dtype="float32"))
    lin(paddle.to_tensor([[1.0, 2.0]])).sum().backward()
    lin.bias.trainable = False  # frozen after its gradient was computed: clear_gradients leaves it alone
    lin.clear_gradients()
    out = [lin.weight.grad.tolist(), lin.bias.grad.tolist()]  # (values now: the next backward adds to them)
    lin(paddle.to_tensor([[1.0, 2.0]])).sum().backward()
    lin.clear_gradients(set_to_zero=False)
    return out + [lin.weight.grad, lin.bias.grad]


# ---------------------------------------------------------------- a layer's weight reads (layers.parameter_pair)
def _set_ones(layer):
    for p in layer.parameters():
        p.set_value(np.ones(p.shape, dtype="float32"))
    return layer


@case
def linear_weight_reads(paddle):
    nn = paddle.nn
    x = paddle.to_tensor([[1.0, 2.0]])

    class Doubled(nn.Linear):  # a class attribute named weight wins over the parameter table
        @property
        def weight(self):
            return self._parameters["w"] * 2

        @weight.setter
        def weight(self, value):
            self.add_parameter("w", value)

    class Renamed(nn.Linear):  # so does an overridden __getattr__, for names the ordinary lookup misses
        def __getattr__(self, name):
            if name == "bias":
                return paddle.to_tensor([10.0, 20.0])
            return super().__getattr__(name)

    plain = _set_ones(nn.Linear(2, 2))
    nobias = _set_ones(nn.Linear(2, 2, bias_attr=False))
    swapped = _set_ones(nn.Linear(2, 2))
    swapped.weight = paddle.create_parameter([2, 2], "float32", default_initializer=nn.initializer.Constant(3.0))
    renamed = _set_ones(Renamed(2, 2))
    del renamed._parameters["bias"]
    return [plain(x), nobias(x), _set_ones(Doubled(2, 2))(x), swapped(x), renamed(x)]


@case
def layer_norm_weight_reads(paddle):
    nn = paddle.nn
    x = paddle.to_tensor([[1.0, 2.0, 4.0]])
    ln = nn.LayerNorm(3)
    ln.weight.set_value(np.array([1.0, 2.0, 3.0], dtype="float32"))
    plain = nn.LayerNorm(3, weight_attr=False, bias_attr=False)
    frozen = nn.LayerNorm(3)
    frozen.bias.stop_gradient = True
    y = frozen(paddle.to_tensor([[1.0, 2.0, 4.0]], stop_gradient=False))
    y.sum().backward()
    return [ln(x), plain(x), y, frozen.weight.grad, frozen.bias.grad]
