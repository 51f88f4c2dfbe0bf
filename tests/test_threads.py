"""`import paddle` sets the CPU thread count as real Paddle's import does (tests/golden/threads.json, recorded by
tools/record_threads.py): OMP_NUM_THREADS becomes 1 unless the user set it, a value above 1 is kept with Paddle's
warning, and torch's intra-op threads follow it (also when torch was imported first)."""
import json
import os
import subprocess
import sys

import pytest

from tools.record_threads import paddle_lines

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = json.load(open(os.path.join(ROOT, "tests", "golden", "threads.json")))
# torch first (its thread pool already made, at all cores), then the shim
PROBE = ("import os, torch; torch.ones(64, 64) @ torch.ones(64, 64); import paddle_on_torch; "
         "print(os.environ['OMP_NUM_THREADS'], torch.get_num_threads())")


def _run(value):
    env = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"}
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    if value != "unset":
        env["OMP_NUM_THREADS"] = value
    r = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r


@pytest.mark.parametrize("value", sorted(GOLDEN))
def test_omp_num_threads_as_paddle_sets_it(value):
    want = GOLDEN[value]
    r = _run(value)
    env_after, threads = r.stdout.split()
    assert env_after == want["env_after"]
    assert paddle_lines(r.stderr) == want["stderr"]
    if int(env_after) >= 1:  # torch follows it (0: torch refuses it and keeps its own count)
        assert int(threads) == int(env_after)
