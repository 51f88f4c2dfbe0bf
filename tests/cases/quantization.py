"""paddle.quantization (3.x QAT / PTQ): reprs, fake quant-dequant values and gradients, moving-average scales
after training steps, PTQ calibration and convert, the format layers, errors."""
import numpy as np

from tests.cases import case, data, fill_parameters


def _fq(paddle, **kw):
    from paddle.quantization.quanters import FakeQuanterWithAbsMaxObserver

    return FakeQuanterWithAbsMaxObserver(**kw)


def _small_net(paddle):
    nn = paddle.nn

    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2D(2, 3, 3, padding=1)
            self.relu = nn.ReLU()
            self.pool = nn.MaxPool2D(2, 2)
            self.fc = nn.Linear(12, 4)

        def forward(self, x):
            x = self.pool(self.relu(self.conv(x)))
            return self.fc(x.flatten(1))

    return fill_parameters(Net())


def _lenet(paddle):
    return fill_parameters(paddle.vision.models.LeNet(), scale=0.2)


# ---------------------------------------------------------------- factories and config
@case
def factory_and_config_str(paddle):
    from paddle.quantization import QuantConfig
    from paddle.quantization.observers import AbsmaxObserver

    q = _fq(paddle, moving_rate=0.95, bit_length=4, name="act")
    out = [str(q), repr(AbsmaxObserver()), str(AbsmaxObserver(quant_bits=6))]
    out.append(str(QuantConfig(activation=q, weight=None)))
    out.append(str(QuantConfig(activation=None, weight=None)))
    c = QuantConfig(activation=None, weight=q)
    c.add_customized_leaf(paddle.nn.Sequential)
    out.append(str(c))
    out.append(len(c.customized_leaves))
    out.append(sorted(k.__name__ for k in c.default_qat_layer_mapping))
    out.append(sorted(v.__name__ for v in c.qat_layer_mappings.values()))
    return out


@case
def quanter_layer_state(paddle):
    layer = _fq(paddle)._instance(None)
    return [repr(layer), list(layer.state_dict().keys()), [p.stop_gradient for p in layer.parameters()],
            [p.trainable for p in layer.parameters()], layer.scales(), layer.zero_points(), layer.quant_axis(),
            layer.bit_length()]


# ---------------------------------------------------------------- the fake quantize-dequantize kernel
@case
def fake_quant_first_step_and_grad(paddle):
    layer = _fq(paddle, moving_rate=0.9)._instance(None)
    x = paddle.to_tensor(data([3, 5], seed=1) * 2, stop_gradient=False)
    y = layer(x)
    (y * paddle.arange(15, dtype="float32").reshape([3, 5])).sum().backward()
    return [y, x.grad, layer._scale, layer._state, layer._accum, [p.stop_gradient for p in layer.parameters()]]


@case
def fake_quant_ties_round_away_and_clip_eval(paddle):
    layer = _fq(paddle)._instance(None)
    layer.eval()
    layer._scale.set_value(paddle.to_tensor([127.0]))
    x = paddle.to_tensor([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 126.5, 127.5, 300.0, -400.0], stop_gradient=False)
    y = layer(x)
    (y * y).sum().backward()  # straight-through: dx = dy, also where x was clipped
    return [y, x.grad, layer._scale, layer._state, layer._accum]


@case
def fake_quant_bit_lengths_and_moving_rate(paddle):
    out = []
    x = paddle.to_tensor(data([4, 6], seed=2))
    for bits, rate in ((2, 0.5), (4, 0.9), (8, 0.99), (16, 0.9)):
        layer = _fq(paddle, moving_rate=rate, bit_length=bits)._instance(None)
        for k in range(3):
            y = layer(x * (k + 1))
        out += [y, layer.scales()]
    return out


@case
def fake_quant_0d_and_empty_shapes(paddle):
    layer = _fq(paddle)._instance(None)
    a = layer(paddle.to_tensor(0.7, stop_gradient=False))
    b = layer(paddle.to_tensor(data([2, 1, 3], seed=3)))
    return [a, b, layer.scales()]


