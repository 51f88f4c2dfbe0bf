"""Paddle 3.3's PyTorch-style face (issue 28): torch-named modules, classes and functions, dtype aliases, the
Tensor constructor's forms, keyword aliases and out=, as real Paddle answers them."""
import numpy as np

from tests.cases import case


def _x(paddle):
    return paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])


@case
def functional_module(paddle):
    x = _x(paddle)
    f = paddle.functional
    return [f.split(x, 1, dim=0), f.split(x, [1, 2], dim=1), f.atleast_2d(paddle.to_tensor(1.0)),
            f.broadcast_shapes([2, 1], [1, 3]), f.norm(x, dim=1), f.einsum("ij->j", x),
            f.unique_consecutive(paddle.to_tensor([1, 1, 2, 2, 1]), return_counts=True),
            f.meshgrid(paddle.arange(2), paddle.arange(3))]


@case
def attention_backends(paddle):
    from paddle.nn.attention import SDPBackend, sdpa_kernel
    import paddle.nn.attention as att

    q = paddle.to_tensor(np.linspace(-1, 1, 2 * 3 * 2 * 4).reshape(2, 3, 2, 4).astype("float32"))
    with sdpa_kernel([SDPBackend.MATH]):
        inside = [int(b) for b in att._cur_sdpa_kernel_backends()]
        out = paddle.nn.functional.scaled_dot_product_attention(q, q, q)
    return [int(SDPBackend.MATH), int(SDPBackend.FLASH_ATTENTION), int(SDPBackend.EFFICIENT_ATTENTION),
            int(SDPBackend.ERROR), inside, out]


@case
def sdpa_kernel_refuses_an_empty_list(paddle):
    from paddle.nn.attention import sdpa_kernel

    with sdpa_kernel([]):
        pass


@case
def nn_torch_modules(paddle):
    import paddle.nn.modules
    import paddle.nn.parameter

    return [paddle.nn.modules.Module is paddle.nn.Layer, paddle.nn.parameter.Parameter is paddle.nn.Parameter,
            paddle.nn.modules.container.ModuleList is paddle.nn.LayerList]


@case
def torch_named_layers(paddle):
    x = paddle.to_tensor(np.arange(2 * 2 * 4 * 4, dtype="float32").reshape(2, 2, 4, 4))
    nn = paddle.nn
    return [nn.AdaptiveAvgPool2d(2)(x), nn.AdaptiveAvgPool3d(1)(x[None]), nn.ZeroPad2d(1)(x[:1, :1]),
            nn.ZeroPad1d([1, 2])(x[0]), nn.ZeroPad3d(1)(x[None, :1, :1]),
            nn.UpsamplingBilinear2d(scale_factor=2)(x[:1, :1, :2, :2]),
            nn.UpsamplingNearest2d(size=[3, 3])(x[:1, :1, :2, :2]),
            nn.HuberLoss(delta=2.0)(x, x * 0.5), nn.HuberLoss(reduction="none")(x[0, 0], target=x[0, 0] + 1.5)]


@case(atol=1e-5)  # (normalisations: float32 sums in another order; a zero is 1e-6 off)
def layer_keyword_aliases(paddle):
    x = paddle.to_tensor(np.arange(1 * 4 * 3, dtype="float32").reshape(1, 4, 3) / 7)
    nn = paddle.nn
    gn = nn.GroupNorm(2, 4, eps=1e-3, affine=False)
    out, idx = nn.AdaptiveMaxPool1D(2, return_indices=True)(input=x)
    return [nn.CosineSimilarity(dim=0)(x[0], x[0] + 1), gn(x), nn.LayerNorm(3, eps=1e-4)(x), out, idx,
            nn.Flatten()(input=x), nn.Softmax(axis=1)(x)]


