import os
import sys

# Without a GPU the Triton kernels run in Triton's interpreter, which must be on before anything imports
# triton (its own @jit helpers, tl.sum and the like, are made then; some test paths import it early).
if not os.path.exists("/dev/nvidiactl"):
    os.environ.setdefault("TRITON_INTERPRET", "1")

import pytest

LANES = ("dist", "lib", "build", "compile", "gpu", "slow")  # registered in pytest.ini


def pytest_addoption(parser):
    parser.addoption("--all-lanes", action="store_true",
                     help="run every lane (dist, lib, build, compile, gpu, slow), not only the fast one")


def pytest_configure(config):
    if config.getoption("--all-lanes"):
        config.option.markexpr = ""  # pytest.ini's addopts select the fast lane; this lifts it


# ------------------------------------------------------------------ time per lane (printed at the end of a run)
_lane_of, _lane_time = {}, {}


def pytest_collection_modifyitems(items):
    for item in items:  # markers only (a report's keywords hold test names and parameter ids too)
        _lane_of[item.nodeid] = next((m for m in LANES if item.get_closest_marker(m)), "fast")


def pytest_runtest_logreport(report):
    lane = _lane_of.get(report.nodeid, "fast")
    seconds, tests = _lane_time.get(lane, (0.0, 0))
    _lane_time[lane] = (seconds + report.duration, tests + (report.when == "call"))


def pytest_terminal_summary(terminalreporter):
    if _lane_time:  # setup, call and teardown of each test, by its first lane marker (docs/testing.md's table)
        terminalreporter.write_line("time per lane: " + ", ".join(
            f"{lane} {seconds:.0f} s ({tests} tests)" for lane, (seconds, tests) in sorted(_lane_time.items())))


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import paddle_on_torch  # noqa: E402

paddle_on_torch.install()
# The goldens are real Paddle's CPU results, so the suite runs on the CPU on a GPU machine too (Paddle, like the shim,
# starts on gpu:0 there); the `backend` fixture moves the Triton cases, and tests/test_gpu.py, onto the GPU.
paddle_on_torch.set_device("cpu")


@pytest.fixture
def broken_compiler(monkeypatch, tmp_path):
    """No C++ compiler and no build made at install time: torch's cpp_extension.load fails and the extension cache
    is empty.  Returns `forget(m)`, which drops a kernels.cpp.CppModule's loaded module so that it tries (and fails)
    to load again."""
    from torch.utils import cpp_extension

    from paddle_on_torch.kernels import cpp

    def broken(*a, **k):
        raise RuntimeError("no compiler")

    monkeypatch.setattr(cpp_extension, "load", broken)
    monkeypatch.setattr(cpp, "_installed", lambda: None)
    monkeypatch.setenv("PADDLE_ON_TORCH_EXT_CACHE", str(tmp_path))

    def forget(cpp_module):
        monkeypatch.setattr(cpp_module, "module", None)
        monkeypatch.setattr(cpp_module, "failed", False)
    return forget


@pytest.fixture
def backend(request):
    """The fused-op backend of an indirectly parametrised test.  'triton' runs on CUDA tensors where a GPU is
    present (torch's default device for the test), else on CPU tensors under TRITON_INTERPRET."""
    import torch
    from paddle_on_torch.kernels import dispatch

    on_gpu = request.param == "triton" and torch.cuda.is_available()
    dispatch.set_backend(request.param)
    if on_gpu:
        torch.set_default_device("cuda")
        paddle_on_torch.set_device("gpu")
    try:
        yield request.param
    finally:
        dispatch.set_backend(None)
        if on_gpu:
            torch.set_default_device(None)
            paddle_on_torch.set_device("cpu")


@pytest.fixture
def paddle():
    """The `paddle` module as a script sees it under paddle_on_torch (fresh defaults per test)."""
    import paddle as p

    p.set_default_dtype("float32")
    p.seed(2024)
    p.set_printoptions(precision=8, threshold=1000, edgeitems=3, sci_mode=False, linewidth=80)
    return p


@pytest.fixture(autouse=True)
def _no_distributed_state_leaks():
    """Tests that build a world of one (init_parallel_env, fleet.init, set_mesh) must not leave it to the next
    test: a live default process group or global mesh changes what DistributedBatchSampler, ProcessMesh and the
    planner see."""
    yield
    mods = sys.modules
    interface = mods.get("paddle_on_torch.distributed.auto_parallel.interface")
    if interface is not None:
        interface._global_mesh[0] = None
    topology = mods.get("paddle_on_torch.distributed.fleet.base.topology")
    if topology is not None:
        topology._HYBRID_PARALLEL_GROUP = None
    parallel = mods.get("paddle_on_torch.distributed.parallel")
    if parallel is not None:
        parallel._state.update(owned=False, paddle_initialized=False)
    if "torch.distributed" in mods:
        import torch.distributed as tdist

        if tdist.is_available() and tdist.is_initialized():
            communication = mods.get("paddle_on_torch.distributed.communication")
            if communication is not None and hasattr(communication, "_groups"):
                communication._groups.clear()
            tdist.destroy_process_group()
            process_mesh = mods.get("paddle_on_torch.distributed.auto_parallel.process_mesh")
            if process_mesh is not None:  # DeviceMeshes built on the destroyed group
                process_mesh._device_meshes.clear()
                process_mesh._by_device_mesh.clear()
