"""paddle.amp's accelerator path, exercised on CPU tensors.

Real Paddle enables AMP only on GPU/XPU/custom places (tests/cases/amp.py pins down the CPU
behaviour against it).  Here the place checks are forced true so that the accelerator code runs on
CPU tensors; the expected values follow Paddle's rules (paddle/amp/grad_scaler.py, auto_cast.py,
paddle/fluid/eager/amp_utils.h), as no GPU build of Paddle is at hand to record them.
"""
import importlib
import warnings

import numpy as np
import pytest
import torch

from paddle_on_torch._core import amp_state as _state

_ac = importlib.import_module("paddle_on_torch.amp.auto_cast")  # the module; paddle.amp.auto_cast is the function


@pytest.fixture
def accel(monkeypatch, paddle):
    monkeypatch.setattr(_ac, "_accelerator", lambda: True)
    monkeypatch.setattr(_state, "_right_place", lambda t: True)
    monkeypatch.setattr(_ac._amp_global_state, "amp_dtype", "float32")
    yield paddle
    assert _state._state is None


def _t(dtype, shape=(2, 2)):
    return torch.ones(shape, dtype=dtype)


F32, BF16, F16 = torch.float32, torch.bfloat16, torch.float16


def _dtypes(api, *args):
    return [None if a is None else a.dtype if isinstance(a, torch.Tensor) else [v.dtype for v in a]
            for a in _state.cast_inputs(api, args)]


def test_o1_rule(accel):
    paddle = accel
    with paddle.amp.auto_cast(dtype="bfloat16"):
        assert paddle.amp.is_autocast_enabled() and paddle.amp.get_autocast_dtype() == "bfloat16"
        assert _dtypes("paddle.matmul", _t(F32), _t(F32)) == [BF16, BF16]              # white
        assert _dtypes("paddle.nn.functional.linear", _t(F32), _t(F32), None) == [BF16, BF16, None]
        assert _dtypes("paddle.nn.functional.conv1d", _t(F32), _t(F32), _t(F32)) == [BF16] * 3
        assert _dtypes("paddle.exp", _t(BF16)) == [F32]                                   # black
        assert _dtypes("paddle.nn.functional.softmax", _t(BF16)) == [F32]
        assert _dtypes("paddle.add", _t(BF16), _t(F32)) == [F32, F32]                     # gray, promoted
        assert _dtypes("paddle.add", _t(BF16), _t(BF16)) == [BF16, BF16]                  # gray, low
        assert _dtypes("paddle.concat", [_t(BF16), _t(F32)]) == [[F32, F32]]
        assert _dtypes("paddle.sum", _t(BF16)) == [BF16]          # Paddle's list names reduce_sum, not sum
        assert _dtypes("paddle.gather", _t(F32), _t(torch.int64)) == [F32, torch.int64]  # ints never cast
        # norms: the first input decides, and only it is cast to the low dtype
        assert _dtypes("paddle.nn.functional.batch_norm", _t(BF16), _t(F32), _t(F32)) == [BF16, F32, F32]
        assert _dtypes("paddle.nn.functional.batch_norm", _t(F32), _t(BF16)) == [F32, F32]
        assert _dtypes("paddle.nn.functional.layer_norm", _t(BF16)) == [F32]               # black at O1
    assert not paddle.amp.is_autocast_enabled()


def test_custom_lists_levels_and_nesting(accel):
    paddle = accel
    with paddle.amp.auto_cast(custom_white_list=["exp"], custom_black_list={"matmul"}, dtype="float16"):
        assert _dtypes("paddle.exp", _t(F32)) == [F16]
        assert _dtypes("paddle.matmul", _t(F16), _t(F16)) == [F32, F32]
        with paddle.amp.auto_cast(level="OD", dtype="bfloat16"):
            assert paddle.amp.get_autocast_dtype() == "bfloat16"
            assert _dtypes("paddle.add", _t(BF16), _t(BF16)) == [F32, F32]   # OD: only the white list is low
            assert _dtypes("paddle.exp", _t(BF16)) == [F32]
            assert _dtypes("paddle.matmul", _t(F32), _t(F32)) == [BF16, BF16]
        assert paddle.amp.get_autocast_dtype() == "float16"
        with paddle.amp.auto_cast(enable=False):
            assert _state.current_amp_state() is None
        with paddle.amp.auto_cast(level="O0"):
            assert not paddle.amp.is_autocast_enabled()
        assert _state.current_amp_state().dtype is F16
    with paddle.amp.auto_cast(level="O2", dtype="bfloat16", use_promote=False):
        assert _dtypes("paddle.add", _t(F32), _t(BF16)) == [BF16, BF16]
        assert _dtypes("paddle.exp", _t(F32)) == [BF16]                     # O2's black list is the extra one
        assert _dtypes("paddle.scatter", _t(BF16), _t(torch.int64), _t(BF16)) == [F32, torch.int64, F32]
    with paddle.amp.auto_cast(level="O2", dtype="bfloat16"):
        assert _dtypes("paddle.add", _t(F32), _t(BF16)) == [F32, F32]


def test_cpu_tensors_stay_float32(accel, monkeypatch):
    monkeypatch.setattr(_state, "_right_place", lambda t: t.device.type != "cpu")
    with accel.amp.auto_cast(dtype="bfloat16"):
        assert _dtypes("paddle.matmul", _t(F32), _t(F32)) == [F32, F32]
        assert _dtypes("paddle.matmul", _t(BF16), _t(F32)) == [F32, F32]


