"""The core is layered: no import, top-level or late (inside a function), runs from a floor to a higher one.

The floors are listed in paddle_on_torch/_core/__init__.py.  The graph is read from the source (AST), so an
import hidden in a function body counts as much as one at the top of a file.
"""
import ast
import os

import pytest

PACKAGE = "paddle_on_torch"
ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), PACKAGE)

# (floor, module prefixes); a module not listed here is on the top floor, free to import anything.
FLOORS = [
    (0, ("paddle_on_torch._errors", "paddle_on_torch._report", "paddle_on_torch._api")),
    (1, ("paddle_on_torch._core",)),
    (2, ("paddle_on_torch._normalize",)),
    (3, ("paddle_on_torch.tensor",)),
]
TOP = 4


def floor_of(module):
    for floor, prefixes in FLOORS:
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return floor
    return TOP


def _modules():
    """module name -> file path, for every module of the package."""
    out = {}
    for folder, _, files in os.walk(ROOT):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(folder, f)
                name = os.path.relpath(path, os.path.dirname(ROOT))[:-3].replace(os.sep, ".")
                out[name[:-len(".__init__")] if name.endswith(".__init__") else name] = path
    return out


def _targets(module, is_package, node, modules):
    """The package modules an import statement runs: the named module and the packages above it (their
    __init__ runs first), but not the root package, which is always loaded already (except when the statement
    imports the root itself: `import paddle_on_torch`, `from paddle_on_torch import name`)."""
    if isinstance(node, ast.Import):
        named = [a.name for a in node.names]
    else:
        if node.level:
            parts = module.split(".")[: len(module.split(".")) - node.level + (1 if is_package else 0)]
            base = ".".join(parts + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        named = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
    out = set()
    for name in named:
        if name != PACKAGE and not name.startswith(PACKAGE + "."):
            continue
        parts = name.split(".")
        out.update(".".join(parts[:i]) for i in range(2, len(parts) + 1) if ".".join(parts[:i]) in modules)
        if name == PACKAGE:
            out.add(PACKAGE)
    out.discard(module)
    return out


def import_edges():
    """(importer, imported, line) for every import between modules of the package."""
    modules = _modules()
    edges = []
    for module, path in modules.items():
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _targets(module, path.endswith("__init__.py"), node, modules):
                    edges.append((module, target, node.lineno))
    return edges


def test_the_graph_is_read():
    edges = {(a, b) for a, b, _ in import_edges()}
    assert ("paddle_on_torch.tensor.tensor", "paddle_on_torch._normalize") in edges
    assert ("paddle_on_torch._normalize.codegen", "paddle_on_torch._api") in edges, "late imports are read too"


def test_no_import_runs_up_a_floor():
    upward = sorted(f"{a}:{line} -> {b} (floor {floor_of(a)} -> {floor_of(b)})"
                    for a, b, line in import_edges() if floor_of(b) > floor_of(a))
    assert not upward, "imports from a floor to a higher one (hand the dependency down instead: " \
                       "paddle_on_torch/_core/__init__.py):\n" + "\n".join(upward)


@pytest.mark.parametrize("module", ["paddle_on_torch._core.dtype", "paddle_on_torch._core.place",
                                    "paddle_on_torch._normalize"])
def test_a_low_floor_imports_nothing_from_above(module):
    """Importing a low floor in a fresh interpreter does not load io, nn or distributed (it used to: importing
    framework.dtype ran paddle.save's module)."""
    import subprocess
    import sys

    # the package's __init__ (the top floor) must not run: a bare package object stands in for it
    code = (f"import importlib, sys, types\n"
            f"pkg = types.ModuleType({PACKAGE!r}); pkg.__path__ = [{ROOT!r}]; sys.modules[{PACKAGE!r}] = pkg\n"
            f"importlib.import_module({module!r})\n"
            f"print(' '.join(m for m in sys.modules if m.startswith({PACKAGE + '.'!r})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out and all(floor_of(m) <= floor_of(module) for m in out), out
