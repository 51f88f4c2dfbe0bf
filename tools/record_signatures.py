"""Record the signatures and accepted keywords of real Paddle 3.3.1's public callables (run under the oracle).

    ~/oracle/bin/python tools/record_signatures.py

Walks every public namespace (dump_api.py's list and the torch-named modules Paddle 3.3 added), taking each
namespace's `__all__` and the names beyond it that its torch twin has too (`paddle.int`, `paddle.nn.ZeroPad2d`,
`paddle.asin_`: Paddle's PyTorch-style face lives mostly outside `__all__`; TORCH_TWIN), every Tensor method, and
for each callable:

- `params`: its signature as inspect shows it (the undecorated one: Paddle's decorators copy it);
- `aliases`: the keywords it accepts beyond its parameters, found by calling it with each candidate alone (the
  torch-style names of tests/signature_probe.py and the parameter names of torch's namesake), each with the
  parameter it stands for where a decorator's table says so or the torch namesake's position tells;
- `opaque`: true where a made-up keyword is accepted too (`**kwargs`): nothing to learn by probing.

Layer classes get their constructor and `forward`.  Writes tests/golden/signatures.json, which
tests/signature_parity.py holds paddle_on_torch to, and paddle_on_torch/_paddle_aliases.json (alias_table): the
aliases the shim's op generator and Layers accept.  Names only and argument names; no Paddle code.
"""
import importlib
import inspect
import json
import os
import re
import sys
import types
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tools"))
os.environ.setdefault("GLOG_minloglevel", "3")
warnings.filterwarnings("ignore")

import paddle  # noqa: E402
import torch  # noqa: E402

from dump_api import NAMESPACES  # noqa: E402
from tests.signature_probe import (COMMON_ALIASES, LAST_ERROR, accepts, alias_targets, params,  # noqa: E402
                                   torch_param_names)

assert "paddle_on_torch" not in paddle.__file__, "record_signatures must run under real Paddle"

# the torch-named modules of Paddle 3.3 (not in dump_api's list: nothing there is in a parent's __all__)
EXTRA_NAMESPACES = ["paddle.functional", "paddle.nn.attention", "paddle.nn.parameter", "paddle.nn.modules",
                    "paddle.compat", "paddle.compat.nn", "paddle.compat.nn.functional"]
# namespaces whose callables are recorded by name and signature but never called: starting processes,
# downloading, or changing the process's device state
NO_PROBE = ("paddle.distributed", "paddle.utils.download", "paddle.hub", "paddle.dataset", "paddle.text",
            "paddle.vision.datasets", "paddle.inference", "paddle.onnx", "paddle.sysconfig", "paddle.device",
            "paddle.cuda", "paddle.profiler", "paddle.static", "paddle.jit", "paddle.hapi", "paddle.callbacks",
            "paddle.audio", "paddle.incubate", "paddle.io")
NO_PROBE_NAMES = {"set_device", "set_default_device", "enable_static", "disable_static", "set_flags", "seed",
                  "set_default_dtype", "set_grad_enabled", "set_printoptions", "run_check", "set_rng_state",
                  "set_cuda_rng_state", "manual_seed", "save", "load", "enable_grad", "no_grad", "LazyGuard",
                  "set_autocast_enabled", "use_compat_guard", "enable_torch_proxy", "disable_torch_proxy",
                  "use_torch_proxy_guard", "async_save", "clear_async_save_task_queue", "summary", "flops",
                  "set_default_device"}
TORCH_NS = {"paddle": "", "paddle.nn": "nn", "paddle.nn.functional": "nn.functional", "paddle.linalg": "linalg",
            "paddle.fft": "fft", "paddle.special": "special", "paddle.functional": "functional",
            "paddle.compat": "", "paddle.signal": "signal"}
NONSENSE = "zz_not_a_keyword"


def paddle_defined(obj):
    mod = getattr(obj, "__module__", None) or getattr(type(obj), "__module__", "") or ""
    if isinstance(obj, types.ModuleType):
        return obj.__name__.startswith("paddle")
    return mod.startswith("paddle") or type(obj).__module__.startswith("paddle")


