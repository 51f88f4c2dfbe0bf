"""Paddle's dtype objects (`paddle.float32`, ...) and their torch / numpy twins.

A Paddle dtype prints as `paddle.float32`, reprs as `<DataType.FLOAT32: 10>`,
and equals only itself (not the string 'float32', not numpy's dtype), so it is
a class of our own rather than torch.dtype.  Every conversion between the
spellings a user may write (paddle dtype, 'float32', np.float32, torch dtype,
Python's float/int/bool) goes through `to_torch_dtype` / `from_torch_dtype`.
"""
import numpy as np
import torch

__all__ = [
    "dtype", "bool", "int8", "uint8", "int16", "int32", "int64", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64", "complex64", "complex128",
    "float8_e4m3fn", "float8_e5m2", "pstring", "raw", "get_default_dtype", "set_default_dtype", "iinfo", "finfo",
]

_builtin_bool = bool


class dtype:
    """A Paddle data type (also paddle.base.core.DataType).  Instances are singletons; compare with `==` or `is`.
    `paddle.dtype(10)` is Paddle's constructor from the enum value."""

    __slots__ = ("name", "value", "_torch", "_short")

    def __new__(cls, value, *spec):
        if spec:  # the module's own table below
            return object.__new__(cls)
        if isinstance(value, _builtin_bool) or not isinstance(value, int) or value not in _by_value:
            raise TypeError(f"__init__(): incompatible constructor arguments. The following argument types are "
                            f"supported:\n    1. paddle.base.libpaddle.DataType(value: int)\n\nInvoked with: {value!r}")
        return _by_value[value]

    def __init__(self, value, *spec):
        if spec:
            self.name, self.value, self._torch, self._short = spec[0], value, spec[1], spec[2]

    def __int__(self):
        return self.value

    def __hash__(self):
        return self.value

    def __repr__(self):
        return f"<DataType.{self.name}: {self.value}>"

    def __str__(self):
        return f"paddle.{self._short}" if self._torch is not None else f"DataType.{self.name}"

    def __reduce__(self):  # pickles as a reference to the singleton
        return (_by_short.__getitem__, (self._short,))

    # torch-style introspection that Paddle 3.3 also offers
    @property
    def is_floating_point(self):
        return self._torch.is_floating_point

    @property
    def is_complex(self):
        return self._torch.is_complex

    @property
    def itemsize(self):
        return self._torch.itemsize


_SPECS = [  # enum name, value, torch dtype, short name (str() and repr tables)
    ("BOOL", 1, torch.bool, "bool"),
    ("UINT8", 2, torch.uint8, "uint8"),
    ("INT8", 3, torch.int8, "int8"),
    ("INT16", 5, torch.int16, "int16"),
    ("INT32", 7, torch.int32, "int32"),
    ("INT64", 9, torch.int64, "int64"),
    ("UINT32", 6, torch.uint32, "uint32"),
    ("UINT64", 8, torch.uint64, "uint64"),
    ("FLOAT16", 15, torch.float16, "float16"),
    ("BFLOAT16", 16, torch.bfloat16, "bfloat16"),
    ("FLOAT32", 10, torch.float32, "float32"),
    ("FLOAT64", 11, torch.float64, "float64"),
    ("COMPLEX64", 12, torch.complex64, "complex64"),
    ("COMPLEX128", 13, torch.complex128, "complex128"),
    ("FLOAT8_E4M3FN", 17, torch.float8_e4m3fn, "float8_e4m3fn"),
    ("FLOAT8_E5M2", 18, torch.float8_e5m2, "float8_e5m2"),
]
_by_short = {s: dtype(v, n, t, s) for n, v, t, s in _SPECS}
_by_torch = {d._torch: d for d in _by_short.values()}
globals().update(_by_short)
# Paddle's legacy alias: uint16 is the old spelling of bfloat16 (`paddle.uint16` prints paddle.bfloat16).
uint16 = dtype(4, "UINT16", torch.uint16, "bfloat16")
_by_short["uint16"] = uint16
# Paddle's string and undefined types: names that exist, with no torch twin (using one is a TypeError).
pstring = dtype(14, "PSTRING", None, "pstring")
raw = dtype(0, "UNDEFINED", None, "raw")
_by_value = {}
for _d in list(_by_short.values()) + [pstring, raw]:
    setattr(dtype, _d.name, _d)
    _by_value[_d.value] = _d
