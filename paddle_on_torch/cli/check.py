"""`paddle-on-torch check PATH... | --package NAME`: the paddle.* APIs a script, project or installed package
uses, and which of them paddle_on_torch supports.

A static scan (nothing is run): each file is parsed with `ast`; imports of paddle bind aliases
(`import paddle as pd`, `import paddle.nn.functional as F`, `from paddle import nn`,
`from paddle.nn import Linear`) in the scope that imports them, and every dotted use of an alias (`F.relu`,
`nn.Linear`, `pd.to_tensor`) is an API use.  Python's scopes are followed: a parameter or local variable
named `tensor` hides a module-level `from paddle import tensor`.  A name is followed through modules and
classes to the first other object (`paddle.nn.Linear(...).weight` counts as `paddle.nn.Linear`,
`paddle.Tensor.abs` and `paddle.base.core.VarDesc.VarType.FP32` count whole).  Names the scanned code assigns
itself (`paddle.long = "int64"`, `setattr(paddle.Tensor, "view", view)`) are its own, not Paddle's: they are
listed apart and left out of the coverage.

An API is *supported* when resolving it on paddle_on_torch neither raises nor gives an UnsupportedAPIError;
*unsupported* (it says so) when resolving it raises a NotImplementedError naming it (an UnsupportedAPIError:
paddle_on_torch knows the name and refuses it with a message, a GPU-only kernel say); otherwise it is *missing*
(an AttributeError / ImportError: the name does not exist here).  An API *resolves* when it is supported or says
so.  `known_to_paddle` says whether Paddle 3.3.1's public API table has it.
`--reference PYTHON` resolves the same names in another interpreter whose `import paddle` is real Paddle,
and the coverage is then taken over the names that resolve there (a library's guarded use of an API its
Paddle lacks, `paddle.fluid` say, is not a gap of paddle_on_torch).

Limits of a static scan: getattr with computed names and APIs reached through objects (`x.abs()` on a
Tensor) are not seen.
"""
import ast
import importlib
import importlib.metadata
import importlib.util
import inspect
import json
import os
import subprocess
import sys

from . import EXIT_FAILED, EXIT_INPUT, EXIT_OK, EXIT_USAGE, CLIError, progress

_SKIP_DIRS = {"__pycache__", "site-packages", "node_modules", "build", "dist"}


def add_parser(sub):
    p = sub.add_parser("check", help="scan Paddle scripts, a project or an installed package for the paddle.* APIs "
                                     "they use and report which ones paddle_on_torch supports")
    p.add_argument("paths", nargs="*", metavar="PATH", help="a .py file or a directory (scanned recursively)")
    p.add_argument("--package", action="append", default=[], metavar="NAME",
                   help="an installed package, by import name (ppsci) or distribution name (paddlesci): its "
                        "sources are scanned and the coverage is reported per API (repeatable)")
    p.add_argument("--reference", metavar="PYTHON",
                   help="an interpreter whose `import paddle` is real Paddle: each name is also resolved there, "
                        "and the coverage is taken over the names that real Paddle has")
    p.add_argument("--json", action="store_true", help="print the full result as JSON")
    p.add_argument("--fail-under", type=float, default=None, metavar="PCT",
                   help="exit 1 if the total coverage (percent of distinct APIs supported) is below PCT")
    p.add_argument("-v", "--verbose", action="store_true", help="list supported APIs too")
    p.set_defaults(func=run)


# ===================================================================== finding the API uses

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_SCOPES = _FUNCTIONS + _COMPREHENSIONS + (ast.ClassDef,)


def _is_paddle(module):
    return module == "paddle" or module.startswith("paddle.")


