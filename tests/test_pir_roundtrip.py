"""Real Paddle runs what paddle_on_torch's jit.save wrote (issue 19 item 3), checked without Paddle.

tools/record_pir_roundtrip.py saved each model of tests/pir_writer_models.ROUNDTRIP with paddle_on_torch's
`paddle.jit.save` (tests/data/pir_roundtrip/<name>/model.json + model.pdiparams), loaded the files with real
Paddle 3.3.1's `paddle.jit.load` and `paddle.inference.create_predictor`, and stored what they computed
(io.npz: jit<i>, predictor<i>) next to paddle_on_torch's eager outputs (eager<i>); report.json says which
models real Paddle loaded and matched.  Here: the writer still writes exactly those programs (so what real
Paddle ran is what jit.save writes today), and paddle_on_torch's eager forward and its PIR reader both give
Paddle's recorded outputs.
"""
import json
import os

import numpy as np
import pytest
import torch

import paddle
from paddle_on_torch.static import model_format
from tests import pir_writer_models as M

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "pir_roundtrip")
with open(os.path.join(DATA, "report.json")) as _f:
    REPORT = json.load(_f)
MATCHED = sorted(n for n, r in REPORT.items() if r.get("jit") == "ok" and r.get("predictor") == "ok")
TOL = 1e-5


def _io(name):
    io = np.load(os.path.join(DATA, name, "io.npz"))

    def seq(prefix, tag):
        keys = [k for k in io.files if k.startswith(prefix) and k.endswith(tag) and k[len(prefix):len(k) - len(tag)]
                .isdigit()]
        return [io[k] for k in sorted(keys, key=lambda k: int(k[len(prefix):len(k) - len(tag)]))]
    return [(seq("input", tag), seq("jit", tag), seq("predictor", tag)) for tag in ("", "b") if seq("input", tag)]


# jit.save (a torch.export trace) costs seconds per model: the byte-stability check runs on one model of each
# kind (the STRUCTURE models are checked op for op against Paddle's own programs in tests/test_pir_writer.py);
# the PIR reader check runs on every recorded model
STABILITY = ["vit", "bert", "bigru", "lstm_tagger", "unet", "llama_block", "cf_nested", "cf_break_continue",
             "cf_for_range"]


def test_real_paddle_loaded_the_zoo():
    """Which models real Paddle loaded and matched (to 1e-5, both ways) when they were recorded."""
    zoo = {"resnet", "mobilenetv3", "vit", "swin", "lstm_tagger", "bert", "gpt", "unet", "densenet", "bigru", "vgg"}
    control = {"branchy", "cf_elif_chain", "cf_early_return", "cf_while_carry", "cf_for_range", "cf_break_continue",
               "cf_logic", "cf_nested", "cf_sublayer"}
    assert set(M.ROUNDTRIP) == set(REPORT)
    assert {"mlp", "cnn", "block", "llama_block"} | zoo | control <= set(MATCHED)
    for name in MATCHED:
        assert REPORT[name]["jit_max_diff"] <= TOL and REPORT[name]["predictor_max_diff"] <= TOL
    for name, r in REPORT.items():  # every program written was run by real Paddle to the eager outputs
        assert not r.get("written") or name in MATCHED, (name, r)


@pytest.mark.parametrize("name", MATCHED)
def test_pir_reader_gives_paddles_outputs(name):
    """The stored program, read back by the project's PIR reader, computes what real Paddle's predictor did."""
    m = model_format.load(os.path.join(DATA, name, "model"))
    for xs, jit_outs, pred_outs in _io(name):
        outs = m(*[torch.from_numpy(x) for x in xs])
        assert len(outs) == len(pred_outs) == len(jit_outs)
        for o, p, j in zip(outs, pred_outs, jit_outs):
            o = o.numpy()
            assert o.dtype == p.dtype and o.shape == p.shape
            np.testing.assert_allclose(o, p, rtol=TOL, atol=TOL)
            np.testing.assert_allclose(j, p, rtol=TOL, atol=TOL)


@pytest.mark.parametrize("name", STABILITY)
def test_writer_still_writes_what_paddle_ran(name, tmp_path):
    """jit.save today writes the program and the params real Paddle loaded (same JSON, same bytes), and the
    model's eager outputs are Paddle's."""
    model = M.build(name)
    for xs, _, pred_outs in _io(name):
        with paddle.no_grad():
            outs = model(*[paddle.to_tensor(x) for x in xs])
        outs = outs if isinstance(outs, (list, tuple)) else [outs]
        for o, p in zip(outs, pred_outs):
            np.testing.assert_allclose(o.numpy(), p, rtol=TOL, atol=TOL)
    prefix = str(tmp_path / "model")
    paddle.jit.save(model, prefix, input_spec=M.ROUNDTRIP[name][1])
    with open(prefix + ".json") as f:
        now = json.load(f)
    with open(os.path.join(DATA, name, "model.json")) as f:
        then = json.load(f)
    assert now["base_code"] == then["base_code"]
    assert now["program"] == then["program"], "the written program changed: rerun tools/record_pir_roundtrip.py"
    with open(prefix + ".pdiparams", "rb") as a, open(os.path.join(DATA, name, "model.pdiparams"), "rb") as b:
        assert a.read() == b.read()