dtype.ALL_DTYPE = raw  # Paddle's alias of UNDEFINED

dtype.__members__ = {n: getattr(dtype, n) for n in (
    "UNDEFINED", "BOOL", "UINT8", "INT8", "UINT16", "INT16", "UINT32", "INT32", "UINT64", "INT64", "FLOAT32", "FLOAT64",
    "COMPLEX64", "COMPLEX128", "FLOAT16", "BFLOAT16", "FLOAT8_E4M3FN", "FLOAT8_E5M2", "PSTRING", "ALL_DTYPE")}


class PybindEnum:
    """A member of one of Paddle's C++ enums as pybind11 shows it: `<VarType.FP32: 5>`, `str` gives
    `VarType.FP32`, int() and hashing by value, equal to the members of its own enum with the same value.
    Subclasses list their members with `_define`; `Cls(value)` is the member with that value."""

    __slots__ = ("name", "value")
    _int_eq = False  # pybind11's arithmetic enums (VarType) also equal plain ints

    def __new__(cls, value, name=None):
        if name is not None:
            return object.__new__(cls)
        try:
            return cls._by_value[int(value)]
        except (KeyError, TypeError, ValueError):
            raise TypeError(f"__init__(): incompatible constructor arguments for {cls.__name__}: {value!r}") from None

    def __init__(self, value, name=None):
        if name is not None:
            self.name, self.value = name, value

    @classmethod
    def _define(cls, members):
        cls._by_value, cls.__members__ = {}, {}
        for name, value in members:
            m = cls._by_value.get(value) or cls(value, name)  # a second name for a value is an alias
            cls._by_value[value] = m
            cls.__members__[name] = m
            setattr(cls, name, m)

    def __repr__(self):
        return f"<{type(self).__name__}.{self.name}: {self.value}>"

    def __str__(self):
        return f"{type(self).__name__}.{self.name}"

    def __int__(self):
        return self.value

    __index__ = __int__

    def __hash__(self):
        return self.value

    def __eq__(self, other):
        if type(other) is type(self):
            return self.value == other.value
        if self._int_eq and isinstance(other, int) and not isinstance(other, _builtin_bool):
            return self.value == other
        return False

    def __ne__(self, other):
        return not self == other

    def __reduce__(self):
        return (type(self), (self.value,))


class VarType(PybindEnum):
    """paddle.base.core.VarDesc.VarType: the legacy (pre-PIR) type codes.  Its dtype members print as Paddle's
    dtypes (`str(VarType.FP32)` is 'paddle.float32') but do not equal them, as in Paddle 3.3; every dtype
    argument accepts them."""

    __slots__ = ()
    _int_eq = True

    def __str__(self):
        d = _VARTYPE_DTYPE.get(self.value)
        return f"paddle.{d._short}" if d is not None else f"VarType.{self.name}"


VarType._define([
    ("BOOL", 0), ("INT16", 1), ("INT32", 2), ("INT64", 3), ("FP16", 4), ("FP32", 5), ("FP64", 6),
    ("DENSE_TENSOR", 7), ("LOD_TENSOR", 7), ("SELECTED_ROWS", 8), ("FEED_MINIBATCH", 9), ("FETCH_LIST", 10),
    ("STEP_SCOPES", 11), ("DENSE_TENSOR_ARRAY", 13), ("LOD_TENSOR_ARRAY", 13), ("PLACE_LIST", 14), ("READER", 15),
    ("RAW", 17), ("UINT8", 20), ("INT8", 21), ("BF16", 22), ("COMPLEX64", 23), ("COMPLEX128", 24), ("STRING", 25),
    ("STRINGS", 26), ("VOCAB", 27), ("SPARSE_COO", 30), ("FP8_E4M3FN", 32), ("FP8_E5M2", 33), ("UINT16", 36),
    ("UINT32", 37), ("UINT64", 38)])
_VARTYPE_DTYPE = {0: _by_short["bool"], 1: int16, 2: int32, 3: int64, 4: float16, 5: float32, 6: float64,
                  17: raw, 20: uint8, 21: int8, 22: bfloat16, 23: complex64, 24: complex128, 25: pstring,
                  32: float8_e4m3fn, 33: float8_e5m2}
_DTYPE_VARTYPE = {d: VarType(v) for v, d in _VARTYPE_DTYPE.items()}


def to_vartype(d):
    """The VarType code of a dtype (Paddle's convert_np_dtype_to_dtype_ in its legacy mode)."""
    return _DTYPE_VARTYPE[convert_dtype(d)]