@case
def fake_quant_float64_error(paddle):
    return _fq(paddle)._instance(None)(paddle.to_tensor([1.0, 2.0], dtype="float64"))


@case
def fake_quant_float64_error_eval(paddle):
    layer = _fq(paddle)._instance(None)
    layer.eval()
    return layer(paddle.to_tensor([1.0, 2.0], dtype="float64"))


# ---------------------------------------------------------------- QAT
@case
def qat_lenet_repr(paddle):
    from paddle.quantization import QAT, QuantConfig

    q = _fq(paddle, moving_rate=0.9)
    model = QAT(QuantConfig(activation=q, weight=q)).quantize(paddle.vision.models.LeNet())
    return repr(model)


@case
def qat_details_repr(paddle):
    from paddle.quantization import QAT, QuantConfig

    q = _fq(paddle)
    qat = QAT(QuantConfig(activation=q, weight=q))
    before = str(qat)
    qat.quantize(paddle.vision.models.LeNet(), inplace=True)
    return [before, str(qat)]


@case
def qat_not_inplace_keeps_model(paddle):
    from paddle.quantization import QAT, QuantConfig

    q = _fq(paddle)
    model = paddle.vision.models.LeNet()
    qm = QAT(QuantConfig(activation=q, weight=q)).quantize(model, inplace=False)
    qm2 = QAT(QuantConfig(activation=q, weight=None)).quantize(model, inplace=True)
    return [repr(model), type(qm.fc[0]).__name__, qm2 is model, qm2.fc[0].weight_quanter is None,
            sorted(qm.state_dict().keys())]


def _train(paddle, model, steps, lr=0.1):
    opt = paddle.optimizer.SGD(learning_rate=lr, parameters=model.parameters())
    outs = []
    for k in range(steps):
        x = paddle.to_tensor(data([2, 2, 4, 4], seed=10 + k))
        y = model(x)
        loss = (y * y).mean()
        loss.backward()
        outs.append(loss)
        opt.step()
        opt.clear_grad()
    return outs


@case(rtol=1e-5, atol=1e-6)  # 4 SGD steps through rounding: a rounding tie flips on an ulp
def qat_train_steps_small_net(paddle):
    from paddle.quantization import QAT, QuantConfig

    q = _fq(paddle, moving_rate=0.9)
    model = QAT(QuantConfig(activation=q, weight=q)).quantize(_small_net(paddle))
    losses = _train(paddle, model, 4)
    sd = model.state_dict()
    return [losses, [[k, sd[k]] for k in sorted(sd.keys())]]


@case(rtol=1e-5, atol=1e-6)
def qat_grads_small_net(paddle):
    from paddle.quantization import QAT, QuantConfig

    q = _fq(paddle, moving_rate=0.8, bit_length=6)
    model = QAT(QuantConfig(activation=q, weight=q)).quantize(_small_net(paddle))
    x = paddle.to_tensor(data([2, 2, 4, 4], seed=3), stop_gradient=False)
    y = model(x)
    y.sum().backward()
    return [y, x.grad, model.conv.weight.grad, model.fc.weight.grad, model.fc.bias.grad,
            model.conv.activation_quanter.scales(), model.fc.weight_quanter.scales()]


@case(rtol=1e-5, atol=1e-6)
def qat_lenet_train_then_eval(paddle):
    from paddle.quantization import QAT, QuantConfig

    q = _fq(paddle, moving_rate=0.9)
    model = QAT(QuantConfig(activation=q, weight=q)).quantize(_lenet(paddle))
    opt = paddle.optimizer.SGD(learning_rate=0.05, parameters=model.parameters())
    for k in range(2):
        x = paddle.to_tensor(data([2, 1, 28, 28], seed=20 + k))
        loss = model(x).square().mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
    model.eval()
    y = model(paddle.to_tensor(data([1, 1, 28, 28], seed=30)))
    return [loss, y, model.features[0].weight_quanter.scales(), model.fc[2].activation_quanter.scales(),
            model.features[1]._observer.scales()]


