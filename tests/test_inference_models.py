"""Real Paddle inference models on torch (issue 9): programs saved by real Paddle 3.3.1's jit.save
(tests/data/inference_models, recorded by tools/record_inference_models.py) load here, in PIR json and
legacy ProgramDesc form, and match real Paddle's inference predictor to 1e-5."""
import json
import os

import numpy as np
import pytest
import torch

from paddle_on_torch.static import model_format
from paddle_on_torch.static.model_format import ModelFormatError, UnsupportedOpsError

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "inference_models")


def _cases(fmt):
    return sorted(n for n in os.listdir(DATA) if os.path.exists(os.path.join(DATA, n, fmt, "io.npz")))


PIR = _cases("pir")
LEGACY = _cases("legacy")


def _io(name, fmt):
    io = np.load(os.path.join(DATA, name, fmt, "io.npz"))
    n_in = sum(1 for k in io.files if k.startswith("input") and k[5:].isdigit())
    n_out = sum(1 for k in io.files if k.startswith("output") and k[6:].isdigit())
    return [io[f"input{i}"] for i in range(n_in)], [io[f"output{i}"] for i in range(n_out)]


def _match(outs, refs, where):
    assert len(outs) == len(refs), where
    for i, (o, r) in enumerate(zip(outs, refs)):
        o = o.numpy() if hasattr(o, "numpy") else np.asarray(o)
        assert o.dtype == r.dtype, f"{where} output {i}: dtype {o.dtype}, Paddle {r.dtype}"
        assert o.shape == r.shape, f"{where} output {i}: shape {o.shape}, Paddle {r.shape}"
        np.testing.assert_allclose(o, r, rtol=1e-5, atol=1e-5, err_msg=f"{where} output {i}")


def test_recorded_set():
    assert len(PIR) >= 12 and len(LEGACY) >= 5
    assert {"lstm", "encoder", "resnet", "gpt", "bert"} <= set(PIR)


@pytest.mark.parametrize("name", PIR)
def test_pir_model_matches_paddle(name):
    m = model_format.load(os.path.join(DATA, name, "pir", "model"))
    assert m.format == "pir" and isinstance(m.graph_module, torch.fx.GraphModule)
    inputs, refs = _io(name, "pir")
    assert [s.dtype for s in m.feed_specs] == [str(a.dtype) for a in inputs]
    assert m.feed_specs[0].shape[0] == -1  # the batch dim stays dynamic
    _match(m(*[torch.from_numpy(a) for a in inputs]), refs, f"{name}/pir")


@pytest.mark.parametrize("name", LEGACY)
def test_legacy_model_matches_paddle(name):
    m = model_format.load((os.path.join(DATA, name, "legacy", "model.pdmodel"),
                           os.path.join(DATA, name, "legacy", "model.pdiparams")))
    assert m.format == "program_desc" and m.version == 3003001
    inputs, refs = _io(name, "legacy")
    _match(m(*[torch.from_numpy(a) for a in inputs]), refs, f"{name}/legacy")


def test_control_flow_both_branches():
    """pd_op.if and pd_op.while: each region is a GraphModule of its own; outer values are captured."""
    m = model_format.load(os.path.join(DATA, "control", "pir", "model"))
    assert {"pd_op.if", "pd_op.while"} <= m.program.op_types()
    io = np.load(os.path.join(DATA, "control", "pir", "io.npz"))
    for sfx in ("", "b"):
        outs = m(torch.from_numpy(io["input0" + sfx]), torch.from_numpy(io["input1" + sfx]))
        _match(outs, [io["output0" + sfx], io["output1" + sfx]], f"control{sfx}")


def test_model_directory_with_one_file_per_parameter(tmp_path):
    """Paddle 1.x/2.x `save_inference_model(dirname)` layout: __model__ + a tensor file per parameter."""
    from paddle_on_torch.framework.io import dense_tensor_bytes
    from paddle_on_torch.jit.save_load import read_combined_params

    src = os.path.join(DATA, "resnet", "legacy")
    (tmp_path / "__model__").write_bytes(open(os.path.join(src, "model.pdmodel"), "rb").read())
    arrays = read_combined_params(open(os.path.join(src, "model.pdiparams"), "rb").read(), "p")
    m = model_format.read_program(str(tmp_path / "__model__"))
    for name, a in zip(sorted(m.params.values()), arrays):
        (tmp_path / name).write_bytes(dense_tensor_bytes(torch.from_numpy(a)))
    model = model_format.load(str(tmp_path))
    inputs, refs = _io("resnet", "legacy")
    _match(model(*[torch.from_numpy(a) for a in inputs]), refs, "__model__ directory")


