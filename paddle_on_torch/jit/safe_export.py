"""Reading a torch.export `.pt2` archive (what paddle.jit.save writes) without running code from it.

torch.export.load trusts its file: pickled weights and constants go through `torch.load(weights_only=
False)` or `pickle.loads`, sample inputs fall back to `weights_only=False` when the safe load fails,
AOTInductor entries load shared libraries, size expressions are parsed with `sympy.sympify` (which
evaluates Python), the program's `guards_code` is exec'd by `ExportedProgram.module()`, and node
targets are looked up as any attribute chain under `torch` / `operator` / `math`.  So the archive is
read into memory and checked first, and torch.export.load only ever sees the checked copy:

* the entries are those torch.export.save writes for one model named "model" (no AOTInductor,
  executorch, custom-object, opaque-object, legacy pickle or extra entries);
* weights and constants are raw tensor payloads (`use_pickle` false);
* the sample inputs load with `torch.load(weights_only=True)`;
* every node target is `torch.ops.<namespace>.<op>[.<overload>]` of the namespaces in `_NAMESPACES`
  (`aten::from_file` excluded) or one of torch.export's symbolic-size operators;
* every size expression is arithmetic over size symbols and integers with the size functions torch
  defines (no attribute access, strings, subscripts or other names);
* `guards_code` and node metadata (stack traces, source function names) are dropped;

and after loading, every call in the graphs is checked again to be an operator of those kinds.
"""
import io
import json
import operator
import re
import zipfile

import torch

from ..framework import safe_pickle
from ..framework.safe_pickle import UnsafePickleError

_NAMESPACES = frozenset(("aten", "prims", "higher_order", "paddle_on_torch", "_c10d_functional", "c10d", "_dtensor"))
_DENIED_OPS = frozenset(("aten::from_file",))
_TARGET = re.compile(r"torch\.ops\.([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)(\.[A-Za-z_][A-Za-z0-9_]*)?")
_FIXED = {"archive_format", "archive_version", "byteorder", ".data/version", ".data/serialization_id",
          "models/model.json", "data/sample_inputs/model.pt", "data/weights/model_weights_config.json",
          "data/constants/model_constants_config.json"}
# size expressions are written by sympy's srepr: Mul(Integer(4), Symbol('s21', positive=True, integer=True))
_EXPR_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|'([^'\\]*)'|"
                         r"(\*\*|//|==|!=|<=|>=|[-+*/%(),<>&|~=]))")
_SYMBOL = re.compile(r"[a-z]{1,3}\d+")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")
_EXPR_NAMES = frozenset((
    # sympy's and torch's size functions and constants
    "Symbol", "Integer", "Float", "Rational", "Add", "Mul", "Pow", "Max", "Min", "Abs", "Mod", "floor", "ceiling",
    "sqrt", "Eq", "Ne", "Le", "Lt", "Ge", "Gt", "And", "Or", "Not", "Piecewise", "ITE", "true", "false", "True",
    "False", "oo", "zoo", "nan", "Infinity", "NegativeInfinity", "NaN", "Zero", "One", "NegativeOne", "Half",
    "FloorDiv", "ModularIndexing", "Where", "PythonMod", "CleanDiv", "CeilToInt", "FloorToInt", "CeilDiv", "LShift",
    "RShift", "PowByNatural", "FloatPow", "FloatTrueDiv", "IntTrueDiv", "IsNonOverlappingAndDenseIndicator",
    "TruncToFloat", "TruncToInt", "RoundToInt", "RoundDecimal", "ToFloat", "Identity", "OpaqueUnaryFn_sqrt",
    "BitwiseFn_bitwise_and", "BitwiseFn_bitwise_or", "BitwiseFn_bitwise_xor",
    # Symbol / Float keywords
    "positive", "negative", "nonnegative", "nonpositive", "integer", "real", "finite", "infinite", "zero",
    "nonzero", "even", "odd", "rational", "extended_real", "commutative", "precision"))


def _sym_op_names():
    from torch._export.serde.serialize import _SYM_OPS

    ops = set(_SYM_OPS) | {operator.getitem}
    return ops, {f"{op.__module__}.{op.__name__}" for op in ops}


def _refuse(where, what, detail):
    return UnsafePickleError(f"{what} refuses {where}: {detail} (see docs/security.md)")


def _check_target(t, where, what, sym_names):
    if not isinstance(t, str):
        raise _refuse(where, what, f"a node target {t!r:.60} that is not a name")
    if t in sym_names:
        return
    m = _TARGET.fullmatch(t)
    if m is None or m.group(1) not in _NAMESPACES or any(p.startswith("__") for p in t.split(".")) or \
            f"{m.group(1)}::{m.group(2)}" in _DENIED_OPS:
        raise _refuse(where, what, f"the call target '{t:.80}' (only torch operators are admitted)")


def _check_expr(s, where, what):
    if not isinstance(s, str) or len(s) > 10000:
        raise _refuse(where, what, "a malformed size expression")
    pos = 0
    while s[pos:].strip():
        m = _EXPR_TOKEN.match(s, pos)
        if m is None or m.end() == pos:
            raise _refuse(where, what, f"the size expression '{s:.80}' (only arithmetic on sizes is admitted)")
        name, text = m.group(2), m.group(3)
        if name is not None and name not in _EXPR_NAMES and not _SYMBOL.fullmatch(name):
            raise _refuse(where, what, f"the name '{name:.40}' in the size expression '{s:.80}'")
        if text is not None and not (_SYMBOL.fullmatch(text) or _NUMBER.fullmatch(text)):
            raise _refuse(where, what, f"the text '{text:.40}' in the size expression '{s:.80}'")
        pos = m.end()


