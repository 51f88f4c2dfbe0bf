"""Record the signatures of real Paddle's `paddle._C_ops` / `paddle._legacy_C_ops` functions (oracle interpreter).

    ~/oracle/bin/python tools/record_c_ops.py

Writes paddle_on_torch/_C_ops_signatures.json.  `_C_ops.<op>` takes its op definition's arguments
(Paddle's ops.yaml `args`) positionally or by name, with the yaml defaults.  The Paddle wheel ships
the C++ API generated from those yaml files (paddle/include/.../phi/api/include/api.h, fused_api.h)
and the PIR op classes (pd_op.h: argument order of the grad ops, and the output names of every op),
so this reads the signatures from those headers; `paddle._C_ops.<op>.__doc__` says nothing, and
calling the functions to probe them can crash Paddle.  For `_legacy_C_ops` it records each op's
OpProto (inputs, outputs, attribute names), which the legacy calling convention follows.

Per op: "args": [[name, type, default]] (type: Tensor, Tensor?, Tensor[], Tensor[]?, IntArray, Scalar,
Scalar[], DataType, Place, int, int[], float, float[], bool, str, str[], any; default absent when required),
"outputs": output names, "returns": "tensor" (a single Tensor), "tuple" or "list"; "api": true where the
function is the public API bound onto the op (its arguments are the API's, from Paddle's type stub).
"""
import json
import os
import re
import sys

# C++ parameter types (after dropping const, &, phi:: and paddle::dialect::) -> the kinds above
_TYPES = [
    (r"paddle::optional<std::vector<Tensor>>", "Tensor[]?"),
    (r"std::vector<Tensor>", "Tensor[]"),
    (r"paddle::optional<Tensor>", "Tensor?"),
    (r"Tensor|pir::Value", "Tensor"),
    (r"IntArray", "IntArray"),
    (r"std::vector<Scalar>", "Scalar[]"),
    (r"Scalar", "Scalar"),
    (r"DataType", "DataType"),
    (r"Place", "Place"),
    (r"std::vector<int(64_t)?>", "int[]"),
    (r"std::vector<(float|double)>", "float[]"),
    (r"std::vector<std::string>", "str[]"),
    (r"int(64_t)?", "int"),
    (r"(float|double)", "float"),
    (r"bool", "bool"),
    (r"std::string", "str"),
]


def _split_top(s):
    """Split a C++ parameter list at the commas outside <>, {}, ()."""
    parts, depth, cur = [], 0, ""
    for ch in s.replace("<<", "\x01"):
        if ch in "<{(":
            depth += 1
        elif ch in ">})":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return [p.replace("\x01", "<<") for p in parts]


def _default(text, typ):
    t = text.strip()
    if t in ("true", "false"):
        return t == "true"
    if t.startswith('"'):
        return t[1:-1]
    if t.startswith("{"):
        inner = t[1:-1].strip()
        return [_default(x, typ.rstrip("[]")) for x in _split_top(inner)] if inner else []
    m = re.fullmatch(r"(phi::)?DataType::(\w+)", t)
    if m:
        return m.group(2).lower()
    m = re.fullmatch(r"(phi::)?(\w+)Place\(\)", t)
    if m:
        return {"CPU": "cpu", "GPU": "gpu", "Undefined": None}.get(m.group(2), m.group(2).lower())
    if t in ("paddle::none", "nullptr"):
        return None
    limits = {"INT64_MAX": 2**63 - 1, "INT64_MIN": -2**63, "INT_MAX": 2**31 - 1, "INT_MIN": -2**31,
              "INT32_MAX": 2**31 - 1, "INT32_MIN": -2**31}
    if t in limits:
        return limits[t]
    expr = re.sub(r"(?<=[0-9.])[fFlL]\b", "", t)  # C literal suffixes: 1.0f, 10000L
    if re.fullmatch(r"[-+0-9.eE()<*/ ]+", expr):  # a number or a constant expression: (2 << 12) - 1, 1.0f/8
        v = eval(expr, {"__builtins__": {}})  # noqa: S307 - digits and arithmetic only
        return int(v) if typ in ("int", "int[]") else v
    raise ValueError(f"unparsed default {text!r}")


