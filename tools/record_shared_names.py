"""Record, from real Paddle, the names where a package attribute and a submodule of ours share a name.

    ~/oracle/bin/python tools/record_shared_names.py

For every submodule paddle_on_torch has (found by walking its folders, without importing it), imports the
same module under real Paddle and records what Paddle's package attribute of that name is after the import:
a function or class (paddle.amp.auto_cast, paddle.distributed.communication.reduce, ...) or the module.
Writes tests/golden/shared_names.json; tests/test_name_binding.py holds the shim to it.
"""
import importlib
import os
import sys
import types
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PKG = os.path.join(ROOT, "paddle_on_torch")


def our_submodules():
    out = []
    for dirpath, dirnames, filenames in os.walk(PKG):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(("_", ".")) and
                             os.path.isfile(os.path.join(dirpath, d, "__init__.py")))
        rel = os.path.relpath(dirpath, PKG)
        prefix = "paddle" if rel == "." else "paddle." + rel.replace(os.sep, ".")
        out += [f"{prefix}.{d}" for d in dirnames]
        out += [f"{prefix}.{f[:-3]}" for f in sorted(filenames)
                if f.endswith(".py") and not f.startswith("_")]
    return out


def main():
    warnings.filterwarnings("ignore")
    import paddle

    assert "paddle_on_torch" not in paddle.__file__, "run this under real Paddle"
    kinds = {}
    for name in our_submodules():
        parent, child = name.rsplit(".", 1)
        try:
            importlib.import_module(name)
            value = getattr(importlib.import_module(parent), child)
        except Exception:  # noqa: BLE001 - Paddle lacks the module (one of ours only)
            continue
        if not isinstance(value, types.ModuleType):
            kinds[name] = "class" if isinstance(value, type) else type(value).__name__
    sys.path.insert(0, ROOT)
    from tests import golden_file

    path = golden_file.write_recorded("shared_names", kinds, paddle.__version__)
    print(f"{len(kinds)} names -> {os.path.relpath(path, ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
