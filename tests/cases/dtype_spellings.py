"""How each API reads a dtype spelling: Paddle's names, NumPy's ('float' is float64), Python types, and what
paddle.to_tensor and set_default_dtype refuse."""
import numpy as np

from tests.cases import case

SPELLINGS = ["float", "int", "double", "half", "long", "complex", "bool_", "cdouble", "int_", "single", "f4", "i8",
             "Float32", "uint16", "paddle.float16", "fp16", "bf16", "cfloat", "float_"]


def _each(fn, spellings):
    out = {}
    for d in spellings:
        try:
            out[repr(d)] = str(fn(d).dtype)
        except TypeError as e:
            out[repr(d)] = f"TypeError: {e}"
    return out


@case
def creation_and_casts_read_numpy_names(paddle):
    spellings = SPELLINGS + [float, int, bool, complex, np.float32]
    return {
        "ones": _each(lambda d: paddle.ones([2], dtype=d), spellings),
        "full": _each(lambda d: paddle.full([1], 1, dtype=d), spellings),
        "astype": _each(lambda d: paddle.zeros([1]).astype(d), spellings),
        "cast": _each(lambda d: paddle.cast(paddle.zeros([1]), d), spellings),
    }


@case
def to_tensor_takes_only_its_names(paddle):
    return _each(lambda d: paddle.to_tensor([1, 2], dtype=d),
                 SPELLINGS + ["float32", "int8", "bfloat16", float, int, bool, complex, np.int64])


@case
def set_default_dtype_names(paddle):
    out = {}
    for d in ["float64", "bfloat16", "float16", "float32", "float", "Float32", "paddle.float32", "int64",
              paddle.float64, np.float16, float, np.int32]:
        try:
            paddle.set_default_dtype(d)
            out[repr(d)] = paddle.get_default_dtype()
        except TypeError as e:
            out[repr(d)] = f"TypeError: {e}"
    paddle.set_default_dtype("float32")
    return out
