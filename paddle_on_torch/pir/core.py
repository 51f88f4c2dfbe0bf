"""paddle.pir.core: dtype conversions between Paddle's DataType and the legacy VarType codes, and the static
program switches (paddle.static's)."""
import importlib

from .. import _report
from .._core import dtype as _dtypes
from .._core.dtype import VarType as _VarType, dtype as DataType  # noqa: F401


def convert_np_dtype_to_dtype_(np_dtype):
    """A NumPy dtype (or a dtype name) as Paddle's DataType."""
    if type(np_dtype) in (DataType, _VarType):
        raise TypeError(f"Cannot interpret '{np_dtype!r}' as a data type")
    return _dtypes.convert_dtype(np_dtype)


# Paddle's tables between the legacy VarType codes and DataType
vartype_to_datatype = {_VarType(v): d for v, d in _dtypes._VARTYPE_DTYPE.items()}
datatype_to_vartype = {d: v for v, d in vartype_to_datatype.items()}


_ELSEWHERE = {n: "paddle_on_torch.static" for n in (
    "Program", "default_main_program", "default_startup_program", "program_guard", "data")}
_missing = _report.module_getattr("paddle.pir.core")


def __getattr__(name):
    if name in _ELSEWHERE:
        return getattr(importlib.import_module(_ELSEWHERE[name]), name)
    if name == "VarDesc":
        return importlib.import_module("paddle_on_torch.base.core").VarDesc
    if name == "Place":
        return importlib.import_module("paddle_on_torch._core.place").Place
    return _missing(name)