def test_model_attributes():
    m = model_format.load(os.path.join(DATA, "bert", "pir", "model"))
    assert m.feed_names == ["ids", "types"] and m.fetch_names == ["fetch_name_0", "fetch_name_1"]
    assert m.feed_specs[0] == ("ids", [-1, 9], "int64")
    ph = [n.target for n in m.graph_module.graph.nodes if n.op == "placeholder"]
    assert ph == ["ids", "types"]
    bufs = dict(m.graph_module.named_buffers())
    for name, attr in m.param_attr.items():
        assert bufs[attr] is m.params[name]
    legacy = model_format.load(os.path.join(DATA, "resnet", "legacy", "model"))
    assert legacy.feed_names == ["x"] and legacy.fetch_names == ["linear_0.tmp_1"]


@pytest.mark.parametrize("fmt", ["pir", "legacy"])
def test_predictor(paddle, fmt):
    from paddle import inference

    d = os.path.join(DATA, "resnet", fmt)
    mf = os.path.join(d, "model.json" if fmt == "pir" else "model.pdmodel")
    config = inference.Config(mf, os.path.join(d, "model.pdiparams"))
    config.disable_gpu()
    predictor = inference.create_predictor(config)
    inputs, refs = _io("resnet", fmt)
    assert predictor.get_input_names() == ["x"]
    h = predictor.get_input_handle("x")
    h.reshape(inputs[0].shape)
    h.copy_from_cpu(inputs[0])
    assert predictor.run() is True
    names = predictor.get_output_names()
    outs = [predictor.get_output_handle(n).copy_to_cpu() for n in names]
    _match(outs, refs, f"predictor {fmt}")
    assert predictor.get_output_handle(names[0]).shape() == list(refs[0].shape)
    # run(list of Tensors) -> list of Tensors
    res = predictor.run([paddle.to_tensor(inputs[0])])
    _match([r.numpy() for r in res], refs, "predictor run(list)")


def test_predictor_multi_io(paddle):
    from paddle import inference

    d = os.path.join(DATA, "bert", "pir")
    config = inference.Config(os.path.join(d, "model"))  # a path prefix
    assert config.prog_file().endswith("model.json") and config.params_file().endswith("model.pdiparams")
    predictor = inference.create_predictor(config)
    inputs, refs = _io("bert", "pir")
    for name, a in zip(predictor.get_input_names(), inputs):
        predictor.get_input_handle(name).copy_from_cpu(a)
    predictor.run()
    _match([predictor.get_output_handle(n).copy_to_cpu() for n in predictor.get_output_names()], refs, "bert")
    with pytest.raises(TypeError):
        predictor.get_input_handle("ids").copy_from_cpu(inputs[0].astype("float32"))
    with pytest.raises(ValueError):
        predictor.get_input_handle("nope")


def test_predictor_model_dir(paddle, tmp_path):
    from paddle import inference
    import shutil

    for f in ("model.json", "model.pdiparams"):
        shutil.copy(os.path.join(DATA, "vgg", "pir", f), tmp_path / f.replace("model", "inference"))
    predictor = inference.create_predictor(inference.Config(str(tmp_path)))
    inputs, refs = _io("vgg", "pir")
    predictor.get_input_handle("x").copy_from_cpu(inputs[0])
    predictor.run()
    _match([predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()], refs, "model dir")


@pytest.mark.parametrize("name,fmt", [("lstm_tagger", "pir"), ("vit", "pir"), ("densenet", "legacy")])
def test_jit_load(paddle, name, fmt):
    layer = paddle.jit.load(os.path.join(DATA, name, fmt, "model"))
    inputs, refs = _io(name, fmt)
    out = layer(*[paddle.to_tensor(a) for a in inputs])
    outs = out if isinstance(out, list) else [out]
    assert isinstance(out, list) == (len(refs) > 1)  # one fetch: a Tensor, several: a list (as Paddle)
    _match([o.numpy() for o in outs], refs, f"jit.load {name}")
    assert not layer.training
    params = layer.parameters()
    frozen = [p for p in params if p.stop_gradient]  # PIR marks BatchNorm statistics stop_gradient
    assert params and len(frozen) == (fmt == "pir") * sum(1 for n in layer.program.params if n.endswith(("w_1", "w_2"))
                                         and "batch_norm" in n)
    assert [n for n, _ in layer.named_parameters()][:2] == ["param_0", "param_1"]
    assert outs[0].stop_gradient is False


