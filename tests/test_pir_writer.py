"""Paddle's PIR program written by paddle.jit.save (paddle_on_torch/jit/pir_writer.py, issue 19 item 3).

The programs real Paddle 3.3.1's own jit.save wrote for the same models (tests/data/pir_writer, recorded by
tools/record_pir_programs.py) are the reference: the writer's program matches each op for op (op types,
attributes, result shapes and dtypes, stop_gradient flags, what each op reads), and runs through the project's
PIR reader (static/model_format) to real Paddle's predictor outputs.  That real Paddle loads what the writer
writes is recorded by tools/record_pir_roundtrip.py and checked in tests/test_pir_roundtrip.py.
"""
import json
import os
import warnings

import numpy as np
import pytest
import torch

import paddle
from paddle_on_torch.jit import pir_writer
from paddle_on_torch.static import model_format
from tests import pir_structure as S
from tests import pir_writer_models as M

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "pir_writer")
NAMES = sorted(M.STRUCTURE)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """Each STRUCTURE model saved once by paddle_on_torch's jit.save: name -> path prefix."""
    d = tmp_path_factory.mktemp("pir")
    out = {}
    for name in NAMES:
        prefix = str(d / name / "model")
        with warnings.catch_warnings():
            warnings.filterwarnings("error", message=".*Paddle program")  # the writer must not fall back for these
            paddle.jit.save(M.build(name), prefix, input_spec=M.STRUCTURE[name][1])
        out[name] = prefix
    return out


def _io(name):
    io = np.load(os.path.join(DATA, name, "io.npz"))
    sets = []
    for tag in ("", "b"):
        xs = [io[k] for k in sorted((k for k in io.files if k.startswith("input") and k.endswith(tag) and
                                     k[5:len(k) - len(tag)].isdigit()), key=lambda k: int(k[5:len(k) - len(tag)]))]
        ys = [io[k] for k in sorted((k for k in io.files if k.startswith("output") and k.endswith(tag) and
                                     k[6:len(k) - len(tag)].isdigit()), key=lambda k: int(k[6:len(k) - len(tag)]))]
        if xs:
            sets.append((xs, ys))
    return sets


def test_recorded_programs_present():
    assert NAMES == ["block", "branchy", "cnn", "mlp"]
    for name in NAMES:
        with open(os.path.join(DATA, name, "model.json")) as f:
            assert json.load(f)["base_code"] == {"magic": "pir", "trainable": True, "version": 4}


@pytest.mark.parametrize("name", NAMES)
def test_program_matches_paddles_op_for_op(written, name):
    assert S.differences(os.path.join(DATA, name, "model.json"), written[name] + ".json") == []


@pytest.mark.parametrize("name", NAMES)
def test_params_file_is_paddles_layout(written, name):
    """Same tensors in the same order (sorted by parameter name) as real Paddle's params file."""
    from paddle_on_torch.jit.save_load import read_combined_params

    def read(p):
        with open(p, "rb") as f:
            return read_combined_params(f.read(), p)
    ours, paddles = read(written[name] + ".pdiparams"), read(os.path.join(DATA, name, "model.pdiparams"))
    assert [a.shape for a in ours] == [a.shape for a in paddles]
    for a, b in zip(ours, paddles):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name", NAMES)
def test_written_program_runs_through_the_pir_reader(written, name):
    """The project's own PIR reader (the way there) runs the written program (the way back) to real Paddle's
    predictor outputs, on inputs taking each branch of the control-flow model."""
    m = model_format.load(written[name])
    assert m.format == "pir" and m.version == 4
    for xs, ys in _io(name):
        outs = m(*[torch.from_numpy(x) for x in xs])
        assert len(outs) == len(ys)
        for o, y in zip(outs, ys):
            assert o.numpy().dtype == y.dtype and o.numpy().shape == y.shape
            np.testing.assert_allclose(o.numpy(), y, rtol=1e-5, atol=1e-6)


def test_dynamic_batch_stays_dynamic(written):
    m = model_format.load(written["block"])
    assert m.feed_specs[0].shape == [-1, 5, 8]
    for b in (1, 4):
        x = np.random.default_rng(b).standard_normal([b, 5, 8]).astype("float32")
        ref = M.build("block")(paddle.to_tensor(x)).numpy()
        np.testing.assert_allclose(m(torch.from_numpy(x))[0].numpy(), ref, rtol=1e-5, atol=1e-6)


