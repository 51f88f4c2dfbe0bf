"""Record real Paddle's answers to every case in tests/cases (run under the oracle interpreter).

    ~/oracle/bin/python tools/record_goldens.py            # every case module
    ~/oracle/bin/python tools/record_goldens.py math logic  # just these

The oracle is a virtualenv with torch==2.13.0 and paddlepaddle==3.3.1 (see
docs/testing.md).  Writes tests/golden/<module>.json.  The shim is never
installed here: `import paddle` must be the real one.
"""
import json
import os
import sys
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("GLOG_minloglevel", "3")
warnings.filterwarnings("ignore")

import paddle  # noqa: E402

from tests import golden  # noqa: E402
from tests.cases import load_all  # noqa: E402

assert "paddle_on_torch" not in paddle.__file__, "record_goldens must run under real Paddle"


def record(module, cases):
    out = {}
    for name, fn in cases.items():
        paddle.disable_static()
        paddle.set_default_dtype("float32")
        paddle.set_printoptions(precision=8, threshold=1000, edgeitems=3, sci_mode=False, linewidth=80)
        paddle.seed(2024)
        try:
            out[name] = golden.describe(fn(paddle))
        except Exception as e:  # noqa: BLE001 - the error is the answer
            out[name] = golden.describe(e)
    path = os.path.join(ROOT, "tests", "golden", f"{module}.json")
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    os.replace(tmp, path)
    print(f"{module}: {len(out)} cases -> {os.path.relpath(path, ROOT)}")


def main(argv):
    cases = load_all()
    for module in argv or sorted(cases):
        record(module, cases[module])


if __name__ == "__main__":
    main(sys.argv[1:])
