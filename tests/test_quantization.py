"""paddle.quantization on the shim alone: what golden cases cannot show (unsupported legacy API, module
surface, torch-side properties of the fake quantizer, save/load and copying of quantized models)."""
import copy

import numpy as np
import pytest
import torch

import paddle
from paddle.quantization import PTQ, QAT, QuantConfig
from paddle.quantization.observers import AbsmaxObserver
from paddle.quantization.quanters import FakeQuanterWithAbsMaxObserver


def _net():
    paddle.seed(0)
    return paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 2))


@pytest.mark.parametrize("name", ["ImperativeQuantAware", "ImperativePTQ", "PTQConfig", "AbsmaxQuantizer",
                                  "KLQuantizer", "HistQuantizer", "PerChannelAbsmaxQuantizer", "PTQRegistry",
                                  "default_ptq_config"])
def test_legacy_imperative_api_raises_naming_it(name):
    with pytest.raises(NotImplementedError, match=f"paddle.quantization.{name}"):
        getattr(paddle.quantization, name)
    assert not hasattr(paddle.quantization, name)


def test_legacy_imperative_module_raises():
    with pytest.raises(NotImplementedError, match="paddle.quantization.imperative"):
        import paddle.quantization.imperative  # noqa: F401


def test_module_surface():
    assert sorted(paddle.quantization.__all__) == ["BaseObserver", "BaseQuanter", "PTQ", "QAT", "QuantConfig",
                                                   "quanter"]
    from paddle.nn.quant.format import ConvertibleQuantedLayer, LinearQuanterDequanter  # noqa: F401
    from paddle.nn.quant.stub import QuanterStub

    assert paddle.nn.quant.qat.QuantedLinear.__name__ == "QuantedLinear"
    assert QuantConfig(None, None).default_qat_layer_mapping[paddle.nn.quant.Stub] is QuanterStub
    with pytest.raises(AttributeError):
        paddle.quantization.no_such_name


def test_round_half_away_from_zero_unlike_torch_round():
    from paddle.nn.quant.format import round_half_away

    v = torch.tensor([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.49999997, -0.49999997, 3.7])
    assert round_half_away(v).tolist() == [-3.0, -2.0, -1.0, 1.0, 2.0, 3.0, 0.0, -0.0, 4.0]
    assert torch.round(v).tolist()[:6] == [-2.0, -2.0, -0.0, 0.0, 2.0, 2.0]


def test_fake_quanter_output_takes_the_quantized_values():
    layer = FakeQuanterWithAbsMaxObserver(bit_length=4)._instance(None)
    x = paddle.to_tensor(np.linspace(-3, 3, 41).astype("float32"))
    y = layer(x).numpy()
    s = float(layer.scales())
    assert len(np.unique(np.round(y / s * 7, 4))) <= 15  # 4 bits: integers -7..7
    assert np.abs(y).max() <= s + 1e-6


def test_qat_quanter_params_not_updated_by_optimizer():
    model = QAT(QuantConfig(FakeQuanterWithAbsMaxObserver(), FakeQuanterWithAbsMaxObserver())).quantize(_net())
    opt = paddle.optimizer.Adam(parameters=model.parameters(), learning_rate=0.1)
    x = paddle.to_tensor(np.random.default_rng(0).normal(size=[3, 4]).astype("float32"))
    model(x).sum().backward()
    state_before = float(model[0].weight_quanter._state)
    opt.step()
    assert float(model[0].weight_quanter._state) == state_before  # no gradient: Adam leaves it alone
    assert model[0].weight.grad is not None and model[0].weight_quanter._scale.grad is None


def test_qat_model_state_dict_round_trip_and_deepcopy(tmp_path):
    q = FakeQuanterWithAbsMaxObserver()
    model = QAT(QuantConfig(q, q)).quantize(_net())
    x = paddle.to_tensor(np.random.default_rng(1).normal(size=[3, 4]).astype("float32"))
    for _ in range(3):
        model(x)
    model.eval()
    want = model(x).numpy()
    path = str(tmp_path / "qat.pdparams")
    paddle.save(model.state_dict(), path)
    other = QAT(QuantConfig(q, q)).quantize(_net())
    other.set_state_dict(paddle.load(path))
    other.eval()
    np.testing.assert_array_equal(other(x).numpy(), want)
    twin = copy.deepcopy(model)
    np.testing.assert_array_equal(twin(x).numpy(), want)
    assert twin[0].weight_quanter._scale._t.data_ptr() != model[0].weight_quanter._scale._t.data_ptr()


def test_ptq_convert_stores_integer_weights():
    o = AbsmaxObserver()
    ptq = PTQ(QuantConfig(o, o))
    model = _net()
    model.eval()
    qm = ptq.quantize(model)
    x = paddle.to_tensor(np.random.default_rng(2).normal(size=[5, 4]).astype("float32"))
    ref = qm(x).numpy()
    conv = ptq.convert(qm)
    w = conv[0].weight.numpy()
    np.testing.assert_array_equal(w, np.round(w))
    assert np.abs(w).max() == 127
    np.testing.assert_allclose(conv(x).numpy(), ref, atol=0.05)
    assert type(conv[1]).__name__ == "ObserveWrapper"
    assert type(conv[1]._observer).__name__ == "LinearQuanterDequanter"



def test_qat_model_under_to_static_matches_eager():
    # the moving-average update is an in-place parameter update inside the compiled graph
    q = FakeQuanterWithAbsMaxObserver()
    eager = QAT(QuantConfig(q, q)).quantize(_net())
    compiled_model = copy.deepcopy(eager)
    static = paddle.jit.to_static(compiled_model)
    for k in range(3):
        x = paddle.to_tensor(np.random.default_rng(k).normal(size=[3, 4]).astype("float32"), stop_gradient=False)
        a, b = eager(x), static(x)
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-6, atol=1e-6)
    for name in ("_scale", "_state", "_accum"):
        np.testing.assert_allclose(getattr(compiled_model[0].activation_quanter, name).numpy(),
                                   getattr(eager[0].activation_quanter, name).numpy(), rtol=1e-6)
