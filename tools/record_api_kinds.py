"""Record what kind of object every Paddle API name is in real Paddle (run under the oracle interpreter).

    ~/oracle/bin/python tools/record_api_kinds.py

For every name of Paddle's API table (paddle_on_torch/_paddle_api.json) and the semi-public names listed in
tests/api_kinds.py, writes tests/golden/api_kinds.json: its kind (class / function / module / instance / other,
or missing where Paddle's CPU build lacks it), for classes the typical objects (a tensor, a parameter, places,
dtypes, ...) that are instances of it in dynamic and in static mode, for instances the reference classes they
belong to, and the groups of names that are one object.  tests/test_api_kinds.py holds paddle_on_torch to it.
Also writes paddle_on_torch/_paddle_semipublic.json, the names of Paddle's semi-public modules (paddle.base.core,
...), which tell an unsupported Paddle name (UnsupportedAPIError) from a typo there.  Names and booleans only, no
Paddle code.
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

from tests import api_kinds, golden_file  # noqa: E402

assert "paddle_on_torch" not in paddle.__file__, "record_api_kinds must run under real Paddle"


# Paddle's semi-public modules: their names go to paddle_on_torch/_paddle_semipublic.json, so that a name Paddle has
# and paddle_on_torch lacks raises UnsupportedAPIError there (a typo stays an AttributeError)
SEMI_PUBLIC_MODULES = [
    "paddle.base", "paddle.base.core", "paddle.base.core.eager", "paddle.base.framework", "paddle.base.dygraph",
    "paddle.base.dygraph.base", "paddle.base.data_feeder", "paddle.base.libpaddle", "paddle.pir", "paddle.pir.core",
    "paddle.pir_utils", "paddle.common_ops_import", "paddle.static.amp", "paddle.static.amp.bf16", "paddle.utils",
    "paddle.utils.download", "paddle.utils.layers_utils", "paddle.framework.io", "paddle.dataset",
    "paddle.dataset.common", "paddle.static",
]


def _module_names(mod):
    """A module's own names: no dunders, no modules from outside paddle, no names of the typing machinery."""
    import inspect

    out = {}
    for n in dir(mod):
        if n.startswith("__"):
            continue
        obj = getattr(mod, n, None)
        if inspect.ismodule(obj) and not obj.__name__.startswith("paddle"):
            continue
        owner = getattr(obj, "__module__", None) or ""
        if owner in ("typing", "typing_extensions", "__future__", "collections", "abc"):
            continue
        out[n] = api_kinds.kind(obj)
    return out


def record_semipublic():
    import importlib

    out = {}
    for ns in SEMI_PUBLIC_MODULES:
        out[ns] = _module_names(api_kinds.resolve(paddle, ns) if ns != "paddle.base.core.eager" else
                                importlib.import_module("paddle.base.core").eager)
    path = os.path.join(ROOT, "paddle_on_torch", "_paddle_semipublic.json")
    with open(path + ".tmp", "w") as f:
        json.dump(out, f, indent=0, sort_keys=True)
    os.replace(path + ".tmp", path)
    print(f"{sum(len(v) for v in out.values())} semi-public names -> {os.path.relpath(path, ROOT)}")


def main():
    with open(os.path.join(ROOT, "paddle_on_torch", "_paddle_api.json")) as f:
        table = json.load(f)
    names = api_kinds.all_names(table)
    out = api_kinds.describe(paddle, names)
    golden_file.write_recorded("api_kinds", out, paddle.__version__)
    kinds = {}
    for e in out["entries"].values():
        kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
    print(f"{len(names)} names {kinds} -> {os.path.relpath(api_kinds.GOLDEN, ROOT)}")
    record_semipublic()


if __name__ == "__main__":
    main()
