"""jit.save artifacts read back by name: paddle.inference.Config by directory, jit.load with file-name configs,
artifacts of format version 1.  (Real Paddle's answers for the round trips themselves are the golden cases
in tests/cases/jit_roundtrip.py.)"""
import json
import os

import numpy as np
import pytest

from tests.cases import fill_parameters


def _save_mlp(paddle, prefix):
    net = fill_parameters(paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.Tanh(), paddle.nn.Linear(4, 2)))
    net.eval()
    paddle.jit.save(net, prefix, input_spec=[paddle.static.InputSpec([None, 3], "float32", "x")])
    return net


def test_config_by_directory_and_by_file_names(paddle, tmp_path):
    net = _save_mlp(paddle, str(tmp_path / "mlp" / "inference"))
    x = np.linspace(-1, 1, 6, dtype="float32").reshape(2, 3)
    want = net(paddle.to_tensor(x)).numpy()
    for config in (paddle.inference.Config(str(tmp_path / "mlp")),  # a directory holding one artifact
                   paddle.inference.Config(str(tmp_path / "mlp" / "inference.json"),
                                           str(tmp_path / "mlp" / "inference.pdiparams"))):
        pred = paddle.inference.create_predictor(config)
        assert pred.get_input_names() == ["x"] and pred.get_output_names() == ["fetch_name_0"]
        (out,) = pred.run([paddle.to_tensor(x)])
        np.testing.assert_allclose(out.numpy(), want, rtol=1e-6)
    loaded = paddle.jit.load(str(tmp_path / "mlp"), model_filename="inference.json",
                             params_filename="inference.pdiparams")
    np.testing.assert_allclose(loaded(paddle.to_tensor(x)).numpy(), want, rtol=1e-6)
    _save_mlp(paddle, str(tmp_path / "mlp" / "second"))
    with pytest.raises(ValueError, match="2 paddle.jit.save artifacts"):
        paddle.inference.create_predictor(paddle.inference.Config(str(tmp_path / "mlp")))


def test_version_1_artifacts_still_load(paddle, tmp_path):
    """Format 1 kept the manifest in prefix.pot.json and the output structure nested."""
    net = _save_mlp(paddle, str(tmp_path / "m"))
    m = json.load(open(tmp_path / "m.pt2.manifest"))
    m["format_version"] = 1
    m["outputs"] = {"tensor": {"shape": [-1, 2], "dtype": "float32"}}
    for i in m["inputs"]:
        del i["program_shape"], i["stop_gradient"]
    for f in ("m.pt2.manifest", "m.json"):
        os.remove(tmp_path / f)
    (tmp_path / "m.pot.json").write_text(json.dumps(m))
    x = paddle.ones([5, 3])
    np.testing.assert_allclose(paddle.jit.load(str(tmp_path / "m"))(x).numpy(), net(x).numpy(), rtol=1e-6)


def test_shapes_outside_the_spec_run_paddles_program(paddle, tmp_path):
    """A loaded program takes any shape its ops take, as Paddle's (tests/cases/jit_loaded_modes.py has Paddle's
    answers): our artifact runs Paddle's own program for shapes the torch program was not traced for, and a
    real Paddle program (read by static/model_format) is not checked against its feed shapes; where an op cannot
    take them, Paddle's ValueError (InvalidArgument).  Without a Paddle program (torch_fallback) they are refused."""
    from tests import pir_writer_models as M

    net = _save_mlp(paddle, str(tmp_path / "ours"))
    x3 = paddle.to_tensor(np.linspace(-1, 1, 18, dtype="float32").reshape(2, 3, 3))
    loaded = paddle.jit.load(str(tmp_path / "ours"))
    np.testing.assert_allclose(loaded(x3).numpy(), net(x3).numpy(), rtol=1e-6, atol=1e-7)
    with pytest.raises(ValueError, match=r"^\(InvalidArgument\)"):
        loaded(paddle.ones([2, 5]))
    paddles = paddle.jit.load(os.path.join(os.path.dirname(__file__), "data", "pir_writer", "mlp", "model"))
    mlp = M.build("mlp")
    x4 = paddle.to_tensor(np.linspace(-1, 1, 24, dtype="float32").reshape(2, 3, 4))
    np.testing.assert_allclose(paddles(x4).numpy(), mlp(x4).numpy(), rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match=r"^\(InvalidArgument\)"):
        paddles(paddle.ones([2, 5]))
    (loaded(x3).sum() + paddles(x4).sum()).backward()
    assert all(p.grad.stop_gradient for p in loaded.parameters() + paddles.parameters())  # Paddle's flags
    os.remove(str(tmp_path / "ours.json"))  # as a torch_fallback save leaves it: the torch program only
    with pytest.raises(ValueError, match="has shape"):
        paddle.jit.load(str(tmp_path / "ours"))(x3)
