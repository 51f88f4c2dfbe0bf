"""paddle.static.save_inference_model writes Paddle 3.3's PIR program (issue 19 item 3), checked without Paddle.

tools/record_static_pir.py built each program of tests/static_pir_models under paddle_on_torch, saved it with
`paddle.static.save_inference_model` (tests/data/static_pir/<name>/model.json + model.pdiparams), loaded those
files with real Paddle 3.3.1 (`paddle.static.load_inference_model` + Executor, and
`paddle.inference.create_predictor`) and recorded what they computed and the program Paddle saw (report.json).
Here: save_inference_model still writes exactly those files, real Paddle's view of the program is the program
written, and paddle_on_torch's own Executor and load_inference_model give Paddle's recorded outputs.
"""
import json
import os

import numpy as np
import pytest

import paddle
from tests import static_pir_models as M

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "static_pir")
with open(os.path.join(DATA, "report.json")) as _f:
    REPORT = json.load(_f)
TOL = 1e-5


@pytest.fixture
def static():
    paddle.enable_static()
    try:
        yield
    finally:
        paddle.disable_static()


def _recorded(name, kind):
    io = np.load(os.path.join(DATA, name, "io.npz"))
    sets = []
    for k, xs in enumerate(M.INPUTS[name]):
        for f, a in xs.items():
            np.testing.assert_array_equal(io[f"input{k}_{f}"], a)  # the inputs Paddle ran are today's
        n = sum(1 for key in io.files if key.startswith(f"{kind}{k}_"))
        sets.append((xs, [io[f"{kind}{k}_{i}"] for i in range(n)]))
    return sets


def _check(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        g = np.asarray(g)
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=TOL, atol=TOL)


def _ops(program):
    names = {"p": "builtin.parameter"}
    ops = program["program"]["regions"][0]["blocks"][0]["ops"]
    return [names.get(op["#"]) or {"0": "builtin", "1": "pd_op", "2": "cf"}[op["#"][0]] + op["#"][1:] for op in ops]


def test_real_paddle_loaded_and_matched():
    assert set(REPORT) == set(M.PROGRAMS)
    for name, r in REPORT.items():
        assert r["paddle"] == "ok" and r["predictor"] == "ok", (name, r)
        assert r["paddle_max_diff"] <= TOL and r["predictor_max_diff"] <= TOL
    assert "pd_op.if" in REPORT["cond"]["ops"] and "pd_op.while" in REPORT["while_loop"]["ops"]
    (_, first), (_, second) = _recorded("cond", "predictor")  # Paddle's predictor took each branch
    assert first[1] > 0 > second[1]


@pytest.mark.parametrize("name", sorted(M.PROGRAMS))
def test_save_inference_model_writes_what_paddle_ran(name, static, tmp_path):
    main, feeds, fetches, exe = M.build(paddle, name)
    test = main.clone(for_test=True)
    for xs, want in _recorded(name, "predictor"):  # the shim's Executor computes what Paddle's predictor did
        _check(exe.run(test, feed=xs, fetch_list=fetches), want)
    prefix = str(tmp_path / "model")
    paddle.static.save_inference_model(prefix, feeds, fetches, exe, program=main)
    with open(prefix + ".json") as f:
        now = json.load(f)
    with open(os.path.join(DATA, name, "model.json")) as f:
        then = json.load(f)
    assert now == then, "the written program changed: rerun tools/record_static_pir.py"
    with open(prefix + ".pdiparams", "rb") as a, open(os.path.join(DATA, name, "model.pdiparams"), "rb") as b:
        assert a.read() == b.read()
    # the structure real Paddle saw when it loaded the file: its ops, feeds and fetch types
    r = REPORT[name]
    assert _ops(now) == r["ops"]
    assert [f.name for f in feeds] == r["feed_names"]
    fetch_types = [op["O"][0]["TT"]["D"] for op in now["program"]["regions"][0]["blocks"][0]["ops"]
                   if op["#"] == "1.fetch"]
    assert [["paddle.float32" if t[0]["#"] == "0.t_f32" else t[0]["#"], t[1]] for t in fetch_types] == r["fetch"]