def test_encoding_as_paddle_writes_it(written):
    with open(written["branchy"] + ".json") as f:
        obj = json.load(f)
    block = obj["program"]["regions"][0]["blocks"][0]
    params = [op for op in block["ops"] if op["#"] == "p"]
    assert [p["A"][3] for p in params] == ["linear_0.b_0", "linear_0.w_0"]  # the .pdiparams order
    assert params[0]["OA"] == [1, 0, 1] and params[0]["A"][:3] == [0, 1, 1]
    ids = [r["%"] for op in block["ops"] for r in ([op["O"]] if op["#"] == "p" else op["O"])]
    assert ids[:3] == [1, 2, 3] and ids == sorted(ids)  # value ids count up from 1
    loop = next(op for op in block["ops"] if op["#"] == "1.while")
    args = loop["regions"][0]["blocks"][0]["args"]
    assert [a["#"] for a in args] == [-1, -2]  # block arguments count down
    assert loop["regions"][0]["blocks"][0]["ops"][-1]["#"] == "2.yield"
    fetches = [op for op in block["ops"] if op["#"] == "1.fetch"]
    assert [f["A"][0]["AT"]["D"] for f in fetches] == ["fetch_name_0", "fetch_name_1"]
    # Paddle's file holds Paddle's program only; our manifest is beside the torch program
    assert sorted(obj) == ["base_code", "program"]
    with open(written["branchy"] + ".pt2.manifest") as f:
        manifest = json.load(f)
    assert manifest["format"] == "paddle_on_torch.jit" and manifest["format_version"] == 3
    assert manifest["program"] == "model.pt2" and manifest["paddle_program"] == "model.json"


def test_non_finite_floats_use_vd():
    assert pir_writer.a_f64(float("-inf")) == {"#": "0.a_f64", "VD": "-INF"}
    assert pir_writer.a_f32(float("nan")) == {"#": "0.a_f32", "VD": "NAN"}
    assert pir_writer.a_f32(1e-5) == {"#": "0.a_f32", "D": 9.999999747378752e-06}  # a float32, as a double


def test_jit_load_still_reads_the_torch_program(written):
    loaded = paddle.jit.load(written["mlp"])
    assert type(loaded).__name__ == "TranslatedLayer"
    (xs, ys), = _io("mlp")
    np.testing.assert_allclose(loaded(paddle.to_tensor(xs[0])).numpy(), ys[0], rtol=1e-5, atol=1e-6)