def _sanitize(obj, where, what, sym_names):
    """Check the program JSON in place; drop guards_code and node metadata."""
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, list):
            stack.extend(o)
            continue
        if not isinstance(o, dict):
            continue
        if "target" in o and "inputs" in o and "outputs" in o:  # a node
            _check_target(o["target"], where, what, sym_names)
            if "metadata" in o:
                o["metadata"] = {}
        for k, v in o.items():
            if k == "as_operator":
                _check_target(v, where, what, sym_names)
            elif k == "expr_str":
                _check_expr(v, where, what)
            elif k == "guards_code":
                o[k] = []
            elif k == "range_constraints" and isinstance(v, dict):
                for name in v:
                    _check_expr(name, where, what)
        stack.extend(v for k, v in o.items() if k != "guards_code")


def _payloads(zf, root, config_name, prefix, where, what):
    """The payload files a weights / constants config names (raw tensors only)."""
    try:
        config = json.loads(zf.read(root + config_name))
    except (KeyError, ValueError) as e:
        raise ValueError(f"{what} can not read the program {where}: {config_name}: {e}") from None
    entries = config.get("config") if isinstance(config, dict) else None
    if not isinstance(entries, dict):
        raise ValueError(f"{what} can not read the program {where}: malformed {config_name}")
    files = set()
    for fqn, meta in entries.items():
        if not isinstance(meta, dict) or meta.get("use_pickle") is not False:
            raise _refuse(where, what, f"the {config_name} entry '{fqn:.60}' is a pickle (use_pickle: it could run code)")
        path = meta.get("path_name")
        if not isinstance(path, str) or not path.startswith(prefix) or not path[len(prefix):].isdigit():
            raise _refuse(where, what, f"the {config_name} entry '{fqn:.60}' names the payload {path!r:.60}")
        files.add(config_name.rsplit("/", 1)[0] + "/" + path)
    return files


def checked_archive(path, what="paddle.jit.load"):
    """The archive's bytes after the checks above, as a BytesIO for torch.export.load."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, ValueError) as e:
        raise ValueError(f"{what} can not read the program {path}: not a torch.export archive ({e})") from None
    if not infos or "/" not in infos[0].filename:
        raise ValueError(f"{what} can not read the program {path}: not a torch.export archive")
    root = infos[0].filename.split("/", 1)[0] + "/"
    names = [i.filename for i in infos]
    if any(not n.startswith(root) for n in names) or len(set(names)) != len(names):
        raise _refuse(path, what, "entries outside the archive's folder or given twice")
    rel = {n[len(root):] for n in names}
    for need in ("models/model.json", "data/sample_inputs/model.pt", "data/weights/model_weights_config.json",
                 "data/constants/model_constants_config.json"):
        if need not in rel:
            raise ValueError(f"{what} can not read the program {path}: the archive has no {need}")
    allowed = set(_FIXED)
    allowed |= _payloads(zf, root, "data/weights/model_weights_config.json", "weight_", path, what)
    allowed |= _payloads(zf, root, "data/constants/model_constants_config.json", "tensor_", path, what)
    extra = sorted(rel - allowed)
    if extra:
        raise _refuse(path, what, f"the archive entry '{extra[0]:.80}' (only a plain exported program's entries "
                                  "are admitted: no pickles, compiled libraries or extra files)")
    try:
        safe_pickle.torch_load(io.BytesIO(zf.read(root + "data/sample_inputs/model.pt")), what,
                               f"the sample inputs of {path}")
    except UnsafePickleError:
        raise
    except Exception as e:  # noqa: BLE001 - unreadable sample inputs: the file is refused as well
        raise _refuse(path, what, f"its sample inputs ({type(e).__name__}: {str(e).splitlines()[0]:.300})") from None
    try:
        program = json.loads(zf.read(root + "models/model.json"))
    except ValueError as e:
        raise ValueError(f"{what} can not read the program {path}: models/model.json: {e}") from None
    ops, sym_names = _sym_op_names()
    _sanitize(program, path, what, sym_names)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as w:
        for info in infos:
            body = json.dumps(program).encode() if info.filename == root + "models/model.json" \
                else zf.read(info.filename)
            w.writestr(info.filename, body)
    out.seek(0)
    return out


def check_graph_targets(ep, where, what="paddle.jit.load"):
    """After loading: every call in every graph is a torch operator (defence in depth)."""
    ops, _ = _sym_op_names()
    for gm in ep.graph_module.modules():
        if not isinstance(gm, torch.fx.GraphModule):
            continue
        for n in gm.graph.nodes:
            if n.op == "call_function":
                t = n.target
                if isinstance(t, (torch._ops.OpOverload, torch._ops.HigherOrderOperator)) or t in ops:
                    continue
                raise _refuse(where, what, f"the call target {t!r:.80}")
            if n.op in ("call_method", "call_module"):
                raise _refuse(where, what, f"a {n.op} node")


def load(path, what="paddle.jit.load"):
    """torch.export.load of the checked archive; the graphs are checked again after loading."""
    ep = torch.export.load(checked_archive(path, what))
    check_graph_targets(ep, path, what)
    return ep
