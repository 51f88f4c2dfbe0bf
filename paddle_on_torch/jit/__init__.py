"""paddle.jit: to_static over torch.compile, save/load over torch.export (see api.py, save_load.py)."""
from .. import _report
from .api import enable_to_static, ignore_module, not_to_static, set_code_level, set_verbosity, to_static
from .save_load import TranslatedLayer, load, save

__all__ = ["to_static", "not_to_static", "ignore_module", "enable_to_static", "set_code_level", "set_verbosity",
           "save", "load", "TranslatedLayer"]

_missing = _report.module_getattr("paddle.jit")


def __getattr__(name):
    # Paddle's package has these submodules loaded (libraries write paddle.jit.marker.unified,
    # paddle.jit.dy2static.program_translator.ProgramTranslator()): loaded here on first touch
    if name in ("marker", "dy2static"):
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    return _missing(name)
