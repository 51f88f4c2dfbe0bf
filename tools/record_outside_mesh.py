"""Record what real Paddle gives on a process outside a distributed Tensor's mesh (run under the oracle).

    ~/oracle/bin/python tools/record_outside_mesh.py     # writes tests/golden/dist_outside_mesh.json and
                                                         # tests/golden/dist_outside_mesh_pipeline.json

Runs tests/dist_scripts/outside_mesh.py on 2 CPU ranks and tests/dist_scripts/outside_mesh_pipeline.py (two 2x2
meshes) on 8 with paddle.distributed.launch and keeps, per rank, each probe's answer
(tests/test_dist_outside_mesh.py runs the same scripts under the shim).
"""
import glob
import json
import os
import subprocess
import sys
import tempfile
from importlib.metadata import version

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tests import golden_file  # noqa: E402

JOBS = [("outside_mesh.py", 2, "dist_outside_mesh.json"), ("outside_mesh_pipeline.py", 8, "dist_outside_mesh_pipeline.json")]


def answers(lines):
    """{rank: {probe: answer}} from the JSON lines a run printed (other lines are the launcher's)."""
    out = {}
    for line in lines:
        if line.startswith('{"rank"'):
            rec = json.loads(line)
            out.setdefault(str(rec["rank"]), {})[rec["probe"]] = rec["answer"]
    return out


def record(script, nproc, golden):
    with tempfile.TemporaryDirectory() as logs:
        env = dict(os.environ, GLOG_minloglevel="3", OUTSIDE_MESH_OPS="0")
        subprocess.run([sys.executable, "-m", "paddle.distributed.launch", "--nproc_per_node", str(nproc), "--log_dir",
                        logs, os.path.join(ROOT, "tests", "dist_scripts", script)],
                       cwd=logs, env=env, check=True, capture_output=True, timeout=600)
        lines = [line for f in sorted(glob.glob(os.path.join(logs, "workerlog.*"))) for line in open(f)]
    out = answers(lines)
    assert sorted(out) == [str(r) for r in range(nproc)], out
    path = golden_file.write_recorded(golden[:-len(".json")], out, version("paddlepaddle"))
    print(f"{sum(map(len, out.values()))} answers -> {os.path.relpath(path, ROOT)}")


def main():
    for job in JOBS:
        record(*job)


if __name__ == "__main__":
    main()
