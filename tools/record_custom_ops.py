"""Record real Paddle's answers to the custom-operator cases (tests/custom_op_cases.py), run under the oracle.

    ~/oracle/bin/python tools/record_custom_ops.py [--build-dir DIR]

Builds tests/custom_ops/*.cc with Paddle's own paddle.utils.cpp_extension.load (against Paddle's headers and
libpaddle), runs every case and writes tests/golden/custom_ops.json.  tests/test_custom_ops.py builds the same
sources against paddle_on_torch's headers and compares.
"""
import argparse
import glob
import os
import sys
import tempfile
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("GLOG_minloglevel", "3")
warnings.filterwarnings("ignore")

import paddle  # noqa: E402

from tests import golden, golden_file  # noqa: E402
from tests.custom_op_cases import CASES  # noqa: E402

assert "paddle_on_torch" not in paddle.__file__, "record_custom_ops must run under real Paddle"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default=os.path.join(tempfile.gettempdir(), "paddle_custom_ops_golden"))
    args = parser.parse_args(argv)
    os.makedirs(args.build_dir, exist_ok=True)  # Paddle's load writes its setup script there first
    from paddle.utils.cpp_extension import load

    sources = sorted(glob.glob(os.path.join(ROOT, "tests", "custom_ops", "*.cc")))
    ops = load(name="pot_test_ops", sources=sources, build_directory=args.build_dir)
    out = {}
    for name, fn in CASES.items():
        paddle.disable_static()
        paddle.set_default_dtype("float32")
        paddle.seed(2024)
        try:
            out[name] = golden.describe(fn(paddle, ops))
        except Exception as e:  # noqa: BLE001 - the error is the answer
            out[name] = golden.describe(e)
    path = golden_file.write_recorded("custom_ops", out, paddle.__version__)
    print(f"custom_ops: {len(out)} cases -> {os.path.relpath(path, ROOT)}")


if __name__ == "__main__":
    main(sys.argv[1:])
