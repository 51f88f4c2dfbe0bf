"""paddle.jit: to_static over torch.compile, save/load over torch.export (see api.py, save_load.py)."""
from .. import _report
from .api import enable_to_static, ignore_module, not_to_static, set_code_level, set_verbosity, to_static
from .save_load import TranslatedLayer, load, save

__all__ = ["to_static", "not_to_static", "ignore_module", "enable_to_static", "set_code_level", "set_verbosity",
           "save", "load", "TranslatedLayer"]

__getattr__ = _report.module_getattr("paddle.jit")
