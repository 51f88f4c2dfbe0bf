"""Run every case in tests/cases under paddle_on_torch and compare with Paddle's recorded answers.

An answer recorded for another source of its case (tests/golden_file.py) is stale: the test fails naming the
command that refreshes it.  An error answer holds when the shim raises Paddle's class itself (a builtin, or the
shim's stand-in for a Paddle class: tests/golden.PADDLE_ERROR_CLASSES) with a message of Paddle's pattern
(tests/golden.error_pattern), unless ERROR_DEVIATIONS lists the case with its reason.
"""
import pytest

from tests import golden, golden_file
from tests.cases import load_all

_REFUSES = ("UnsupportedAPIError (a NotImplementedError) names the API the shim refuses, as every unsupported API "
            "does; Paddle's CPU build refuses it too")
_ACCIDENT = "Paddle fails by accident (a Python error inside its code); the shim's message says what is wrong"
# case -> (what is not checked, why) where the shim deliberately raises another class or message than Paddle
# (docs/compatibility.md, "Errors"): "class" checks only that Paddle's class is among the shim's class's bases,
# "message" checks the class but not the message
ERROR_DEVIATIONS = {
    "incubate_misc::softmax_mask_fuse_upper_triangle_cpu": ("class", _REFUSES),
    "vision_ops::decode_jpeg_cpu": ("class", _REFUSES),
    "nn_common::interpolate_int_size": ("message", _ACCIDENT),
    "optim_lbfgs::lbfgs_parameters_tensor": ("message", _ACCIDENT),
    "static_capture::fetch_list_nesting_results_and_names": ("message", "Paddle's message prints its IR values "
                                                             "(define_op_name=pd_op.sum, ...), which the shim has not"),
    "tensor_core::set_value_shape_mismatch_fails": ("message", "an unnamed tensor is eager_tmp_<n> in Paddle, "
                                                    "generated_tensor_<n> in the shim"),
}


def _params():
    out = []
    for mod, cases in sorted(load_all().items()):
        recorded = golden_file.read(mod)
        for name, fn in cases.items():
            out.append(pytest.param(mod, fn, recorded.get(name), id=f"{mod}::{name}"))
    return out


@pytest.mark.parametrize("mod,fn,recorded", _params())
def test_case(mod, fn, recorded, paddle):
    if recorded is None:
        pytest.fail(f"no golden answer recorded: run `{golden_file.refresh_command(mod)}` under real Paddle")
    if "source" in recorded:  # entries of the old format (no provenance) are compared until re-recorded
        why = golden_file.staleness(recorded, golden_file.case_hash(fn))
        if why:
            pytest.fail(golden_file.stale_message(mod, fn.__name__, why))
    want = recorded["answer"]
    try:
        got = golden.describe(fn(paddle))
    except Exception as e:  # noqa: BLE001 - errors are results too
        got = golden.describe(e)
        deviation = ERROR_DEVIATIONS.get(f"{mod}::{fn.__name__}")
        if deviation and "error" in want:
            want = {"error": want["error"]}  # the message is not compared
            if deviation[0] == "class" and want["error"] in [c.__name__ for c in type(e).__mro__]:
                got = want
    diffs = golden.compare(want, got, fn.case_options)
    assert not diffs, "\n".join(diffs)


@pytest.mark.parametrize("name", sorted(golden_file.RECORDERS))
def test_recorded_golden_is_current(name):
    """A recorder's golden file was written by today's recorder from today's inputs (tests/golden_file.RECORDERS);
    the tests that use it compare with it."""
    golden_file.check_recorded(name)
