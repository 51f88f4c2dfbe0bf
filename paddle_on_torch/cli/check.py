"""`paddle-on-torch check PATH...`: the paddle.* APIs a script or project uses, and which are supported.

A static scan (nothing is run): each file is parsed with `ast`; imports of paddle bind aliases
(`import paddle as pd`, `import paddle.nn.functional as F`, `from paddle import nn`,
`from paddle.nn import Linear`), and every dotted use of an alias (`F.relu`, `nn.Linear`,
`pd.to_tensor`) is an API use.  A name is followed to the first object that is not a module
(`paddle.nn.Linear(...).weight` counts as `paddle.nn.Linear`), one step further for methods of
`paddle.Tensor`.  An API is *supported* when resolving it on paddle_on_torch neither raises nor
gives an UnsupportedAPIError; otherwise it is *missing*, and `known_to_paddle` says whether Paddle
3.3.1 has it at all (a removed Paddle 2 API such as `paddle.fluid`, or a typo, is not).

Limits of a static scan: names rebound later (`nn = something_else`), getattr with computed names
and APIs reached through objects (`x.abs()` on a Tensor) are not seen.
"""
import ast
import importlib
import json
import os
import sys

from . import EXIT_FAILED, EXIT_INPUT, EXIT_OK, CLIError, progress

_SKIP_DIRS = {"__pycache__", "site-packages", "node_modules", "build", "dist"}


def add_parser(sub):
    p = sub.add_parser("check", help="scan Paddle scripts or a project for the paddle.* APIs they use and report "
                                     "which ones paddle_on_torch supports")
    p.add_argument("paths", nargs="+", metavar="PATH", help="a .py file or a directory (scanned recursively)")
    p.add_argument("--json", action="store_true", help="print the full result as JSON")
    p.add_argument("--fail-under", type=float, default=None, metavar="PCT",
                   help="exit 1 if the total coverage (percent of distinct APIs supported) is below PCT")
    p.add_argument("-v", "--verbose", action="store_true", help="list supported APIs too")
    p.set_defaults(func=run)


# ===================================================================== finding the API uses


class _Scanner(ast.NodeVisitor):
    def __init__(self):
        self.aliases = {}  # local name -> dotted paddle name
        self.uses = []  # (dotted name, line)

    def visit_Import(self, node):
        for a in node.names:
            if a.name == "paddle" or a.name.startswith("paddle."):
                if a.asname:
                    self.aliases[a.asname] = a.name
                else:
                    self.aliases["paddle"] = "paddle"
                if a.name != "paddle":
                    self.uses.append((a.name, node.lineno))

    def visit_ImportFrom(self, node):
        mod = node.module or ""
        if node.level or not (mod == "paddle" or mod.startswith("paddle.")):
            return
        for a in node.names:
            if a.name == "*":
                self.uses.append((mod, node.lineno))
                continue
            full = f"{mod}.{a.name}"
            self.aliases[a.asname or a.name] = full
            self.uses.append((full, node.lineno))

    def _chain(self, node):
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name) and node.id in self.aliases:
            return ".".join([self.aliases[node.id]] + parts[::-1])
        return None


def scan_source(source, filename="<string>"):
    """[(dotted paddle name, line)] for one file's source."""
    tree = ast.parse(source, filename=filename)
    s = _Scanner()
    # imports first, so that aliases are known wherever they are used (`from paddle.nn import Linear`
    # counts as a use of paddle.nn.Linear at the import)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            s.visit_Import(node)
        elif isinstance(node, ast.ImportFrom):
            s.visit_ImportFrom(node)
    _AttrOnly(s).visit(tree)  # then every dotted use of an alias
    return s.uses


class _AttrOnly(ast.NodeVisitor):
    """Records the outermost attribute chain rooted at a paddle alias (its prefixes are part of it)."""

    def __init__(self, scanner):
        self.s = scanner

    def visit_Import(self, node):
        pass

    def visit_ImportFrom(self, node):
        pass

    def visit_Attribute(self, node):
        name = self.s._chain(node)
        if name is not None:
            self.s.uses.append((name, node.lineno))
            return
        self.generic_visit(node)