@case
def window_functions(paddle):
    return [paddle.hann_window(6), paddle.hann_window(5, periodic=False, dtype="float64"),
            paddle.hamming_window(6, alpha=0.5, beta=0.5), paddle.blackman_window(7),
            paddle.bartlett_window(5), paddle.kaiser_window(6, beta=8.0), paddle.kaiser_window(1),
            paddle.blackman_window(4, requires_grad=True)]


@case
def dtype_aliases(paddle):
    return [str(paddle.int), str(paddle.short), str(paddle.long), str(paddle.float), str(paddle.double),
            str(paddle.half), paddle.ones([2], dtype=paddle.int).dtype == paddle.int32]


@case
def tensor_constructor_forms(paddle):
    made = [paddle.Tensor(2, 3), paddle.Tensor(4), paddle.Tensor()]
    return [[t.shape, str(t.dtype)] for t in made] + [
        paddle.Tensor([1, 2]), paddle.Tensor([[1.5], [2]]), paddle.Tensor((3, 4)), paddle.Tensor(data=[5, 6]),
        paddle.Tensor(np.array([1, 2], "float64")), paddle.Tensor([1, 2], device="cpu")]


@case
def inplace_twins(paddle):
    outs = []
    for name in ("asin_", "acosh_", "asinh_", "atanh_", "cosh_", "log1p_"):
        x = paddle.to_tensor([0.5, 0.25]) if name != "acosh_" else paddle.to_tensor([1.5, 2.0])
        r = getattr(paddle, name)(x)
        outs += [r, r is x]
    return outs


@case
def device_functions(paddle):
    paddle.set_default_device("cpu")
    return [str(paddle.get_default_device()), paddle.get_device_module("cpu").__name__.split(".")[-1],
            paddle.get_device_module().__name__.split(".")[-1], paddle.get_device_module("cpu").device_count()]


@case
def function_keyword_aliases(paddle):
    x = _x(paddle)
    i = paddle.to_tensor([0])
    return [paddle.roll(x, 1, dims=0), paddle.diagonal(x, dim1=0, dim2=1), paddle.tile(x, dims=[1, 2]),
            paddle.flatten(x[None], start_dim=0, end_dim=1), paddle.unflatten(x, 1, sizes=[3, 1]),
            paddle.concat(tensors=[x, x], dim=0), paddle.tensor_split(x, indices=[1], dim=1),
            paddle.tensor_split(x, sections=3, dim=1), paddle.index_add(x, i, 0, source=paddle.ones([1, 3])),
            paddle.index_put(x, (i,), values=paddle.to_tensor([9.0])), x.view(dtype=paddle.int32),
            paddle.bucketize(x, boundaries=paddle.to_tensor([2.0, 4.0])), paddle.ones([1, 3]).expand(size=[2, 3]),
            paddle.outer(paddle.ones([2]), vec2=paddle.arange(3, dtype="float32")),
            paddle.bmm(x[None], mat2=x.T[None]), paddle.nn.functional.hardshrink(x, lambd=2.5),
            str(paddle.finfo(type=paddle.float64).dtype),
            paddle.nn.functional.fold(paddle.ones([1, 4, 4]), output_size=[3, 3], kernel_sizes=2)]


@case
def out_keyword(paddle):
    x = _x(paddle)
    outs = []
    for fn, shape in ((lambda o: paddle.logsumexp(x, dim=1, out=o), [2]), (lambda o: paddle.tril(x, out=o), [2, 3]),
                      (lambda o: paddle.clip(x, 2, 4, out=o), [2, 3]), (lambda o: paddle.diff(x, out=o), [2, 2]),
                      (lambda o: paddle.roll(x, 1, out=o), [2, 3])):
        o = paddle.zeros(shape)
        r = fn(o)
        outs += [o, r, r is o]
    return outs


@case
def copy_non_blocking(paddle):
    y = paddle.zeros([3])
    y.copy_(paddle.to_tensor([1.0, 2.0, 3.0]), non_blocking=True)
    return y


