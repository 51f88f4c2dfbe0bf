"""Record real Paddle's answers to the cases of tests/cases (run under the oracle interpreter).

    ~/oracle/bin/python tools/record_goldens.py            # every case module
    ~/oracle/bin/python tools/record_goldens.py math logic  # just these

The case-module part of tools/record.py (which also runs the other recorders and checks that every golden is
current): writes tests/golden/<module>.json, each answer with Paddle's version and its case's source hash.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import record  # noqa: E402

if __name__ == "__main__":
    record.main(sys.argv[1:] or ["--cases"])