def _from_string(s):
    """Paddle's reading of a dtype string: its own short names, else what NumPy makes of it ('float' and 'double'
    are float64, 'half' float16, 'int' and 'long' int64, 'complex' complex128, 'f4' float32, ...)."""
    d = _by_short.get(s)
    if d is not None:
        return bfloat16 if d is uint16 else d  # the string 'uint16' is bfloat16's old name
    try:
        return _by_short[np.dtype(s).name]
    except (TypeError, KeyError):
        d = _by_short.get(s.lower())  # ('Float32' passes; NumPy's own names are lower case)
        if d is None:
            raise TypeError(f"data type {s!r} not understood") from None
        return d


def convert_dtype(d):
    """Any dtype spelling -> paddle dtype (None stays None)."""
    if d is None or type(d) is dtype:
        return d
    if type(d) is VarType:
        t = _VARTYPE_DTYPE.get(d.value)
        if t is None:
            raise TypeError(f"Unsupported data type: {d}")
        return t
    if isinstance(d, str):
        return _from_string(d)
    if isinstance(d, torch.dtype):
        return _by_torch[d]
    if d is float:  # NumPy's reading, as Paddle's
        return float64
    if d is int:
        return int64
    if d is _builtin_bool:
        return _by_short["bool"]
    if d is complex:
        return complex128
    try:
        name = np.dtype(d).name
    except TypeError:
        raise TypeError(f"Unsupported data type: {d!r}") from None
    return _from_string(name)


def to_torch_dtype(d):
    """Any dtype spelling -> torch.dtype (None stays None).  The hot path is a paddle dtype."""
    if type(d) is dtype:
        if d._torch is None:
            raise TypeError(f"{d} has no torch counterpart and cannot hold tensor data here")
        return d._torch
    if d is None:
        return None
    return convert_dtype(d)._torch


def from_torch_dtype(t):
    return _by_torch[t]


def dtype_name(d):
    """'float32' for any spelling: the form Paddle's reprs and error messages use."""
    return convert_dtype(d)._short


# ------------------------------------------------------------- default dtype
_default = ["float32"]


def get_default_dtype():
    return _default[0]


def set_default_dtype(d):
    if isinstance(d, type):  # NumPy's scalar types
        if d not in (np.float16, np.float32, np.float64):
            raise TypeError(f"set_default_dtype only supports [float16, float32, float64] , but received {d.__name__}")
        d = d.__name__
    short = d._short if type(d) is dtype else d
    if short not in ("float16", "bfloat16", "float32", "float64"):
        raise TypeError(f"set_default_dtype only supports [float16, float32, float64, bfloat16] , but received {d}")
    _default[0] = short


def default_float_torch():
    return _by_short[_default[0]]._torch


class IInfo:
    """paddle.base.core.iinfo: what paddle.iinfo returns."""

    def __init__(self, d):
        t = to_torch_dtype(d)
        if t not in (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8):
            raise ValueError("(InvalidArgument) the argument of paddle.iinfo can only be paddle.int8, paddle.int16, "
                             "paddle.int32, paddle.int64, or paddle.uint8")
        i = torch.iinfo(t)
        self.min, self.max, self.bits, self.dtype = i.min, i.max, i.bits, dtype_name(d)

    def __repr__(self):
        return f"paddle.iinfo(min={self.min}, max={self.max}, bits={self.bits}, dtype={self.dtype})"


class FInfo:
    """paddle.base.core.finfo: what paddle.finfo returns."""

    def __init__(self, d):
        f = torch.finfo(to_torch_dtype(d))
        self.min, self.max, self.eps, self.resolution = f.min, f.max, f.eps, f.resolution
        self.smallest_normal = self.tiny = f.smallest_normal
        self.bits, self.dtype = f.bits, dtype_name(d)

    def __repr__(self):
        return (f"paddle.finfo(min={self.min}, max={self.max}, eps={self.eps}, resolution={self.resolution}, "
                f"smallest_normal={self.smallest_normal}, tiny={self.tiny}, bits={self.bits}, dtype={self.dtype})")


def iinfo(dtype):
    """The limits of an integer dtype (min, max, bits)."""
    return IInfo(dtype)


def finfo(dtype):
    """The limits of a floating dtype (min, max, eps, resolution, smallest_normal / tiny, bits)."""
    return FInfo(dtype)
