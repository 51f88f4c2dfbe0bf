"""paddle.common_ops_import: the framework names that Paddle's op modules (and libraries after them) import."""
import importlib

from . import _report
from .base import core  # noqa: F401
from .base.data_feeder import check_dtype, check_type, check_variable_and_dtype, convert_dtype  # noqa: F401
from .base.framework import (  # noqa: F401
    Variable, _dygraph_tracer, convert_np_dtype_to_dtype_, default_main_program, dygraph_only, in_dygraph_mode)
from .base.layer_helper import LayerHelper  # noqa: F401
from .framework.param_attr import ParamAttr  # noqa: F401

VarDesc = core.VarDesc

_ELSEWHERE = {"base": ("paddle_on_torch.base", None), "device_guard": ("paddle_on_torch.static", "device_guard")}
_missing = _report.module_getattr("paddle.common_ops_import")


def __getattr__(name):
    where = _ELSEWHERE.get(name)
    if where is not None:
        mod = importlib.import_module(where[0])
        return mod if where[1] is None else getattr(mod, where[1])
    return _missing(name)