def _param(p):
    """'const Scalar& beta1 = 0.9f' -> ['beta1', 'Scalar', 0.9] (or None for predefined_out)."""
    decl, _, dflt = p.partition("=")
    decl = decl.strip()
    m = re.fullmatch(r"(.*?[\s&*>])(\w+)", decl)
    ctype, name = m.group(1).strip(), m.group(2)
    if name in ("predefined_out", "builder", "argument"):
        return None
    if ctype == "pir::Value":
        name = name.rstrip("_")
    bare = re.sub(r"\bconst\b|&|\bphi::|\bpaddle::dialect::", "", ctype).strip()
    for pat, typ in _TYPES:
        if re.fullmatch(pat, bare):
            break
    else:
        raise ValueError(f"unknown C++ type {ctype!r} in {p!r}")
    return [name, typ] + ([_default(dflt, typ)] if dflt.strip() else [])


def _returns(ret):
    ret = ret.strip()
    if ret.startswith("std::tuple"):
        return "tuple"
    if ret.startswith("std::vector") or ret.startswith("paddle::optional<std::vector"):
        return "list"
    return "tensor"


def parse_api_headers(texts):
    ops = {}
    for text in texts:
        for m in re.finditer(r"PADDLE_API (.*?) (\w+)\((.*?)\);", text, re.S):
            ret, name, params = m.groups()
            args = [a for a in (_param(p) for p in _split_top(params)) if a is not None]
            ops.setdefault(name, {"args": args, "returns": _returns(ret)})
    return ops


def parse_pd_op(text):
    """pd_op.h: for each 'pd_op.X' class, the first Build's parameters and the result / operand names."""
    ops = {}
    starts = [(m.start(), m.group(1)) for m in re.finditer(r'return "pd_op\.(\w+)"; \}', text)]
    for i, (pos, name) in enumerate(starts):
        body = text[pos:starts[i + 1][0] if i + 1 < len(starts) else len(text)]
        build = re.search(r"static void Build\(pir::Builder &builder, pir::OperationArgument &argument,? ?(.*?)\);",
                          body)
        outs = re.findall(r"pir::Value (\w+)\(\) \{ return result\((\d+)\); \}", body)
        outputs = [n for n, _ in sorted(outs, key=lambda x: int(x[1]))]
        args = None
        if build and "AttributeMap" not in build.group(1):
            args = [a for a in (_param(p) for p in _split_top(build.group(1))) if a is not None]
        ops.setdefault(name, {"args": args, "outputs": outputs})
    return ops


def sunk_api_signatures(stub_text):
    """Paddle 3.x binds some public APIs (argmax, sum, tril, ...) straight onto their _C_ops function, which then
    takes the API's arguments (x, axis=None, keepdim=False, dtype='int64', name=None) instead of the op's.  The
    type stub Paddle ships for core.eager.ops (paddle/_typing/libs/libpaddle/eager/ops/__init__.pyi) shows them:
    the definitions with a `name` parameter.  Returns {op: [[name, type, default?], ...]} for those."""
    import ast

    out = {}
    for node in ast.parse(stub_text).body:
        if not isinstance(node, ast.FunctionDef) or node.name in out:
            continue
        params = node.args.args
        if "name" not in [a.arg for a in params[1:]]:  # (data(name, shape, ...) is the op itself)
            continue
        defaults = [None] * (len(params) - len(node.args.defaults)) + list(node.args.defaults)
        args = []
        for a, d in zip(params, defaults):
            note = ast.unparse(a.annotation) if a.annotation is not None else ""
            many = any(w in note for w in ("Sequence", "list", "tuple"))
            typ = "any" if "Tensor" not in note else \
                ("Tensor[]" if many else "Tensor") + ("?" if "None" in note else "")
            args.append([a.arg, typ] + ([] if d is None else [ast.literal_eval(d)]))
        out[node.name] = args
    return out