def kind(obj):
    if isinstance(obj, types.ModuleType):
        return "module"
    if isinstance(obj, type):
        return "class"
    if callable(obj):
        return "function"
    return "value"


from dump_api import TORCH_TWIN, TWIN_SKIP  # noqa: E402  (one rule for both tables)


def _torch_twin(ns):
    name = TORCH_TWIN.get(ns)
    if name is None:
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def public_names(ns, mod):
    listed = set(getattr(mod, "__all__", None) or [])
    twin = _torch_twin(ns)
    out = {}
    for n in sorted(set(dir(mod)) | listed):
        if n.startswith("_"):
            continue
        try:
            obj = getattr(mod, n)
        except Exception:  # noqa: BLE001
            continue
        if n in listed or (twin is not None and hasattr(twin, n) and paddle_defined(obj)
                           and f"{ns}.{n}" not in TWIN_SKIP):
            if isinstance(obj, types.ModuleType) and not obj.__name__.startswith(ns + ".") and n not in listed:
                continue  # an import of another Paddle module (paddle.compat.paddle), not a submodule
            out[n] = obj
    return out


def is_cpp_api(fn):
    return inspect.isbuiltin(fn) or getattr(fn, "__module__", "") == "paddle.base.dygraph.generated_tensor_methods_patch"


def reset():
    try:
        paddle.disable_static()
        paddle.set_default_dtype("float32")
        paddle.set_device("cpu")
        paddle.set_grad_enabled(True)
    except Exception:  # noqa: BLE001
        pass


def _accepts_stepwise(call, k):
    """accepts(), giving a C++ op one more required argument while its parser stops short of the keyword."""
    if not hasattr(call, "step"):
        return accepts(call, k)
    start, fill = call.step, dict(call.fill)
    try:
        while True:
            ok = accepts(call, k)
            msg = LAST_ERROR[0] or ""
            m = re.search(r"\(position (\d+)\).*but got (Tensor|list|int)", msg) if ok else None
            if m and "ProbeSentinel" not in msg:
                i = int(m.group(1)) - call.offset
                if 0 <= i < call.step and call.fill.get(i, 0) + 1 < _FILLERS:
                    call.fill[i] = call.fill.get(i, 0) + 1  # a filler the parser refused: the next kind
                    continue
            if ok is not None or call.step >= call.required:
                return ok
            call.step += 1
    finally:
        call.step, call.fill = start, fill


def _probe_all(call, keywords):
    """{keyword: accepted} for each keyword, or None when a made-up keyword is accepted too."""
    if _accepts_stepwise(call, NONSENSE) is not False:
        reset()
        return None
    found = {}
    for k in keywords:
        ok = bool(_accepts_stepwise(call, k))
        msg = LAST_ERROR[0] or ""
        # a C++ parser that took the keyword names the parameter it was parsing the sentinel into
        m = re.search(r"argument '(\w+)'", msg) if ok and "ProbeSentinel" in msg else None
        # ... or only its place in the op's signature, counted from 1: "#N", resolved by describe()
        m2 = re.search(r"argument \(position (\d+)\)", msg) if ok and "ProbeSentinel" in msg else None
        found[k] = m.group(1) if m else f"#{m2.group(1)}" if m2 else ok
        reset()
    return found