@case
def ldexp_float_exponent(paddle):
    x = _x(paddle)
    return [paddle.ldexp(x, paddle.to_tensor([1.5, 2.0, 0.0])), paddle.ldexp(x, paddle.to_tensor([1, 2, 0])),
            paddle.ldexp(paddle.to_tensor([1, 2, 3]), paddle.to_tensor([1.5, 2.0, -1.0], dtype="float64"))]


@case
def factories_requires_grad(paddle):
    made = [paddle.arange(3, dtype="float32", requires_grad=True), paddle.ones([2], requires_grad=True),
            paddle.zeros([2], requires_grad=True), paddle.full([2], 1.0, requires_grad=True),
            paddle.eye(2, requires_grad=True), paddle.linspace(0, 1, 3, requires_grad=True),
            paddle.zeros_like(paddle.ones([2]), requires_grad=True), paddle.arange(3, requires_grad=True)]
    return [[t.stop_gradient, str(t.dtype)] for t in made]


@case
def backward_and_clip_results(paddle):
    lin = paddle.nn.Linear(2, 2)
    loss = lin(paddle.ones([1, 2])).sum()
    r = paddle.autograd.backward([loss])
    n = paddle.nn.utils.clip_grad_norm_(lin.parameters(), 1.0)
    v = paddle.nn.utils.clip_grad_value_(lin.parameters(), 0.1)
    return [r, lin.weight.grad.stop_gradient, n.stop_gradient, str(n.dtype), n.shape, v]


@case
def put_along_axis_index_rank(paddle):
    t = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    return paddle.put_along_axis(t, paddle.to_tensor([0, 1]), 9.0, 1)


@case
def seed_keyword(paddle):
    paddle.seed(seed=3)
    a = paddle.rand([2])
    paddle.manual_seed(seed=3)
    return [a.shape, paddle.rand([2]).shape]


@case
def pdist_rows(paddle):
    x = paddle.to_tensor(np.arange(12, dtype="float32").reshape(4, 3) / 5)
    return [paddle.nn.functional.pdist(x, p) for p in (2.0, 1.0, 0.0, float("inf"), 3.0)] + \
        [paddle.nn.functional.pdist(paddle.ones([1, 3]))]


@case
def index_add_alpha(paddle):
    x = _x(paddle)
    return [paddle.index_add(x, paddle.to_tensor([0]), 0, paddle.ones([1, 3]), alpha=2.5),
            paddle.index_add(x, paddle.to_tensor([1]), 1, paddle.ones([2, 1]), 3)]


@case
def as_tensor_requires_grad(paddle):
    a = paddle.as_tensor([1.0, 2.0], requires_grad=True)
    b = paddle.as_tensor([1, 2], "float64", "cpu", True)
    return [a, b, paddle.as_tensor([3.0])]


@case
def as_tensor_pin_memory_on_cpu(paddle):
    return paddle.as_tensor([1.0, 2.0], pin_memory=True)


@case
def unique_sorted_flag(paddle):
    x = paddle.to_tensor([3, 1, 2, 3, 1])
    return [list(paddle.unique(x, return_index=True, return_inverse=True, return_counts=True, sorted=s))
            for s in (True, False)]


@case
def swapaxes_forms(paddle):
    x = paddle.to_tensor(np.arange(24, dtype="float32").reshape(2, 3, 4))
    return [paddle.swapaxes(x, 0, 2), paddle.swapaxes(x, [2, 1, 0]), paddle.swapaxes(x, perm=[2, 0, 1]),
            paddle.swapaxes(x, dim0=0, dim1=1), paddle.swapaxes(input=x, dim0=1, dim1=2), x.swapaxes(0, 1),
            x.swapdims(dim0=0, dim1=2), paddle.swapdims(x, [1, 0, 2])]


