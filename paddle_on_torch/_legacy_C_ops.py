"""paddle._legacy_C_ops: Paddle's fluid-era op functions, `op(*inputs, 'attr', value, 'attr', value, ...)`.

A legacy call passes the op's inputs positionally, in its OpProto's order (recorded from Paddle 3.3.1 into
_C_ops_signatures.json), then its attributes as name/value pairs, and returns the op's outputs in the proto's
order (a list output's length, where the op has list outputs, comes after the inputs).  Each is mapped by name onto the `paddle._C_ops` op of the same name (input `PriorBoxVar` is the
op's `prior_box_var`, attribute `pre_nms_topN` its `pre_nms_top_n`), so both calling conventions share one
table and one implementation.  Calls that pass output tensors to be filled in place (the proto's outputs
after the inputs, as PaddleNLP's NPU plugin does with coalesce_tensor) are not supported.
"""
from . import _C_ops, _report

# legacy op name -> the _C_ops op that replaced it
_RENAMED = {"generate_proposals_v2": "generate_proposals", "hard_swish": "hardswish", "hard_sigmoid": "hardsigmoid",
            "brelu": "hardtanh", "hard_shrink": "hardshrink"}
# legacy attribute -> the new op's argument, where the names differ
_ATTR_RENAMES = {"mish": {"threshold": "lambda"}, "softshrink": {"lambda": "threshold"}}
# the OpProto's default of an attribute the new op requires (a legacy call may leave any attribute out:
# `_legacy_C_ops.softmax(x)`, the legacy layers' act= strings)
_PROTO_DEFAULTS = {"softmax": {"axis": -1}, "mish": {"lambda": 20.0}}
# attributes a legacy call cannot leave out in Paddle 3.3.1: its default is a float where the kernel reads a double
_NO_DEFAULT = {"leaky_relu": "alpha", "softplus": "beta"}
_built = {}


def _key(name):
    return name.replace("_", "").lower()


def _build(name, proto, op):
    sig = _C_ops.signatures()["ops"][op]
    fn_new = getattr(_C_ops, op)
    by_key = {_key(a[0]): _C_ops._pyname(a[0]) for a in sig["args"]}
    for attr, arg in _ATTR_RENAMES.get(name, {}).items():
        by_key[_key(attr)] = _C_ops._pyname(arg)
    n_in = len(proto["inputs"])
    inputs = [by_key.get(_key(i[0])) for i in proto["inputs"]]
    outs_new = [_key(o) for o in (sig.get("outputs") or [])]
    order = [outs_new.index(_key(o[0])) if _key(o[0]) in outs_new else None for o in proto["outputs"]]
    if None in order and len(proto["outputs"]) == len(outs_new):  # renamed outputs (prior_box's Boxes is `out`)
        order = list(range(len(outs_new)))

    n_dup = sum(1 for o in proto["outputs"] if o[1])  # list outputs: a legacy call gives each one's length first

    def legacy(*args):
        counts = args[n_in:n_in + n_dup]
        skip = n_dup if len(counts) == n_dup and all(type(c) is int for c in counts) else 0
        rest = args[n_in + skip:]
        if len(rest) % 2 or not all(isinstance(k, str) for k in rest[::2]):
            raise _report.unsupported(f"paddle._legacy_C_ops.{name}",
                                      " with output tensors passed in (only inputs, then attribute name/value pairs)")
        kwargs = {}
        for param, value in zip(inputs, args[:n_in]):
            if param is not None:
                kwargs[param] = value
        for k, v in zip(rest[::2], rest[1::2]):
            param = by_key.get(_key(k))
            if param is not None:  # attributes the new op dropped (op_role, use_mkldnn, ...) mean nothing here
                kwargs[param] = v
        for param, value in _PROTO_DEFAULTS.get(name, {}).items():
            kwargs.setdefault(_C_ops._pyname(param), value)
        missing = _NO_DEFAULT.get(name)
        if missing is not None and missing not in rest[::2]:
            raise ValueError("(InvalidArgument) paddle::get failed, cannot get value (attr) by type double, its type "
                             "is float.")
        result = fn_new(**kwargs)
        if not isinstance(result, tuple):
            return result
        picked = tuple(None if i is None else result[i] for i in order)
        return picked[0] if len(picked) == 1 else picked

    legacy.__name__ = legacy.__qualname__ = name
    legacy.__module__ = "paddle._legacy_C_ops"
    return legacy


def __getattr__(name):
    fn = _built.get(name)
    if fn is not None:
        return fn
    proto = _C_ops.signatures()["legacy_ops"].get(name)
    if proto is None or name.startswith("__"):
        raise AttributeError(f"module 'paddle._legacy_C_ops' has no attribute '{name}'")
    op = _RENAMED.get(name, name)
    from ._C_ops_table import TABLE

    if op not in TABLE or "args" not in _C_ops.signatures()["ops"].get(op, {}):
        raise _report.unsupported(f"paddle._legacy_C_ops.{name}")
    fn = _built[name] = _build(name, proto, op)
    return fn


def __dir__():
    return sorted(_C_ops.signatures()["legacy_ops"])