class _Scope:
    """The names one scope binds: paddle aliases (local name -> dotted name) and every other binding."""

    def __init__(self, node):
        self.node = node
        self.aliases = {}
        self.others = set()
        self.imports = []  # (dotted name, line): each paddle import is a use
        declared_outside = set()
        if isinstance(node, _FUNCTIONS):
            a = node.args
            for arg in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg]:
                if arg is not None:
                    self.others.add(arg.arg)
        for n in _own_nodes(node):
            if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
                self.others.add(n.id)
            elif isinstance(n, ast.Import):
                self._import(n)
            elif isinstance(n, ast.ImportFrom):
                self._import_from(n)
            elif isinstance(n, _SCOPES) and not isinstance(n, (ast.Lambda,) + _COMPREHENSIONS):
                self.others.add(n.name)
            elif isinstance(n, ast.ExceptHandler) and n.name:
                self.others.add(n.name)
            elif isinstance(n, (ast.Global, ast.Nonlocal)):
                declared_outside.update(n.names)
        self.others -= declared_outside
        for name in declared_outside:
            self.aliases.pop(name, None)

    def _import(self, node):
        for a in node.names:
            if not _is_paddle(a.name):
                self.others.add(a.asname or a.name.partition(".")[0])
                continue
            self.aliases[a.asname or "paddle"] = a.name if a.asname else "paddle"
            if a.name != "paddle":
                self.imports.append((a.name, node.lineno))

    def _import_from(self, node):
        mod = node.module or ""
        if node.level or not _is_paddle(mod):
            self.others.update(a.asname or a.name for a in node.names if a.name != "*")
            return
        for a in node.names:
            if a.name == "*":
                self.imports.append((mod, node.lineno))
                continue
            full = f"{mod}.{a.name}"
            self.aliases[a.asname or a.name] = full
            self.imports.append((full, node.lineno))


def _own_nodes(scope):
    """The nodes of one scope, without the bodies of the scopes nested in it (whose names bind here)."""
    if isinstance(scope, ast.Lambda):
        stack = [scope.body]
    elif isinstance(scope, _COMPREHENSIONS):
        stack = [g.target for g in scope.generators]
    else:
        stack = list(scope.body)
    while stack:
        n = stack.pop()
        yield n
        if not isinstance(n, _SCOPES):
            stack.extend(ast.iter_child_nodes(n))


class _Scanner(ast.NodeVisitor):
    """Walks a module through its scopes and records each dotted use of a paddle alias."""

    def __init__(self):
        self.scopes = []
        self.uses = []  # (dotted name, line)
        self.defined = []  # (dotted name, line): paddle names the scanned code assigns itself

    def lookup(self, name):
        """The dotted paddle name `name` stands for here, or None (not an alias, or hidden by a local)."""
        for i, scope in enumerate(reversed(self.scopes)):
            if i and isinstance(scope.node, ast.ClassDef):
                continue  # a class body's names are not seen from the functions inside it
            if name in scope.aliases:
                return scope.aliases[name]
            if name in scope.others:
                return None
        return None

    def chain(self, node):
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name):
            root = self.lookup(node.id)
            if root is not None:
                return ".".join([root] + parts[::-1])
        return None

    def visit_scope(self, node):
        scope = _Scope(node)
        self.uses.extend(scope.imports)
        self.scopes.append(scope)
        self.generic_visit(node)
        self.scopes.pop()

    visit_Module = visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = visit_scope
    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_scope

    def visit_Attribute(self, node):
        name = self.chain(node)
        if name is None:
            self.generic_visit(node)
        elif isinstance(node.ctx, ast.Load):
            self.uses.append((name, node.lineno))
        else:
            self.defined.append((name, node.lineno))

    def visit_Call(self, node):
        # setattr(paddle.Tensor, "view", view): the scanned code defines paddle.Tensor.view
        if (isinstance(node.func, ast.Name) and node.func.id == "setattr" and len(node.args) == 3
                and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)):
            target = node.args[0]
            owner = self.chain(target) if isinstance(target, ast.Attribute) else (
                self.lookup(target.id) if isinstance(target, ast.Name) else None)
            if owner is not None:
                self.defined.append((f"{owner}.{node.args[1].value}", node.lineno))
        self.generic_visit(node)


def scan_source(source, filename="<string>"):
    """[(dotted paddle name, line)] for one file's source."""
    return scan(source, filename)[0]


def scan(source, filename="<string>"):
    """([(dotted name, line) used], [(dotted name, line) assigned by the code itself]) for one file."""
    s = _Scanner()
    s.visit(ast.parse(source, filename=filename))
    return s.uses, s.defined


# ===================================================================== classifying a name