@case
def qat_convert_fake_quanter_error(paddle):
    # FakeQuanterWithAbsMaxObserver has no zero points: Paddle's LinearQuanter cannot take None
    from paddle.quantization import QAT, QuantConfig

    q = _fq(paddle)
    qat = QAT(QuantConfig(activation=q, weight=q))
    model = qat.quantize(_small_net(paddle))
    model(paddle.to_tensor(data([1, 2, 4, 4])))
    return qat.convert(model)


@case
def qat_on_eval_model_error(paddle):
    from paddle.quantization import QAT, QuantConfig

    model = _small_net(paddle)
    model.eval()
    return QAT(QuantConfig(activation=_fq(paddle), weight=None)).quantize(model)


@case
def qat_type_and_name_config(paddle):
    from paddle.quantization import QAT, QuantConfig
    from paddle.quantization.observers import AbsmaxObserver

    model = _small_net(paddle)
    c = QuantConfig(activation=None, weight=None)
    c.add_type_config(paddle.nn.Conv2D, activation=_fq(paddle), weight=None)
    c.add_layer_config(model.fc, activation=None, weight=AbsmaxObserver())
    c.add_name_config([model.relu.full_name()], activation=_fq(paddle, bit_length=4))
    qm = QAT(c).quantize(model, inplace=True)
    y = qm(paddle.to_tensor(data([2, 2, 4, 4], seed=4)))
    return [repr(qm), y, qm.relu._observer.scales(), qm.fc.weight_quanter.scales()]


@case
def qat_customized_leaf_and_mapping(paddle):
    from paddle.quantization import QAT, QuantConfig
    from paddle.nn.quant.qat import QuantedLinear

    nn = paddle.nn

    class Block(nn.Layer):
        def __init__(self):
            super().__init__()
            self.a = nn.Linear(4, 4)
            self.b = nn.Linear(4, 4)

        def forward(self, x):
            return self.b(self.a(x))

    class MyLinear(QuantedLinear):
        def forward(self, input):
            return super().forward(input) * 2

    model = nn.Sequential(Block(), nn.Sequential(nn.Linear(4, 3), nn.Tanh()))
    fill_parameters(model)
    c = QuantConfig(activation=_fq(paddle), weight=_fq(paddle))
    c.add_customized_leaf(Block)
    c.add_qat_layer_mapping(nn.Linear, MyLinear)
    qm = QAT(c).quantize(model)
    y = qm(paddle.to_tensor(data([2, 4], seed=5)))
    return [repr(qm), y]


@case
def qat_mapping_error(paddle):
    from paddle.quantization import QuantConfig

    QuantConfig(activation=None, weight=None).add_qat_layer_mapping("Linear", paddle.nn.Linear)