@case
def new_factories_and_repeat_keywords(paddle):
    x = paddle.ones([2], dtype="float64")
    made = [x.new_ones(size=[2, 3]), x.new_zeros(2, 3), x.new_empty(size=(1,)), x.new_ones([2], dtype="int32")]
    return [[t.shape, str(t.dtype)] for t in made] + [
        paddle.ones([2, 3]).repeat(repeats=[2, 1]), paddle.ones([2, 3]).repeat([2, 1, 1]),
        paddle.Tensor.repeat(input=paddle.ones([2]), repeats=2)]


@case
def permute_input_keyword(paddle):
    return [paddle.permute(input=paddle.ones([2, 3]), dims=[1, 0]), paddle.permute(paddle.ones([2, 3, 4]), 2, 0, 1)]


@case
def from_dlpack_device_copy(paddle):
    src = paddle.to_tensor([1.0, 2.0, 3.0])
    a = paddle.from_dlpack(src, device="cpu")
    b = paddle.from_dlpack(src, copy=True)
    src[0] = 9.0
    return [a, b]


@case
def sparse_reshape_input_keyword(paddle):
    x = paddle.to_tensor([[0.0, 1.0], [2.0, 0.0]]).to_sparse_coo(2)
    return paddle.sparse.reshape(input=x, shape=[4]).to_dense()


@case
def activation_layer_aliases(paddle):
    x = paddle.to_tensor([[-1.0, 0.2, 0.4], [0.1, 0.6, -0.3]])
    nn = paddle.nn
    return [nn.Hardshrink(lambd=0.3)(x), nn.Softshrink(lambd=0.15)(x), nn.GLU(dim=0)(x), nn.Maxout(3, axis=1)(
        x.reshape([1, 6, 1, 1])), str(nn.Softmax(0, "sm")), str(nn.LeakyReLU(negative_slope=0.2))]


@case
def softmax_layer_refuses_dim(paddle):
    paddle.nn.Softmax(dim=0)


@case
def maxout_layer_needs_groups(paddle):
    paddle.nn.Maxout()


@case
def conv_transpose_refuses_an_unknown_keyword(paddle):
    paddle.nn.Conv2DTranspose(2, 3, 3, dims=2)


