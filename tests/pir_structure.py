"""Compare two Paddle PIR programs (.json) in structure: the ops, their attributes, result types and
stop_gradient flags, and what each op reads, whatever the value ids and the order of independent ops.

`canonical(program)` gives each op a key built from its own content and the keys of the values it reads
(parameters by name, inputs by name); two programs compute the same thing op for op when their multisets of
keys are equal.  `listing(program)` is a readable op list for failure messages.  Used by tests/test_pir_writer.py
and tools/record_pir_roundtrip.py; plain JSON reading, no Paddle.
"""
import collections
import hashlib
import json

IGNORED_ATTRS = {"struct_name"}  # Paddle's name of the Layer an op came from: a debugging aid, not semantics


def _load(program):
    if isinstance(program, (str, bytes)):
        with open(program, "rb") as f:
            program = json.loads(f.read().decode("utf-8"))
    return program["program"]["regions"][0]["blocks"][0]


def _type(t):
    if t is None:
        return None
    if t["#"] == "0.t_dtensor":
        d = t["D"]
        return d[0]["#"][4:] + str(list(d[1])) + ("" if d[2:] == ["NCHW", [], 0] else str(d[2:]))
    if t["#"] == "0.t_vec":
        return "vec<" + ",".join(_type(x) for x in t["D"]) + ">"
    return t["#"]


def _attr(a):
    if a["#"] == "0.a_array":
        return "[" + ",".join(_attr(x) for x in a["D"]) + "]"
    return f"{a['#'].split('.a_', 1)[1]}:{a.get('D', a.get('VD'))}"


def _h(*parts):
    return hashlib.sha1(repr(parts).encode()).hexdigest()[:16]


class _Walker:
    def __init__(self):
        self.vals = {0: "none"}
        self.keys = collections.Counter()
        self.params = {}
        self.lines = []

    def block(self, block, depth=0, order=None):
        args = block.get("args") or []
        order = order or list(range(len(args)))
        for k, a in enumerate(args):
            self.vals[a.get("%", a.get("#"))] = _h("arg", depth, order.index(k), _type(a.get("TT")))
        for op in block["ops"]:
            self.op(op, depth, order if op["#"] == "2.yield" else None)

    def op(self, op, depth, yield_order=None):
        if op["#"] == "p":
            name = op["A"][3]
            self.vals[op["O"]["%"]] = _h("param", name)
            self.params[name] = (_type(op["O"]["TT"]), list(op.get("OA", [])))
            return
        attrs = tuple(sorted((a["N"], _attr(a["AT"])) for a in op.get("A", []) if a["N"] not in IGNORED_ATTRS))
        oa = dict((a["N"], _attr(a["AT"])) for a in op.get("OA", []))
        ins = [self.vals.get(i["%"], f"?{i['%']}") for i in op.get("I", [])]
        outs = [_type(r.get("TT")) for r in op.get("O", [])]
        sg = oa.get("stop_gradient", "")
        order = list(range(len(outs)))
        if op["#"] == "1.while":  # the order of a loop's carried values is the converter's choice: sort them
            order = sorted(range(len(outs)), key=lambda k: (outs[k], ins[1 + k]))
            ins = ins[:1] + [ins[1 + k] for k in order]
            outs = [outs[k] for k in order]
            flags = sg.strip("[]").split(",")
            sg = "[" + ",".join(flags[k] for k in order) + "]" if len(flags) == len(order) else sg
        if yield_order is not None and len(ins) == len(yield_order) + 1:
            ins = ins[:1] + [ins[1 + k] for k in yield_order]
        inner = []
        for r in op.get("regions", []) or []:
            sub = _Walker()
            sub.vals = dict(self.vals)
            for b in r["blocks"]:
                sub.block(b, depth + 1, order if op["#"] == "1.while" else None)
            inner.append(tuple(sorted(sub.keys.elements())))
            self.lines += ["    " + line for line in sub.lines]
        oa = tuple(sorted({**oa, "stop_gradient": sg}.items())) if oa else ()
        key = _h(op["#"], attrs, oa, tuple(ins), tuple(outs), tuple(inner))
        if op["#"] == "1.data":
            key = _h("data", attrs, tuple(outs))
        self.keys[key] += 1
        for k, r in enumerate(op.get("O", [])):
            self.vals[r.get("%")] = _h(key, order.index(k))
        self.lines.append(f"{op['#']}({len(ins)} in) {' '.join(f'{n}={v}' for n, v in attrs)} -> {', '.join(outs)} "
                          f"{sg}")


def canonical(program):
    """(Counter of op keys, {parameter name: (type, [persistable, stop_gradient, trainable])})."""
    w = _Walker()
    w.block(_load(program))
    return w.keys, w.params


def listing(program):
    w = _Walker()
    w.block(_load(program))
    return w.lines


def differences(a, b):
    """What differs between programs a and b: [] when they match in structure."""
    ka, pa = canonical(a)
    kb, pb = canonical(b)
    out = []
    if pa != pb:
        out.append(f"parameters differ: {sorted(set(pa.items()) ^ set(pb.items()))}")
    if ka != kb:
        la, lb = listing(a), listing(b)
        import difflib

        out.append("ops differ:\n" + "\n".join(difflib.unified_diff(la, lb, "first", "second", lineterm="", n=1)))
    return out


# Ops that only carry sizes and constants into other ops: Paddle writes them per use (`x.shape[0]` twice is two
# shape64 + slice), torch's graph once per size, and the same IntArray can be spelled `0` (copy the input's dim),
# `-1` or the size itself; what the program computes is in the other ops and their result types
_PLUMBING = {"1.full", "1.full_int_array", "1.shape64", "0.combine", "1.stack", "2.yield"}


def _is_size(t):
    return t is not None and t["#"] == "0.t_dtensor" and t["D"][0]["#"] == "0.t_i64" and len(t["D"][1]) <= 1


def _compute_ops(block, out):
    for op in block["ops"]:
        if op["#"] == "p" or op["#"] in _PLUMBING:
            continue
        outs = op.get("O", [])
        if outs and all(_is_size(r.get("TT")) for r in outs):
            continue  # arithmetic on sizes
        out[(op["#"], tuple(_type(r.get("TT")) for r in outs))] += 1
        for r in op.get("regions", []) or []:
            for b in r["blocks"]:
                _compute_ops(b, out)
    return out


def compute_differences(a, b):
    """What differs between programs a and b in the ops that compute (name and result types, -1 for a run-time
    size), the size plumbing left out: [] when each computes the same ops on the same (symbolic) shapes."""
    ka, kb = _compute_ops(_load(a), collections.Counter()), _compute_ops(_load(b), collections.Counter())
    return [f"{k}: {ka[k]} in the first, {kb[k]} in the second" for k in sorted(set(ka) | set(kb)) if ka[k] != kb[k]]