class _Det(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(3, 3)

    def forward(self, x):
        return paddle.linalg.det(self.fc(x))


def test_op_without_a_mapping_is_refused_naming_it(tmp_path):
    """Paddle's file names hold Paddle's formats only: a program the writer cannot hold is refused, nothing
    written (issue 25 item 3)."""
    prefix = str(tmp_path / "det")
    spec = [paddle.static.InputSpec([2, 3, 3], "float32", "x")]
    with pytest.raises(NotImplementedError, match=r"cannot be written for the torch op\(s\) aten\.linalg_det.*"
                                                  r"Nothing was written.*torch_fallback=True"):
        paddle.jit.save(_Det(), prefix, input_spec=spec)
    assert os.listdir(tmp_path) == []


def test_torch_fallback_writes_the_torch_program_under_its_own_names(tmp_path):
    prefix = str(tmp_path / "det")
    layer = _Det()
    with pytest.warns(UserWarning, match=r"cannot be written for the torch op\(s\) aten\.linalg_det"):
        paddle.jit.save(layer, prefix, input_spec=[paddle.static.InputSpec([2, 3, 3], "float32", "x")],
                        torch_fallback=True)
    assert sorted(os.listdir(tmp_path)) == ["det.pdiparams", "det.pt2", "det.pt2.manifest"]  # no det.json
    with open(prefix + ".pt2.manifest") as f:
        manifest = json.load(f)
    assert manifest["format"] == "paddle_on_torch.jit" and manifest["paddle_program"] is None
    x = paddle.rand([2, 3, 3])
    np.testing.assert_allclose(paddle.jit.load(prefix)(x).numpy(), layer(x).numpy(), rtol=1e-5, atol=1e-6)
    assert model_format.find_model_files(prefix) is None  # no Paddle program to find


def test_version_2_artifacts_still_load(written, tmp_path):
    """Format 2 kept the manifest in path.json beside the PIR program."""
    import shutil

    prefix = str(tmp_path / "old")
    for sfx in (".pt2", ".pdiparams"):
        shutil.copy(written["mlp"] + sfx, prefix + sfx)
    with open(written["mlp"] + ".pt2.manifest") as f:
        manifest = json.load(f)
    with open(written["mlp"] + ".json") as f:
        program = json.load(f)
    manifest.update(format_version=2, program="old.pt2", params="old.pdiparams")
    with open(prefix + ".json", "w") as f:
        json.dump({**manifest, **program}, f)
    (xs, ys), = _io("mlp")
    np.testing.assert_allclose(paddle.jit.load(prefix)(paddle.to_tensor(xs[0])).numpy(), ys[0], rtol=1e-5, atol=1e-6)


def test_missing_ops_lists_every_unmapped_op():
    from torch.fx.experimental.proxy_tensor import make_fx

    gm = make_fx(lambda x: torch.linalg.det(x) + torch.logdet(x) + torch.relu(x).sum())(torch.rand(2, 3, 3))
    names = pir_writer.missing_ops(gm)
    assert any("linalg_det" in n for n in names) and any("logdet" in n for n in names)  # make_fx: aten._linalg_det
    assert not any("relu" in n or "sum" in n or "add" in n for n in names)


# ----------------------------------------------------------------- sizes read from the input, train mode (issue 25)
@pytest.mark.compile
@pytest.mark.parametrize("name", M.SHAPE_STRUCTURE)
def test_sizes_and_train_mode_as_paddle_writes_them(name, tmp_path):
    """The ops that compute, with their result types (-1 where a size is read at run time), are those of real
    Paddle's own program for the model (sizes read with shape64 + slice and combined with stack; Paddle reads
    `x.shape` anew at each use, torch once, so the size plumbing is compared by the sizes it produces); a model
    saved in train mode is written as Paddle writes it, the inference program (batch_norm_ with is_test and, as
    Paddle says for a train-mode save, use_global_stats=False); the parameters are Paddle's, in its order."""
    prefix = str(tmp_path / "model")
    paddle.jit.save(M.mode_for_save(name, M.build(name)), prefix, input_spec=M.ROUNDTRIP[name][1])
    want = os.path.join(DATA, name, "model.json")
    assert S.compute_differences(want, prefix + ".json") == []
    assert S.canonical(want)[1] == S.canonical(prefix + ".json")[1]
    with open(prefix + ".json") as f:
        ops = f.read()
    if name == "shape_ops":
        assert '"1.shape64"' in ops and '"1.full_with_tensor"' in ops
    else:
        assert '"N":"use_global_stats"' in ops and '{"#":"0.a_bool","D":false},"N":"use_global_stats"' in ops
    m = model_format.load(prefix)
    for xs, ys in _io(name):
        for o, y in zip(m(*[torch.from_numpy(x) for x in xs]), ys):
            np.testing.assert_allclose(o.numpy(), y, rtol=1e-5, atol=1e-6)


@pytest.mark.compile
@pytest.mark.parametrize("name", M.DROPOUT_STRUCTURE)
def test_test_time_dropout_as_paddle_writes_it(name, tmp_path):
    """Paddle's jit.save writes F.dropout as a `dropout` op with is_test=True (its mode, seed 0, fix_seed False,
    the probability a [1] float32 `full`, a uint8 mask result) whether the Layer was in train or eval mode, and
    batch_norm_ with use_global_stats = not training: the written program is Paddle's op for op."""
    prefix = str(tmp_path / "model")
    paddle.jit.save(M.mode_for_save(name, M.build(name)), prefix, input_spec=M.ROUNDTRIP[name][1])
    assert S.differences(os.path.join(DATA, name, "model.json"), prefix + ".json") == []
    with open(prefix + ".json") as f:
        ops = f.read()
    assert ops.count('"1.dropout"') == 1
    for xs, ys in _io(name):
        for o, y in zip(model_format.load(prefix)(*[torch.from_numpy(x) for x in xs]), ys):
            np.testing.assert_allclose(o.numpy(), y, rtol=1e-5, atol=1e-6)
        with paddle.no_grad():
            out = paddle.jit.load(prefix)(*[paddle.to_tensor(x) for x in xs])
        np.testing.assert_allclose(out.numpy(), ys[0], rtol=1e-5, atol=1e-6)


@pytest.mark.compile
def test_a_to_static_model_saved_mid_training(tmp_path):
    """A to_static model trained a few steps in train mode (dropout, batch norm) and saved then, from its last
    call's inputs: the inference program, as Paddle's jit.save writes it, running on the updated running
    statistics; the Layer is still in train mode afterwards."""
    model = M.build("dropbn_train")
    model.train()
    static = paddle.jit.to_static(model, backend="eager")
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    rng = np.random.default_rng(5)
    for _ in range(3):
        loss = static(paddle.to_tensor(rng.standard_normal([8, 4]).astype("float32"))).square().mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
    prefix = str(tmp_path / "model")
    paddle.jit.save(static, prefix)
    assert model.training and all(layer.training for layer in model.sublayers())
    want = os.path.join(DATA, "dropbn_train", "model.json")
    assert S.compute_differences(want, prefix + ".json") == []
    x = rng.standard_normal([5, 4]).astype("float32")
    model.eval()
    with paddle.no_grad():
        ref = model(paddle.to_tensor(x)).numpy()
    got = model_format.load(prefix)(torch.from_numpy(x))[0].numpy()
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(paddle.jit.load(prefix)(paddle.to_tensor(x)).numpy(), ref, rtol=1e-5, atol=1e-6)