# ===================================================================== classifying a name


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

    def resolve(self, dotted):
        """(api name, supported: bool, detail)."""
        import types

        parts = dotted.split(".")
        obj, path = self.root, ["paddle"]
        for i, attr in enumerate(parts[1:], 1):
            if path[-1] != "paddle" and not isinstance(obj, types.ModuleType):
                if ".".join(path) != "paddle.Tensor":
                    break
            path.append(attr)
            try:
                obj = getattr(obj, attr)
            except self.Unsupported as e:
                return ".".join(path), False, str(e)
            except AttributeError as e:
                try:  # a submodule that its package does not import
                    obj = importlib.import_module("paddle_on_torch." + ".".join(path[1:]))
                except Exception:  # noqa: BLE001
                    return ".".join(path), False, str(e) or f"no attribute {attr!r}"
            except NotImplementedError as e:
                return ".".join(path), False, str(e)
            except Exception as e:  # noqa: BLE001 - resolving raised: not usable as it stands
                return ".".join(path), False, f"{type(e).__name__}: {e}"
            if ".".join(path) == "paddle.Tensor" and i == len(parts) - 1:
                break
        return ".".join(path), True, ""

    def classify(self, dotted):
        if dotted not in self.cache:
            api, ok, detail = self.resolve(dotted)
            self.cache[dotted] = (api, ok, detail)
        return self.cache[dotted]


# ===================================================================== files and reports


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


def check_files(paths):
    resolver = _Resolver()
    result = {"files": {}, "errors": {}}
    files = _python_files(paths)
    for path in progress(files, "check", len(files)):
        try:
            with open(path, "rb") as f:
                source = f.read()
            uses = scan_source(source, path)
        except (OSError, SyntaxError, ValueError, UnicodeDecodeError) as e:
            result["errors"][path] = f"{type(e).__name__}: {e}"
            continue
        apis = {}
        for dotted, line in uses:
            api, ok, detail = resolver.classify(dotted)
            entry = apis.setdefault(api, {"count": 0, "lines": [], "supported": ok,
                                          "known_to_paddle": resolver.known_to_paddle(api)})
            entry["count"] += 1
            if line not in entry["lines"]:
                entry["lines"].append(line)
            if detail and not ok:
                entry["detail"] = detail
        result["files"][path] = _summary(apis)
    every = {}
    for info in result["files"].values():
        for api, e in info["apis"].items():
            t = every.setdefault(api, {"count": 0, "supported": e["supported"], "known_to_paddle": e["known_to_paddle"]})
            t["count"] += e["count"]
    total = _summary(every)
    total["files"] = len(result["files"])
    result["total"] = total
    return result


def _summary(apis):
    supported = sum(1 for e in apis.values() if e["supported"])
    n = len(apis)
    return {"apis": dict(sorted(apis.items())), "distinct": n, "supported": supported, "missing": n - supported,
            "coverage": round(100.0 * supported / n, 1) if n else 100.0}


def run(args):
    result = check_files(args.paths)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        for path, info in result["files"].items():
            print(f"{path}: {info['distinct']} APIs, {info['supported']} supported, {info['missing']} missing "
                  f"({info['coverage']}%)")
            for api, e in info["apis"].items():
                if not e["supported"]:
                    note = "" if e["known_to_paddle"] else "  [not a Paddle 3.3.1 API]"
                    lines = ",".join(map(str, e["lines"][:8])) + ("..." if len(e["lines"]) > 8 else "")
                    uses = f"{e['count']} use{'s' if e['count'] != 1 else ''}"
                    where = f"line{'s' if len(e['lines']) != 1 else ''} {lines}"
                    print(f"  missing    {api}  ({uses}, {where}){note}")
                elif args.verbose:
                    print(f"  supported  {api}  ({e['count']} uses)")
        for path, err in result["errors"].items():
            print(f"{path}: could not be scanned: {err}", file=sys.stderr)
        t = result["total"]
        print(f"total: {t['files']} files, {t['distinct']} distinct APIs, {t['supported']} supported, "
              f"{t['missing']} missing ({t['coverage']}%)")
    if result["errors"]:
        return EXIT_INPUT
    if args.fail_under is not None and result["total"]["coverage"] < args.fail_under:
        return EXIT_FAILED
    return EXIT_OK
