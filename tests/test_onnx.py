"""paddle.onnx.export on torch.onnx: the exported files run in ONNX Runtime and match Paddle's recorded outputs.

The model zoo's outputs were recorded under real Paddle (tests/data/model_zoo/*.npz); the models of
tests/onnx_models.py (a to_static model with a dynamic batch, a small transformer) and the API answers by
tools/record_onnx.py (tests/golden/onnx_paddle.json).  Each ONNX file is also compared with the shim's own eager
outputs.  Needs the `onnx` extra (onnx, onnxscript, onnxruntime: tests/requirements-libs.txt).
"""
import importlib
import os
import warnings

import numpy as np
import pytest

pytestmark = pytest.mark.lib

pytest.importorskip("onnxscript")
onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from tests import golden_file  # noqa: E402
from tests.model_zoo import MODELS  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ZOO = os.path.join(HERE, "data", "model_zoo")
RECORDED = golden_file.answers("onnx_paddle")
TOL = 1e-4


def _run(path, arrays):
    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    return sess, sess.run(None, {i.name: a for i, a in zip(sess.get_inputs(), arrays)})


def _eager(paddle, model, arrays):
    with paddle.no_grad():
        out = model(*[paddle.to_tensor(a) for a in arrays])
    return [o.numpy() for o in (out if isinstance(out, (list, tuple)) else [out])]


def _close(got, want, what):
    assert got.shape == want.shape and got.dtype == want.dtype, f"{what}: {got.dtype}{got.shape} vs {want.dtype}{want.shape}"
    np.testing.assert_allclose(got, want, rtol=TOL, atol=TOL, err_msg=what)


@pytest.mark.parametrize("name", MODELS)
def test_zoo_model_exports_and_matches(name, paddle, tmp_path):
    mod = importlib.import_module(f"tests.model_zoo.{name}")
    rec = dict(np.load(os.path.join(ZOO, f"{name}.npz")))
    arrays = [rec[f"input{i}"] for i in range(sum(k.startswith("input") for k in rec))]
    model = mod.build()
    model.set_state_dict(paddle.load(os.path.join(ZOO, f"{name}.pdparams")))
    model.eval()
    specs = [paddle.static.InputSpec(list(a.shape), str(a.dtype), f"x{i}") for i, a in enumerate(arrays)]
    paddle.onnx.export(model, str(tmp_path / name), input_spec=specs)
    assert sorted(os.listdir(tmp_path)) == [f"{name}.onnx"]
    sess, got = _run(str(tmp_path / f"{name}.onnx"), arrays)
    assert [i.name for i in sess.get_inputs()] == [s.name for s in specs]
    paddle_side = RECORDED["zoo"][name]
    if "outputs" in paddle_side:  # what paddle2onnx named them
        assert [o.name for o in sess.get_outputs()] == paddle_side["outputs"]
    eager = _eager(paddle, model, arrays)
    assert len(got) == len(eager) == sum(k.startswith("eval/out") for k in rec)
    for i, (g, e) in enumerate(zip(got, eager)):
        _close(g, rec[f"eval/out{i}"], f"{name} output {i} vs Paddle")
        _close(g, e, f"{name} output {i} vs the shim's eager forward")


def _extra(paddle, tmp_path, name, input_spec):
    from tests import onnx_models

    model = onnx_models.build(name)
    paddle.onnx.export(model, str(tmp_path / name), input_spec=input_spec)
    path = str(tmp_path / f"{name}.onnx")
    for batch in (2, 5):
        arrays = onnx_models.inputs(name, batch)
        sess, got = _run(path, arrays)
        want = np.asarray(RECORDED["extra"][name]["eager"][str(batch)], dtype="float32")
        _close(got[0], want, f"{name} batch {batch} vs Paddle")
        _close(got[0], _eager(paddle, model, arrays)[0], f"{name} batch {batch} vs the shim's eager forward")
    return onnx.load(path)


