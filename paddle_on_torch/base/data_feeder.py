"""paddle.base.data_feeder: the dtype name conversion and the static-mode argument checks that library code
calls (through paddle.common_ops_import).  The checks run in static mode only, as in Paddle."""
import numpy as np

from .. import _report
from .._core import dtype as _dtypes
from .._core.dtype import VarType as _VarType, dtype as _DataType

__all__ = ["convert_dtype", "check_type", "check_dtype", "check_variable_and_dtype"]

_NAMES = ("bool", "float16", "uint16", "uint32", "uint64", "float32", "float64", "int4", "int8", "int16", "int32",
          "int64", "uint8", "complex64", "complex128", "float8_e4m3fn", "float8_e5m2")
_SCALAR_TYPES = (bool, np.float16, np.uint16, np.uint32, np.uint64, np.float32, np.float64, np.int8, np.int16,
                 np.int32, np.int64, np.uint8, np.complex64, np.complex128)


def convert_dtype(dtype):
    """A dtype as the NumPy-style name Paddle's checks compare ('float32'; bfloat16 is 'uint16')."""
    if type(dtype) in (_DataType, _VarType):
        try:
            d = _dtypes.convert_dtype(dtype)
        except TypeError:
            d = None
        if d is not None and d._torch is not None:
            return "uint16" if d._short == "bfloat16" else d._short
    elif isinstance(dtype, type):
        if dtype in _SCALAR_TYPES:
            return dtype.__name__
    else:
        if isinstance(dtype, (str, np.dtype)) and dtype in _NAMES:
            return str(dtype)
        if isinstance(dtype, str) and dtype == "bfloat16":
            return "uint16"
    raise TypeError("dtype must be any of [bool, float16, uint16, float32, float64, int8, int16, int32, int64, "
                    f"uint8, complex64, complex128, bfloat16], but received {dtype}")


def _static():
    from . import framework

    return framework._static is not None


def check_type(input, input_name, expected_type, op_name, extra_message=""):
    """In static mode, a TypeError unless `input` is an `expected_type` (dynamic mode does not check)."""
    if not _static():
        return
    from ..tensor.tensor import Tensor
    from ..pir import Value

    if isinstance(input, Tensor) and not isinstance(input, Value):
        raise TypeError("Please use `with base.dygraph.guard()` as context or `paddle.disable_static()` to switch to "
                        f"dygraph mode firstly. Because received '{input_name}' in {op_name} is an Eager Tensor.")
    if not isinstance(input, expected_type):
        raise TypeError(f"The type of '{input_name}' in {op_name} must be {expected_type}, but received "
                        f"{type(input)}. {extra_message}")


def check_dtype(input_dtype, input_name, expected_dtype, op_name, extra_message=""):
    if not _static():
        return
    if convert_dtype(input_dtype) not in expected_dtype:
        raise TypeError(f"The data type of '{input_name}' in {op_name} must be {expected_dtype}, but received "
                        f"{convert_dtype(input_dtype)}. {extra_message}")


def check_variable_and_dtype(input, input_name, expected_dtype, op_name, extra_message=""):
    """check_type and check_dtype of `input` (which must have a dtype, in either mode)."""
    from ..pir import Value

    check_type(input, input_name, Value, op_name, extra_message)
    check_dtype(input.dtype, input_name, expected_dtype, op_name, extra_message)


__getattr__ = _report.module_getattr("paddle.base.data_feeder")
