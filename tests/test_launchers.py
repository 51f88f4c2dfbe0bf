"""Launchers that only set up torch.distributed's environment run Paddle scripts under the runner.
`accelerate launch --multi_gpu` starts its processes with torchrun's machinery, which works on CPU with
gloo; `--cpu` would pick accelerate's MULTI_CPU launcher, which needs mpirun (docs/devices.md)."""
import importlib.util
import os
import re
import subprocess
import sys

import pytest

pytestmark = pytest.mark.dist

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "tests", "dist_scripts", "dp_train.py")
needs_accelerate = pytest.mark.skipif(importlib.util.find_spec("accelerate") is None,
                                      reason="accelerate is not installed (optional extra)")
dist_job = pytest.mark.dist


# A rank that has written its results sometimes aborts while the process exits ("terminate called without an
# active exception", SIGABRT, no Python frame left), about one launch in ten with the cores loaded, seen
# under accelerate's launcher (its static rendezvous puts the store's server in rank 0's process), not under
# torchrun in 12 launches; the cause is not found yet (docs/compatibility.md).  Such a launch is run once more; any other failure fails the test.
_EXIT_ABORT = "terminate called without an active exception"


def _run(cmd, tmp_path, nranks, attempts=2):
    for attempt in range(attempts):
        out_dir = tmp_path / f"out{nranks}_{attempt}"
        out_dir.mkdir()
        env = dict(os.environ, OUT_DIR=str(out_dir), PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
                   OMP_NUM_THREADS="1", HF_HOME=str(tmp_path / "hf"))  # accelerate looks for its config there
        p = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180)
        written = all((out_dir / f"rank{r}.txt").exists() for r in range(nranks))
        if p.returncode == 0 or not (written and _EXIT_ABORT in p.stderr) or attempt == attempts - 1:
            break
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    return [_numbers((out_dir / f"rank{r}.txt").read_text()) for r in range(nranks)]


def _numbers(text):
    """The losses and checksums a rank wrote.  The ranks' full-batch loss is a mean of per-rank means, so it
    can round differently from one process's mean in float32's last place."""
    return [float(v) for v in re.findall(r"-?\d+\.\d+", text)]


@dist_job
@needs_accelerate
def test_accelerate_launch_two_cpu_processes_match_one(tmp_path):
    out = _run([sys.executable, "-m", "accelerate.commands.launch", "--multi_gpu", "--num_processes", "2",
                "--num_machines", "1", "--mixed_precision", "no", "--dynamo_backend", "no",
                "-m", "paddle_on_torch", SCRIPT], tmp_path, 2)
    (ref,) = _run([sys.executable, "-m", "paddle_on_torch", SCRIPT, "--single"], tmp_path, 1)
    for rank_out in out:
        assert rank_out == pytest.approx(ref, rel=1e-5, abs=1e-6)