def _in_child(fn, *args):
    """fn(*args) in a forked child (a C++ argument parser given the probe's sentinel can crash the process):
    its result, or the string "crashed"."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            data = json.dumps(fn(*args)).encode()
        except BaseException:  # noqa: BLE001
            data = b'"crashed"'
        with os.fdopen(w, "wb") as f:
            f.write(data)
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    os.waitpid(pid, 0)
    return json.loads(data) if data else "crashed"


def probe(call, own, torch_names):
    """The keywords beyond `own` that the callable accepts; None when it takes anything.  Each callable is
    probed in a child process; where that crashes, each keyword in its own child (one that crashes counts as
    accepted: the parser took the keyword and failed on the sentinel's value)."""
    keywords = [k for k in dict.fromkeys(list(torch_names) + list(COMMON_ALIASES)) if k not in own]
    res = _in_child(_probe_all, call, keywords)
    if res == "crashed":
        if _in_child(lambda: _accepts_stepwise(call, NONSENSE)) is not False:
            return None
        res = {}
        for k in keywords:
            one = _in_child(lambda k=k: _accepts_stepwise(call, k))
            res[k] = one is not False
    if res is None:
        return None
    return {k: (res[k] if isinstance(res[k], str) else None) for k in keywords if res.get(k)}


def guess_target(alias, ps, torch_names):
    """The parameter an accepted alias stands for where neither a decorator's table nor the C++ parser named it:
    only the usual pairs (input -> x, other -> y, dim / dims -> axis, keepdims -> keepdim, size -> shape), when the
    callable has that parameter; else unknown (None: the shim does not guess).  (A torch namesake's position is no
    guide: Paddle orders its parameters otherwise, swapaxes(x, perm) against torch's swapaxes(input, axis0, axis1).)"""
    names = [p[0] for p in ps if p[1] in ("pos", "posonly", "kwonly")]
    usual = {"input": "x", "other": "y", "dim": "axis", "dims": "axis", "keepdims": "keepdim", "size": "shape"}
    return usual[alias] if usual.get(alias) in names else None


def method_call(fn, name):
    """A Tensor method's probe call on a fresh tensor (C++ methods get their required arguments as in
    function_call)."""
    inner = function_call(fn, bound=True)
    if not hasattr(inner, "step"):
        return lambda **kw: getattr(probe_tensor(), name)(**kw)

    def call(**kw):
        args = [_filler(call.fill.get(i, 0)) for i in range(call.step)]
        return getattr(probe_tensor(), name)(*args, **kw)

    call.step, call.required, call.fill, call.offset = 0, inner.required, {}, 1
    return call


def describe(fn, path, call, torch_path, drop_self=False, drop_first=False):
    ps = params(fn, drop_self=drop_self)
    full = ps or []
    if drop_first and ps and ps[0][1] in ("pos", "posonly"):
        ps = ps[1:]
    entry = {"params": ps}
    if ps is not None and any(p[1] == "varkw" for p in ps):
        entry["opaque"] = True
        return entry
    if call is None:
        return entry
    tnames = torch_param_names(torch, torch_path) if torch_path else []
    own = {p[0] for p in ps} if ps else set()
    found = probe(call, own, tnames)
    if found is None:
        entry["opaque"] = True
        return entry
    table = alias_targets(fn)
    if found:
        def place(named):
            if isinstance(named, str) and named.startswith("#"):
                i = int(named[1:]) - 1
                return full[i][0] if 0 <= i < len(full) else None
            return named

        entry["aliases"] = {a: table.get(a) or place(named) or guess_target(a, ps or [], tnames)
                            for a, named in found.items()}
    return entry


def probe_tensor():
    return paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])


def function_call(fn, bound=False):
    """The probe's call.  A C++ op parses its arguments in order and checks for unknown keywords last, so it
    gets its required arguments first (tensors), one more at a time while its parser stops at one left out:
    `call.step` is how many it gets."""
    if not is_cpp_api(fn):
        return lambda **kw: fn(**kw)
    ps = params(fn) or []
    required = [p[0] for p in ps if p[1] in ("pos", "posonly") and p[2] == {"required": True}]
    if bound and required:
        required = required[1:]

    def call(**kw):
        return fn(*[_filler(call.fill.get(i, 0)) for i in range(call.step)], **kw)

    call.step, call.required, call.fill, call.offset = 0, len(required) + (0 if bound else 1), {}, 0
    return call


_FILLERS = 3  # a tensor, a list of one tensor, the int 1: what a C++ op's required argument may need to parse


def _filler(kind):
    return (probe_tensor, lambda: [probe_tensor()], lambda: 1)[kind]()


