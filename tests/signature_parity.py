"""Signature parity with real Paddle 3.3.1: what tests/golden/signatures.json (tools/record_signatures.py) says
Paddle accepts, checked against paddle_on_torch's callables.

    python -m tests.signature_parity [--all] [PREFIX ...]   # the gaps, grouped (--all: allow-listed ones too)

A gap is a string `<kind> <api>[: <detail>]`:
- `missing paddle.x`: Paddle has the name, we do not;
- `keyword paddle.x: k`: Paddle takes keyword k (a parameter of its signature or an alias) and we refuse it;
- `order paddle.x: [...] != [...]`: the positional parameters differ (names in order, up to the shorter list: a
  call passing them positionally binds otherwise);
- `default paddle.x: k = <Paddle's> != <ours>`.
tests/signature_allowlist.py says, with a reason each, which stay out.
"""
import fnmatch
import importlib
import inspect
import json
import os
import sys
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(ROOT, "tests", "golden", "signatures.json")

# a parameter Paddle's signature has and a shim wrapper may drop: it names the op in static graphs only
# (the wrappers keep it where the implementation reads it); still accepted as a keyword, checked as one
_NOT_ORDERED = {"name"}


def load():
    from tests import golden_file

    return golden_file.answers("signatures")


def _resolve(path):
    """The object at a dotted Paddle path under the shim, or an exception."""
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except Exception:  # noqa: BLE001 - not a module (the import hook may say so in its own way)
            continue
        try:
            for p in parts[i:]:
                obj = getattr(obj, p)
        except Exception as e:  # noqa: BLE001 - UnsupportedAPIError is an AttributeError too
            return e
        return obj
    return ImportError(path)


def _code_params(fn):
    """(names that can be given by keyword, takes **kwargs) read from the code object (the @op wrappers' header,
    which lists the alias keywords; `__signature__` may show the implementation's), else from the signature."""
    fn = getattr(fn, "__func__", fn)
    code = getattr(fn, "__code__", None)
    if code is not None and not hasattr(fn, "__wrapped__"):
        n = code.co_argcount + code.co_kwonlyargcount
        names = set(code.co_varnames[code.co_posonlyargcount:n])
        return names, bool(code.co_flags & inspect.CO_VARKEYWORDS)
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None, True
    names = {p.name for p in sig.parameters.values() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return names, any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values())


def _probe_accepts(call, keyword):
    from tests.signature_probe import accepts

    return accepts(call, keyword) is not False


_NO_SUCH_KEYWORD = "no_such_keyword_in_paddle"


def _sink(call):
    """Whether a callable taking **kwargs runs with a keyword no Paddle API has (a call that fails, on a missing
    argument say, tells nothing)."""
    from tests.signature_probe import LAST_ERROR, accepts

    return accepts(call, _NO_SUCH_KEYWORD) is True and LAST_ERROR[0] is None


def _positional(ps):
    return [p[0] for p in ps if p[1] in ("pos", "posonly") and p[0] not in _NOT_ORDERED]


def _our_params(fn, drop_first=False):
    from tests.signature_probe import params

    ps = params(fn, drop_self=not drop_first)
    if ps and drop_first and ps[0][1] in ("pos", "posonly"):
        ps = ps[1:]
    return ps


_REQUIRED = ({"required": True}, {"repr": "<class _MISSING>"})  # (the op wrappers' sentinel for a required
# parameter that an alias may give instead)


def _same_default(a, b):
    if a == b or (a in _REQUIRED and b in _REQUIRED):
        return True
    if isinstance(a, dict) and isinstance(b, dict) and "repr" in a and "repr" in b:
        return a["repr"].replace("paddle.", "") == b["repr"].replace("paddle.", "")
    if isinstance(a, dict) and "seq" in a and isinstance(b, dict) and "seq" in b:
        return a["seq"] == b["seq"]
    return False