def _dims(value):
    return [d.dim_value if d.HasField("dim_value") else d.dim_param for d in value.type.tensor_type.shape.dim]


def test_to_static_model_with_dynamic_batch(paddle, tmp_path):
    """input_spec=None takes the to_static decorator's InputSpec; its None dim stays a named, variable dim."""
    m = _extra(paddle, tmp_path, "tagged_mlp", None)
    (x,) = m.graph.input
    dims = _dims(x)
    assert x.name == "x" and isinstance(dims[0], str) and dims[1:] == [6]


def test_small_transformer(paddle, tmp_path):
    from tests import onnx_models

    m = _extra(paddle, tmp_path, "small_transformer", onnx_models.input_spec("small_transformer"))
    assert [i.name for i in m.graph.input] == ["ids", "mask"]
    assert all(isinstance(_dims(i)[0], str) for i in m.graph.input)
    assert "LayerNormalization" in {n.op_type for n in m.graph.node}


class _Net:
    @staticmethod
    def make(paddle):
        class Net(paddle.nn.Layer):
            def __init__(self):
                super().__init__()
                self.fc = paddle.nn.Linear(4, 2)

            def forward(self, x):
                return self.fc(x)

        return Net()


def _spec(paddle):
    return [paddle.static.InputSpec([None, 4], "float32", "x")]


def test_files_and_names_as_paddle(paddle, tmp_path):
    """One file, path + '.onnx' (Paddle's answer recorded); the spec's input name; weights named by state_dict."""
    api = RECORDED["api"]
    (tmp_path / "api").mkdir()
    paddle.onnx.export(_Net.make(paddle), str(tmp_path / "api" / "net"), input_spec=_spec(paddle))
    assert sorted(os.listdir(tmp_path / "api")) == api["files"] == ["net.onnx"]
    m = onnx.load(str(tmp_path / "api" / "net.onnx"))
    assert [[i.name, [-1 if isinstance(d, str) else d for d in _dims(i)]] for i in m.graph.input] == \
        api["default_export"]["inputs"]
    assert sorted(i.name for i in m.graph.initializer) == ["fc.bias", "fc.weight"]
    assert [o.name for o in m.graph.output] == api["default_export"]["outputs"] == ["fetch_name_0"]


def test_empty_file_prefix_is_paddles_error(paddle, tmp_path):
    assert RECORDED["api"]["empty_prefix"] == "ValueError"
    with pytest.raises(ValueError, match="file_prefix is empty"):
        paddle.onnx.export(_Net.make(paddle), str(tmp_path) + os.sep, input_spec=_spec(paddle))


def test_missing_directories_are_created(paddle, tmp_path):
    """paddle2onnx logs an error and ends the process (SystemExit(-1), recorded); here the directories are made, as
    paddle.jit.save makes them (docs/compatibility.md)."""
    assert RECORDED["api"]["missing_directory"] == "SystemExit"
    assert RECORDED["api"]["missing_directory_written"] is False
    paddle.onnx.export(_Net.make(paddle), str(tmp_path / "a" / "b" / "net"), input_spec=_spec(paddle))
    assert os.path.isfile(tmp_path / "a" / "b" / "net.onnx")


def test_opsets(paddle, tmp_path):
    """Paddle's default opset 9 is raised to torch's lowest (18); 18+ is kept; without auto update a low opset
    the exporter cannot reach is refused."""
    from paddle_on_torch.onnx.export import MIN_TORCH_OPSET

    net = _Net.make(paddle)
    paddle.onnx.export(net, str(tmp_path / "a"), input_spec=_spec(paddle))
    paddle.onnx.export(net, str(tmp_path / "b"), input_spec=_spec(paddle), opset_version=20)
    opset = lambda p: next(o.version for o in onnx.load(str(p)).opset_import if o.domain == "")  # noqa: E731
    assert opset(tmp_path / "a.onnx") == MIN_TORCH_OPSET == 18
    assert opset(tmp_path / "b.onnx") == 20
    assert RECORDED["api"]["default_export"]["opset"] == 9  # what paddle2onnx wrote for the same call
    with pytest.raises(ValueError, match="opset 9"):
        paddle.onnx.export(net, str(tmp_path / "c"), input_spec=_spec(paddle), enable_auto_update_opset=False)
    assert not os.path.exists(tmp_path / "c.onnx")