def resolve_chain(root, dotted, unsupported=()):
    """(api, resolved: bool, detail, says_so: bool) for a dotted name `paddle.a.b...` on the module `root`
    standing for `paddle`.  Followed through modules (importing a submodule its package does not import) and
    classes, up to the first other object.  `says_so`: resolving raised a NotImplementedError (the name is
    known and refused with a message naming it).  Self-contained: its source also runs in the --reference
    interpreter."""
    import importlib
    import types

    parts = dotted.split(".")
    obj, path = root, parts[:1]
    for attr in parts[1:]:
        if not isinstance(obj, (types.ModuleType, type)):
            break
        module = isinstance(obj, types.ModuleType)
        path.append(attr)
        name = ".".join(path)
        try:
            obj = getattr(obj, attr)
        except unsupported as e:
            return name, False, str(e), True
        except AttributeError as e:
            if not module:
                return name, False, str(e) or f"no attribute {attr!r}", False
            try:  # a submodule that its package does not import
                obj = importlib.import_module(".".join([root.__name__] + path[1:]))
            except NotImplementedError as e2:  # a module that refuses to load, naming itself
                return name, False, str(e2), True
            except Exception:  # noqa: BLE001
                return name, False, str(e) or f"no attribute {attr!r}", False
        except NotImplementedError as e:
            return name, False, str(e), True
        except Exception as e:  # noqa: BLE001 - resolving raised: not usable as it stands
            return name, False, f"{type(e).__name__}: {e}", False
    marked = getattr(obj, "__paddle_on_torch_unsupported__", None)  # a function whose calls refuse, naming it
    if isinstance(marked, str):
        return ".".join(path), False, f"{marked} is not supported by paddle_on_torch yet (calling it raises)", True
    return ".".join(path), True, "", False


class _Resolver:
    def __init__(self):
        import paddle_on_torch
        from .._api import paddle_api
        from .._report import UnsupportedAPIError

        self.root = paddle_on_torch
        self.namespaces = paddle_api()["namespaces"]
        self.tensor_methods = set(paddle_api().get("tensor_methods", []))
        self.Unsupported = UnsupportedAPIError
        self.cache = {}

    def known_to_paddle(self, name):
        ns, _, attr = name.rpartition(".")
        if name in self.namespaces:
            return True
        if ns == "paddle.Tensor":
            return attr in self.tensor_methods
        return attr in self.namespaces.get(ns, {})

    def classify(self, dotted):
        if dotted not in self.cache:
            self.cache[dotted] = resolve_chain(self.root, dotted, self.Unsupported)
        return self.cache[dotted]


_REFERENCE_MAIN = '''
import json, sys
sys.path[:] = [p for p in sys.path if p != ""]  # not the current directory: a folder named paddle there would win
names = json.load(sys.stdin)
import paddle
if "paddle_on_torch" in getattr(paddle, "__file__", ""):
    sys.exit("--reference: `import paddle` is paddle_on_torch in this interpreter, not real Paddle")
out = {"version": paddle.__version__, "names": {n: resolve_chain(paddle, n)[1] for n in names}}
sys.stdout.write("\\n@@paddle-on-torch-check@@" + json.dumps(out) + "\\n")
'''


def resolve_in_reference(python, names):
    """{name: resolves in real Paddle} and real Paddle's version, from another interpreter."""
    code = inspect.getsource(resolve_chain) + _REFERENCE_MAIN
    env = dict(os.environ, GLOG_minloglevel="3")  # Paddle's start-up logging
    try:
        proc = subprocess.run([python, "-c", code], input=json.dumps(sorted(names)), capture_output=True,
                              text=True, env=env, timeout=1800)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise CLIError(f"--reference {python}: {e}", EXIT_USAGE) from None
    marker = "@@paddle-on-torch-check@@"
    if proc.returncode != 0 or marker not in proc.stdout:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        raise CLIError(f"--reference {python}: could not resolve the names there ({tail[0]})", EXIT_USAGE)
    out = json.loads(proc.stdout.rsplit(marker, 1)[1])
    return out["names"], out["version"]


# ===================================================================== files and packages


def _python_files(paths):
    files = []
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, names in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS)
                files.extend(os.path.join(root, n) for n in sorted(names) if n.endswith(".py"))
        elif os.path.exists(path):
            files.append(path)
        else:
            raise CLIError(f"{path}: no such file or directory", EXIT_INPUT)
    return files


