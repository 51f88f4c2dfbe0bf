"""Bad input over the op table (tests/error_props.py) raises what real Paddle raises, with a clear message.

tools/record_errors.py ran every case under Paddle 3.3.1 (tests/golden/error_props.json).  Here each case
runs under the shim: where Paddle raised, the shim raises the same type (or a subclass named like it) and
its message is clear (not empty, no torch internals: C++ locations, aten / c10 names, torch call names);
where Paddle returned, the shim returns the same (dtype, shape, values; dtype and shape for random ops);
where Paddle crashed the process, the shim raises an error with a clear message.  One test per family,
each listing every case that differs.
"""
import json
import os
import re

import pytest

from tests import error_props, golden

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "golden", "error_props.json")))
CASES = error_props.cases()
FAMILIES = sorted({name.split("/")[0] for name in CASES})

# Where the shim deliberately answers otherwise (each with its row in docs/compatibility.md).
DEVIATIONS = {}

_INTERNALS = re.compile(r"Exception raised from|frame #\d|\[enforce fail|\.cpp\b|\.h:\d|\bc10::|\bat::|\baten::|"
                        r"(?<![\w.])torch\.|torch/|\btorch\._C|Traceback|long int|\bSymInt\b|0x[0-9a-f]{6,}")


def unclear(msg):
    """Why an error message is not clear to a Paddle user (None when it is)."""
    if not msg.strip():
        return "empty message"
    m = _INTERNALS.search(msg)
    return f"torch internals ({m.group(0)!r})" if m else None


def check(name, paddle):
    """The differences of one case (a list of strings, empty when it matches Paddle)."""
    fn, random = CASES[name]
    want = GOLDEN.get(name)
    if want is None:
        return [f"{name}: no golden answer (run tools/record_errors.py under real Paddle)"]
    paddle.seed(2024)
    try:
        r = fn(paddle)
        got, err = golden.describe(r), None
    except Exception as e:  # noqa: BLE001 - the error is the answer
        err = e
    if err is not None:
        msg = error_props.key_message(err)
        bad = unclear(str(err))
        if "error" in want:
            names = [c.__name__ for c in type(err).__mro__]
            if want["error"] not in names:
                return [f"{name}: {type(err).__name__} ({msg!r}), Paddle {want['error']} ({want['message']!r})"]
        elif "crash" not in want:
            return [f"{name}: {type(err).__name__} ({msg!r}), Paddle returned {golden._short(want)}"]
        return [f"{name}: unclear message, {bad}: {str(err)[:300]!r}"] if bad else []
    if "crash" in want:
        return [f"{name}: returned, Paddle crashed ({want['crash']}): the shim must raise"]
    if "error" in want:
        return [f"{name}: returned {golden._short(got)}, Paddle {want['error']} ({want['message']!r})"]
    diffs = golden.compare(want, got, {"rtol": 1.3e-6, "atol": 1e-6, "random": random})
    return [f"{name}: {d}" for d in diffs]


@pytest.mark.parametrize("family", FAMILIES)
def test_bad_input_as_paddle(family, paddle):
    diffs = []
    for name in CASES:
        if name.split("/")[0] == family and name not in DEVIATIONS:
            diffs += check(name, paddle)
    assert not diffs, f"{len(diffs)} cases differ from Paddle:\n" + "\n".join(diffs)


def test_every_case_recorded_and_deviations_listed():
    assert set(GOLDEN) == set(CASES), "re-record: tools/record_errors.py"
    assert set(DEVIATIONS) <= set(CASES)
    assert len(CASES) >= 1000
