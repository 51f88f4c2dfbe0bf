"""PaddleNLP's auto-parallel LLaMA (LlamaForCausalLM3DAuto, tiny, Paddle-saved weights) under torchrun on 8 gloo
ranks, against real Paddle's one-process losses (tests/data/llama_auto/losses.npz, tools/record_llama_auto.py) and
the shim's own one-process run: layouts, sharding stages, to_static with Strategy pipeline schedules (FThenB,
1F1B, VPP), gradient merge, recompute and fused passes, and a sharded checkpoint saved at dp2 x mp2 x pp2 loaded
at dp4 x mp2 and into one process, whose weights become safetensors files torch reads
(tests/dist_scripts/llama_auto.py does the work).

One torchrun launch runs every case (start-up and the first step's DTensor sharding search are the costly
parts); the one-process run is a plain `python -m paddle_on_torch`.  Skipped without PaddleNLP
(tests/requirements-libs.txt); the `dist` and `lib` lanes.
"""
import importlib.util
import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

pytestmark = [pytest.mark.dist, pytest.mark.lib]

if importlib.util.find_spec("paddlenlp") is None:
    pytest.skip("PaddleNLP is not installed (tests/requirements-libs.txt)", allow_module_level=True)

from tests.test_auto_parallel import ROOT, SCRIPTS, _env, dist_job, torchrun  # noqa: E402

SCRIPT = os.path.join(SCRIPTS, "llama_auto.py")
TOL = 1e-4
# the cases of the one 8-rank job, in order (the checkpoint is saved before it is loaded)
JOB = ["dp2mp2pp2", "dp2mp2pp2_static", "ckpt_save_dp2mp2pp2", "ckpt_load_dp4mp2",
       "dp2mp2_stage1", "dp2mp2_stage2", "dp2mp2_stage3", "dp2mp2_stage3_static",
       "pp2_FThenB", "pp2_1F1B", "pp2_VPP", "recompute_full", "recompute_core_attn", "recompute_full_static",
       "fused_passes",
       "gradient_merge2", "gradient_merge2_sum"]
ONE = ["one", "one_gradient_merge2", "one_gradient_merge2_sum", "ckpt_load_one"]  # the shim in one process
LINE = re.compile(r"^OK (\S+) (\S+) losses=(\[.*\])", re.M)


def _results(outs):
    """{case: (max error vs real Paddle, losses)} from the ranks that hold the losses (the last stage's)."""
    got = {}
    for out in outs:
        for name, err, losses in LINE.findall(out):
            if err != "-":
                got.setdefault(name, (float(err), np.array(json.loads(losses), dtype=np.float64)))
    return got


@pytest.fixture(scope="module")
def job(tmp_path_factory):
    ckpt = str(tmp_path_factory.mktemp("llama_ckpt"))
    os.environ["LLAMA_AUTO_CKPT"] = ckpt  # torchrun's ranks inherit it
    try:
        _, outs, _ = torchrun(8, SCRIPT, *JOB, timeout=900)
        p = subprocess.run([sys.executable, "-m", "paddle_on_torch", SCRIPT, *ONE], cwd=ROOT,
                           env=_env(), capture_output=True, text=True, timeout=300)
    finally:
        del os.environ["LLAMA_AUTO_CKPT"]
    assert p.returncode == 0, p.stderr[-4000:]
    return _results(outs), _results([p.stdout]), p.stdout


@dist_job
@pytest.mark.parametrize("name", JOB)
def test_case_equals_one_process_and_real_paddle(job, name):
    dist, one, _ = job
    assert name in dist, f"{name} printed no losses"
    err, losses = dist[name]
    assert err <= TOL, (name, err)
    if name.startswith("ckpt_"):
        return  # its steps are a part of the run: compared with real Paddle's above
    np.testing.assert_allclose(losses, one["one_" + name if "gradient_merge" in name else "one"][1], rtol=0, atol=TOL)


@dist_job
def test_checkpoint_into_one_process_and_safetensors(job):
    """The dp2 x mp2 x pp2 checkpoint loads into one process (the last two steps equal real Paddle's) and its
    model weights merge into a safetensors file torch's reader loads, with real Paddle's state-dict names."""
    _, one, out = job
    assert one["ckpt_load_one"][0] <= TOL
    assert re.search(r"^OK safetensors \d+ tensors", out, re.M), out