def test_jit_load_trains(paddle):
    """Gradients flow into the loaded program's parameters (fine-tuning an imported model)."""
    layer = paddle.jit.load(os.path.join(DATA, "vgg", "pir", "model"))
    inputs, _ = _io("vgg", "pir")
    loss = layer(paddle.to_tensor(inputs[0])).sum()
    loss.backward()
    assert all(p.grad is not None for p in layer.parameters() if not p.stop_gradient)


def test_jit_load_params_filename(paddle):
    d = os.path.join(DATA, "resnet", "legacy")
    layer = paddle.jit.load(d, model_filename="model.pdmodel", params_filename="model.pdiparams")
    inputs, refs = _io("resnet", "legacy")
    _match([layer(paddle.to_tensor(inputs[0])).numpy()], refs, "model_filename")


def test_our_jit_save_still_loads(paddle, tmp_path):
    net = paddle.nn.Linear(3, 2)
    paddle.jit.save(net, str(tmp_path / "lin"), input_spec=[paddle.static.InputSpec([None, 3], "float32", "x")])
    loaded = paddle.jit.load(str(tmp_path / "lin"))
    x = paddle.randn([4, 3])
    np.testing.assert_allclose(loaded(x).numpy(), net(x).numpy(), rtol=1e-6)


@pytest.mark.parametrize("name", ["resnet", "unet", "gpt", "bigru", "ops"])
def test_dynamic_batch(name):
    """Feeds with a -1 batch dim run at other batch sizes (shape arithmetic stays symbolic)."""
    m = model_format.load(os.path.join(DATA, name, "pir", "model"))
    inputs, _ = _io(name, "pir")
    full = m(*[torch.from_numpy(a) for a in inputs])
    one = m(*[torch.from_numpy(a[:1]) for a in inputs])
    for f, o in zip(full, one):
        if f.dim() and f.shape[0] == inputs[0].shape[0]:
            np.testing.assert_allclose(o.numpy(), f[:1].numpy(), rtol=1e-5, atol=1e-5)
    three = m(*[torch.from_numpy(np.concatenate([a, a[:1]])) for a in inputs])
    assert three[0].shape[0] == 3 or three[0].dim() == 0 or name == "bigru"


@pytest.mark.compile
@pytest.mark.parametrize("name", ["resnet", "gpt", "lstm_tagger"])
def test_torch_export(name):
    m = model_format.load(os.path.join(DATA, name, "pir", "model"))
    inputs, refs = _io(name, "pir")
    args = tuple(torch.from_numpy(a) for a in inputs)
    batch = torch.export.Dim("batch", min=1, max=1024)
    ep = torch.export.export(m.graph_module, args, dynamic_shapes=tuple({0: batch} for _ in args), strict=False)
    _match(ep.module()(*args), refs, f"export {name}")
    one = ep.module()(*[a[:1] for a in args])[0]  # the first fetch is batch-major in these models
    _match([one], [refs[0][:1]], f"export {name} batch 1")


@pytest.mark.compile
def test_torch_compile():
    m = model_format.load(os.path.join(DATA, "lstm", "pir", "model"))
    inputs, refs = _io("lstm", "pir")
    compiled = torch.compile(m.graph_module, dynamic=True)
    with torch.no_grad():
        _match(compiled(*[torch.from_numpy(a) for a in inputs]), refs, "compile lstm")


# ===================================================================== bad input
def _copy_pir(tmp_path, name="vgg", edit=None):
    src = os.path.join(DATA, name, "pir")
    with open(os.path.join(src, "model.json")) as f:
        text = f.read()
    if edit:
        text = edit(text)
    (tmp_path / "model.json").write_text(text)
    (tmp_path / "model.pdiparams").write_bytes(open(os.path.join(src, "model.pdiparams"), "rb").read())
    return str(tmp_path / "model")


def test_unsupported_ops_listed_at_load(tmp_path):
    prefix = _copy_pir(tmp_path, "mobilenetv3",
                       lambda t: t.replace('"1.hardswish"', '"1.my_swish"').replace('"1.hardsigmoid"', '"1.my_gate"'))
    with pytest.raises(UnsupportedOpsError) as e:
        model_format.load(prefix)
    assert isinstance(e.value, NotImplementedError)
    assert e.value.ops == ["pd_op.my_gate", "pd_op.my_swish"]
    assert "pd_op.my_gate, pd_op.my_swish" in str(e.value)


