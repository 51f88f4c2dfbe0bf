"""nn normalisation: BatchNorm (Paddle momentum, _mean/_variance, train/eval, global stats), Layer/Group/
Instance/LocalResponse norms, normalize, SpectralNorm,
nn.functional.rms_norm, BatchNorm under set_default_dtype."""
import numpy as np

from tests.cases import case, data, fill_parameters


@case
def batchnorm2d_train_then_eval(paddle):
    m = fill_parameters(paddle.nn.BatchNorm2D(3), 1)
    x = paddle.to_tensor(data([4, 3, 2, 2], 1, scale=2.0) + 1.0, stop_gradient=False)
    y = m(x)
    (y * y).sum().backward()
    mean, var = m._mean.numpy().copy(), m._variance.numpy().copy()
    m.eval()
    z = m(x)
    return y, x.grad, m.weight.grad, m.bias.grad, mean, var, z, m._mean.stop_gradient, m._mean.trainable


@case
def batchnorm_state_and_names(paddle):
    m = paddle.nn.BatchNorm1D(3, momentum=0.8, epsilon=1e-3, data_format="NLC")
    return ([n for n, _ in m.named_parameters()], list(m.state_dict().keys()), repr(m), m.weight, m.bias,
            m._mean, m._variance, repr(paddle.nn.BatchNorm3D(2, name="bn")), repr(paddle.nn.BatchNorm2D(2)),
            repr(paddle.nn.SyncBatchNorm(4)), repr(paddle.nn.BatchNorm(3)))


@case
def batchnorm_1d_3d_layouts(paddle):
    out = []
    for m, shape in [(paddle.nn.BatchNorm1D(3), [4, 3]), (paddle.nn.BatchNorm1D(3), [2, 3, 5]),
                     (paddle.nn.BatchNorm1D(3, data_format="NLC"), [2, 5, 3]),
                     (paddle.nn.BatchNorm2D(3, data_format="NHWC"), [2, 2, 2, 3]),
                     (paddle.nn.BatchNorm3D(3), [2, 3, 2, 1, 2])]:
        fill_parameters(m, 2)
        x = paddle.to_tensor(data(shape, 2))
        y = m(x)
        out.append((y, m._mean, m._variance))
    return out


@case
def batchnorm_global_stats_and_no_affine(paddle):
    m = paddle.nn.BatchNorm2D(2, use_global_stats=True)
    m2 = paddle.nn.BatchNorm2D(2, weight_attr=False, bias_attr=False)
    x = paddle.to_tensor(data([3, 2, 2, 2], 3))
    return m(x), m._mean, m2(x), m2.weight is None, m2._variance


@case
def old_batchnorm(paddle):
    m = fill_parameters(paddle.nn.BatchNorm(3, act="relu"), 4)
    m._variance.set_value(m._variance.abs())
    x = paddle.to_tensor(data([2, 3, 2, 2], 4))
    y = m(x)
    m.eval()
    return y, m._mean, m._variance, m(x)


