"""Issue 3's model zoo: Paddle-recorded weights and outputs reproduced under paddle_on_torch.

tools/record_model_zoo.py built each model in tests/model_zoo under real Paddle 3.3.1, saved its
weights with paddle.save (tests/data/model_zoo/<name>.pdparams) and stored inputs, eval outputs and
one train step (loss, gradients, BatchNorm statistics) in <name>.npz.  Here the same model code
runs under paddle_on_torch: paddle.load + set_state_dict, then the same forward/backward.
"""
import importlib
import os

import numpy as np
import pytest

from tests.model_zoo import MODELS

DATA = os.path.join(os.path.dirname(__file__), "data", "model_zoo")
RTOL, ATOL = 1e-4, 1e-5
# A caution: unet's recorded input puts one pre-ReLU activation (after conv2's first BatchNorm) within float32
# rounding of 0.  Any change of summation order in one of its convolutions can flip that gate and move
# train/grad/inc.0.weight's norm by 2e-3 (seen with its convs split between oneDNN and thnn; all on either kernel,
# and float64, agree with Paddle to 4e-7).


def _close(got, want, what):
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype} != {want.dtype}"
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL, err_msg=what)


def _load(paddle, name):
    from tests.model_zoo import harness

    mod = importlib.import_module(f"tests.model_zoo.{name}")
    recorded = dict(np.load(os.path.join(DATA, f"{name}.npz")))
    arrays = [recorded[f"input{i}"] for i in range(sum(k.startswith("input") for k in recorded))]
    model = mod.build()
    state = paddle.load(os.path.join(DATA, f"{name}.pdparams"))
    own = model.state_dict()
    assert list(state) == list(own), "state dict keys differ from the Paddle-saved file"
    for k, v in state.items():
        assert list(v.shape) == list(own[k].shape), f"{k}: shape {v.shape} != {own[k].shape}"
    model.set_state_dict(state)
    return mod, harness, model, arrays, recorded


@pytest.mark.parametrize("name", MODELS)
def test_eval_forward(name, paddle):
    mod, harness, model, arrays, recorded = _load(paddle, name)
    got = harness.eval_forward(model, arrays)
    want = {k: v for k, v in recorded.items() if k.startswith("eval/")}
    assert sorted(got) == sorted(want)
    for k in want:
        _close(got[k], want[k], f"{name} {k}")


@pytest.mark.parametrize("name", MODELS)
def test_train_step(name, paddle):
    mod, harness, model, arrays, recorded = _load(paddle, name)
    if not hasattr(mod, "loss"):
        pytest.skip(f"{name} has no train step")
    got = harness.train_step(model, mod, arrays)
    want = {k: v for k, v in recorded.items() if k.startswith("train/")}
    assert sorted(got) == sorted(want)
    for k in want:
        if "/grad/" in k:  # compare the gradient's norm tightly and its entries relative to its scale
            np.testing.assert_allclose(np.linalg.norm(got[k]), np.linalg.norm(want[k]), rtol=RTOL, err_msg=k)
            np.testing.assert_allclose(got[k], want[k], rtol=RTOL, atol=ATOL * max(1.0, np.abs(want[k]).max()),
                                       err_msg=f"{name} {k}")
        else:
            _close(got[k], want[k], f"{name} {k}")


@pytest.mark.parametrize("name", MODELS)
def test_save_load_roundtrip(name, paddle, tmp_path):
    """The model's own state dict through paddle_on_torch's save and load gives the same outputs."""
    mod, harness, model, arrays, recorded = _load(paddle, name)
    path = str(tmp_path / f"{name}.pdparams")
    paddle.save(model.state_dict(), path)
    fresh = mod.build()
    fresh.set_state_dict(paddle.load(path))
    got = harness.eval_forward(fresh, arrays)
    for k, v in harness.eval_forward(model, arrays).items():
        np.testing.assert_array_equal(got[k], v, err_msg=f"{name} {k}")