def package_paths(name):
    """The source folders (or single module files) of an installed package, found without importing it: by
    import name first, else by distribution name (every top-level package the distribution installs)."""
    try:
        spec = importlib.util.find_spec(name) if "." not in name and "-" not in name else None
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.origin not in (None, "built-in", "frozen"):
        if spec.submodule_search_locations:
            return sorted(spec.submodule_search_locations)
        return [spec.origin]
    try:
        dist = importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        raise CLIError(f"--package {name}: no installed package or distribution of that name", EXIT_INPUT) from None
    tops = set()
    for f in dist.files or ():
        parts = f.parts
        if f.suffix == ".py" and len(parts) >= 1 and not parts[0].endswith((".dist-info", ".egg-info", ".data")):
            if ".." not in parts:
                tops.add(parts[0])
    paths = sorted({os.path.normpath(str(dist.locate_file(t))) for t in tops})
    paths = [p for p in paths if os.path.exists(p)]
    if not paths:
        raise CLIError(f"--package {name}: the distribution has no Python sources", EXIT_INPUT)
    return paths


def check_files(paths, reference=None):
    """Scan files and folders; `reference` is an interpreter whose `import paddle` is real Paddle, or None."""
    resolver = _Resolver()
    result = {"files": {}, "errors": {}, "defined": {}}
    files = _python_files(paths)
    scanned = {}
    defined = {}
    for path in progress(files, "check", len(files)):
        try:
            with open(path, "rb") as f:
                source = f.read()
            scanned[path], own = scan(source, path)
        except (OSError, SyntaxError, ValueError, UnicodeDecodeError) as e:
            result["errors"][path] = f"{type(e).__name__}: {e}"
            continue
        for name, _ in own:
            defined[name] = defined.get(name, 0) + 1
    in_reference, version = {}, None
    if reference:
        names = {resolver.classify(d)[0] for uses in scanned.values() for d, _ in uses}
        in_reference, version = resolve_in_reference(reference, names)
        result["reference"] = {"python": reference, "paddle": version}
    for path, uses in scanned.items():
        apis = {}
        for dotted, line in uses:
            api, ok, detail, says_so = resolver.classify(dotted)
            if api in defined:
                continue  # the scanned code assigns this name itself
            entry = apis.get(api)
            if entry is None:
                entry = apis[api] = {"count": 0, "lines": [], "supported": ok,
                                     "known_to_paddle": resolver.known_to_paddle(api)}
                if says_so:
                    entry["unsupported"] = True
                if reference:
                    entry["in_reference"] = in_reference.get(api, False)
            entry["count"] += 1
            if line not in entry["lines"]:
                entry["lines"].append(line)
            if detail and not ok:
                entry["detail"] = detail
        result["files"][path] = _summary(apis)
    result["defined"] = dict(sorted(defined.items()))
    every = {}
    for info in result["files"].values():
        for api, e in info["apis"].items():
            t = every.get(api)
            if t is None:
                t = every[api] = {k: v for k, v in e.items() if k not in ("count", "lines")}
                t.update(count=0, files=0)
            t["count"] += e["count"]
            t["files"] += 1
    total = _summary(every)
    total["files"] = len(result["files"])
    result["total"] = total
    return result


def _summary(apis):
    """Counts over one file's (or package's) APIs.  `coverage`: the share supported; `resolved_coverage`: the
    share that resolves (supported, or unsupported with a NotImplementedError naming it)."""
    supported = sum(1 for e in apis.values() if e["supported"])
    says_so = sum(1 for e in apis.values() if e.get("unsupported"))
    n = len(apis)
    out = {"apis": dict(sorted(apis.items())), "distinct": n, "supported": supported, "unsupported": says_so,
           "missing": n - supported - says_so, "coverage": _pct(supported, n),
           "resolved_coverage": _pct(supported + says_so, n)}
    if any("in_reference" in e for e in apis.values()):
        ref = [e for e in apis.values() if e["in_reference"]]
        out["in_reference"] = len(ref)
        out["reference_supported"] = sum(1 for e in ref if e["supported"])
        out["reference_unsupported"] = sum(1 for e in ref if e.get("unsupported"))
        out["reference_coverage"] = _pct(out["reference_supported"], len(ref))
        out["reference_resolved_coverage"] = _pct(out["reference_supported"] + out["reference_unsupported"], len(ref))
    return out


