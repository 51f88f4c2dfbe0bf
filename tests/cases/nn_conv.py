"""nn convolutions: layers with Paddle weight layouts, padding forms, groups, dilation, layouts, transposed."""
from tests.cases import case, data, fill_parameters


@case(rtol=1e-5, atol=1e-5)  # float32 summation order differs between Paddle's and torch's conv kernels
def conv2d_layer_forms(paddle):
    x = paddle.to_tensor(data([2, 4, 7, 6], 1))
    out = []
    for kw in [dict(), dict(stride=2), dict(padding=1), dict(padding="SAME", stride=2), dict(padding="valid"),
               dict(padding=[1, 2]), dict(padding=[1, 0, 2, 1]), dict(padding=[[0, 0], [0, 0], [1, 1], [2, 0]]),
               dict(dilation=2, padding=2), dict(groups=2), dict(padding_mode="reflect", padding=1),
               dict(padding_mode="circular", padding=1), dict(padding_mode="replicate", padding=2)]:
        m = fill_parameters(paddle.nn.Conv2D(4, 6, 3, **kw), 1)
        out.append((repr(m), m(x)))
    return out


@case(rtol=1e-5, atol=1e-5)  # conv summation order
def conv2d_nhwc_and_grad(paddle):
    m = fill_parameters(paddle.nn.Conv2D(3, 2, [2, 3], data_format="NHWC"), 2)
    x = paddle.to_tensor(data([2, 5, 5, 3], 2), stop_gradient=False)
    y = m(x)
    (y * y).mean().backward()
    return y, x.grad, m.weight.grad, m.bias.grad, m.weight.shape, repr(m)


@case(rtol=1e-5, atol=1e-5)  # conv summation order
def conv1d_conv3d(paddle):
    m1 = fill_parameters(paddle.nn.Conv1D(3, 4, 3, padding=1, stride=2), 3)
    m1b = fill_parameters(paddle.nn.Conv1D(3, 4, 2, data_format="NLC"), 3)
    m3 = fill_parameters(paddle.nn.Conv3D(2, 3, 2, padding="SAME"), 3)
    x1 = paddle.to_tensor(data([2, 3, 9], 3))
    x3 = paddle.to_tensor(data([1, 2, 4, 5, 3], 3))
    return m1(x1), m1b(x1.transpose([0, 2, 1])), m3(x3), repr(m1), repr(m3)


@case(rtol=1e-5, atol=1e-5)  # conv summation order
def conv_transpose_forms(paddle):
    x = paddle.to_tensor(data([2, 4, 4, 5], 4))
    out = []
    for kw in [dict(), dict(stride=2), dict(stride=2, padding=1, output_padding=1), dict(padding="SAME", stride=2),
               dict(padding=[1, 0, 0, 1], stride=2), dict(groups=2, dilation=2), dict(padding=[1, 2])]:
        m = fill_parameters(paddle.nn.Conv2DTranspose(4, 6, 3, **kw), 4)
        out.append((repr(m), m(x), m.weight.shape))
    m = fill_parameters(paddle.nn.Conv2DTranspose(4, 2, 3, stride=2), 5)
    out.append(m(x, output_size=[10, 12]))
    return out


@case(rtol=1e-5, atol=1e-5)  # conv summation order
def conv_transpose_1d_3d_grad(paddle):
    m1 = fill_parameters(paddle.nn.Conv1DTranspose(3, 2, 3, stride=2, padding=1), 6)
    m3 = fill_parameters(paddle.nn.Conv3DTranspose(2, 2, 2, stride=2), 6)
    x1 = paddle.to_tensor(data([1, 3, 5], 6), stop_gradient=False)
    y1 = m1(x1)
    y1.sum().backward()
    return y1, x1.grad, m1.weight.grad, m3(paddle.to_tensor(data([1, 2, 2, 3, 2], 6))), repr(m1)


@case(rtol=1e-5, atol=1e-5)  # conv summation order
def functional_convs(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(data([1, 2, 6, 6], 7))
    w = paddle.to_tensor(data([4, 2, 3, 3], 8))
    b = paddle.to_tensor(data([4], 9))
    wt = paddle.to_tensor(data([2, 3, 3, 3], 8))
    return [F.conv2d(x, w, b), F.conv2d(x, w, stride=2, padding="SAME"), F.conv2d(x, w[:, :1], groups=2),
            F.conv1d(x[:, :, 0], w[:, :, 0]), F.conv3d(x.unsqueeze(2), w.unsqueeze(2)),
            F.conv2d_transpose(x, wt, stride=2), F.conv2d_transpose(x, wt, stride=2, output_size=[14, 14]),
            F.conv1d_transpose(x[:, :, 0], wt[:, :, 0], padding=1)]


@case
def conv_bias_attr_false_and_init(paddle):
    m = paddle.nn.Conv2D(2, 3, 3, bias_attr=False)
    m2 = paddle.nn.Conv2D(2, 3, 3, weight_attr=paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(0.5)))
    return m.bias is None, m2.weight, m2.bias, m.weight.stop_gradient, [n for n, _ in m2.named_parameters()]


@case
def conv_default_init_std(paddle):
    paddle.seed(1)
    m = paddle.nn.Conv2D(16, 32, 3)
    return abs(float(m.weight.std()) - (2.0 / (9 * 16)) ** 0.5) < 0.01, float(m.bias.abs().sum())


