"""nn activations: functional ops, layers, reprs, gradients, errors."""
import numpy as np

from tests.cases import case, data

_NAMES = ["relu", "relu6", "elu", "celu", "selu", "gelu", "leaky_relu", "hardshrink", "softshrink", "tanhshrink",
          "hardtanh", "hardsigmoid", "hardswish", "silu", "swish", "mish", "softplus", "softsign", "log_sigmoid",
          "sigmoid", "tanh", "thresholded_relu"]


@case
def functional_elementwise(paddle):
    x = paddle.to_tensor(data([3, 5], 1, scale=3.0))
    F = paddle.nn.functional
    return {n: getattr(F, n)(x) for n in _NAMES}


@case
def functional_arguments(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(data([4, 3], 2, scale=2.0))
    return [F.elu(x, 0.5), F.celu(x, 2.0), F.leaky_relu(x, 0.2), F.gelu(x, approximate=True), F.gelu(x, "tanh"),
            F.hardtanh(x, -0.5, 0.7), F.softplus(x, 2, 1), F.thresholded_relu(x, 0.5, 0.1),
            F.hardsigmoid(x, 0.2, 0.3), F.hardshrink(x, 1.0), F.softshrink(x, 0.3)]


@case
def softmax_family(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(data([2, 3, 4], 3))
    return [F.softmax(x), F.softmax(x, axis=1), F.softmax(x, dtype="float64"), F.log_softmax(x, 0),
            F.log_softmax(x, dtype="float64"), paddle.nn.Softmax2D()(x)]


@case
def glu_maxout_swiglu(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(data([2, 4, 3, 3], 4))
    return [F.glu(x, axis=1), F.glu(x), F.maxout(x, 2), F.maxout(x.transpose([0, 2, 3, 1]), 2, axis=-1),
            F.swiglu(x), F.swiglu(x, x * 2)]


@case
def prelu_weights(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(data([2, 3, 2, 2], 5))
    return [F.prelu(x, paddle.to_tensor([0.1])), F.prelu(x, paddle.to_tensor([0.1, 0.2, 0.3])),
            F.prelu(x.transpose([0, 2, 3, 1]), paddle.to_tensor([0.1, 0.2, 0.3]), data_format="NHWC")]


@case
def prelu_layer_grad(paddle):
    m = paddle.nn.PReLU(3, 0.1)
    x = paddle.to_tensor(data([2, 3, 4], 6), stop_gradient=False)
    y = m(x)
    (y * y).sum().backward()
    return y, x.grad, m._weight.grad, m._weight, repr(m)


@case
def activation_grads(paddle):
    F = paddle.nn.functional
    out = {}
    for n in ["relu", "elu", "gelu", "silu", "mish", "softplus", "hardswish", "log_sigmoid", "selu", "tanhshrink"]:
        x = paddle.to_tensor(data([6], 7, scale=2.0), stop_gradient=False)
        getattr(F, n)(x).sum().backward()
        out[n] = x.grad
    return out


@case
def layers_and_reprs(paddle):
    nn = paddle.nn
    x = paddle.to_tensor(data([2, 4], 8, scale=2.0))
    layers = [nn.ReLU(), nn.ReLU6(), nn.ELU(0.5), nn.CELU(), nn.SELU(), nn.GELU(True), nn.LeakyReLU(0.1),
              nn.Hardshrink(), nn.Softshrink(0.2), nn.Tanhshrink(), nn.Hardtanh(-2.0, 2.0), nn.Hardsigmoid(),
              nn.Hardswish(), nn.Silu(), nn.SiLU(), nn.Swish(), nn.Mish(), nn.Softplus(2, 10), nn.Softsign(),
              nn.LogSigmoid(), nn.Sigmoid(), nn.Tanh(), nn.ThresholdedReLU(0.5), nn.Softmax(0), nn.LogSoftmax(),
              nn.GLU(), nn.ReLU(name="r")]
    return [(repr(m), m(x)) for m in layers] + [repr(nn.Maxout(2, axis=1))]


@case
def maxout_needs_4d(paddle):
    return paddle.nn.Maxout(2)(paddle.to_tensor(data([2, 4], 8)))


@case(random=True)
def rrelu_train(paddle):
    x = paddle.to_tensor(data([3, 4], 9))
    return paddle.nn.functional.rrelu(x), paddle.nn.RReLU()(x)


@case
def rrelu_eval(paddle):
    x = paddle.to_tensor(data([3, 4], 9))
    m = paddle.nn.RReLU(0.1, 0.3)
    m.eval()
    return paddle.nn.functional.rrelu(x, training=False), m(x), repr(m)


@case(random=True)
def gumbel_softmax_shapes(paddle):
    x = paddle.to_tensor(data([3, 5], 10))
    F = paddle.nn.functional
    return F.gumbel_softmax(x), F.gumbel_softmax(x, 0.5, hard=True), F.gumbel_softmax(x, axis=0)


@case
def gumbel_hard_is_one_hot(paddle):
    x = paddle.to_tensor(data([3, 5], 10))
    return paddle.nn.functional.gumbel_softmax(x, hard=True).sum(axis=-1)


@case
def inplace_variants(paddle):
    F = paddle.nn.functional
    out = []
    for fn, args in [(F.relu_, ()), (F.elu_, (0.5,)), (F.leaky_relu_, (0.2,)), (F.hardtanh_, ()),
                     (F.softmax_, ()), (F.tanh_, ()), (F.thresholded_relu_, (0.5,))]:
        x = paddle.to_tensor(data([4], 11, scale=2.0))
        y = fn(x, *args)
        out.append((x, y is x))
    x = paddle.to_tensor(data([4], 11))
    y = F.silu(x, inplace=True)
    return out, x, y


@case
def selu_bad_scale(paddle):
    return paddle.nn.functional.selu(paddle.to_tensor([1.0]), scale=0.5)


@case
def softshrink_negative_threshold(paddle):
    return paddle.nn.functional.softshrink(paddle.to_tensor([1.0]), threshold=-1.0)


@case
def rrelu_bad_bounds(paddle):
    return paddle.nn.functional.rrelu(paddle.to_tensor([1.0]), 0.5, 0.2)


@case
def hardtanh_min_above_max(paddle):
    """Paddle clips to min and then to max, so every value becomes max (torch's hardtanh refuses the pair)."""
    x = paddle.to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0], stop_gradient=False)
    y = paddle.nn.functional.hardtanh(x, 1.0, -1.0)
    y.sum().backward()
    return [y, paddle.nn.Hardtanh(0.5, -0.5)(x), x.grad]


@case
def shrink_bounds_and_zero_signs(paddle):
    """hardshrink keeps a value at the threshold (Paddle zeroes the open interval) and a zeroed negative value is
    -0.0; softshrink's zeros are +0.0; thresholds and bounds may be 0-D Tensors or numpy numbers."""
    import numpy as np

    F = paddle.nn.functional
    x = paddle.to_tensor([-3.0, -2.0, -1.5, -1.0, 0.0, 1.0, 1.5, 2.0, 3.0], stop_gradient=False)
    outs = [F.hardshrink(x, 2), F.hardshrink(x, 1.0), F.hardshrink(x, np.float32(2.5)),
            F.hardshrink(x, paddle.to_tensor(1.5)), paddle.nn.Hardshrink(2)(x), F.softshrink(x, 1),
            F.softshrink(x, paddle.to_tensor(2.0)), F.hardtanh(x, paddle.to_tensor(-1.5), paddle.to_tensor(2.0))]
    paddle.add_n([o.sum() for o in outs]).backward()
    return [str(o) for o in outs] + [x.grad]


@case
def hardshrink_string_threshold(paddle):
    return paddle.nn.functional.hardshrink(paddle.ones([2]), "0.6")


@case
def hardtanh_string_min(paddle):
    return paddle.nn.functional.hardtanh(paddle.ones([2]), "-0.5", "0.5")


@case
def hardtanh_string_max_keyword(paddle):
    return paddle.nn.functional.hardtanh(paddle.ones([2]), max="1")


@case
def hardtanh_layer_string_bound(paddle):
    return paddle.nn.Hardtanh(-1.0, "0.5")(paddle.ones([2]))


@case
def hardtanh_none_bound(paddle):
    return paddle.nn.functional.hardtanh(paddle.ones([2]), None, 1.0)


@case
def hardtanh_numpy_bounds_and_layer_min_above_max(paddle):
    x = paddle.to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0])
    return [paddle.nn.functional.hardtanh(x, np.float32(-0.5), np.int64(1)), paddle.nn.Hardtanh(min=0.5, max=-0.5)(x),
            paddle.nn.functional.hardtanh(x, True, 2)]


@case
def softmax_axis_out_of_range(paddle):
    return paddle.nn.functional.softmax(paddle.ones([2, 3]), axis=2)


@case
def log_softmax_axis_out_of_range_0d(paddle):
    return paddle.nn.functional.log_softmax(paddle.to_tensor(2.0), axis=-2)


@case
def activation_attributes_as_zero_d_tensors(paddle):
    """Float attributes given as 0-D Tensors read as their value (Paddle's attribute parser takes them)."""
    F = paddle.nn.functional
    x = paddle.to_tensor([[-1.0, 0.5], [2.0, -3.0]])
    t = paddle.to_tensor
    return [F.leaky_relu(x, t(0.2)), F.softplus(x, beta=t(2.0)), F.celu(x, alpha=t(2.0)), F.elu(x, alpha=t(2.0)),
            F.thresholded_relu(x, t(0.6)), F.hardsigmoid(x, slope=t(0.2)),
            F.pad(paddle.to_tensor([[[1.0, 2.0]]]), [1, 1], value=t(5.0), data_format="NCL")]
