"""Run every case in tests/cases under paddle_on_torch and compare with Paddle's recorded answers."""
import json
import os

import pytest

from tests import golden
from tests.cases import load_all

GOLDEN_DIR = os.path.join(os.path.dirname(__file__), "golden")


def _params():
    out = []
    for mod, cases in sorted(load_all().items()):
        path = os.path.join(GOLDEN_DIR, f"{mod}.json")
        recorded = json.load(open(path)) if os.path.exists(path) else {}
        for name, fn in cases.items():
            out.append(pytest.param(fn, recorded.get(name), id=f"{mod}::{name}"))
    return out


@pytest.mark.parametrize("fn,want", _params())
def test_case(fn, want, paddle):
    if want is None:
        pytest.fail("no golden answer recorded: run tools/record_goldens.py under real Paddle")
    try:
        got = golden.describe(fn(paddle))
    except Exception as e:  # noqa: BLE001 - errors are results too
        got = golden.describe(e)
        if "error" in want and want["error"] != got["error"]:
            # accept a subclass named like Paddle's (e.g. UnsupportedAPIError is never accepted for a value)
            names = [c.__name__ for c in type(e).__mro__]
            if want["error"] in names:
                got = want
    diffs = golden.compare(want, got, fn.case_options)
    assert not diffs, "\n".join(diffs)
