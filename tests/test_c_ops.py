"""paddle._C_ops / paddle._legacy_C_ops: the op table stays consistent with Paddle's recorded signatures.

Values are checked against Paddle's answers in tests/cases/c_ops.py (tests/test_golden.py); this file checks
the table's structure: every entry maps every argument of its op, every op Paddle has either works or raises
NotImplementedError naming itself, and the ops Paddle's libraries call are mapped.
"""
import inspect

import pytest

from paddle_on_torch import _C_ops, _report
from paddle_on_torch._C_ops_table import TABLE, Target, Vjp

SIGS = _C_ops.signatures()["ops"]

# what PaddleNLP 3.0.0b4, PaddleFormers 1.2 and PaddleDetection 2.6 call (grep for `_C_ops.` in their sources)
LIBRARY_OPS = """flash_attn flash_attn_grad numel matmul_grad swiglu_grad fused_rms_norm_ext_grad
    cross_entropy_with_softmax
    topk_grad reshape_grad put_along_axis_grad gather_grad flatten_grad box_coder prior_box matrix_nms
    distribute_fpn_proposals generate_proposals""".split()
# and what the brief names
NAMED_OPS = """matmul add full rms_norm fused_rotary_position_embedding swiglu c_embedding cross_entropy_with_softmax
    """.split()


def _params(fn):
    return [p.name for p in inspect.signature(fn).parameters.values()]


@pytest.mark.parametrize("op", sorted(TABLE))
def test_entry_maps_every_argument(op):
    assert op in SIGS and "args" in SIGS[op], f"{op}: not an op of Paddle 3.3.1 with a recorded signature"
    names = [_C_ops._pyname(a[0]) for a in SIGS[op]["args"]]
    entry = TABLE[op]
    if isinstance(entry, Target):
        target = inspect.signature(entry.resolve()).parameters
        wanted = [entry.rename.get(a, a) for a in names if a not in entry.drop]
        if any(p.kind is p.VAR_KEYWORD for p in target.values()):
            return
        missing = [a for a in wanted if a not in target]
        assert not missing, f"{op}: {entry.path} takes no {missing}"
    elif isinstance(entry, Vjp):
        fwd = SIGS[entry.forward]["args"]
        grad_names = {a[0] for a in SIGS[op]["args"]}
        needed = [a[0] for a in fwd if a[1] == "Tensor" and len(a) < 3 and a[0] not in grad_names]
        assert not needed, f"{op}: the grad op lacks the forward inputs {needed}"
        assert entry.forward in TABLE
    else:
        assert _params(entry) == names, f"{op}: the adapter's parameters differ from the op's {names}"


def test_every_op_resolves_or_names_itself():
    mapped = 0
    for op in sorted(SIGS):
        try:
            fn = getattr(_C_ops, op)
        except _report.UnsupportedAPIError as e:
            assert isinstance(e, NotImplementedError) and f"paddle._C_ops.{op}" in str(e)
            continue
        assert callable(fn) and fn.__name__ == op
        mapped += 1
    assert mapped == len(TABLE)


def test_signature_is_paddles():
    import paddle

    params = inspect.signature(paddle._C_ops.matmul).parameters
    assert list(params) == ["x", "y", "transpose_x", "transpose_y"]
    assert params["transpose_y"].default is False
    assert list(inspect.signature(paddle._C_ops.full).parameters) == ["shape", "value", "dtype", "place"]
    # a public API bound onto its op takes the API's arguments, as in Paddle 3.3.1
    assert list(inspect.signature(paddle._C_ops.argmax).parameters) == ["x", "axis", "keepdim", "dtype", "name"]


def test_names_paddle_lacks_are_attribute_errors():
    import paddle

    with pytest.raises(AttributeError) as e:
        paddle._C_ops.no_such_op
    assert not isinstance(e.value, NotImplementedError)
    assert not hasattr(paddle._C_ops, "adamw")  # not an op of Paddle 3.3.1 either


@pytest.mark.parametrize("op", LIBRARY_OPS + NAMED_OPS)
def test_library_ops_are_mapped(op):
    assert op in TABLE


def test_unmapped_op_raises_not_implemented_naming_it():
    import paddle

    with pytest.raises(NotImplementedError, match=r"paddle\._C_ops\.adamw_"):
        paddle._C_ops.adamw_
    assert not hasattr(paddle._C_ops, "adamw_")  # feature checks see it missing


def test_missing_required_argument_is_paddles_value_error():
    import paddle

    x = paddle.ones([2])
    with pytest.raises(ValueError, match=r"argument 'y' \(position 1\) must be Tensor, but got None"):
        paddle._C_ops.matmul(x, None)
    with pytest.raises(ValueError, match=r"argument 'value' \(position 1\) is required"):
        paddle._C_ops.full([2])


def test_flash_attn_grad_refuses_dropout():
    import paddle

    q = paddle.ones([1, 2, 1, 4])
    out, _, lse, so = paddle._C_ops.flash_attn(q, q, q, None, None, 0.0, False, False, True, "")
    with pytest.raises(NotImplementedError, match="dropout"):
        paddle._C_ops.flash_attn_grad(q, q, q, out, lse, so, None, q, 0.1, False)


def test_legacy_ops():
    import paddle

    prior = paddle.to_tensor([[0.0, 0.0, 2.0, 2.0]])
    target = paddle.to_tensor([[0.5, 0.5, 1.5, 2.5]])
    legacy = paddle._legacy_C_ops.box_coder(prior, None, target, "code_type", "encode_center_size",
                                            "box_normalized", True, "axis", 0)
    new = paddle._C_ops.box_coder(prior, None, target, "encode_center_size", True, 0, [])
    assert legacy.tolist() == new.tolist()
    with pytest.raises(NotImplementedError, match=r"paddle\._legacy_C_ops\.coalesce_tensor"):
        paddle._legacy_C_ops.coalesce_tensor([prior], [prior], prior, "copy_data", True)
    with pytest.raises(AttributeError):
        paddle._legacy_C_ops.no_such_op