def test_configs(paddle, tmp_path):
    net = _Net.make(paddle)
    with pytest.raises(NotImplementedError, match="output_spec"):
        paddle.onnx.export(net, str(tmp_path / "a"), input_spec=_spec(paddle), output_spec=[])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        paddle.onnx.export(net, str(tmp_path / "b"), input_spec=_spec(paddle), no_such_option=1,
                           enable_onnx_checker=True, enable_optimization=False)
    assert any("no_such_option" in str(w.message) for w in caught)
    x = np.ones((3, 4), "float32")
    _close(_run(str(tmp_path / "b.onnx"), [x])[1][0], _eager(paddle, net, [x])[0], "unoptimised export")


def test_port_cli_writes_onnx(tmp_path, monkeypatch):
    """`paddle-on-torch port --onnx` writes DIR/model.onnx beside the torch module, checked with --check."""
    import subprocess
    import sys

    (tmp_path / "mymodel.py").write_text(
        "import paddle\n\n\ndef build():\n    return paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(),"
        " paddle.nn.Linear(8, 2))\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), os.path.dirname(HERE)]))
    p = subprocess.run([sys.executable, "-m", "paddle_on_torch.cli", "port", "mymodel:build", "--example-input",
                        "batch,4", "--out", str(tmp_path / "out"), "--onnx", "--check"], capture_output=True,
                       text=True, env=env, cwd=tmp_path, timeout=600)
    assert p.returncode == 0, p.stderr
    assert sorted(os.listdir(tmp_path / "out")) == ["model.onnx", "model.py", "model.safetensors"]
    sess = ort.InferenceSession(str(tmp_path / "out" / "model.onnx"), providers=["CPUExecutionProvider"])
    assert [i.name for i in sess.get_inputs()] == ["x0"]
    assert isinstance(sess.get_inputs()[0].shape[0], str)


def test_missing_exporter_is_an_import_error(paddle, tmp_path, monkeypatch):
    """Without the exporter's packages: ImportError, as Paddle's try_import('paddle2onnx') raises; no file."""
    import sys

    monkeypatch.setitem(sys.modules, "onnxscript", None)  # makes `import onnxscript` fail
    with pytest.raises(ImportError, match=r"paddle_on_torch\[onnx\]"):
        paddle.onnx.export(_Net.make(paddle), str(tmp_path / "net"), input_spec=_spec(paddle))
    assert os.listdir(tmp_path) == []


def test_weight_names_that_are_torch_module_attributes(paddle, tmp_path):
    """A sublayer named like a torch.nn.Module method ('share_memory') cannot be a module path: the initializers are
    named w0, w1, ... instead, and the model is the same."""

    class Odd(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.share_memory = paddle.nn.Linear(3, 3)
            self.scale = self.create_parameter([3, 3])

        def forward(self, x):
            return self.share_memory(x @ self.scale)

    net = Odd()
    paddle.onnx.export(net, str(tmp_path / "odd"), input_spec=[paddle.static.InputSpec([None, 3], "float32", "x")])
    m = onnx.load(str(tmp_path / "odd.onnx"))
    assert sorted(i.name for i in m.graph.initializer) == ["w0", "w1", "w2"]
    x = np.arange(6, dtype="float32").reshape(2, 3)
    _close(_run(str(tmp_path / "odd.onnx"), [x])[1][0], _eager(paddle, net, [x])[0], "odd names")