def test_unsupported_legacy_op(tmp_path):
    data = open(os.path.join(DATA, "vgg", "legacy", "model.pdmodel"), "rb").read()
    # same length, so the protobuf stays valid: every relu op becomes "reXu"
    (tmp_path / "m.pdmodel").write_bytes(data.replace(b'\x1a\x04relu', b'\x1a\x04reXu'))
    (tmp_path / "m.pdiparams").write_bytes(open(os.path.join(DATA, "vgg", "legacy", "model.pdiparams"), "rb").read())
    with pytest.raises(UnsupportedOpsError, match="legacy.reXu"):
        model_format.load(str(tmp_path / "m"))


def test_newer_pir_version(tmp_path):
    prefix = _copy_pir(tmp_path, edit=lambda t: t.replace('"version": 4', '"version": 99', 1)
                       .replace('"version":4', '"version":99', 1))
    with pytest.raises(ModelFormatError, match=r"PIR program version 99.*1\.\.4"):
        model_format.load(prefix)


def test_newer_program_desc_version(tmp_path):
    data = open(os.path.join(DATA, "vgg", "legacy", "model.pdmodel"), "rb").read()
    from paddle_on_torch.framework.io import _varint

    # ProgramDesc.version (field 4) = Version{version (field 1) = 9000000}, appended: a later field wins
    ver = b"\x08" + _varint(9000000)
    (tmp_path / "m.pdmodel").write_bytes(data + b"\x22" + _varint(len(ver)) + ver)
    with pytest.raises(ModelFormatError, match="ProgramDesc version 9000000 is newer"):
        model_format.load(str(tmp_path / "m"))


@pytest.mark.parametrize("cut", [1, 100, 5000, -3])
def test_truncated_program_desc(tmp_path, cut):
    data = open(os.path.join(DATA, "resnet", "legacy", "model.pdmodel"), "rb").read()
    (tmp_path / "m.pdmodel").write_bytes(data[:cut])
    with pytest.raises(ModelFormatError, match="ProgramDesc"):
        model_format.load(str(tmp_path / "m"))


