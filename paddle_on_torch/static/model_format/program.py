"""The program both readers produce: a list of ops on numbered values, in PIR's terms.

Op types are PIR names ("pd_op.conv2d", "builtin.combine"); the ProgramDesc reader translates
legacy ops into the same names and input order, so one lowering table serves both formats.
An op input is a value id, None (an absent optional input) or a Literal (a constant the legacy
reader made out of an attribute).
"""
import json

from .errors import ModelFormatError

PIR_MAGIC = "pir"
# The PIR serialisation versions this reader understands: Paddle 3.3.1 writes 4; what changed between 1 and
# 4 (Paddle's patch/*.yaml) is attribute types (int32 -> int64, float -> double), which this reader ignores.
PIR_VERSIONS = (1, 2, 3, 4)
_DIALECTS = {"0": "builtin", "1": "pd_op", "2": "cf", "3": "custom_op", "4": "pd_dist"}
_DTYPES = {"f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64", "i8": "int8", "ui8": "uint8",
           "i16": "int16", "i32": "int32", "i64": "int64", "bool": "bool", "c64": "complex64", "c128": "complex128"}


class Literal:
    __slots__ = ("value", "dtype")

    def __init__(self, value, dtype=None):
        self.value, self.dtype = value, dtype


class Op:
    __slots__ = ("type", "inputs", "outputs", "attrs", "blocks")

    def __init__(self, type, inputs, outputs, attrs, blocks=()):
        self.type, self.inputs, self.outputs, self.attrs, self.blocks = type, inputs, outputs, attrs, list(blocks)

    def __repr__(self):
        return f"Op({self.type}, in={self.inputs}, out={self.outputs})"


class Block:
    __slots__ = ("args", "ops")

    def __init__(self, args, ops):
        self.args, self.ops = args, ops


class Program:
    """feeds: [(value id, name, shape, dtype)]; fetches: [(value id, name)]; params: {value id: param name}
    (`transient`: the names among them that the params file does not hold);
    types: {value id: (dtype, shape)} or a list of those for vector values; ops: [Op]."""

    def __init__(self, fmt, version):
        self.format, self.version = fmt, version
        self.ops, self.feeds, self.fetches, self.params, self.types = [], [], [], {}, {}
        self.transient = set()  # parameter names that are not persistable (not in the params file)
        self.frozen = set()  # parameter names marked stop_gradient (BatchNorm statistics ...)

    def op_types(self):
        out = set()

        def walk(ops):
            for op in ops:
                out.add(op.type)
                for b in op.blocks:
                    walk(b.ops)
        walk(self.ops)
        return out


# ===================================================================== PIR json
def _type(t, what):
    tid = t.get("#") if isinstance(t, dict) else None
    if tid == "0.t_dtensor":
        d = t["D"]
        return (_DTYPES.get(d[0]["#"].split("_", 1)[1], d[0]["#"]), [int(x) for x in d[1]])
    if tid == "0.t_vec":
        return [_type(x, what) for x in t.get("D", [])]
    if tid is not None and tid.startswith("0.t_"):
        return (_DTYPES.get(tid[4:], tid[4:]), [])
    return None


_SPECIAL_FLOATS = {"INF": float("inf"), "-INF": float("-inf"), "NAN": float("nan"), "-NAN": float("nan")}


def _attr(a):
    tid, d = a.get("#"), a.get("D")
    if "VD" in a:  # non-finite floats are written as strings under "VD"
        return _SPECIAL_FLOATS.get(str(a["VD"]).upper(), float("nan"))
    if tid == "0.a_array":
        return [_attr(x) for x in d]
    if tid == "1.a_scalar" and isinstance(d, list) and len(d) == 2:
        return d[1]
    if tid == "0.a_type":
        return _type(d, "")
    return d


def _op_name(compressed):
    dialect, _, name = compressed.partition(".")
    return f"{_DIALECTS.get(dialect, dialect)}.{name}"


def read_pir_json(data, what):
    try:
        text = data.decode("utf-8")
        obj = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ModelFormatError(f"{what}: not a Paddle PIR program (.json): {e}") from None
    base = obj.get("base_code") if isinstance(obj, dict) else None
    if not isinstance(base, dict) or base.get("magic") != PIR_MAGIC or "program" not in obj:
        raise ModelFormatError(f"{what}: not a Paddle PIR program (.json): no base_code with magic 'pir'")
    version = base.get("version")
    if version not in PIR_VERSIONS:
        raise ModelFormatError(f"{what}: PIR program version {version!r}; paddle_on_torch reads PIR versions "
                               f"{PIR_VERSIONS[0]}..{PIR_VERSIONS[-1]} (up to Paddle 3.3.1)")
    prog = Program("pir", version)
    try:
        block = obj["program"]["regions"][0]["blocks"][0]
        prog.ops = _read_block(block, prog, top=True).ops
        prog.fetches = [f[:2] for f in sorted(prog.fetches, key=lambda f: f[2])]
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as e:
        raise ModelFormatError(f"{what}: malformed PIR program (version {version}): {type(e).__name__}: {e}") \
            from None
    return prog


def _vid(v):
    if v is None or (isinstance(v, int) and not isinstance(v, bool)):
        return v
    raise ValueError(f"value id {v!r} is not an integer")


def _name(v):
    if not isinstance(v, str):
        raise ValueError(f"name {v!r} is not a string")
    return v


def _read_block(block, prog, top=False):
    args = []
    for a in block.get("args", []) or []:
        vid = _vid(a.get("%", a.get("#")))  # block arguments carry their (negative) id under "#"
        args.append(vid)
        prog.types[vid] = _type(a.get("TT"), "")
    ops = []
    for o in block["ops"]:
        name = o["#"]
        if name == "p":  # the compressed builtin.parameter: A = [.., .., .., name]
            out = o["O"]
            prog.params[_vid(out["%"])] = _name(o["A"][3])
            oa = o.get("OA") if isinstance(o.get("OA"), list) else []
            if oa and not oa[0]:  # OA = [persistable, stop_gradient, trainable]
                prog.transient.add(o["A"][3])  # e.g. an rnn's dropout state: not in the params file
            if len(oa) > 1 and oa[1]:
                prog.frozen.add(o["A"][3])  # e.g. BatchNorm statistics
            prog.types[out["%"]] = _type(out.get("TT"), "")
            continue
        name = _op_name(_name(name))
        attrs = {_name(a["N"]): _attr(a["AT"]) for a in o.get("A", []) if isinstance(a, dict)}
        inputs = [(_vid(i["%"]) or None) for i in o.get("I", [])]
        outputs = []
        for r in o.get("O", []):
            vid = _vid(r.get("%"))
            outputs.append(vid)
            if vid:
                prog.types[vid] = _type(r.get("TT"), "")
        if name == "builtin.parameter":
            prog.params[outputs[0]] = _name(attrs["parameter_name"])
            continue
        if top and name == "pd_op.data":
            prog.feeds.append((outputs[0], _name(attrs["name"]), [int(d) for d in attrs["shape"]],
                               _name(attrs["dtype"])))
            continue
        if top and name in ("pd_op.fetch", "builtin.shadow_output"):
            prog.fetches.append((inputs[0], _name(attrs.get("name", attrs.get("output_name"))),
                                 int(attrs.get("col", 0))))
            continue
        blocks = [_read_block(b, prog) for r in o.get("regions", []) or [] for b in r["blocks"]]
        ops.append(Op(name, inputs, outputs, attrs, blocks))
    return Block(args, ops)