@case
def reduction_keyword_aliases(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    return [x.sum(dim=1), paddle.sum(x, dim=0, keepdim=True), paddle.mean(x, dim=1), x.mean(dim=0),
            paddle.sum(input=x), x.sum()]


@case
def vjp_of_a_reduction_over_dim(paddle):
    def row_sums(t):
        return t.sum(dim=1)

    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    ys, vjp = paddle.incubate.autograd.vjp(row_sums, x, paddle.to_tensor([1.0, 2.0]))
    return [ys, vjp]


@case
def index_add_torch_positional_order(paddle):
    x = paddle.zeros([4, 2])
    index = paddle.to_tensor([3, 0])
    value = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    return [paddle.index_add(x, 0, index, value), paddle.index_add(x, index, 0, value),
            x.index_add(1, index[1:], paddle.ones([4, 1])), paddle.index_add(input=x, dim=0, index=index, source=value)]


@case
def view_sizes_as_arguments(paddle):
    x = paddle.arange(6.0)
    return [x.view(2, 3), x.view(6), paddle.view(x, 3, 2), x.view(size=[3, 2]), x.view(dtype="int32")]


@case
def atleast_nd_of_one_sequence(paddle):
    a, b = paddle.to_tensor(7), paddle.to_tensor([1, 2])
    return [paddle.atleast_1d((a, b)), paddle.atleast_2d([a, b]), paddle.atleast_3d([a]),
            paddle.functional.atleast_1d([a, b]), paddle.atleast_1d()]


@case
def conv_layer_dtype_keyword(paddle):
    conv = paddle.nn.Conv1d(2, 3, 2, dtype="float64")
    conv2 = paddle.nn.Conv2d(1, 1, 1, bias=False, dtype=paddle.float64)
    x = paddle.ones([1, 2, 4], dtype="float64")
    return [str(conv.weight.dtype), str(conv.bias.dtype), str(conv2.weight.dtype), conv(x).shape,
            str(paddle.nn.Conv1D(2, 3, 2).weight.dtype)]


@case
def factory_out_claims_grad(paddle):
    answers = []
    for make in (lambda o: paddle.ones([2], out=o, requires_grad=True),
                 lambda o: paddle.zeros([2], out=o, requires_grad=True),
                 lambda o: paddle.full([2], 3.0, out=o, requires_grad=True),
                 lambda o: paddle.arange(0.0, 2.0, out=o, requires_grad=True),
                 lambda o: paddle.empty([2], out=o, requires_grad=True),
                 lambda o: paddle.zeros([2], out=o)):
        out = paddle.zeros([2])
        result = make(out)
        answers.append([result is out, result.stop_gradient, out.stop_gradient, out.shape])
    return answers


@case
def grad_keeps_its_stop_gradient(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (x * x).sum().backward()
    first = x.grad.stop_gradient
    x.grad.stop_gradient = True
    after = x.grad.stop_gradient
    x.grad.requires_grad = True
    again = x.grad.stop_gradient
    y = paddle.to_tensor([3.0, -4.0])
    y.grad = paddle.to_tensor([0.5, 12.0])
    assigned = y.grad.stop_gradient
    norm = paddle.nn.utils.clip_grad_norm_(y, max_norm=3.0)
    return [first, after, again, assigned, y.grad.stop_gradient, norm, y.grad]


@case
def copysign_inplace_with_a_number(paddle):
    x = paddle.to_tensor([-1.5, 0.25, 3.0])
    same = x.copysign_(-1.0) is x
    ints = paddle.to_tensor([4, -5])
    return [same, x, ints.copysign_(2), paddle.to_tensor([1.0, -2.0]).copysign_(paddle.to_tensor([-0.0]))]


@case
def filled_factory_out_of_another_dtype(paddle):
    paddle.ones([2], out=paddle.zeros([2], dtype="float64"))


@case
def factory_out_of_another_shape_or_dtype(paddle):
    out = paddle.zeros([2])
    grown = paddle.zeros([3], out=out)
    wide = paddle.zeros([2], dtype="float64")
    ranged = paddle.arange(2, dtype="float32", out=wide)
    return [grown is out, out.shape, str(wide.dtype), str(ranged.dtype), paddle.full([2], 1, out=paddle.zeros([2]))]


@case
def max_refuses_torch_keywords(paddle):
    paddle.max(paddle.ones([2, 3]), dim=1)


@case
def min_method_refuses_torch_keywords(paddle):
    x = paddle.ones([2, 3])
    x.min(dim=0, input=x, other=x)


@case
def sort_refuses_torch_keywords(paddle):
    paddle.sort(input=paddle.ones([3]))


@case
def split_refuses_torch_keywords(paddle):
    paddle.ones([4, 2]).split(split_size_or_sections=2, dim=0)


@case
def linear_refuses_torch_keywords(paddle):
    paddle.nn.Linear(2, 3, bias=False, dtype="float32")


@case
def unfold_refuses_torch_keywords(paddle):
    paddle.nn.Unfold(kernel_size=2)


@case
def paddle_keywords_where_torch_ones_are_refused(paddle):
    x = paddle.to_tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    return [paddle.max(x, axis=1, keepdim=True), x.min(axis=0), paddle.sort(x, axis=1, descending=True),
            paddle.split(x, num_or_sections=3, axis=1), x.split(2, axis=0),
            paddle.nn.Linear(3, 2, bias_attr=False).bias is None, paddle.nn.Unfold(kernel_sizes=2).kernel_sizes]


@case
def interpolate_nearest_of_a_3d_input(paddle):
    paddle.nn.functional.interpolate(paddle.ones([1, 2, 3]), scale_factor=2, mode="nearest")


@case
def upsample_layer_nearest_of_a_3d_input(paddle):
    paddle.nn.Upsample(scale_factor=2)(paddle.ones([1, 2, 3]))


@case
def complex_data_under_a_float64_default(paddle):
    paddle.set_default_dtype("float64")
    try:
        return [str(paddle.to_tensor([1.5, 3j]).dtype), str(paddle.tensor([[1j], [2.0]]).dtype),
                str(paddle.to_tensor(2j).dtype), str(paddle.to_tensor([1.5]).dtype)]
    finally:
        paddle.set_default_dtype("float32")


@case
def maximum_of_a_python_number(paddle):
    paddle.maximum(paddle.to_tensor([1.0, 2.0]), 2)


@case
def tensor_minimum_of_a_python_number(paddle):
    paddle.to_tensor([1.0, 2.0]).minimum(1.5)


@case
def fmin_of_a_python_number_first(paddle):
    paddle.fmin(1.5, paddle.to_tensor([1.0, 2.0]))


@case
def logaddexp_of_a_python_number(paddle):
    paddle.logaddexp(paddle.to_tensor([1.0, 2.0]), 1.0)


@case
def nextafter_of_a_python_bool(paddle):
    paddle.nextafter(paddle.to_tensor([1.0, 2.0]), True)


@case
def bitwise_ops_leave_out_untouched(paddle):
    x, y = paddle.to_tensor([True, False, True]), paddle.to_tensor([False, True, True])
    i, j = paddle.to_tensor([5, -3, 12]), paddle.to_tensor([1, 2, 3])
    outs, results = [], []
    for fn, args, like in [(paddle.bitwise_or, (x, y), x), (paddle.bitwise_and, (i, j), i), (paddle.bitwise_xor, (x, y), x),
                           (paddle.bitwise_not, (i,), i), (paddle.bitwise_invert, (x,), x),
                           (paddle.bitwise_left_shift, (i, j), i), (paddle.bitwise_right_shift, (i, j), i)]:
        out = paddle.zeros_like(like)
        r = fn(*args, out=out)
        results.append(r)
        outs.append(out)
    out = paddle.zeros_like(x)
    r = x.bitwise_or(y, out=out)
    return results + outs + [r, out, r is out]


@case
def out_is_the_returned_tensor(paddle):
    x = paddle.to_tensor([[3.0, 1.0], [2.0, 5.0]])
    outs = [paddle.zeros([2]), paddle.zeros([2, 2]), paddle.zeros([2, 2]), paddle.zeros([2, 2])]
    rs = [paddle.quantile(x, 0.5, axis=0, out=outs[0]), paddle.msort(x, out=outs[1]), x.msort(out=outs[2]),
          paddle.nn.functional.normalize(x, out=outs[3])]
    xg = paddle.to_tensor([[3.0, 1.0], [2.0, 5.0]], stop_gradient=False)
    o = paddle.zeros([2, 2])
    r = paddle.nn.functional.normalize(xg, out=o)
    return [r_ is o_ for r_, o_ in zip(rs, outs)] + rs + [r is o, r, o.stop_gradient]


@case
def baddbmm_of_a_2d_input(paddle):
    x = paddle.arange(24, dtype="float32").reshape([2, 3, 4]) / 10
    y = paddle.arange(16, dtype="float32").reshape([2, 4, 2]) / 10
    rows = paddle.to_tensor([[1.0, -2.0], [0.5, 3.0]])
    return [paddle.baddbmm(rows, x, y, beta=2.0, alpha=0.5), paddle.baddbmm(rows[:, :1], x, y),
            rows.baddbmm(x, y), paddle.baddbmm(paddle.ones([1, 3, 1]), x, y, beta=-1.0)]


@case
def baddbmm_of_a_2d_input_of_another_batch(paddle):
    paddle.baddbmm(paddle.ones([3, 2]), paddle.ones([1, 2, 3]), paddle.ones([1, 3, 2]))


@case
def baddbmm_of_an_input_whose_rows_do_not_fit(paddle):
    paddle.baddbmm(paddle.ones([1, 2, 2]), paddle.ones([2, 3, 4]), paddle.ones([2, 4, 2]))
