"""`import paddle` sets the CPU thread count as real Paddle's import does (tests/golden/threads.json, recorded by
tools/record_threads.py): OMP_NUM_THREADS becomes 1 unless the user set it, a value above 1 is kept with Paddle's
warning, and torch's intra-op threads follow it (also when torch was imported first)."""
import os
import subprocess
import sys

import pytest

from tests import golden_file
from tools.record_threads import paddle_lines

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = golden_file.answers("threads")
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


# PADDLE_ON_TORCH_THREADS: the shim's own switch out of Paddle's one-thread default (README, "Threads")
def _probe(env_extra, code=PROBE):
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "PADDLE_ON_TORCH_THREADS")}
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    env.update(env_extra)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)


def test_threads_auto_keeps_torchs_own_count():
    plain = _probe({}, "import torch; print(torch.get_num_threads())")
    r = _probe({"PADDLE_ON_TORCH_THREADS": "auto"}, "import paddle_on_torch, torch, os; "
               "print(torch.get_num_threads(), os.environ.get('OMP_NUM_THREADS', 'unset'))")
    assert r.returncode == 0, r.stderr
    threads, omp = r.stdout.split()
    assert int(threads) == int(plain.stdout) and omp == "unset"
    assert not paddle_lines(r.stderr)  # no Paddle warning: the user asked for the threads


def test_threads_count_sets_torch_and_omp():
    r = _probe({"PADDLE_ON_TORCH_THREADS": "2"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["2", "2"] and not paddle_lines(r.stderr)


@pytest.mark.parametrize("value", ["0", "many"])
def test_threads_bad_value_names_the_variable(value):
    r = _probe({"PADDLE_ON_TORCH_THREADS": value})
    assert r.returncode != 0 and "PADDLE_ON_TORCH_THREADS" in r.stderr
