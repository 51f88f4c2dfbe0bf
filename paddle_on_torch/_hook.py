"""The import hook: `import paddle[.x.y]` resolves to `paddle_on_torch[.x.y]`.

A meta-path finder placed first on sys.meta_path answers for `paddle` and
every `paddle.*` name, also when the real Paddle is installed.  The module
object is shared: `sys.modules['paddle.nn'] is paddle_on_torch.nn`.
"""
import importlib
import importlib.abc
import importlib.util
import sys

PREFIX = "paddle"
TARGET = "paddle_on_torch"


def _target(fullname):
    return TARGET + fullname[len(PREFIX):]


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
        if name.startswith(prefix) and module is not None:
            sys.modules.setdefault(alias + name[len(target):], module)


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target):
        self.target = target

    def create_module(self, spec):
        module = importlib.import_module(self.target)
        _alias_loaded_submodules(spec.name, self.target)
        return module

    def exec_module(self, module):
        pass  # already executed under its own name

    def get_code(self, fullname):
        # what runpy runs for `python -m paddle.x.y` under the runner: paddle_on_torch.x.y's code
        spec = importlib.util.find_spec(self.target)
        return spec.loader.get_code(self.target)


class PaddleFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname != PREFIX and not fullname.startswith(PREFIX + "."):
            return None
        real = _target(fullname)
        real_spec = importlib.util.find_spec(real)
        if real_spec is None:
            from ._report import record

            record(fullname)
            raise ModuleNotFoundError(f"{fullname} is not supported by paddle_on_torch yet", name=fullname)
        # a plain module stays one: `python -m paddle.distributed.launch` needs its __main__ not to be a package
        spec = importlib.util.spec_from_loader(fullname, _AliasLoader(real),
                                               is_package=real_spec.submodule_search_locations is not None)
        return spec


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


def uninstall():
    """Undo install(): `import paddle` finds whatever it found before."""
    if _finder in sys.meta_path:
        sys.meta_path.remove(_finder)
    for name in _paddle_modules():
        del sys.modules[name]
    sys.modules.update(_saved)
    _saved.clear()
