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
    """A Paddle data type.  Instances are singletons; compare with `==` or `is`."""

    __slots__ = ("name", "value", "_torch", "_short")

    def __init__(self, name, value, torch_dtype, short):
        self.name, self.value, self._torch, self._short = name, value, torch_dtype, short

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
_by_short = {s: dtype(n, v, t, s) for n, v, t, s in _SPECS}
_by_torch = {d._torch: d for d in _by_short.values()}
globals().update(_by_short)
# Paddle's legacy alias: uint16 is the old spelling of bfloat16 (`paddle.uint16` prints paddle.bfloat16).
uint16 = dtype("UINT16", 4, torch.uint16, "bfloat16")
_by_short["uint16"] = uint16
# Paddle's string and undefined types: names that exist, with no torch twin (using one is a TypeError).
pstring = dtype("PSTRING", 14, None, "pstring")
raw = dtype("UNDEFINED", 0, None, "raw")
for _d in list(_by_short.values()) + [pstring, raw]:
    setattr(dtype, _d.name, _d)

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


class iinfo:
    def __init__(self, d):
        i = torch.iinfo(to_torch_dtype(d))
        self.min, self.max, self.bits, self.dtype = i.min, i.max, i.bits, dtype_name(d)

    def __repr__(self):
        return f"paddle.iinfo(min={self.min}, max={self.max}, bits={self.bits}, dtype={self.dtype})"


class finfo:
    def __init__(self, d):
        f = torch.finfo(to_torch_dtype(d))
        self.min, self.max, self.eps, self.resolution = f.min, f.max, f.eps, f.resolution
        self.smallest_normal = self.tiny = f.smallest_normal
        self.bits, self.dtype = f.bits, dtype_name(d)

    def __repr__(self):
        return (f"paddle.finfo(min={self.min}, max={self.max}, eps={self.eps}, resolution={self.resolution}, "
                f"smallest_normal={self.smallest_normal}, tiny={self.tiny}, bits={self.bits}, dtype={self.dtype})")
