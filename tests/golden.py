"""Turn what a case returned into JSON-able data, and compare two such descriptions.

Used on both sides: by tools/record.py under real Paddle and by
tests/test_golden.py under paddle_on_torch.  Only duck typing on the result
(`.numpy()`, `.dtype`, `.stop_gradient`), so it never imports paddle itself.
"""
import math
import re

import numpy as np

# Paddle's own exception classes (as type(e) names them) -> the shim's class standing for each; every other
# error is a builtin and must be that very builtin (not a subclass)
PADDLE_ERROR_CLASSES = {"paddle.EnforceNotMet": "paddle_on_torch._errors.EnforceNotMet"}


def _encode_number(v):
    if isinstance(v, float) and not math.isfinite(v):
        return repr(v)
    return v


def _encode_array(a):
    if a.dtype.kind == "c":
        return [[_encode_number(float(v.real)), _encode_number(float(v.imag))] for v in a.reshape(-1)]
    return [_encode_number(v) for v in a.reshape(-1).tolist()]


def _is_tensor(v):
    return hasattr(v, "stop_gradient") and hasattr(v, "numpy") and hasattr(v, "place")


def error_class(e):
    """An exception's class: a builtin's name, else module.qualname."""
    t = type(e)
    return t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}"


_USER_CODE = re.compile(r"^\s+(\w+?)Error: (.*)$", re.M)  # a static-graph error's own line under "In user code:"


def key_message(e):
    """The part of an error message worth keeping: the first line, without Paddle's C++ hint and location (for
    an error raised in a static program, the error's own line under the user-code trace, as "(Tag) ...")."""
    msg = str(e).strip()
    if msg.startswith("In user code:"):
        found = _USER_CODE.findall(msg)
        if found:
            msg = f"({found[-1][0]}) {found[-1][1]}"
    for cut in ("\n", "  [Hint:", " [Hint:", "(at /"):
        i = msg.find(cut)
        if i > 0:
            msg = msg[:i]
    return msg.strip()[:300]


# "(InvalidArgument) ..." (Paddle's C++ checks), "() InvalidArgumentError: ..." (its EnforceNotMet)
_TAG = re.compile(r"^\((\w+)\)|^\(\)\s*(\w+?)Error:")
_NOISE = [
    (re.compile(r"(?<![\w.])np\.\w+\(([^()]*)\)"), r"\1"),  # numpy 2's scalar repr: np.int64(6) -> 6
    (re.compile(r"(?<![\w.])paddle\.Size\(([^()]*)\)"), r"\1"),  # a shape's repr: paddle.Size([2]) -> [2]
    (re.compile(r"(?<![\w.])paddle\.(?=(?:u?int|float|bfloat|complex|bool)\d*\b)"), ""),  # paddle.int64 -> int64
    (re.compile(r"\{([^{}]*)\}"), lambda m: "{" + ", ".join(sorted(m.group(1).split(", "))) + "}"),  # set reprs
    (re.compile(r"<[^<>]*>"), " "),  # object reprs: <class '...'>, <re.Match object; ...>
    (re.compile(r"(?:[A-Za-z]:)?(?:/[\w.+-]+){2,}/?"), " "),  # file paths (temporary folders differ)
    (re.compile(r"\d+(?:\.\d*)?(?:e[+-]?\d+)?"), " "),  # numbers (counters in names, sizes, values)
]
_WORD = re.compile(r"[A-Za-z_]{2,}")


def error_tag(msg):
    """Paddle's error class in a message ('InvalidArgument', 'OutOfRange', ...), None when it has none."""
    m = _TAG.match(msg.strip())
    return (m.group(1) or m.group(2)) if m else None


def message_words(msg):
    """A message's words in order, lower case, without its error class, numbers, file paths and object reprs
    (the parts that differ from run to run or between Paddle's reprs and the shim's)."""
    msg = _TAG.sub("", msg.strip(), count=1)
    for rx, sub in _NOISE:
        msg = rx.sub(sub, msg)
    return [w.strip("_").lower() for w in _WORD.findall(msg) if w.strip("_")]


def error_pattern(msg):
    """What the shim's message must keep of Paddle's: the error class of Paddle's C++ checks ("(InvalidArgument)";
    their wording is the C++ kernel's, which the shim's torch kernels do not share), else the message's words."""
    tag = error_tag(msg)
    return f"({tag})" if tag else " ".join(message_words(msg))


def message_matches(want, got):
    """A shim message matches Paddle's when it has Paddle's error class (Paddle's C++ checks), or else Paddle's
    words in Paddle's order (it may say more)."""
    tag = error_tag(want)
    if tag:
        return error_tag(got) == tag
    it = iter(message_words(got))
    return all(word in it for word in message_words(want))


