"""The import hook: `import paddle[.x.y]` resolves to `paddle_on_torch[.x.y]`.

A meta-path finder placed first on sys.meta_path answers for `paddle` and
every `paddle.*` name, also when the real Paddle is installed.  The module
object is shared: `sys.modules['paddle.nn'] is paddle_on_torch.nn`.
"""
import importlib
import importlib.abc
import importlib.util
import os
import sys

PREFIX = "paddle"
TARGET = "paddle_on_torch"

# Paddle 3.3.1's own top-level modules: the hook serves these (and `paddle` itself), never the shim's internals
# (kernels, parallel, cli, interop, _normalize, ...), so `import paddle.cli` fails as it does under Paddle.
PADDLE_MODULES = frozenset({
    "_C", "_C_ops", "_classes", "_legacy_C_ops", "_ops", "_paddle_docs", "_pir_ops", "_typing", "amp", "api_tracer",
    "apy", "audio", "autograd", "base", "batch", "callbacks", "check_import_scipy", "cinn_config", "common_ops_import",
    "compat", "cost_model", "cuda", "cuda_env", "dataset", "decomposition", "device", "distributed", "distribution",
    "fft", "framework", "functional", "geometric", "hapi", "hub", "incubate", "inference", "io", "jit", "library",
    "libs", "linalg", "metric", "nn", "onnx", "optimizer", "pir", "pir_utils", "profiler", "quantization", "random",
    "reader", "regularizer", "signal", "sparse", "special", "static", "sysconfig", "tensor", "text", "utils",
    "version", "vision",
})


def _target(fullname):
    return TARGET + fullname[len(PREFIX):]


def _served(fullname):
    """Whether `fullname` (paddle or paddle.x...) is one of Paddle's own names, which the hook serves."""
    return fullname == PREFIX or fullname.split(".", 2)[1] in PADDLE_MODULES


def _alias_loaded_submodules(alias, target):
    """Register `paddle.x.y` for every `paddle_on_torch.x.y` already loaded under `target`.

    Importing a submodule that is not yet in sys.modules makes Python set it as an attribute of its
    package.  A package that rebinds that attribute (paddle.amp's `from .auto_cast import auto_cast`
    makes `paddle.amp.auto_cast` the function, as in Paddle) would get it clobbered by the module on a
    later `import paddle.amp.auto_cast`; with the alias registered first, Python sees the submodule as
    already imported and leaves the attribute alone, as it does in Paddle.
    """
    prefix = target + "."
    for name, module in list(sys.modules.items()):
        if name.startswith(prefix) and module is not None and _served(PREFIX + name[len(TARGET):]):
            sys.modules.setdefault(alias + name[len(target):], module)


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target):
        self.target = target
        self.own_spec = None

    def create_module(self, spec):
        module = importlib.import_module(self.target)
        _alias_loaded_submodules(spec.name, self.target)
        self.own_spec = module.__spec__
        return module

    def exec_module(self, module):
        # already executed under its own name; importlib has just set its __spec__ to the alias's: put it back
        module.__spec__ = self.own_spec

    def get_code(self, fullname):
        # what runpy runs for `python -m paddle.x.y` under the runner: paddle_on_torch.x.y's code
        spec = importlib.util.find_spec(self.target)
        return spec.loader.get_code(self.target)


def _setuptools_before_pip():
    """Import setuptools before the first `import pip`, as Paddle's own import does at start-up.

    setuptools' distutils hack turns itself off once pip is imported, so a program that imports pip before
    setuptools (PaddleNLP does, at import) gets the standard library's distutils, and every later import of
    setuptools (torch's cpp_extension: inductor, C++ kernels) fails its own assertion.  Paddle never meets this:
    `import paddle` imports setuptools.  Importing it for everyone would add ~0.2 s to `import paddle`; this pays
    it only in programs that import pip."""
    if "setuptools" not in sys.modules and "pip" not in sys.modules:
        try:
            import setuptools  # noqa: F401
        except Exception:  # no setuptools here: nothing to protect
            pass


class PaddleFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname != PREFIX and not fullname.startswith(PREFIX + "."):
            if fullname == "pip":
                _setuptools_before_pip()
            return None
        if not _served(fullname):
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        real = _target(fullname)
        real_spec = importlib.util.find_spec(real)
        if real_spec is None:
            from ._api import paddle_api, paddle_names
            from ._report import record

            parent, _, child = fullname.rpartition(".")
            if (fullname not in paddle_api()["namespaces"] and paddle_names(parent) and child not in
                    paddle_names(parent)):  # not a module of Paddle 3.3.1 either (paddle.utils.profiler): its error
                raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
            record(fullname)
            raise ModuleNotFoundError(f"{fullname} is not supported by paddle_on_torch yet", name=fullname)
        # a plain module stays one: `python -m paddle.distributed.launch` needs its __main__ not to be a package
        spec = importlib.util.spec_from_loader(fullname, _AliasLoader(real),
                                               is_package=real_spec.submodule_search_locations is not None)
        # runpy's `python -m paddle.x.y` takes __file__ from the origin: without one, __main__.__file__ is None and
        # inspect (torch imports use it) fails on it
        spec.origin = real_spec.origin
        return spec


class CheckoutFinder(importlib.abc.MetaPathFinder):
    """paddle_on_torch.kernels / .parallel in a checkout used without installing it (the repository put on
    sys.path, as shared tools do): setup.py's package_dir maps them to the top-level kernels/ and parallel/
    folders, which an installed package finds through its install; this finds them beside the package folder.
    It sits last on sys.meta_path, so an install's own mapping wins."""

    ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    PARTS = ("kernels", "parallel")

    def find_spec(self, fullname, path=None, target=None):
        parts = fullname.split(".")
        if len(parts) != 2 or parts[0] != TARGET or parts[1] not in self.PARTS:
            return None  # (their submodules are found through the package's __path__)
        location = os.path.join(self.ROOT, parts[1])
        init = os.path.join(location, "__init__.py")
        if not os.path.isfile(init):
            return None
        return importlib.util.spec_from_file_location(fullname, init, submodule_search_locations=[location])


def find_checkout_parts():
    if not any(isinstance(f, CheckoutFinder) for f in sys.meta_path):
        sys.meta_path.append(CheckoutFinder())


_finder = PaddleFinder()
_saved = {}


def _paddle_modules():
    return [m for m in sys.modules if m == PREFIX or m.startswith(PREFIX + ".")]


def install():
    """Make `import paddle` (and every `paddle.*`) resolve to paddle_on_torch."""
    if _finder in sys.meta_path:
        return
    for name in _paddle_modules():  # a real Paddle imported earlier steps aside
        _saved[name] = sys.modules.pop(name)
    sys.meta_path.insert(0, _finder)
    from . import extension_packages  # PaddleNLP's fused_ln / fast_ln, which its libraries import by name

    extension_packages.install()


def uninstall():
    """Undo install(): `import paddle` finds whatever it found before."""
    if _finder in sys.meta_path:
        sys.meta_path.remove(_finder)
        from . import extension_packages

        extension_packages.uninstall()
    for name in _paddle_modules():
        del sys.modules[name]
    sys.modules.update(_saved)
    _saved.clear()