def test_truncated_pir_json(tmp_path):
    prefix = _copy_pir(tmp_path, edit=lambda t: t[:len(t) // 2])
    with pytest.raises(ModelFormatError, match=r"PIR program \(\.json\)"):
        model_format.load(prefix)


def test_foreign_files(tmp_path):
    (tmp_path / "a.pdmodel").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    with pytest.raises(ModelFormatError, match=r"not a Paddle ProgramDesc \(\.pdmodel\)"):
        model_format.load(str(tmp_path / "a"))
    (tmp_path / "b.json").write_text(json.dumps({"format": "onnx", "graph": []}))
    with pytest.raises(ModelFormatError, match="magic 'pir'"):
        model_format.load(str(tmp_path / "b"))
    (tmp_path / "c.json").write_bytes(b"\x00\x01garbage")
    with pytest.raises(ModelFormatError, match="not JSON"):
        model_format.load(str(tmp_path / "c"))
    (tmp_path / "d.pdmodel").write_bytes(b"")
    with pytest.raises(ModelFormatError, match="empty"):
        model_format.load(str(tmp_path / "d"))
    # a structurally valid protobuf that is not a ProgramDesc
    (tmp_path / "e.pdmodel").write_bytes(b"\x0a\x03\x08\x01\x10")
    with pytest.raises(ModelFormatError):
        model_format.load(str(tmp_path / "e"))


def test_bad_params(tmp_path):
    prefix = _copy_pir(tmp_path)
    data = (tmp_path / "model.pdiparams").read_bytes()
    (tmp_path / "model.pdiparams").write_bytes(data[: len(data) // 2])
    with pytest.raises(ModelFormatError, match=r"\.pdiparams"):
        model_format.load(prefix)
    os.remove(tmp_path / "model.pdiparams")
    with pytest.raises(FileNotFoundError, match="params file"):
        model_format.load(prefix)


def test_not_found(tmp_path, paddle):
    with pytest.raises(FileNotFoundError):
        model_format.load(str(tmp_path / "nothing"))
    with pytest.raises(TypeError):
        model_format.load(3)
    with pytest.raises(ValueError):
        paddle.jit.load(str(tmp_path / "nothing"))


# ===================================================================== paddle-on-torch port --inference-model
_PORT_RUNNER = r"""
import importlib.util, sys, numpy as np, torch
d, npz = sys.argv[1], sys.argv[2]
spec = importlib.util.spec_from_file_location("ported", d + "/model.py")
mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
model = mod.load()
io = np.load(npz)
n = sum(1 for k in io.files if k.startswith("input") and k[5:].isdigit())
with torch.no_grad():
    out = model(*[torch.from_numpy(io["input%d" % i]) for i in range(n)])
outs = out if isinstance(out, (tuple, list)) else (out,)
for i, o in enumerate(outs):
    np.testing.assert_allclose(o.numpy(), io["output%d" % i], rtol=1e-5, atol=1e-5)
assert "paddle_on_torch" not in sys.modules and "paddle" not in sys.modules
print("ok", mod.PADDLE_NAMES["param_0"])
"""


@pytest.mark.compile
@pytest.mark.parametrize("name,fmt", [("bert", "pir"), ("unet", "legacy")])
def test_port_inference_model(tmp_path, capsys, name, fmt):
    import subprocess
    import sys

    from paddle_on_torch.cli import main

    out = tmp_path / "ported"
    prefix = os.path.join(DATA, name, fmt, "model")
    assert main(["port", "--inference-model", prefix, "--out", str(out), "--check"]) == 0, capsys.readouterr().err
    assert "matches the program run op by op" in capsys.readouterr().out
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    p = subprocess.run([sys.executable, "-c", _PORT_RUNNER, str(out), os.path.join(DATA, name, fmt, "io.npz")],
                       capture_output=True, text=True, env=env, cwd=str(tmp_path), timeout=300)
    assert p.returncode == 0 and "ok" in p.stdout, p.stderr


def test_port_inference_model_errors(tmp_path, capsys):
    from paddle_on_torch.cli import main

    assert main(["port", "--inference-model", str(tmp_path / "none"), "--out", str(tmp_path / "o")]) == 3
    assert "no Paddle inference model" in capsys.readouterr().err
    prefix = _copy_pir(tmp_path, "vgg", lambda t: t.replace('"1.relu"', '"1.my_relu"'))
    assert main(["port", "--inference-model", prefix, "--out", str(tmp_path / "o")]) == 3
    assert "pd_op.my_relu" in capsys.readouterr().err
    assert main(["port", "m:f", "--inference-model", prefix, "--out", str(tmp_path / "o")]) == 2
    assert main(["port", "--out", str(tmp_path / "o")]) == 2
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("name,fmt,ext", [("resnet", "legacy", ".pdmodel"), ("control", "pir", ".json")])
def test_corrupted_files_fail_cleanly(tmp_path, name, fmt, ext):
    """Truncations, byte flips and cut-outs: a ModelFormatError / UnsupportedOpsError or a model, never
    another exception."""
    import random

    rng = random.Random(0)
    data = open(os.path.join(DATA, name, fmt, "model" + ext), "rb").read()
    (tmp_path / "m.pdiparams").write_bytes(open(os.path.join(DATA, name, fmt, "model.pdiparams"), "rb").read())
    for trial in range(60):
        if trial % 3 == 0:
            d = data[:rng.randrange(len(data))]
        elif trial % 3 == 1:
            b = bytearray(data)
            for _ in range(rng.randrange(1, 8)):
                b[rng.randrange(len(b))] = rng.randrange(256)
            d = bytes(b)
        else:
            i = rng.randrange(len(data))
            d = data[:i] + data[i + rng.randrange(1, 50):]
        (tmp_path / ("m" + ext)).write_bytes(d)
        try:
            model_format.load(str(tmp_path / "m"))
        except (ModelFormatError, UnsupportedOpsError):
            pass


@pytest.mark.compile
def test_predictor_ir_optim_compiles(paddle):
    """switch_ir_optim(True): torch.compile with freezing (weights as constants), same results."""
    from paddle import inference

    d = os.path.join(DATA, "lstm", "pir")
    config = inference.Config(os.path.join(d, "model.json"), os.path.join(d, "model.pdiparams"))
    config.switch_ir_optim(True)
    predictor = inference.create_predictor(config)
    inputs, refs = _io("lstm", "pir")
    outs = predictor.run([paddle.to_tensor(a) for a in inputs])
    _match([o.numpy() for o in outs], refs, "ir_optim")