@pytest.mark.parametrize("name", sorted(M.PROGRAMS))
def test_shim_loads_the_files_paddle_ran(name, static):
    exe = paddle.static.Executor(paddle.CPUPlace())
    prog, feed_names, fetch_targets = paddle.static.load_inference_model(os.path.join(DATA, name, "model"), exe)
    assert feed_names == REPORT[name]["feed_names"]
    assert len(fetch_targets) == len(REPORT[name]["fetch"])
    for (xs, paddle_outs), (_, pred_outs) in zip(_recorded(name, "paddle"), _recorded(name, "predictor")):
        got = exe.run(prog, feed=xs, fetch_list=fetch_targets)
        _check(got, paddle_outs)
        _check(got, pred_outs)


def test_program_without_a_paddle_form_keeps_our_format(static, tmp_path):
    """An op the writer cannot map: the shim's own data-only format, with a warning naming the op, and it
    still loads here."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [3, 3], "float32")
        y = paddle.linalg.det(x)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    prefix = str(tmp_path / "m")
    with pytest.warns(UserWarning, match="real Paddle cannot"):
        paddle.static.save_inference_model(prefix, [x], [y], exe, program=main)
    with open(prefix + ".json") as f:
        assert json.load(f)["format"].startswith("paddle_on_torch.static.program")
    xs = np.random.RandomState(0).rand(3, 3).astype("float32")
    prog, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
    got = exe.run(prog, feed={"x": xs}, fetch_list=fetches)[0]
    np.testing.assert_allclose(got, np.linalg.det(xs), rtol=1e-4)


def _structure(block):
    """A block as Paddle's program structure: the parameters' types (as a sorted list: Paddle writes them in its
    own order, under its own unique names), then each op's name, attributes, result types and flags, and its
    regions; value ids are left out (Paddle numbers the values inside regions in another order)."""
    params = sorted(json.dumps(op["O"]["TT"], sort_keys=True) for op in block["ops"] if op["#"] == "p")
    ops = [(op["#"], op.get("A"), [o["TT"] for o in op["O"]], op.get("OA"),
            [[_structure(b) for b in r["blocks"]] for r in op.get("regions", ())])
           for op in block["ops"] if op["#"] != "p"]
    return {"args": [a["TT"] for a in block.get("args", ())], "params": params, "ops": ops}


@pytest.mark.parametrize("name", sorted(n for n, r in REPORT.items() if r.get("paddle_own") == "saved"))
def test_program_is_the_one_paddle_writes(name):
    """Real Paddle built the same program with its own static API and saved it: the same ops, attributes and
    types as the shim wrote (cnn and embedding are not here: Paddle 3.3.1's PIR mode has no static.nn.conv2d /
    static.nn.embedding)."""
    with open(os.path.join(DATA, name, "paddle_own.json")) as f:
        paddle_own = json.load(f)
    with open(os.path.join(DATA, name, "model.json")) as f:
        ours = json.load(f)
    assert ours["base_code"] == paddle_own["base_code"]
    assert _structure(ours["program"]["regions"][0]["blocks"][0]) == \
        _structure(paddle_own["program"]["regions"][0]["blocks"][0])


def test_shim_predictor_runs_the_files():
    """paddle.inference.Config(prog_file, params_file) + create_predictor on a saved program with a -1 batch."""
    from paddle import inference

    d = os.path.join(DATA, "dynamic_batch")
    predictor = inference.create_predictor(inference.Config(os.path.join(d, "model.json"),
                                                            os.path.join(d, "model.pdiparams")))
    assert predictor.get_input_names() == REPORT["dynamic_batch"]["feed_names"]
    for xs, want in _recorded("dynamic_batch", "predictor"):
        for n in predictor.get_input_names():
            h = predictor.get_input_handle(n)
            h.reshape(xs[n].shape)
            h.copy_from_cpu(xs[n])
        predictor.run()
        _check([predictor.get_output_handle(n).copy_to_cpu() for n in predictor.get_output_names()], want)