@case
def functional_batch_norm(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(data([4, 2, 3], 5))
    rm, rv = paddle.to_tensor([0.1, -0.2]), paddle.to_tensor([1.5, 0.5])
    w, b = paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([0.5, -0.5])
    y0 = F.batch_norm(x, rm, rv, w, b)
    y1 = F.batch_norm(x, rm, rv, w, b, training=True, momentum=0.7)
    return y0, y1, rm, rv, F.batch_norm(x, rm, rv, training=True, use_global_stats=True)


@case
def batchnorm_wrong_rank(paddle):
    return paddle.nn.BatchNorm2D(3)(paddle.ones([2, 3, 4]))


@case
def layer_norm_forms(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(data([2, 3, 4], 6), stop_gradient=False)
    m = fill_parameters(paddle.nn.LayerNorm([3, 4], 1e-3), 6)
    y = m(x)
    (y * paddle.to_tensor(data(y.shape, 99))).sum().backward()
    m2 = paddle.nn.LayerNorm(4, weight_attr=False, bias_attr=False)
    return (y, x.grad, m.weight.grad, m.weight.shape, repr(m), m2(x), m2.weight is None, F.layer_norm(x, 4),
            F.layer_norm(x, [3, 4], paddle.ones([12]) * 2, paddle.ones([12])))


@case
def layer_norm_2d_weight(paddle):
    return paddle.nn.functional.layer_norm(paddle.ones([2, 3, 4]), [3, 4], paddle.ones([3, 4]))


@case
def layer_norm_bad_shape(paddle):
    return paddle.nn.functional.layer_norm(paddle.ones([2, 3]), [4])


@case
def group_norm_forms(paddle):
    x = paddle.to_tensor(data([2, 4, 3, 2], 7), stop_gradient=False)
    m = fill_parameters(paddle.nn.GroupNorm(2, 4), 7)
    y = m(x)
    (y * paddle.to_tensor(data(y.shape, 99))).sum().backward()
    m2 = fill_parameters(paddle.nn.GroupNorm(4, 4, data_format="NHWC"), 8)
    return (y, x.grad, m.weight.grad, repr(m), m2(x.transpose([0, 2, 3, 1])),
            paddle.nn.functional.group_norm(x, 1), paddle.nn.functional.group_norm(x[:, :, 0], 2))


@case
def group_norm_bad_groups(paddle):
    return repr(paddle.nn.GroupNorm(3, 4))


@case
def instance_norms(paddle):
    x = paddle.to_tensor(data([2, 3, 4, 5], 8), stop_gradient=False)
    m = fill_parameters(paddle.nn.InstanceNorm2D(3), 8)
    y = m(x)
    (y * paddle.to_tensor(data(y.shape, 99))).sum().backward()
    m1 = paddle.nn.InstanceNorm1D(3, weight_attr=False, bias_attr=False)
    m3 = paddle.nn.InstanceNorm3D(3)
    return (y, x.grad, m.scale.grad, [n for n, _ in m.named_parameters()], repr(m), m1(x[:, :, 0]),
            m3(x.unsqueeze(2)), paddle.nn.functional.instance_norm(x), len(m1.parameters()))


@case
def local_response_norm(paddle):
    x = paddle.to_tensor(data([2, 6, 3, 3], 9))
    m = paddle.nn.LocalResponseNorm(3, alpha=0.1, k=2.0)
    F = paddle.nn.functional
    return (m(x), repr(m), F.local_response_norm(x, 5), F.local_response_norm(x[:, :, 0], 2),
            F.local_response_norm(x.transpose([0, 2, 3, 1]), 3, data_format="NHWC"))


@case
def normalize(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(data([3, 4], 10))
    return F.normalize(x), F.normalize(x, p=1, axis=0), F.normalize(x, p=3, axis=-1), F.normalize(x[0], axis=0)


@case
def spectral_norm(paddle):
    m = paddle.nn.SpectralNorm([3, 4], dim=1, power_iters=3)
    m.weight_u.set_value(data([4], 11))
    m.weight_v.set_value(data([3], 12))
    w = paddle.to_tensor(data([3, 4], 13))
    return m(w), [n for n, _ in m.named_parameters()], m.weight_u.stop_gradient


# ---------------------------------------------------------------- rms_norm
def _rms_reference(x, shape, w, eps):
    """NumPy transcription of the documented math of Paddle's rms_norm (its CPU build has no kernel:
    '(NotFound) The kernel `rms_norm` is not registered'): rows = prod of the leading dims,
    invvar = 1/sqrt(mean(x**2 over the row) + eps) of shape [rows], out = x * invvar * weight."""
    cols = int(np.prod(shape))
    x2 = x.astype("float32").reshape(-1, cols)
    invvar = (1.0 / np.sqrt((x2.astype("float64") ** 2).mean(-1) + eps)).astype("float32")
    y = (x2 * invvar[:, None]).reshape(x.shape)
    if w is not None:
        y = y * w
    return [y.astype(x.dtype), invvar]


@case(rtol=1e-5, atol=1e-5)
def rms_norm_values(paddle):
    F = paddle.nn.functional
    x = data([2, 3, 8], 20)
    w8, w24 = data([8], 21), data([3, 8], 22)
    res = []
    for shape, w, eps in (([8], w8, 1e-5), ([3, 8], w24, 1e-6), (8, None, 1e-5), ([8], None, 0.5)):
        try:
            out, inv = F.rms_norm(paddle.to_tensor(x), shape, None if w is None else paddle.to_tensor(w), eps)
            res += [out, inv]
        except RuntimeError:  # real Paddle 3.3.1 on CPU: the kernel is not registered
            res += [paddle.to_tensor(a) for a in _rms_reference(x, [shape] if isinstance(shape, int) else shape, w, eps)]
    return res


# ---------------------------------------------------------------- BatchNorm under set_default_dtype
@case
def batch_norm_in_default_float64(paddle):
    paddle.set_default_dtype("float64")
    try:
        out = []
        for make, shape in [(lambda: paddle.nn.BatchNorm1D(3), [2, 3]), (lambda: paddle.nn.BatchNorm2D(3), [2, 3, 2, 2]),
                            (lambda: paddle.nn.BatchNorm3D(3), [2, 3, 1, 2, 2]),
                            (lambda: paddle.nn.BatchNorm(3), [2, 3, 2, 2])]:
            m = make()
            out.append({k: str(v.dtype) for k, v in m.state_dict().items()})
            x = paddle.to_tensor(np.arange(np.prod(shape)).reshape(shape) / 7.0)
            try:
                out += [m(x), m._mean, m._variance]
                m.eval()
                out.append(m(x))
            except ValueError as e:
                out.append(type(e).__name__)
        return out
    finally:
        paddle.set_default_dtype("float32")


@case
def batch_norm_in_default_float16(paddle):
    paddle.set_default_dtype("float16")
    try:
        m = paddle.nn.BatchNorm2D(2)
        return {k: str(v.dtype) for k, v in m.state_dict().items()}
    finally:
        paddle.set_default_dtype("float32")


@case
def batch_norm_mixed_dtypes_refused(paddle):
    x = paddle.ones([2, 3, 2, 2], dtype="float64")
    m = paddle.nn.BatchNorm2D(3)
    return m(x)


@case(rtol=1e-5)
def batchnorm_statistics_marked_trainable(paddle):
    # GAN libraries' set_requires_grad(nets, True) flips every parameter, the running statistics included:
    # they get no gradient, in training and in eval
    bn = paddle.nn.BatchNorm2D(2)
    flags_before = [p.stop_gradient for p in bn.parameters()]
    for p in bn.parameters():
        p.trainable = True
    x = paddle.to_tensor(data([3, 2, 4, 4], 1), stop_gradient=False)
    y = bn(x)
    (y * paddle.to_tensor(data([3, 2, 4, 4], 2))).mean().backward()
    train = [[p.grad for p in bn.parameters()], x.grad, bn._mean, bn._variance]
    bn.eval()
    x2 = paddle.to_tensor(data([3, 2, 4, 4], 3), stop_gradient=False)
    (bn(x2) * paddle.to_tensor(data([3, 2, 4, 4], 4))).sum().backward()
    return [flags_before, [p.stop_gradient for p in bn.parameters()], train, [p.grad for p in bn.parameters()],
            x2.grad]


@case(rtol=1e-5)
def functional_batch_norm_statistics_need_gradients(paddle):
    mean = paddle.to_tensor([0.1, -0.2, 0.3], stop_gradient=False)
    var = paddle.to_tensor([1.5, 0.5, 2.0], stop_gradient=False)
    w = paddle.to_tensor([1.0, 2.0, 0.5], stop_gradient=False)
    x = paddle.to_tensor(data([4, 3], 5), stop_gradient=False)
    b = paddle.to_tensor([0.0, 0.1, 0.5], stop_gradient=False)
    out = paddle.nn.functional.batch_norm(x, mean, var, weight=w, bias=b, training=False)
    out.sum().backward()
    out2 = paddle.nn.functional.batch_norm(x, mean, var, training=True, momentum=0.8)
    (out2 * 2).sum().backward()
    return [out, out2, mean.grad, var.grad, w.grad, b.grad, x.grad, mean, var]


@case(rtol=1e-5)
def batch_norm_weight_without_bias_gets_no_gradient(paddle):
    # Paddle's batch_norm_grad computes the scale and bias gradients only together
    out = []
    for training in (False, True):
        for which in ("weight", "bias"):
            mean, var = paddle.to_tensor([0.1, -0.2, 0.3]), paddle.to_tensor([1.5, 0.5, 2.0])
            p = paddle.to_tensor([1.0, 2.0, 0.5], stop_gradient=False)
            x = paddle.to_tensor(data([4, 3], 6), stop_gradient=False)
            y = paddle.nn.functional.batch_norm(x, mean, var, training=training, **{which: p})
            (y * paddle.to_tensor(data([4, 3], 8))).sum().backward()
            out += [p.grad, x.grad]
    x = paddle.to_tensor(data([4, 3, 2], 7), stop_gradient=False)
    for kw in ({"bias_attr": False}, {"weight_attr": False}):
        bn = paddle.nn.BatchNorm1D(3, **kw)
        (bn(x) * paddle.to_tensor(data([4, 3, 2], 9))).sum().backward()
        out += [[p.grad for p in bn.parameters()], [p.stop_gradient for p in bn.parameters()]]
    return out


@case(rtol=1e-5)
def legacy_batchnorm_act_strings(paddle):
    # paddle.nn.BatchNorm(..., act=...) runs Paddle's legacy activation op of that name
    x = paddle.to_tensor(data([2, 3, 2, 2], 10, scale=3.0))
    out = []
    for act in ("hard_swish", "relu", "sigmoid", "tanh", "swish", "relu6", "hard_sigmoid", "elu", "mish", "brelu"):
        bn = paddle.nn.BatchNorm(3, act=act)
        out.append(bn(x))
    bn = paddle.nn.BatchNorm(3, act="leaky_relu")  # (Paddle 3.3.1's legacy leaky_relu needs its alpha)
    try:
        bn(x)
        out.append("ran")
    except ValueError as e:
        out.append(type(e).__name__)
    return out


@case
def layer_norm_epsilon_at_its_bound(paddle):
    x = paddle.to_tensor(np.arange(8, dtype="float32").reshape(2, 4) / 3)
    return [paddle.nn.functional.layer_norm(x, 4, epsilon=0.001), paddle.nn.functional.layer_norm(x, 4, epsilon=0.0)]


@case
def layer_norm_epsilon_above_its_bound(paddle):
    paddle.nn.LayerNorm(4, epsilon=0.01)(paddle.ones([2, 4]))


@case
def layer_norm_negative_epsilon(paddle):
    paddle.nn.functional.layer_norm(paddle.ones([2, 4]), 4, epsilon=-0.1)


@case
def group_norm_layer_float64_input(paddle):
    return paddle.nn.GroupNorm(1, 3)(paddle.ones([2, 3, 4], "float64"))


@case
def layer_norm_layer_float64_input(paddle):
    return paddle.nn.LayerNorm(4)(paddle.ones([2, 3, 4], "float64"))


@case
def layer_norm_float64_input_float32_weight(paddle):
    return paddle.nn.functional.layer_norm(paddle.ones([2, 3, 4], "float64"), [4], weight=paddle.ones([4]))
