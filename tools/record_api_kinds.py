"""Record what kind of object every Paddle API name is in real Paddle (run under the oracle interpreter).

    ~/oracle/bin/python tools/record_api_kinds.py

For every name of Paddle's API table (paddle_on_torch/_paddle_api.json) and the semi-public names listed in
tests/api_kinds.py, writes tests/golden/api_kinds.json: its kind (class / function / module / instance / other,
or missing where Paddle's CPU build lacks it), for classes the typical objects (a tensor, a parameter, places,
dtypes, ...) that are instances of it in dynamic and in static mode, for instances the reference classes they
belong to, and the groups of names that are one object.  tests/test_api_kinds.py holds paddle_on_torch to it.
Names and booleans only, no Paddle code.
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

from tests import api_kinds  # noqa: E402

assert "paddle_on_torch" not in paddle.__file__, "record_api_kinds must run under real Paddle"


def main():
    with open(os.path.join(ROOT, "paddle_on_torch", "_paddle_api.json")) as f:
        table = json.load(f)
    names = api_kinds.all_names(table)
    out = api_kinds.describe(paddle, names)
    out["paddle_version"] = paddle.__version__
    tmp = api_kinds.GOLDEN + ".tmp"
    with open(tmp, "w") as f:
        json.dump(out, f, indent=0, sort_keys=True)
    os.replace(tmp, api_kinds.GOLDEN)
    kinds = {}
    for e in out["entries"].values():
        kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
    print(f"{len(names)} names {kinds} -> {os.path.relpath(api_kinds.GOLDEN, ROOT)}")


if __name__ == "__main__":
    main()