def describe(v):
    if isinstance(v, BaseException):
        return {"error": error_class(v), "message": key_message(v)}
    if _is_tensor(v):
        d = str(v.dtype)
        t = v.astype("float32") if d in ("paddle.bfloat16", "paddle.float8_e4m3fn", "paddle.float8_e5m2") else v
        a = np.asarray(t.numpy())
        return {"tensor": {"dtype": d, "shape": list(v.shape), "stop_gradient": bool(v.stop_gradient),
                           "values": _encode_array(a)}}
    if isinstance(v, np.ndarray):
        return {"ndarray": {"dtype": str(v.dtype), "shape": list(v.shape), "values": _encode_array(v)}}
    if isinstance(v, np.generic):
        return {"npscalar": {"dtype": str(v.dtype), "value": _encode_array(np.asarray(v))[0]}}
    if v is None or isinstance(v, (bool, str)):
        return {"py": v}
    if isinstance(v, int):
        return {"int": int(v)}
    if isinstance(v, float):
        return {"float": _encode_number(v)}
    if isinstance(v, complex):
        return {"complex": [_encode_number(v.real), _encode_number(v.imag)]}
    if isinstance(v, dict):
        return {"dict": [[str(k), describe(x)] for k, x in v.items()]}
    if isinstance(v, (list, tuple)):
        return {type(v).__name__ if type(v) in (list, tuple) else "list": [describe(x) for x in v]}
    if type(v).__name__ == "dtype" or type(v).__name__ == "DataType":
        return {"dtype": str(v)}
    return {"repr": repr(v)}


def _num(v):
    return float(v) if isinstance(v, str) else v


def _close(a, b, rtol, atol):
    a, b = np.asarray([_num(x) for x in a], dtype=float), np.asarray([_num(x) for x in b], dtype=float)
    return a.shape == b.shape and np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True)


def compare(want, got, opts, path="result"):
    """Return a list of differences (empty when `got` matches `want`)."""
    rtol, atol, random = opts["rtol"], opts["atol"], opts["random"]
    if "error" in want and "error" in got:
        return _compare_errors(want, got, path)
    if set(want) != set(got):
        return [f"{path}: expected {_short(want)}, got {_short(got)}"]
    (kind, w), (_, g) = next(iter(want.items())), next(iter(got.items()))
    if kind in ("tensor", "ndarray"):
        diffs = [f"{path}.{k}: expected {w[k]}, got {g[k]}" for k in ("dtype", "shape", "stop_gradient")
                 if k in w and w[k] != g[k]]
        if not diffs and not random:
            wv, gv = w["values"], g["values"]
            if wv and isinstance(wv[0], list):  # complex
                wv, gv = [x for p in wv for x in p], [x for p in gv for x in p]
            exact = w["dtype"].split(".")[-1] in ("bool", "int8", "int16", "int32", "int64", "uint8")
            if (wv != gv) if exact else not _close(wv, gv, rtol, atol):
                diffs.append(f"{path}.values: expected {str(wv)[:200]}, got {str(gv)[:200]}")
        return diffs
    if kind in ("list", "tuple"):
        if len(w) != len(g):
            return [f"{path}: expected {len(w)} items, got {len(g)}"]
        return [d for i, (a, b) in enumerate(zip(w, g)) for d in compare(a, b, opts, f"{path}[{i}]")]
    if kind == "dict":
        if [k for k, _ in w] != [k for k, _ in g]:
            return [f"{path}: expected keys {[k for k, _ in w]}, got {[k for k, _ in g]}"]
        return [d for (k, a), (_, b) in zip(w, g) for d in compare(a, b, opts, f"{path}[{k!r}]")]
    if kind in ("float", "complex", "npscalar") and not random:
        wv = w["value"] if kind == "npscalar" else w
        gv = g["value"] if kind == "npscalar" else g
        wl, gl = (wv if isinstance(wv, list) else [wv]), (gv if isinstance(gv, list) else [gv])
        ok = _close(wl, gl, rtol, atol) and (kind != "npscalar" or w["dtype"] == g["dtype"])
        return [] if ok else [f"{path}: expected {w}, got {g}"]
    if random and kind in ("float", "int", "complex", "npscalar"):
        return []
    return [] if w == g else [f"{path}: expected {w!r}, got {g!r}"]


def _compare_errors(want, got, path):
    cls = PADDLE_ERROR_CLASSES.get(want["error"], want["error"])
    if cls != got["error"]:
        return [f"{path}: expected {want['error']} ({want.get('message', '')!r}), got {got['error']} "
                f"({got.get('message', '')!r})"]
    if "message" in want and not message_matches(want["message"], got.get("message", "")):
        return [f"{path}: {got['error']}'s message {got.get('message')!r} does not match Paddle's "
                f"{want['message']!r} (pattern {error_pattern(want['message'])!r})"]
    return []


def _short(d):
    s = repr(d)
    return s if len(s) < 200 else s[:200] + "..."