def _model(paddle):
    net = paddle.nn.Linear(3, 1)
    net.weight.set_value(np.array([[0.5], [-1.0], [0.25]], "float32"))
    net.bias.set_value(np.array([0.1], "float32"))
    return net


def _step(paddle, net, opt, scaler, poison):
    x = paddle.to_tensor(np.arange(6, dtype="float32").reshape([2, 3]))
    loss = net(x).mean() * (float("inf") if poison else 1.0)
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    opt.clear_grad()


def test_grad_scaler_dynamic_scaling(accel, capsys):
    paddle = accel
    with paddle.amp.auto_cast(dtype="float16"):
        pass  # GradScaler keeps dynamic scaling only after a float16 auto_cast, as in Paddle
    net = _model(paddle)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())
    s = paddle.amp.GradScaler(init_loss_scaling=8.0, incr_every_n_steps=2, decr_every_n_nan_or_inf=1)
    assert s.is_enable() and s.is_use_dynamic_loss_scaling()
    scaled = s.scale(paddle.to_tensor(1.5))
    assert scaled.shape == [1] and float(scaled) == 12.0
    scales, biases = [], []
    for poison in (False, False, True, False):
        _step(paddle, net, opt, s, poison)
        scales.append(float(s._scale))
        biases.append(float(net.bias))
    assert scales == [8.0, 16.0, 8.0, 8.0]
    # the unscaled gradient of the bias is 1: an update of -0.1 per good step, none on the inf step
    np.testing.assert_allclose(biases, [0.0, -0.1, -0.1, -0.2], atol=1e-6)
    assert "Found inf or nan, current scale is: 16.0, decrease to: 16.0*0.5" in capsys.readouterr().out
    sd = s.state_dict()
    assert sd["scale"].dtype == np.float32 and sd["scale"].tolist() == [8.0]
    assert (sd["incr_count"], sd["decr_count"], sd["incr_every_n_steps"]) == (1, 0, 2)
    s2 = paddle.amp.GradScaler()
    s2.load_state_dict(sd)
    assert s2.get_init_loss_scaling() == 8.0 and s2.get_incr_every_n_steps() == 2 and s2._incr_count == 1
    with pytest.raises(RuntimeError):
        s2.load_state_dict({})


def test_grad_scaler_unscale_and_misuse(accel):
    paddle = accel
    with paddle.amp.auto_cast(dtype="float16"):
        pass
    net = _model(paddle)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())
    s = paddle.amp.GradScaler(init_loss_scaling=4.0)
    s.scale(net(paddle.ones([1, 3])).sum()).backward()
    assert float(net.bias.grad) == 4.0
    s.unscale_(opt)
    assert float(net.bias.grad) == 1.0
    with pytest.raises(RuntimeError, match="already been called"):
        s.unscale_(opt)
    s.step(opt)
    with pytest.raises(RuntimeError, match="step\\(\\) has already been called"):
        s.step(opt)
    with pytest.raises(RuntimeError, match="after step"):
        s.unscale_(opt)
    s.update()
    scaled = s.scale(net(paddle.ones([1, 3])).sum())
    scaled.backward()
    s.minimize(opt, scaled)  # unscale + step + update in one
    assert s._incr_count == 2


def test_grad_scaler_static_and_bf16(accel):
    paddle = accel
    with paddle.amp.auto_cast(dtype="float16"):
        pass
    s = paddle.amp.GradScaler(init_loss_scaling=2.0, use_dynamic_loss_scaling=False)
    assert float(s.scale(paddle.to_tensor(3.0))) == 6.0
    with paddle.amp.auto_cast(dtype="bfloat16"):
        pass
    d = paddle.amp.GradScaler()
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        x = paddle.to_tensor(3.0)
        assert d.scale(x) is x
    assert not d.is_enable() and "not recommended" in str(rec[0].message)


def test_decorate_o2(accel):
    paddle = accel
    net = paddle.nn.Sequential(paddle.nn.Linear(4, 4), paddle.nn.LayerNorm(4), paddle.nn.BatchNorm1D(4),
                               paddle.nn.Linear(4, 2))
    opt = paddle.optimizer.Adam(parameters=net.parameters())
    m, o = paddle.amp.decorate(net, opt, level="O2", dtype="bfloat16", excluded_layers=[net[3]],
                               save_dtype="float32")
    assert m is net and o is opt and opt._multi_precision
    dt = {k: str(p.dtype) for k, p in net.named_parameters()}
    assert dt["0.weight"] == dt["1.weight"] == "paddle.bfloat16"    # LayerNorm is cast for bfloat16
    assert dt["2.weight"] == dt["3.weight"] == "paddle.float32"     # BatchNorm and the excluded layer are not
    assert all(str(v.dtype) == "paddle.float32" for v in net.state_dict().values())

    net2 = paddle.nn.Sequential(paddle.nn.Linear(2, 2), paddle.nn.LayerNorm(2))
    opt2 = paddle.optimizer.SGD(parameters=net2.parameters())
    paddle.amp.decorate([net2], [opt2], level="O2", master_weight=False)
    assert str(net2[0].weight.dtype) == "paddle.float16" and str(net2[1].weight.dtype) == "paddle.float32"
    assert opt2._multi_precision is False
    with pytest.raises(TypeError):
        paddle.amp.decorate(net2, optimizers="sgd", level="O2")
    with pytest.raises(RuntimeError):
        paddle.amp.decorate(["not a layer"], level="O2")
    with pytest.raises(ValueError):
        paddle.amp.decorate(net2, level="O2", save_dtype="int8")
