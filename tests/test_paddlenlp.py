"""PaddleNLP 3.0.0b4, unchanged, on the shim: tiny models against real Paddle's recorded results.

tools/record_paddlenlp.py built each case of tests/paddlenlp_cases.py under real Paddle 3.3.1, saved its
weights with paddle.save (tests/data/paddlenlp/<weights>.pdparams) and stored the eval logits for fixed input
ids and the losses of four AdamW steps (<case>.npz), or the error Paddle raised on the CPU.  Here the same
code runs under paddle_on_torch: build, paddle.load + set_state_dict, the same forward and steps.  Also: four
steps of PaddleNLP's Trainer, and LLaMA at tensor_parallel_degree=2 under torchrun against one process.

Skipped when PaddleNLP is not installed (CI installs it from tests/requirements-libs.txt).
"""
import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

pytestmark = pytest.mark.lib

# find_spec, not importorskip: importing paddlenlp here would patch the suite's paddle (see the `shim` fixture)
if importlib.util.find_spec("paddlenlp") is None:
    pytest.skip("PaddleNLP is not installed (tests/requirements-libs.txt)", allow_module_level=True)

from tests import paddlenlp_cases as C  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "paddlenlp")
TOL = C.TOL
_load = C.load_results


@pytest.fixture(scope="module")
def shim(tmp_path_factory):
    """Every case and the Trainer run under the shim in one separate process (tests/paddlenlp_cases.py's worker):
    `import paddlenlp` patches paddle's modules at import, which must not leak into the rest of the suite."""
    out = tmp_path_factory.mktemp("paddlenlp")
    C.run_shim_worker(os.path.join(ROOT, "tests", "paddlenlp_cases.py"), out, timeout=300)
    return str(out)


@pytest.mark.parametrize("name", list(C.CASES))
def test_model(name, shim):
    C.check_case(C.CASES[name], name, DATA, shim)


def test_trainer(shim):
    """PaddleNLP's Trainer with TrainingArguments (clip by global norm, linear decay, AdamW) on tiny LLaMA."""
    np.testing.assert_allclose(_load(shim, "trainer")["losses"], _load(DATA, "trainer")["losses"], rtol=TOL, atol=TOL)


@pytest.mark.dist
def test_llama_tensor_parallel_two_ranks(tmp_path):
    """LlamaForCausalLM at tensor_parallel_degree=2 (fleet mp 2, 2 gloo ranks under torchrun): each rank loads
    its shard of the Paddle-saved weights as PaddleNLP's tensor-parallel mappings split them; logits and the
    AdamW losses equal one process's (real Paddle's recorded ones)."""
    script = os.path.join(ROOT, "tests", "dist_scripts", "paddlenlp_llama_tp.py")
    cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=2",
           f"--log-dir={tmp_path}", "--redirects=3", "-m", "paddle_on_torch", script]
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""), OMP_NUM_THREADS="1")
    p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=180)
    logs = {}
    for dirpath, _, files in os.walk(tmp_path):
        for f in files:
            logs[os.path.join(dirpath, f)] = open(os.path.join(dirpath, f)).read()
    assert p.returncode == 0, p.stderr[-3000:] + "".join(v[-3000:] for k, v in logs.items() if "stderr" in k)
    outs = [v for k, v in logs.items() if k.endswith("stdout.log")]
    assert len(outs) == 2 and all("TP OK" in o for o in outs), outs