def legacy_protos():
    from paddle.base import core
    from paddle.base.proto import framework_pb2

    skip = {"op_role", "op_role_var", "op_namescope", "op_callstack", "op_device", "with_quant_attr"}
    out = {}
    for raw in core.get_all_op_protos():
        op = framework_pb2.OpProto.FromString(raw)
        out[op.type] = {
            "inputs": [[i.name, bool(i.duplicable), bool(i.dispensable)] for i in op.inputs],
            "outputs": [[o.name, bool(o.duplicable), bool(o.intermediate)] for o in op.outputs],
            "attrs": [a.name for a in op.attrs if a.name not in skip],
        }
    return out


def main():
    import paddle

    if getattr(paddle, "__shim_version__", None):
        sys.exit("run this with real Paddle (the oracle interpreter), not the shim")
    inc = os.path.join(os.path.dirname(paddle.__file__), "include", "paddle")
    read = lambda *p: open(os.path.join(inc, *p)).read()  # noqa: E731
    api = parse_api_headers([read("phi/api/include/api.h"), read("phi/api/include/fused_api.h")])
    pir = parse_pd_op(read("fluid/pir/dialect/operator/ir/pd_op.h"))
    core_args = paddle._C_ops.get_core_ops_args_info()
    names = sorted(n for n in dir(paddle._C_ops) if not n.startswith("_") and callable(getattr(paddle._C_ops, n)))
    ops = {}
    sunk = sunk_api_signatures(read("../../_typing/libs/libpaddle/eager/ops/__init__.pyi"))
    for n in names:
        entry = {}
        if n in sunk:
            entry = {"args": sunk[n], "api": True, "returns": api.get(n, {}).get("returns", "tensor")}
        elif n in api:
            entry = {"args": api[n]["args"], "returns": api[n]["returns"]}
        elif pir.get(n, {}).get("args") is not None:
            entry = {"args": pir[n]["args"]}
            # pd_op.h does not say which tensors are optional: a grad op's input is, where its forward op's is
            fwd = api.get(re.sub(r"_grad_?$", "", n), {}).get("args", [])
            optional = {a[0]: a[1] for a in fwd if a[1].endswith("?")}
            entry["args"] = [[a[0], optional.get(a[0], a[1])] + a[2:] for a in entry["args"]]
            # PIR drops attributes some eager grad functions still take (embedding_grad's `sparse`): Paddle's
            # own argument list for the eager function names them; they are accepted and default to None here
            core = core_args.get(n) or []
            entry["args"] += [[name, "any", None] for name in core[len(entry["args"]):]]
        outs = pir.get(n, {}).get("outputs") or pir.get(n.rstrip("_"), {}).get("outputs")
        if outs:
            entry["outputs"] = outs
            entry.setdefault("returns", "tensor" if len(outs) == 1 else "tuple")
        ops[n] = entry
    legacy_names = {n for n in dir(paddle._legacy_C_ops) if not n.startswith("_")}
    legacy = {k: v for k, v in sorted(legacy_protos().items()) if k in legacy_names}
    out = {"paddle_version": paddle.__version__, "ops": ops, "legacy_ops": legacy}
    path = os.path.join(os.path.dirname(__file__), "..", "paddle_on_torch", "_C_ops_signatures.json")
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(out, f, indent=0, sort_keys=True, separators=(",", ":"))
        f.write("\n")
    os.replace(tmp, path)
    known = sum(1 for e in ops.values() if "args" in e)
    print(f"{len(ops)} _C_ops ({known} with signatures), {len(legacy)} legacy ops -> {os.path.normpath(path)}")


if __name__ == "__main__":
    main()
