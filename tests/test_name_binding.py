"""Importing a submodule never rebinds a Paddle function or class of the same name.

In Paddle, `paddle.amp.auto_cast` stays the function after `import paddle.amp.auto_cast` (Python only
binds a submodule onto its package when it first loads it, and the package's own `from .auto_cast
import auto_cast` runs after that).  The import hook must keep that: a fresh process imports every
submodule of paddle_on_torch, each through its `paddle.*` alias, and then every name of Paddle's API
table must still have the kind Paddle gives it (module / not a module), and each name Paddle binds over a
submodule of the same name (recorded from Paddle by tools/record_shared_names.py) the kind it has there.
"""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_SCRIPT = r"""
import importlib, inspect, json, pkgutil, sys, types
import paddle_on_torch
paddle_on_torch.install()
import paddle

skipped = {}


def walk(path, prefix):
    for info in pkgutil.iter_modules(path, prefix):
        if info.name.rsplit(".", 1)[-1] == "__main__":
            continue
        try:
            mod = importlib.import_module(info.name)
        except Exception as e:  # an optional dependency or an unsupported namespace: not this test's concern
            skipped[info.name] = f"{type(e).__name__}: {e}"[:200]
            continue
        if info.ispkg:
            walk(mod.__path__, info.name + ".")


walk(paddle_on_torch.__path__, "paddle.")

table = json.load(open(paddle_on_torch.__path__[0] + "/_paddle_api.json"))["namespaces"]
wrong = []
for ns, names in table.items():
    try:
        mod = importlib.import_module(ns)
    except Exception:
        continue
    for n, kind in names.items():
        try:
            obj = getattr(mod, n)
        except Exception:
            continue  # unsupported names are test_api_table's business
        if (kind == "module") != isinstance(obj, types.ModuleType):
            wrong.append(f"{ns}.{n}: Paddle has a {kind}, here {type(obj).__name__}")
# beyond the table: every name where Paddle's package attribute and one of our submodules share a name,
# recorded from Paddle by tools/record_shared_names.py
shared = {k: e["answer"] for k, e in json.load(open(sys.argv[1]))["entries"].items()}  # tests/golden_file's format
shared.pop("paddle.tensor", None)  # Paddle's is a module-like proxy object (_TensorMethodOrModule); ours the module
for full, kind in shared.items():
    ns, n = full.rsplit(".", 1)
    obj = getattr(importlib.import_module(ns), n)
    got = ("module" if isinstance(obj, types.ModuleType) else "class" if isinstance(obj, type)
           else type(obj).__name__)
    if got != kind:
        wrong.append(f"{full}: Paddle has a {kind}, here a {got}")
print(json.dumps({"wrong": wrong, "skipped": skipped}))
"""


def _run(script, *args):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", script, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_every_submodule_import_keeps_paddle_kinds():
    res = _run(_SCRIPT, os.path.join(ROOT, "tests", "golden", "shared_names.json"))
    assert res["wrong"] == [], res["wrong"]


def test_auto_cast_stays_a_function_and_its_module_is_importable():
    res = _run(r"""
import json, types
import paddle_on_torch
paddle_on_torch.install()
import paddle
import paddle.amp.auto_cast
from paddle.amp.auto_cast import amp_state, amp_global_state
import paddle.amp.auto_cast as bound
outside = amp_state()
with paddle.amp.auto_cast(False):
    inside = amp_state()
with paddle.amp.auto_cast(True, level="O2", dtype="bfloat16"):
    inside2 = amp_state()
print(json.dumps({"fn": isinstance(paddle.amp.auto_cast, types.FunctionType),
                  "attr": hasattr(paddle.amp.auto_cast, "amp_state"),
                  "bound": isinstance(bound, types.FunctionType),
                  "outside": outside, "inside": inside, "inside2": inside2,
                  "after": amp_state()}))
""")
    assert res["fn"] and res["bound"]
    assert res["attr"] is False  # as in Paddle: amp_state is the submodule's, not an attribute of the function
    # Paddle's amp_state() is None outside auto_cast and the guard's arguments inside (also when disabled)
    assert res["outside"] is None and res["after"] is None
    assert res["inside"] == {"enable": False, "custom_white_list": None, "custom_black_list": None, "level": "O1",
                             "dtype": "float16", "use_promote": True}
    assert res["inside2"]["level"] == "O2" and res["inside2"]["dtype"] == "bfloat16"