def alias_table(out):
    """paddle_on_torch/_paddle_aliases.json's content: {api: {alias: parameter}} for each callable (a Layer's as
    `<class>.__init__` / `<class>.forward`, a method as `paddle.Tensor.<name>`), the aliases whose parameter is
    known, and `"out": "out"` where Paddle takes `out=`.  The op generator and the Layer classes read it: the
    shim declares Paddle's keyword aliases once, from this recording."""
    table = {}

    def add(api, entry):
        if not entry:
            return
        got = {a: t for a, t in (entry.get("aliases") or {}).items() if t}
        if any(p[0] == "out" for p in entry.get("params") or []) or "out" in (entry.get("aliases") or {}):
            got["out"] = "out"
        if got:
            table[api] = dict(sorted(got.items()))

    for api, entry in out["callables"].items():
        if "init" in entry:
            add(api + ".__init__", entry["init"])
            add(api + ".forward", entry.get("forward"))
        else:
            add(api, entry)
    for name, entry in out["tensor_methods"].items():
        add("paddle.Tensor." + name, entry)
    return dict(sorted(table.items()))


def write_alias_table(out):
    path = os.path.join(ROOT, "paddle_on_torch", "_paddle_aliases.json")
    with open(path + ".tmp", "w") as f:
        json.dump(alias_table(out), f, indent=0, sort_keys=True)
    os.replace(path + ".tmp", path)


def write(out):
    """tests/golden/signatures.json (one entry per part: names, callables, values, tensor_methods, each stamped
    with this recorder's source hash) and the alias table."""
    from tests import golden_file

    golden_file.write_recorded("signatures", {k: v for k, v in out.items() if k != "paddle_version"},
                               paddle.__version__)
    write_alias_table(out)


def main():
    out = {"paddle_version": paddle.__version__, "names": {}, "callables": {}, "values": {}}
    for ns in list(NAMESPACES) + EXTRA_NAMESPACES:
        try:
            mod = importlib.import_module(ns)
        except Exception as e:  # noqa: BLE001
            print(f"skip {ns}: {e}", file=sys.stderr)
            continue
        names = public_names(ns, mod)
        out["names"][ns] = {n: kind(o) for n, o in names.items()}
        tprefix = TORCH_NS.get(ns)
        no_probe = ns.startswith(NO_PROBE)
        for n, obj in names.items():
            path = f"{ns}.{n}"
            tpath = (f"{tprefix}.{n}" if tprefix else n) if tprefix is not None else None
            k = kind(obj)
            skip = no_probe or n in NO_PROBE_NAMES
            if k == "value":
                if type(obj).__module__.startswith("paddle") or isinstance(obj, (int, float, str, bool)):
                    out["values"][path] = repr(obj)
                continue
            if k == "module":
                continue
            if k == "function":
                out["callables"][path] = describe(obj, path, None if skip else function_call(obj), tpath)
            elif k == "class":
                is_layer = isinstance(obj, type) and issubclass(obj, paddle.nn.Layer)
                init = describe(obj.__init__, path, None if skip or not is_layer else (lambda c=obj, **kw: c(**kw)),
                                tpath + ".__init__" if tpath else None, drop_self=True)
                entry = {"init": init}
                fwd = getattr(obj, "forward", None) if is_layer else None
                if fwd is not None and fwd is not paddle.nn.Layer.forward:
                    entry["forward"] = describe(fwd, path + ".forward",
                                                None if skip else (lambda f=fwd, **kw: f(object(), **kw)),
                                                tpath + ".forward" if tpath else None, drop_self=True)
                out["callables"][path] = entry
        print(f"{ns}: {len(names)} names", file=sys.stderr)
    methods = {}
    for n in sorted(dir(paddle.Tensor)):
        if n.startswith("_"):
            continue
        attr = inspect.getattr_static(paddle.Tensor, n)
        if isinstance(attr, property) or not callable(getattr(paddle.Tensor, n, None)):
            continue
        skip = n in NO_PROBE_NAMES or n in ("register_hook", "backward", "clear_grad", "set_value")
        fn = getattr(paddle.Tensor, n)
        call = None if skip else method_call(fn, n)
        methods[n] = describe(fn, "paddle.Tensor." + n, call, "Tensor." + n, drop_first=inspect.isfunction(fn))
    out["tensor_methods"] = methods
    print(f"Tensor: {len(methods)} methods", file=sys.stderr)
    write(out)
    print(f"wrote tests/golden/signatures.json: {len(out['callables'])} callables, {len(methods)} methods",
          file=sys.stderr)


if __name__ == "__main__":
    main()
