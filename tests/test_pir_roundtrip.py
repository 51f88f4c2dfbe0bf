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
import re

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


_KEY = re.compile(r"^(input|eager|jit|predictor)(\d+)(.*)$")


def _io(name):
    """[(inputs, real Paddle's jit.load outputs, its predictor's outputs)] per recorded input set: the model's
    inputs (''), the other branch ('b'), each batch size / sequence length ('n<b>', 'n<b>s<l>')."""
    io = np.load(os.path.join(DATA, name, "io.npz"))
    keys = [(m.group(1), int(m.group(2)), m.group(3), k) for k, m in ((k, _KEY.match(k)) for k in io.files) if m]

    def seq(prefix, tag):
        return [io[k] for _, _, _, k in sorted(x for x in keys if x[0] == prefix and x[2] == tag)]
    tags = sorted({t for p, _, t, _ in keys if p == "input"}, key=lambda t: (len(t), t))
    return [(seq("input", tag), seq("jit", tag), seq("predictor", tag)) for tag in tags]


# jit.save (a torch.export trace) costs seconds per model: the byte-stability check runs on one model of each
# kind (the STRUCTURE models are checked op for op against Paddle's own programs in tests/test_pir_writer.py);
# the PIR reader check runs on every recorded model
STABILITY = ["vit", "bert", "bigru", "lstm_tagger", "unet", "llama_block", "cf_nested", "cf_break_continue",
             "cf_for_range", "shape_ops", "tensor_shape_ops", "cswin_like", "llama_seq", "counted_loop",
             "dropbn_train", "dropdown_train", "dropdown_eval"]


def test_real_paddle_loaded_the_zoo():
    """Which models real Paddle loaded and matched (to 1e-5, both ways) when they were recorded."""
    zoo = {"resnet", "mobilenetv3", "vit", "swin", "lstm_tagger", "bert", "gpt", "unet", "densenet", "bigru", "vgg"}
    control = {"branchy", "cf_elif_chain", "cf_early_return", "cf_while_carry", "cf_for_range", "cf_break_continue",
               "cf_logic", "cf_nested", "cf_sublayer"}
    assert set(M.ROUNDTRIP) == set(REPORT)
    assert {"mlp", "cnn", "block", "llama_block"} | zoo | control | set(M.SYMBOLIC) | set(M.TRAIN_MODE) | \
        set(M.EVAL_DROPOUT) <= \
        set(MATCHED)
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


@pytest.mark.compile
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
    paddle.jit.save(M.mode_for_save(name, model), prefix, input_spec=M.ROUNDTRIP[name][1])
    with open(prefix + ".json") as f:
        now = json.load(f)
    with open(os.path.join(DATA, name, "model.json")) as f:
        then = json.load(f)
    assert now["base_code"] == then["base_code"]
    assert now["program"] == then["program"], "the written program changed: rerun tools/record_pir_roundtrip.py"
    recorded = os.path.join(DATA, name, "model.pdiparams")
    assert os.path.exists(prefix + ".pdiparams") == os.path.exists(recorded)  # none for a model without weights
    if os.path.exists(recorded):
        with open(prefix + ".pdiparams", "rb") as a, open(recorded, "rb") as b:
            assert a.read() == b.read()


def test_every_dynamic_model_ran_at_batch_1_3_7():
    """Real Paddle ran each program whose batch is dynamic at batch 1, 3 and 7 (and the sequence models at two
    lengths): sizes the writer had baked in from the trace would have failed or differed there."""
    for name, (_, specs, _) in M.ROUNDTRIP.items():
        if not any(s.shape and s.shape[0] in (None, -1) for s in specs):
            continue
        sets = set(REPORT[name]["input_sets"])
        for b in M.BATCHES:
            lengths = M.SEQUENCES.get(name, (None,))
            assert {f"n{b}" + (f"s{n}" if n else "") for n in lengths} <= sets, (name, sets)