def _pct(part, whole):
    return round(100.0 * part / whole, 1) if whole else 100.0


# ===================================================================== reports


def _coverage_line(label, t):
    line = f"{label}: {t['distinct']} APIs, {t['supported']} supported, "
    if t["unsupported"]:
        line += f"{t['unsupported']} unsupported (saying so), "
    line += f"{t['missing']} missing ({t['coverage']}%"
    line += f"; {t['resolved_coverage']}% resolve)" if t["unsupported"] else ")"
    if "in_reference" in t:
        line += (f"; of the {t['in_reference']} that real Paddle has, {t['reference_supported']} supported "
                 f"({t['reference_coverage']}%")
        line += (f", {t['reference_resolved_coverage']}% resolve)" if t["reference_unsupported"] else ")")
    return line


def _note(e):
    if "in_reference" in e:
        return "" if e["in_reference"] else "  [not in the reference Paddle either]"
    return "" if e["known_to_paddle"] else "  [not a Paddle 3.3.1 API]"


def _status(e):
    return "supported" if e["supported"] else "unsupported" if e.get("unsupported") else "missing"


def _print_files(result, verbose):
    for path, info in result["files"].items():
        print(_coverage_line(path, info))
        for api, e in info["apis"].items():
            if not e["supported"]:
                lines = ",".join(map(str, e["lines"][:8])) + ("..." if len(e["lines"]) > 8 else "")
                uses = f"{e['count']} use{'s' if e['count'] != 1 else ''}"
                where = f"line{'s' if len(e['lines']) != 1 else ''} {lines}"
                print(f"  {_status(e):<10} {api}  ({uses}, {where}){_note(e)}")
            elif verbose:
                print(f"  supported  {api}  ({e['count']} uses)")


def _print_package(name, result, verbose):
    """One block per package: the APIs by name with their use and file counts, missing ones first."""
    t = result["total"]
    print(_coverage_line(f"{name} ({t['files']} files)", t))
    order = {"missing": 0, "unsupported": 1, "supported": 2}
    rows = sorted(t["apis"].items(), key=lambda kv: (order[_status(kv[1])], -kv[1]["count"], kv[0]))
    for api, e in rows:
        if e["supported"] and not verbose:
            continue
        where = f"{e['count']} use{'s' if e['count'] != 1 else ''} in {e['files']} file{'s' if e['files'] != 1 else ''}"
        if e["supported"]:
            print(f"  supported  {api}  ({where})")
        else:
            detail = f": {e['detail']}" if e.get("detail") else ""
            print(f"  {_status(e):<10} {api}  ({where}){_note(e)}{detail[:200]}")
    if result["defined"]:
        print(f"  ({len(result['defined'])} paddle names the package assigns itself, left out: "
              + ", ".join(list(result["defined"])[:6]) + (", ..." if len(result["defined"]) > 6 else "") + ")")


def run(args):
    if not args.paths and not args.package:
        raise CLIError("give a PATH or --package NAME", EXIT_USAGE)
    results = {}
    if args.paths:
        results[None] = check_files(args.paths, args.reference)
    for name in args.package:
        results[name] = check_files(package_paths(name), args.reference)
        results[name]["package"] = {"name": name, "paths": package_paths(name)}
    if args.json:
        if list(results) == [None]:
            print(json.dumps(results[None], indent=1))
        else:
            print(json.dumps({"paths" if k is None else k: v for k, v in results.items()}, indent=1))
    else:
        for name, result in results.items():
            if name is None:
                _print_files(result, args.verbose)
                t = result["total"]
                print(_coverage_line("total", t).replace("total:", f"total: {t['files']} files,", 1)
                      .replace(" APIs,", " distinct APIs,", 1))
            else:
                _print_package(name, result, args.verbose)
            for path, err in result["errors"].items():
                print(f"{path}: could not be scanned: {err}", file=sys.stderr)
    if any(r["errors"] for r in results.values()):
        return EXIT_INPUT
    if args.fail_under is not None:
        key = "reference_coverage" if args.reference else "coverage"
        if any(r["total"][key] < args.fail_under for r in results.values()):
            return EXIT_FAILED
    return EXIT_OK
