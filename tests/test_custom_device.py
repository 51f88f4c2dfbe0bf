"""A Paddle program on a custom device: torch's open registration (PrivateUse1, host memory) as Paddle's
'custom_cpu', picked by Paddle's names (set_device('custom_cpu:0'), CustomPlace, get_all_custom_device_type,
get_available_custom_device), trains, saves and loads, runs AMP and to_static, and matches the CPU.

The device (tests/custom_device: a small C++ backend, built once with torch.utils.cpp_extension and cached) can
be registered only once per process, so tests/custom_device/program.py runs in a subprocess, on the CPU and on the
device, and this file compares what it wrote.  docs/devices.md describes the registry interface this exercises.
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "custom_cpu"

pytestmark = pytest.mark.build  # the C++ backend is built on first use


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("custom_device") / "out.json"
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONPATH=os.pathsep.join(
        [ROOT] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    # a cold build of the C++ backend takes a minute or two on two cores; cached afterwards
    p = subprocess.run([sys.executable, "-m", "paddle_on_torch", os.path.join(ROOT, "tests", "custom_device",
                                                                              "program.py"), str(out)],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200)
    assert p.returncode == 0, p.stderr[-4000:]
    return json.load(open(out))


def _close(a, b, tol, what):
    np.testing.assert_allclose(np.asarray(a, dtype="float64"), np.asarray(b, dtype="float64"), rtol=tol, atol=tol,
                               err_msg=what)


def test_paddle_finds_the_device_by_its_names(run):
    assert run["before_registration"] == []  # nothing before the extension registered itself
    q = run["queries"]
    assert q["all_custom_device_type"] == [NAME]
    assert q["available_custom_device"] == [f"{NAME}:0"]
    assert q["all_device_type"] == [NAME]
    assert q["compiled_with_custom_device"] is True and q["compiled_with_other_device"] is False
    assert q["place"] == q["tensor_place"] == q["set_device"] == q["default_tensor_place"] == f"Place({NAME}:0)"
    assert q["is_custom_place"] is True and q["tensor_on_custom"] is True and q["place_id"] == 0
    assert q["get_device"] == f"{NAME}:0"
    assert q["memory_allocated_positive"] is True
    assert q["to_static_compiles_with"] == "aot_eager"  # inductor has no code generation for this device


def test_training_save_and_load_match_the_cpu(run):
    cpu, dev = run["train"]["cpu"], run["train"]["custom"]
    assert cpu["param_place"] == "Place(cpu)" and dev["param_place"] == f"Place({NAME}:0)"
    assert dev["reloaded_place"] == f"Place({NAME}:0)"
    _close(dev["losses"], cpu["losses"], 1e-6, "losses")
    assert sorted(dev["params"]) == sorted(cpu["params"])
    for k in cpu["params"]:  # BatchNorm's running statistics included
        _close(dev["params"][k], cpu["params"][k], 1e-6, k)
    _close(dev["eval_out"], cpu["eval_out"], 1e-6, "eval output")
    assert dev["reloaded_equal"] is True and cpu["reloaded_equal"] is True
    assert dev["opt_state_keys"] == cpu["opt_state_keys"] > 0


def test_dropout_on_the_device_repeats_under_a_seed(run):
    first, again = run["dropout"]
    assert first == again
    assert not np.allclose(first, run["train"]["custom"]["losses"])  # the masks dropped something


def test_amp_runs_in_float16_on_the_device(run):
    """auto_cast O1 float16: the device computes in float16 (Paddle turns AMP off on the CPU, so the CPU run is the
    float32 reference) and stays within float16's rounding of it."""
    cpu, dev = run["amp"]["cpu"], run["amp"]["custom"]
    assert dev["logits_dtype"] == "paddle.float16" and cpu["logits_dtype"] == "paddle.float32"
    _close(dev["losses"], cpu["losses"], 2e-3, "AMP losses")
    for k in cpu["params"]:
        _close(dev["params"][k], cpu["params"][k], 2e-3, k)


def test_to_static_on_the_device_matches_the_cpu(run):
    cpu, dev = run["to_static"]["cpu"], run["to_static"]["custom"]
    assert dev["out_place"] == f"Place({NAME}:0)"
    assert dev["eager_close"] is True and cpu["eager_close"] is True
    _close(dev["losses"], cpu["losses"], 1e-5, "to_static losses")
    _close(dev["eval_out"], cpu["eval_out"], 1e-5, "to_static eval output")


def test_to_static_compile_backend_by_device():
    """inductor where it generates code for the device, a backend's own compile_backend (torch-xla: openxla), and an
    explicitly asked backend always."""
    import torch

    from paddle_on_torch._core import backends

    assert backends.compile_backend_for(torch.device("cpu"), "inductor") == "inductor"
    assert backends.compile_backend_for(torch.device("mps"), "inductor") == "inductor"  # inductor has mps codegen
    assert backends.compile_backend_for(torch.device("xla", 0), "inductor") == "openxla"
    assert backends.compile_backend_for(torch.device("xla", 0), "aot_eager") == "aot_eager"
