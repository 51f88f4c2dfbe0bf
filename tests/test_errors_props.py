"""Bad input over the op table (tests/error_props.py) raises what real Paddle raises, with a clear message.

tools/record_errors.py ran every case under Paddle 3.3.1 (tests/golden/error_props.json).  Here each case
runs under the shim: where Paddle raised, the shim raises the same class (a builtin itself, not a subclass; the
shim's stand-in for a Paddle class, tests/golden.PADDLE_ERROR_CLASSES) and its message is clear (not empty, no torch internals: C++ locations, aten / c10 names, torch call names);
where Paddle returned, the shim returns the same (dtype, shape, values; dtype and shape for random ops);
where Paddle crashed the process, the shim raises an error with a clear message.  One test per family,
each listing every case that differs.
"""
import fnmatch
import re

import pytest

from tests import error_props, golden, golden_file

GOLDEN = golden_file.answers("error_props")
CASES = error_props.cases()
FAMILIES = sorted({name.split("/")[0] for name in CASES})

# Where the shim deliberately answers otherwise, each with its row in docs/compatibility.md ("Bad input"):
# case-name pattern -> what the shim does instead ("returns" a result, or "raises" a clear error).
_LIST_IN = "a list where Paddle wants a Tensor is converted, as to_tensor would"
_NO_KERNEL = "a dtype Paddle's CPU build has no kernel for is computed"
_GARBAGE = "Paddle returns uninitialised memory or skips the bad index; the shim raises"
_ACCIDENT = "Paddle fails by accident (AttributeError, IndexError, UnboundLocalError) or by an assert; the shim checks"
_PY_CHECK = "Paddle's Python-level check raises TypeError for None; the shim's argument check ValueError"
_VALUES = "another value where Paddle's is arguably wrong"
_SIZES = "odd sizes Paddle reads in its own way; the shim computes what torch does or raises"
_TORCH_GELU = "torch's vectorised CPU gelu gives nan at +inf (its scalar path and Paddle give inf); not patched per call"
DEVIATIONS = {
    "unary/*/list": ("returns", _LIST_IN),
    "unary/bitwise_not/list": ("raises", _LIST_IN + " (a float list: no bitwise kernel)"),
    **{k: ("returns", _NO_KERNEL) for k in (
        "unary/relu/int32", "unary/relu/int64_negative", "unary/clip/bool", "reduce/sort/bool", "reduce/argsort/bool",
        "reduce/unique/bool", "misc/sort_bool", "matmul/kron/bool", "nn/conv2d_int",
        "index/one_hot/float_index", "index/one_hot/bool_index")},
    **{k: ("raises", _NO_KERNEL + "; the shape is checked first") for k in ("matmul/bmm/bool", "matmul/cross/bool",
                                                                          "matmul/dot/bool")},
    **{k: ("raises", _GARBAGE) for k in (
        "reduce/argmax/empty_all", "reduce/argmax/empty_axis0", "reduce/argmin/empty_all",
        "reduce/argmin/empty_axis0", "reduce/amax/empty_all", "reduce/amax/empty_axis0", "reduce/topk/empty_axis0",
        "index/gather/empty_x", "index/gather_nd/empty_x", "index/getitem/past_the_end",
        "index/getitem/negative_past_the_start", "index/embedding/negative_in_range", "index/index_fill/past_the_end",
        "index/index_fill/negative_past_the_start",
        "index/index_fill/bool_index", "index/index_fill/empty_x", "index/take/negative_past_the_start",
        "index/put_along_axis/empty_x", "index/scatter/empty_x", "index/take_along_axis/float_index",
        "index/take_along_axis/bool_index")},
    **{k: ("raises", _ACCIDENT) for k in (
        "binary/atan2/none", "reduce/nansum/none", "reduce/cumsum/none", "reduce/cumprod/none", "reduce/unique/none",
        "unary/clip/none", "shape/empty/string", "shape/empty/none", "shape/rand/string", "shape/rand/none",
        "shape/randn/string",
        "shape/randn/none", "shape/randint/string", "shape/randint/none", "reduce/norm/axis_float",
        "reduce/norm/axis_str", "axis/diff/axis_too_*", "axis/diff/zero_d", "axis/chunk/axis_too_*",
        "axis/chunk/zero_d", "axis/split/axis_too_small", "axis/moveaxis/axis_too_*", "axis/moveaxis/zero_d",
        "reduce/median/zero_d_axis1",
"nn/interpolate_negative", "index/embedding/zero_d_x", "count/arange_end/list_mismatch")},
    **{k: ("raises", _PY_CHECK) for k in (
        "binary/pow/none", "binary/equal/none", "index/take/none", "reduce/median/none", "reduce/norm/none")},
    **{k: ("returns", _VALUES) for k in (
        "unary/relu/nan_inf", "reduce/logsumexp/nan_inf", "reduce/norm/zero_d_axis0", "axis/normalize/zero_d",
        "reduce/unique/empty_all")},
    **{k: ("raises", _VALUES) for k in ("reduce/unique/empty_axis1", "reduce/norm/zero_d_axis1")},
    **{k: ("returns", _SIZES) for k in ("count/tril_diagonal/huge", "count/diagonal_offset/huge")},
    "unary/gelu/nan_inf": ("returns", _TORCH_GELU),
    **{k: ("raises", _SIZES) for k in (
        "count/linspace_num/float", "count/linspace_num/huge", "count/linspace_num/list_mismatch",
        "count/split_sections/huge", "count/one_hot_classes/huge", "shape/randint/huge",
        "count/one_hot_classes/negative", "shape/expand/negative", "shape/broadcast_to/negative", "shape/tile/huge",
        "nn/pad_negative_past", "nn/pad_odd_list", "nn/conv2d_kernel_too_big", "nn/max_pool2d_kernel_too_big",
        "nn/mse_loss_int", "misc/to_tensor_nan_to_int", "misc/full_nan_int", "misc/masked_select_shape",
        "shape/zeros/none", "shape/ones/none", "shape/full/none", "shape/reshape/string", "shape/reshape/none",
        "shape/expand/none", "shape/broadcast_to/none", "shape/tile/none", "shape/view/none",
        "binary/bitwise_and/int32_float32", "binary/bitwise_and/float32_int64", "binary/bitwise_and/int32_int64",
        "binary/bitwise_and/bool_float32")},
}


