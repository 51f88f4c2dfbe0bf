"""Turn what a case returned into JSON-able data, and compare two such descriptions.

Used on both sides: by tools/record_goldens.py under real Paddle and by
tests/test_golden.py under paddle_on_torch.  Only duck typing on the result
(`.numpy()`, `.dtype`, `.stop_gradient`), so it never imports paddle itself.
"""
import math

import numpy as np


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


def describe(v):
    if isinstance(v, BaseException):
        return {"error": type(v).__name__}
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
    if set(want) != set(got):
        return [f"{path}: expected {_short(want)}, got {_short(got)}"]
    (kind, w), (_, g) = next(iter(want.items())), next(iter(got.items()))
    if kind == "error":
        return [] if w == g else [f"{path}: expected {w}, got {g}"]
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


def _short(d):
    s = repr(d)
    return s if len(s) < 200 else s[:200] + "..."