@case
def qat_stub(paddle):
    from paddle.nn.quant import Stub
    from paddle.quantization import QAT, QuantConfig

    nn = paddle.nn

    class M(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(3, 3)
            self.s1 = Stub(_fq(paddle, bit_length=3))
            self.s2 = Stub()

        def forward(self, x):
            return paddle.nn.functional.relu(self.s2(self.s1(self.fc(x))))

    model = fill_parameters(M())
    qm = QAT(QuantConfig(activation=_fq(paddle), weight=None)).quantize(model)
    y = qm(paddle.to_tensor(data([2, 3], seed=6)))
    return [repr(qm), y, qm.s1._observer.scales(), qm.s2._observer.scales()]


@case
def qat_conv_padding_mode(paddle):
    from paddle.quantization import QAT, QuantConfig

    conv = fill_parameters(paddle.nn.Conv2D(1, 2, 3, padding=1, padding_mode="reflect", stride=2))
    qm = QAT(QuantConfig(activation=_fq(paddle), weight=_fq(paddle))).quantize(paddle.nn.Sequential(conv))
    x = paddle.to_tensor(data([1, 1, 5, 5], seed=7), stop_gradient=False)
    y = qm(x)
    y.sum().backward()
    return [y, x.grad]


# ---------------------------------------------------------------- custom quanter via the factory decorator
@case
def custom_quanter_decorator_local_class_error(paddle):
    return _custom_quanter(paddle, module_level=False)


@case
def custom_quanter_decorator(paddle):
    return _custom_quanter(paddle, module_level=True)


def _custom_quanter(paddle, module_level):
    from paddle.quantization import QAT, BaseQuanter, QuantConfig, quanter

    @quanter("HalfQuanterForCase")
    class HalfQuanterLayer(BaseQuanter):
        def __init__(self, layer, factor=0.5):
            super().__init__()
            self._factor = factor

        def forward(self, input):
            return input * self._factor

        def scales(self):
            return None

        def zero_points(self):
            return None

        def quant_axis(self):
            return None

        def bit_length(self):
            return 8

    if not module_level:
        return globals()["HalfQuanterForCase"](factor=0.25)  # Paddle looks the class up in its module
    globals()["HalfQuanterLayer"] = HalfQuanterLayer
    factory = globals()["HalfQuanterForCase"](factor=0.25)
    model = fill_parameters(paddle.nn.Sequential(paddle.nn.Linear(3, 2)))
    qm = QAT(QuantConfig(activation=factory, weight=None)).quantize(model)
    y = qm(paddle.to_tensor(data([2, 3], seed=8)))
    return [str(factory), type(factory).__name__, repr(qm), y]


# ---------------------------------------------------------------- PTQ
def _calibrate(paddle, model, n=3):
    for k in range(n):
        model(paddle.to_tensor(data([2, 1, 28, 28], seed=40 + k)))


@case
def ptq_lenet_repr(paddle):
    from paddle.quantization import PTQ, QuantConfig
    from paddle.quantization.observers import AbsmaxObserver

    o = AbsmaxObserver()
    model = paddle.vision.models.LeNet()
    model.eval()
    return repr(PTQ(QuantConfig(activation=o, weight=o)).quantize(model))


@case(rtol=2e-5)  # LeNet logits of size ~30: conv accumulation order differs from Paddle's by a few ulps
def ptq_calibrate_convert_lenet(paddle):
    from paddle.quantization import PTQ, QuantConfig
    from paddle.quantization.observers import AbsmaxObserver

    o = AbsmaxObserver()
    ptq = PTQ(QuantConfig(activation=o, weight=o))
    model = _lenet(paddle)
    model.eval()
    qm = ptq.quantize(model)
    _calibrate(paddle, qm)
    x = paddle.to_tensor(data([2, 1, 28, 28], seed=50))
    before = qm(x)
    scales = [qm.features[0].activation_quanter.scales(), qm.features[0].weight_quanter.scales(),
              qm.features[1]._observer.scales(), qm.fc[2].weight_quanter.scales()]
    converted = ptq.convert(qm)
    after = converted(x)
    return [before, scales, after, repr(converted), converted.features[0].weight,
            converted.fc[1].weight, sorted(converted.state_dict().keys())]


@case
def ptq_convert_remain_weight_inplace(paddle):
    from paddle.quantization import PTQ, QuantConfig
    from paddle.quantization.observers import AbsmaxObserver

    o = AbsmaxObserver(quant_bits=4)
    ptq = PTQ(QuantConfig(activation=o, weight=o))
    model = _small_net(paddle)
    model.eval()
    qm = ptq.quantize(model, inplace=True)
    for k in range(2):
        qm(paddle.to_tensor(data([2, 2, 4, 4], seed=60 + k)))
    converted = ptq.convert(qm, inplace=True, remain_weight=True)
    y = converted(paddle.to_tensor(data([2, 2, 4, 4], seed=62)))
    return [converted is qm, repr(converted), y, converted.fc.weight, converted.conv.converted]


@case
def ptq_on_train_model_error(paddle):
    from paddle.quantization import PTQ, QuantConfig
    from paddle.quantization.observers import AbsmaxObserver

    return PTQ(QuantConfig(activation=AbsmaxObserver(), weight=None)).quantize(_small_net(paddle), inplace=True)


@case
def ptq_weight_only_skips_unobserved(paddle):
    from paddle.quantization import PTQ, QuantConfig
    from paddle.quantization.observers import AbsmaxObserver

    ptq = PTQ(QuantConfig(activation=None, weight=AbsmaxObserver()))
    model = _small_net(paddle)
    model.eval()
    qm = ptq.quantize(model)
    qm(paddle.to_tensor(data([1, 2, 4, 4], seed=63)))
    converted = ptq.convert(qm)
    return [repr(converted), converted(paddle.to_tensor(data([1, 2, 4, 4], seed=64)))]


@case
def absmax_observer_running_max(paddle):
    from paddle.quantization.observers import AbsmaxObserver

    layer = AbsmaxObserver(quant_bits=8)._instance(None)
    out = []
    for v in ([1.0, -3.0], [2.0, -1.0], [-5.0, 4.0]):
        y = layer(paddle.to_tensor(v))
        out.append(layer._max)
    out += [y, layer.scales(), layer.zero_points(), layer.quant_axis(), layer.bit_length(),
            list(layer.state_dict().keys())]
    layer(paddle.to_tensor([10.0]))
    out.append(layer.scales())  # frozen once cal_thresholds ran
    return out


@case
def groupwise_observer(paddle):
    from paddle.quantization.observers import GroupWiseWeightObserver

    layer = GroupWiseWeightObserver(quant_bits=4, group_size=64)._instance(None)
    w = data([128, 3], seed=9)
    w[:64, 1] = 0
    layer(paddle.to_tensor(w))
    return [str(GroupWiseWeightObserver(quant_bits=4, group_size=64)), layer.scales(), layer.zero_points(),
            layer.max_value(), layer.min_value(), layer.group_size]


# ---------------------------------------------------------------- nn.quant.format
@case
def linear_quanter_dequanter_per_tensor(paddle):
    from paddle.nn.quant.format import LinearDequanter, LinearQuanter, LinearQuanterDequanter

    s, zp = paddle.to_tensor([3.0]), paddle.to_tensor([0.0])
    q, d = LinearQuanter(s, zp, None, 8), LinearDequanter(s, zp, None, 8)
    x = paddle.to_tensor(data([5, 4], seed=11) * 2, stop_gradient=False)
    qx = q(x)
    ties = q(paddle.to_tensor([0.5, 1.5, 2.5, -0.5, -2.5]) * 3 / 127)
    qd = LinearQuanterDequanter(q, d)
    return [qx, d(qx), ties, qd(x), repr(qd), list(q.state_dict().keys()), q._quant_axis, q._qmin, q._qmax,
            q(x.astype("float64"))]


@case
def linear_quanter_per_channel(paddle):
    from paddle.nn.quant.format import LinearDequanter, LinearQuanter

    x = paddle.to_tensor(data([4, 3], seed=12) * 3)
    out = []
    for axis, s in ((1, [1.0, 2.0, 4.0]), (0, [0.5, 1.0, 2.0, 8.0])):
        s, zp = paddle.to_tensor(s), paddle.zeros([len(s)])
        for bits in (4, 8):
            qx = LinearQuanter(s, zp, axis, bits)(x)
            out += [qx, LinearDequanter(s, zp, axis, bits)(qx)]
    return out


@case
def linear_quanter_group_wise(paddle):
    from paddle.nn.quant.format import LinearDequanter, LinearQuanter

    w = paddle.to_tensor(data([128, 3], seed=13))
    s = paddle.to_tensor(np.abs(data([2, 3], seed=14)) + 0.5)
    q = LinearQuanter(s, paddle.zeros([2, 3]), -1, 8, group_size=64)
    d = LinearDequanter(s, paddle.zeros([2, 3]), -1, 8, group_size=64)
    qw = q(w)
    zp = paddle.ones([128, 3])
    q2 = LinearQuanter(paddle.full([128, 3], 0.01), zp, -1, 4)
    return [qw, d(qw), q2(w), LinearDequanter(paddle.full([128, 3], 0.01), zp, -1, 4)(q2(w))]


@case
def linear_quanter_fp8(paddle):
    from paddle.nn.quant.format import LinearDequanter, LinearQuanter

    x = paddle.to_tensor(data([3, 4], seed=15) * 4)
    out = []
    for bits in ((4, 3), (5, 2)):
        q = LinearQuanter(paddle.to_tensor([4.0]), paddle.to_tensor([0.0]), -1, bits)
        d = LinearDequanter(paddle.to_tensor([4.0]), paddle.to_tensor([0.0]), -1, bits)
        out += [q(x), d(q(x)), q._qmax, q._bit_length]
    qc = LinearQuanter(paddle.to_tensor([1.0, 2.0, 4.0, 8.0]), paddle.zeros([4]), 1, (4, 3))
    return out + [qc(x)]


@case
def linear_quanter_bad_fp8_format(paddle):
    from paddle.nn.quant.format import LinearQuanter

    return LinearQuanter(paddle.to_tensor([1.0]), paddle.to_tensor([0.0]), -1, (3, 4))


@case
def linear_quanter_none_zero_point(paddle):
    from paddle.nn.quant.format import LinearQuanter

    return LinearQuanter(paddle.to_tensor([1.0]), None, -1, 8)


@case
def ptq_custom_per_channel_weight_observer_convert(paddle):
    from paddle.quantization import PTQ, BaseObserver, QuantConfig, quanter
    from paddle.quantization.observers import AbsmaxObserver

    @quanter("ChannelAbsmaxForCase")
    class ChannelAbsmaxLayer(BaseObserver):
        def __init__(self, layer, quant_bits=8):
            super().__init__()
            self._bits = quant_bits
            self._max = None

        def forward(self, input):
            m = input.abs().max(axis=0)
            self._max = m if self._max is None else paddle.maximum(m, self._max)
            return input

        def cal_thresholds(self):
            pass

        def scales(self):
            return self._max

        def zero_points(self):
            return paddle.zeros_like(self._max)

        def quant_axis(self):
            return 1

        def bit_length(self):
            return self._bits

    globals()["ChannelAbsmaxLayer"] = ChannelAbsmaxLayer
    ptq = PTQ(QuantConfig(activation=AbsmaxObserver(), weight=globals()["ChannelAbsmaxForCase"](quant_bits=4)))
    model = fill_parameters(paddle.nn.Sequential(paddle.nn.Linear(5, 3), paddle.nn.ReLU(), paddle.nn.Linear(3, 2)))
    model.eval()
    qm = ptq.quantize(model)
    qm(paddle.to_tensor(data([4, 5], seed=70)))
    converted = ptq.convert(qm)
    y = converted(paddle.to_tensor(data([4, 5], seed=71)))
    return [repr(converted), converted[0].weight, converted[2].weight, converted[0].weight_quanter._dequanter._scales,
            y]


@case
def qat_conv_nhwc_groups(paddle):
    from paddle.quantization import QAT, QuantConfig

    conv = fill_parameters(paddle.nn.Conv2D(4, 4, 3, groups=2, stride=1, padding=1, data_format="NHWC"))
    qm = QAT(QuantConfig(activation=_fq(paddle, bit_length=5), weight=_fq(paddle))).quantize(paddle.nn.Sequential(conv))
    x = paddle.to_tensor(data([2, 3, 3, 4], seed=72), stop_gradient=False)
    y = qm(x)
    (y * y).sum().backward()
    return [y, x.grad, conv.weight.grad, qm[0].weight_quanter.scales()]