def deviation(name):
    """The (what, reason) of the deviation a case falls under, or None (the most specific pattern wins)."""
    hits = [p for p in DEVIATIONS if fnmatch.fnmatchcase(name, p)]
    return DEVIATIONS[max(hits, key=lambda p: (p.count("*") == 0, len(p)))] if hits else None

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
    dev = deviation(name)
    if dev is not None:
        if dev[0] == "returns":
            return [] if err is None else [f"{name}: raised {type(err).__name__} ({str(err)[:200]!r}), should return "
                                           f"({dev[1]})"]
        if err is None:
            return [f"{name}: returned {golden._short(got)}, should raise ({dev[1]})"]
        bad = unclear(str(err))
        return [f"{name}: unclear message, {bad}: {str(err)[:300]!r}"] if bad else []
    if err is not None:
        msg = error_props.key_message(err)
        bad = unclear(str(err))
        if "error" in want:
            if golden.PADDLE_ERROR_CLASSES.get(want["error"], want["error"]) != golden.error_class(err):
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
        if name.split("/")[0] == family:
            diffs += check(name, paddle)
    assert not diffs, f"{len(diffs)} cases differ from Paddle:\n" + "\n".join(diffs)


def test_every_case_recorded_and_deviations_listed():
    assert set(GOLDEN) == set(CASES), "re-record: tools/record_errors.py"
    unused = [p for p in DEVIATIONS if not any(fnmatch.fnmatchcase(n, p) for n in CASES)]
    assert not unused, f"deviation patterns that match no case: {unused}"
    assert len(CASES) >= 1000
