"""Record what real Paddle's `import paddle` does with OMP_NUM_THREADS (run under the oracle interpreter).

    ~/oracle/bin/python tools/record_threads.py      # writes tests/golden/threads.json

For each setting of OMP_NUM_THREADS (unset, 1, 3, a value that is not a number, 0) a fresh interpreter
imports paddle and reports the variable afterwards; the lines Paddle itself printed on standard error
are kept (Python warnings and libgomp's own complaints about the value are left out: they are not
Paddle's).  tests/test_threads.py checks paddle_on_torch against it.
"""
import os
import subprocess
import sys
from importlib.metadata import version

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tests import golden_file  # noqa: E402

SETTINGS = [None, "1", "3", "four", "0"]
PROBE = "import os, paddle; assert 'paddle_on_torch' not in paddle.__file__; print(os.environ['OMP_NUM_THREADS'])"


def paddle_lines(stderr):
    """Paddle's own lines of a child's standard error."""
    keep = []
    for line in stderr.splitlines():
        if not line.strip() or line.startswith("libgomp:") or "Warning:" in line or line.startswith("  warnings.warn"):
            continue
        keep.append(line)
    return keep


def main():
    out = {}
    for value in SETTINGS:
        env = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"}
        if value is not None:
            env["OMP_NUM_THREADS"] = value
        r = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
        out["unset" if value is None else value] = {"env_after": r.stdout.strip(), "stderr": paddle_lines(r.stderr)}
    path = golden_file.write_recorded("threads", out, version("paddlepaddle"))
    print(f"{len(out)} settings -> {os.path.relpath(path, ROOT)}")


if __name__ == "__main__":
    main()
