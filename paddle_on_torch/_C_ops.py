"""paddle._C_ops: Paddle's op functions, called as Paddle's op definitions declare them, on our implementations.

Each `_C_ops.<op>` takes its op's arguments (Paddle's ops.yaml `args`, recorded from Paddle 3.3.1 into
_C_ops_signatures.json by tools/record_c_ops.py) positionally or by name, with the yaml defaults, and returns
what Paddle's returns (one Tensor, a tuple or a list).  The function is generated on first touch from the
signature and the op's entry in `_C_ops_table.TABLE`, which maps the arguments onto the paddle function that
already implements the op: one implementation, this is only its other calling convention.  An op Paddle has
and the table does not map raises UnsupportedAPIError (a NotImplementedError) naming `paddle._C_ops.<op>`.
"""
import functools
import json
import keyword
import os

from . import _report

_SIG_FILE = os.path.join(os.path.dirname(__file__), "_C_ops_signatures.json")
_MISSING = type("_Missing", (), {"__repr__": lambda self: "<required>"})()


@functools.lru_cache(maxsize=None)
def signatures():
    """{'ops': {op: {'args': [[name, type, default?]], 'outputs': [...], 'returns': ...}}, 'legacy_ops': {...}}."""
    with open(_SIG_FILE) as f:
        return json.load(f)


def _pyname(name):
    return name + "_" if keyword.iskeyword(name) else name


def _default(arg):
    """The yaml default as the value our implementations take (DataType::UNDEFINED -> None)."""
    if len(arg) < 3:
        return _MISSING
    value = arg[2]
    if arg[1] == "DataType" and value == "undefined":
        return None
    return value


def _type_error(op, name, pos, expected, value):
    return ValueError(f"(InvalidArgument) {op}(): argument '{name}' (position {pos}) must be {expected}, but got "
                      f"{'None' if value is None else type(value).__name__}")


def _check_tensor(op, name, pos, value):
    from .tensor.tensor import Tensor

    if not isinstance(value, Tensor):
        raise _type_error(op, name, pos, "Tensor", value)


def _check_optional(op, name, pos, value):
    if value is not None:
        _check_tensor(op, name, pos, value)


def _check_list(op, name, pos, value, optional=False):
    from .tensor.tensor import Tensor

    if value is None and optional:
        return
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, Tensor) for v in value):
        raise _type_error(op, name, pos, "list of Tensor", value)


def _check_given(op, name, pos, value):
    if value is _MISSING:
        raise ValueError(f"(InvalidArgument) {op}(): argument '{name}' (position {pos}) is required")


_CHECKS = {"Tensor": "_check_tensor", "Tensor?": "_check_optional", "Tensor[]": "_check_list",
           "Tensor[]?": "_check_list"}


def build(op, sig, entry):
    """The Python function for `op`: Paddle's parameter list, argument checks, then the table's implementation.

    `entry` is a callable taking the op's arguments positionally, or a Target (the paddle function taking them
    under the same names: the call passes them by keyword)."""
    from ._C_ops_table import Target

    if hasattr(entry, "for_op"):
        entry = entry.for_op(op, sig)
    args = sig["args"]
    names = [_pyname(a[0]) for a in args]
    defaults = [_default(a) for a in args]
    params, body = [], []
    for i, (a, n) in enumerate(zip(args, names)):
        params.append(f"{n}=_d[{i}]")
        check = _CHECKS.get(a[1])
        if check == "_check_list":
            body.append(f"    _check_list({op!r}, {a[0]!r}, {i}, {n}, {a[1].endswith('?')})")
        elif check:
            body.append(f"    {check}({op!r}, {a[0]!r}, {i}, {n})")
        elif defaults[i] is _MISSING:
            body.append(f"    _check_given({op!r}, {a[0]!r}, {i}, {n})")
    if isinstance(entry, Target):
        call = ", ".join(f"{entry.rename.get(a[0], a[0])}={n}" for a, n in zip(args, names)
                         if a[0] not in entry.drop)
        impl = entry.resolve()
    else:
        call, impl = ", ".join(names), entry
    body.append(f"    return _impl({call})")
    src = f"def {op}({', '.join(params)}):\n" + "\n".join(body) + "\n"
    scope = {"_d": defaults, "_impl": impl, "_check_tensor": _check_tensor, "_check_optional": _check_optional,
             "_check_list": _check_list, "_check_given": _check_given}
    exec(compile(src, f"<paddle._C_ops.{op}>", "exec"), scope)  # noqa: S102 - our own generated source
    fn = scope[op]
    fn.__module__ = "paddle._C_ops"
    fn.__qualname__ = op
    fn.__doc__ = f"C++ interface function for {op}."
    return fn


# the generated functions live here, not in the module's globals: op names such as all / max / slice would
# shadow the builtins this module uses
_built = {}


def __getattr__(name):
    fn = _built.get(name)
    if fn is not None:
        return fn
    sig = signatures()["ops"].get(name)
    if sig is None or name.startswith("__"):
        raise AttributeError(f"module 'paddle._C_ops' has no attribute '{name}'")
    from ._C_ops_table import TABLE

    entry = TABLE.get(name)
    if entry is None or "args" not in sig:
        raise _report.unsupported(f"paddle._C_ops.{name}")
    fn = _built[name] = build(name, sig, entry)
    return fn


def __dir__():
    return sorted(set(signatures()["ops"]))
