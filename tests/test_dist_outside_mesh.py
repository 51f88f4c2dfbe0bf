"""A process outside a distributed Tensor's mesh holds no part of it, and reads it as real Paddle does there
(tests/golden/dist_outside_mesh.json, recorded by tools/record_outside_mesh.py): numpy() an empty array,
item() None, float() / int() an AssertionError (ours names the mesh), _is_initialized() False; never a
silent 0.0.  Two gloo ranks, meshes [0] and [1] (the two stages of a pipeline program); and eight, a
two-stage pipeline by hand on two 2x2 meshes trained for two steps, read through dist.unshard_dtensor and
dist.reshard as well (tests/golden/dist_outside_mesh_pipeline.json)."""

import pytest

from tests import golden_file
from tests.test_auto_parallel import dist_job, torchrun
from tools.record_outside_mesh import answers

pytestmark = pytest.mark.dist

GOLDEN = golden_file.answers("dist_outside_mesh")
PIPELINE = golden_file.answers("dist_outside_mesh_pipeline")


def _same(want, got):
    if "error" in want:  # the type; the message is ours (it names the mesh)
        return "error" in got and got["error"] == want["error"]
    return want == got


@dist_job
def test_reads_on_a_process_outside_the_mesh_as_paddle(monkeypatch):
    monkeypatch.setenv("OUTSIDE_MESH_OPS", "1")
    _, outs, _ = torchrun(2, "tests/dist_scripts/outside_mesh.py")
    got = answers(line for out in outs for line in out.splitlines())
    for rank in ("0", "1"):
        diffs = [f"rank {rank} {probe}: Paddle {want}, shim {got[rank].get(probe)}"
                 for probe, want in GOLDEN[rank].items() if not _same(want, got[rank].get(probe, {}))]
        assert not diffs, "\n".join(diffs)
    # the error names the mesh the tensor lives on
    assert "process mesh" in got["0"]["loss.float"]["message"] and "[1]" in got["0"]["loss.float"]["message"]
    # a loss computed on mesh [1] from stage 0's output (x moved there, squared, averaged): its value on the
    # mesh, and on process 0 what Paddle gives for a 0-D tensor it holds no part of (torch's DTensor ops leave
    # a local 0.0 there, which must not be read as the loss)
    staged = {k.split(".", 1)[1]: v for k, v in got["1"].items() if k.startswith("staged.")}
    assert staged["item"] == {"float": 30.0} and staged["shape"] == {"list": []}
    for name in ("item", "tolist", "numpy", "_is_initialized", "float", "shape"):
        assert _same(GOLDEN["0"][f"loss.{name}"], got["0"][f"staged.{name}"]), (name, got["0"][f"staged.{name}"])


def _same_start(want, got):
    """Paddle's answer, an error of Paddle's type whose message opens with Paddle's first sentence (ours goes on to
    name the mesh)."""
    if "error" in want:
        head = want["message"].split(".")[0]
        return "error" in got and got["error"] == want["error"] and got["message"].startswith(head)
    return want == got


@dist_job
def test_two_mesh_pipeline_outside_ranks_read_no_loss(monkeypatch):
    """Ranks 0-3 (stage 0) hold no part of the loss: unshard_dtensor gives them Paddle's valueless dense Tensor
    (numpy() empty, float() Paddle's AssertionError, repr 'Tensor(Not initialized)'), reshard and the loss itself
    read as Paddle's uninitialised distributed Tensor; never a 0.0.  Ranks 4-7 read the loss of the network
    trained densely by real Paddle (5 decimals)."""
    monkeypatch.setenv("OUTSIDE_MESH_OPS", "1")
    _, outs, _ = torchrun(8, "tests/dist_scripts/outside_mesh_pipeline.py", timeout=600)
    got = answers(line for out in outs for line in out.splitlines())
    diffs = [f"rank {rank} {probe}: Paddle {want}, shim {got[rank].get(probe)}" for rank in sorted(PIPELINE)
             for probe, want in PIPELINE[rank].items() if not _same_start(want, got[rank].get(probe, {}))]
    assert not diffs, "\n".join(diffs)
    for rank in "0123":
        assert "process_ids: [4,5,6,7]" in got[rank]["step1.unshard.float"]["message"]
        assert not any(a.get("float") == 0.0 for a in got[rank].values())