def compare(api, golden, ours, call, drop_first=False):
    """The gaps of one callable: `golden` is its recorded entry, `ours` the shim's callable, `call(**kw)` a probe
    call (used only where our callable takes **kwargs, so its header cannot tell)."""
    gaps = []
    gps = golden.get("params")
    if gps is None:
        gps = []
    if drop_first and gps and gps[0][0] == "self":  # (a C++ method's signature lists its self)
        gps = gps[1:]
    wanted = [p[0] for p in gps if p[1] in ("pos", "kwonly")]
    wanted += [a for a in golden.get("aliases", {}) if a not in wanted]
    names, varkw = _code_params(ours)
    if names is None:
        names = set()
    if drop_first:
        try:
            first = next(iter(inspect.signature(ours).parameters))
            names.discard(first)
        except (TypeError, ValueError, StopIteration):
            pass
    for k in wanted:
        if k in names:
            continue
        if varkw and call is not None and _probe_accepts(call, k):
            continue
        gaps.append(f"keyword {api}: {k}")
    if varkw and call is not None and not any(p[1] == "varkw" for p in gps) and _sink(call):
        gaps.append(f"keyword sink {api}: takes keywords Paddle refuses")  # (one silently ignored: a wrong answer)
    ops = _our_params(ours, drop_first=drop_first)
    if ops is not None and gps:
        a, b = _positional(gps), _positional(ops)
        if not any(p[1] == "var" for p in ops):
            n = min(len(a), len(b))
            if a[:n] != b[:n] or len(b) < len(a):
                gaps.append(f"order {api}: {a} != {b}")
        ours_by_name = {p[0]: p[2] for p in ops}
        for name, kind, default in gps:
            if kind in ("var", "varkw") or name not in ours_by_name or name in _NOT_ORDERED:
                continue
            if not _same_default(default, ours_by_name[name]):
                gaps.append(f"default {api}: {name} = {json.dumps(default)} != {json.dumps(ours_by_name[name])}")
    return gaps


def _probe_tensor():
    import paddle_on_torch

    return paddle_on_torch.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])


def _layer_class(obj):
    try:
        from paddle_on_torch.nn import Layer
    except Exception:  # noqa: BLE001
        return False
    return isinstance(obj, type) and issubclass(obj, Layer)


def gaps(prefixes=()):
    import paddle_on_torch
    from paddle_on_torch import Tensor

    paddle_on_torch.install()

    data = load()
    out = []
    # names
    for ns, names in data["names"].items():
        for n, kind in names.items():
            path = f"{ns}.{n}"
            if prefixes and not path.startswith(tuple(prefixes)):
                continue
            obj = _resolve(path)
            if isinstance(obj, BaseException):
                out.append(f"missing {path}")
                continue
            entry = data["callables"].get(path)
            if entry is None:
                continue
            if "init" in entry:
                if not isinstance(obj, type):
                    continue
                out += compare(path, entry["init"], obj.__init__,
                               None if not _layer_class(obj) else (lambda c=obj, **kw: c(**kw)))
                if "forward" in entry and hasattr(obj, "forward"):
                    out += compare(path + ".forward", entry["forward"], obj.forward,
                                   lambda f=obj.forward, **kw: f(object(), **kw))
            elif callable(obj) and not isinstance(obj, type):
                out += compare(path, entry, obj, lambda f=obj, **kw: f(**kw))
    # Tensor methods
    for n, entry in data["tensor_methods"].items():
        path = f"paddle.Tensor.{n}"
        if prefixes and not path.startswith(tuple(prefixes)):
            continue
        try:
            m = getattr(Tensor, n)
        except Exception:  # noqa: BLE001
            out.append(f"missing {path}")
            continue
        if not callable(m):
            continue
        is_fn = isinstance(inspect.getattr_static(Tensor, n), (types.FunctionType, staticmethod)) or \
            inspect.isfunction(m)
        out += compare(path, entry, m, lambda n=n, **kw: getattr(_probe_tensor(), n)(**kw), drop_first=is_fn)
    return out


def allowed(gap, allowlist):
    for pattern in allowlist:
        if fnmatch.fnmatchcase(gap, pattern):
            return True
    return False


def main(argv):
    from tests.signature_allowlist import ALLOW

    show_all = "--all" in argv
    prefixes = [a for a in argv if not a.startswith("--")]
    found = gaps(prefixes)
    shown = [g for g in found if show_all or not allowed(g, ALLOW)]
    by_kind = {}
    for g in shown:
        by_kind.setdefault(g.split(" ", 1)[0], []).append(g)
    for kind, items in sorted(by_kind.items()):
        print(f"== {kind}: {len(items)}")
        for g in items:
            print("  " + g)
    print(f"{len(shown)} gaps ({len(found) - len(shown)} allow-listed)")


if __name__ == "__main__":
    sys.path.insert(0, ROOT)
    main(sys.argv[1:])