@case
def conv_channel_mismatch(paddle):
    m = paddle.nn.Conv2D(3, 2, 3)
    return m(paddle.ones([1, 4, 5, 5]))


@case
def conv_bad_padding_string(paddle):
    return paddle.nn.functional.conv2d(paddle.ones([1, 1, 3, 3]), paddle.ones([1, 1, 1, 1]), padding="FULL")


@case
def conv_bad_padding_mode(paddle):
    return paddle.nn.Conv2D(1, 1, 3, padding_mode="wrap")


@case
def conv_in_channels_groups(paddle):
    return paddle.nn.Conv2D(3, 2, 3, groups=2)


@case(rtol=1e-5, atol=1e-5)  # conv summation order
def conv_transpose_bias_broadcast_at_channels(paddle):
    """A transposed convolution's bias is added at the channel axis and broadcast: [C, 1] (the shape Paddle's
    docs give for conv1d_transpose), [1] and [C, 1, 1] work as [C] does; an NLC [C, 1] bias broadcasts into a
    4-D result, as Paddle's add does."""
    F = paddle.nn.functional
    x1, w1 = paddle.to_tensor(data([1, 2, 5], 1)), paddle.to_tensor(data([2, 3, 3], 2))
    x2, w2 = paddle.to_tensor(data([1, 2, 4, 4], 3)), paddle.to_tensor(data([2, 3, 3, 3], 4))
    b = paddle.to_tensor([[0.5], [1.0], [-2.0]])
    return [F.conv1d_transpose(x1, w1, bias=b), F.conv1d_transpose(x1, w1, bias=paddle.to_tensor([3.0])),
            F.conv1d_transpose(x1, w1, bias=b.reshape([3, 1, 1]), padding=[1, 0]),
            F.conv2d_transpose(x2, w2, bias=b), F.conv2d_transpose(x2, w2, bias=b.reshape([3, 1, 1])),
            F.conv1d_transpose(x1.transpose([0, 2, 1]), w1, bias=b, data_format="NLC")]


@case(rtol=1e-5, atol=1e-5)  # conv summation order
def conv_bias_shapes_as_paddle_adds_them(paddle):
    """A convolution's bias that is not [C] is added as Paddle adds it: conv1d on its 2-D result at the channel
    axis ([C, 1], [1], a [C, L'] bias growing the result), conv2d with the bias placed at the channels and unit
    axes after (a [C, 1, 1] bias makes a 6-D result), a depthwise conv2d and conv3d reshaped to the channels."""
    F = paddle.nn.functional
    x1, w1 = paddle.to_tensor(data([1, 2, 3], 1)), paddle.to_tensor(data([3, 2, 2], 2))
    x2, w2 = paddle.to_tensor(data([1, 2, 3, 3], 3)), paddle.to_tensor(data([3, 2, 2, 2], 4))
    b = paddle.to_tensor([[0.5], [1.0], [-2.0]])
    b.stop_gradient = False
    outs = [F.conv1d(x1, w1, bias=b), F.conv1d(x1, w1, bias=paddle.to_tensor([3.0])),
            F.conv1d(x1, w1, bias=paddle.to_tensor(data([3, 2], 5))), F.conv1d(x1, w1, bias=b.reshape([1, 3, 1])),
            F.conv1d(x1.transpose([0, 2, 1]), w1, bias=paddle.to_tensor([3.0]), data_format="NLC"),
            F.conv2d(x2, w2, bias=b), F.conv2d(x2, w2, bias=b.reshape([3, 1, 1])),
            F.conv2d(x2, w2, bias=b.reshape([1, 3, 1, 1])),
            F.conv2d(x2.transpose([0, 2, 3, 1]), w2, bias=paddle.to_tensor([1.0]), data_format="NHWC"),
            F.conv2d(x2, paddle.to_tensor(data([4, 1, 2, 2], 6)), bias=paddle.to_tensor(data([4, 1], 7)), groups=2),
            F.conv3d(x2.unsqueeze(2), w2.unsqueeze(2), bias=b), F.conv3d(x2.unsqueeze(2), w2.unsqueeze(2),
                                                                         bias=paddle.to_tensor([2.0]))]
    paddle.add_n([o.sum() for o in outs]).backward()
    return outs + [b.grad]


@case
def conv1d_bias_not_at_channels(paddle):
    return paddle.nn.functional.conv1d(paddle.ones([1, 2, 3]), paddle.ones([3, 2, 2]), bias=paddle.ones([2]))


@case
def conv1d_nlc_bias_column(paddle):
    return paddle.nn.functional.conv1d(paddle.ones([1, 3, 2]), paddle.ones([3, 2, 2]), bias=paddle.ones([3, 1]),
                                       data_format="NLC")


@case
def conv2d_depthwise_bias_not_at_channels(paddle):
    return paddle.nn.functional.conv2d(paddle.ones([1, 2, 3, 3]), paddle.ones([4, 1, 2, 2]), bias=paddle.ones([2]),
                                       groups=2)


@case
def conv_transpose_bias_not_at_channels(paddle):
    return paddle.nn.functional.conv1d_transpose(paddle.ones([1, 2, 5]), paddle.ones([2, 3, 3]),
                                                 bias=paddle.ones([1, 3]))


@case
def conv_layer_float64_input(paddle):
    return paddle.nn.Conv1D(3, 2, 1)(paddle.ones([2, 3, 4], "float64"))
