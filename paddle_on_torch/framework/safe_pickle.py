"""The one restricted unpickler: every pickle paddle_on_torch reads from a file goes through here.

A pickle is a small program: its GLOBAL / STACK_GLOBAL / INST opcodes name any importable object
and REDUCE / NEWOBJ / BUILD call it, so a crafted file runs code unless the unpickler refuses the
names.  `find_class` here resolves only exact (module, name) pairs from an allow-list:

* no name containing "." (pickle's own find_class follows dotted names at protocol 4 and up,
  which reaches anything: `operator` + `__builtins__.get`, `numpy` + `os.system`, ...);
* no module-wide allowance: each admitted object is listed by itself;
* the callables admitted build data only, and the ones with wider powers are wrapped
  (`copyreg._reconstructor` for the admitted classes only, `_codecs.encode` for latin-1 text
  only, numpy array reconstruction for plain `numpy.ndarray` only, `numpy.dtype` without object
  dtypes);
* persistent ids are refused (nothing here writes them).

After loading, the result is walked once: it may hold only the admitted types (no numpy object
array, whose elements could be anything) -- so what comes back is data.  docs/security.md lists
what each loader admits and why.
"""
import collections
import copyreg
import io
import pickle

import numpy as np

__all__ = ["UnsafePickleError", "DATA", "load", "loads", "refuse", "torch_load"]


class UnsafePickleError(pickle.UnpicklingError, ValueError):
    """A file asked for something the loader does not admit (it could run code)."""


def refuse(what, thing, why="the file may execute code"):
    return UnsafePickleError(f"{what} refuses to load {thing}: {why}; only data (numpy arrays, Tensors, numbers, "
                             "strings and Python containers) is admitted (see docs/security.md)")


# ===================================================================== the admitted callables, narrowed


def _numpy_reconstruct(subtype, shape, dtype):
    if subtype is not np.ndarray:
        raise UnsafePickleError(f"refused numpy._core.multiarray._reconstruct of {subtype!r}: it is admitted for "
                                "numpy.ndarray only")
    return np.ndarray.__new__(np.ndarray, shape, _plain_dtype(dtype))


def _plain_dtype(dtype):
    d = np.dtype(dtype)
    if d.hasobject:
        raise UnsafePickleError(f"refused numpy.dtype {d!r}: an object array can hold arbitrary Python objects")
    return d


def _numpy_dtype(*args):
    # (numpy pickles a dtype as numpy.dtype('f4', False, True) plus a BUILD with its byte order)
    d = np.dtype(*args)
    if d.hasobject:
        raise UnsafePickleError(f"refused numpy.dtype {args[0]!r}: an object array can hold arbitrary Python "
                                "objects")
    return d


def _numpy_frombuffer(buf, dtype, shape, order):
    # protocol 5's spelling of an array (numpy._core.numeric._frombuffer)
    if not isinstance(buf, (bytes, bytearray, memoryview, pickle.PickleBuffer)) or order not in ("C", "F"):
        raise UnsafePickleError("refused numpy._core.numeric._frombuffer of a non-buffer: it is admitted for byte "
                                "buffers only")
    return np.frombuffer(buf, dtype=_plain_dtype(dtype)).reshape(shape, order=order)


def _numpy_scalar(dtype, *data):
    core = getattr(np, "_core", None) or np.core
    return core.multiarray.scalar(_plain_dtype(dtype), *data)


def _latin1_encode(obj, encoding="utf-8", errors="strict"):
    # protocol-2 pickles spell bytes as _codecs.encode(str, 'latin1'); no other codec is admitted
    if not isinstance(obj, str) or encoding not in ("latin1", "latin-1", "iso-8859-1") or errors != "strict":
        raise UnsafePickleError(f"refused _codecs.encode with {encoding!r}: it is admitted for latin1 text only")
    return obj.encode("latin1")


_DATA_CLASSES = (np.ndarray, np.dtype, collections.OrderedDict, tuple, list, dict, set, frozenset, complex,
                 bytearray, int, float, str, bytes, bool, slice)


def _safe_reconstructor(cls, base, state):
    # copyreg._reconstructor (protocols 0 and 1), for the admitted classes only
    if cls not in _DATA_CLASSES or base not in _DATA_CLASSES + (object,):
        raise UnsafePickleError(f"refused copyreg._reconstructor of {cls!r}: it is admitted for data classes only")
    return copyreg._reconstructor(cls, base, state)


# ===================================================================== allow-lists

# What Paddle's own restricted loader admits for .pdparams / .pdopt files, and what numpy needs for
# arrays and scalars at every pickle protocol (numpy 1.x and 2.x module names).
DATA = {
    ("numpy._core.multiarray", "_reconstruct"): _numpy_reconstruct,
    ("numpy.core.multiarray", "_reconstruct"): _numpy_reconstruct,
    ("numpy._core.multiarray", "scalar"): _numpy_scalar,
    ("numpy.core.multiarray", "scalar"): _numpy_scalar,
    ("numpy._core.numeric", "_frombuffer"): _numpy_frombuffer,
    ("numpy.core.numeric", "_frombuffer"): _numpy_frombuffer,
    ("numpy", "ndarray"): np.ndarray,
    ("numpy", "dtype"): _numpy_dtype,
    ("collections", "OrderedDict"): collections.OrderedDict,
    ("copyreg", "_reconstructor"): _safe_reconstructor,
    ("_codecs", "encode"): _latin1_encode,
}
for _cls in (tuple, list, dict, set, frozenset, complex, bytearray, int, float, str, bytes, bool, slice):
    DATA[("builtins", _cls.__name__)] = _cls

# Python 2 spellings that protocols 0-2 use (pickle maps them itself only in its own find_class)
_OLD_MODULES = {"__builtin__": "builtins", "copy_reg": "copyreg"}


def _check_allow_list(allowed):
    for module, name in allowed:
        assert "." not in name and module and name, (module, name)


_check_allow_list(DATA)


class Unpickler(pickle.Unpickler):
    """pickle.Unpickler resolving only the exact (module, name) pairs of `allowed`."""

    def __init__(self, file, allowed=None, what="paddle.load", **kwargs):
        super().__init__(file, **kwargs)
        self._allowed = DATA if allowed is None else allowed
        self._what = what

    def find_class(self, module, name):
        module = _OLD_MODULES.get(module, module)
        if "." in name:
            raise refuse(self._what, f"the global '{module}' '{name}'",
                         "a dotted name reaches attributes of attributes (any object at all)")
        obj = self._allowed.get((module, name))
        if obj is None:
            raise refuse(self._what, f"the global '{module}.{name}'")
        return obj

    def persistent_load(self, pid):
        raise refuse(self._what, f"the persistent id {pid!r}", "nothing paddle_on_torch writes uses them")


_SCALARS = (type(None), bool, int, float, complex, str, bytes, bytearray, np.generic, np.dtype)


def check_data(obj, what="paddle.load", types=()):
    """Raise unless `obj` is data: containers, numbers, strings, numeric numpy arrays (and `types`)."""
    stack, seen = [obj], set()
    while stack:
        o = stack.pop()
        if id(o) in seen:
            continue
        seen.add(id(o))
        t = type(o)
        if t in (dict, collections.OrderedDict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif t in (list, tuple, set, frozenset):
            stack.extend(o)
        elif t is slice:
            stack.extend((o.start, o.stop, o.step))
        elif t is np.ndarray:
            if o.dtype.hasobject:
                raise refuse(what, "a numpy object array", "its elements could be arbitrary Python objects")
        elif isinstance(o, np.generic) and o.dtype.hasobject:
            raise refuse(what, "a numpy object scalar")
        elif not isinstance(o, _SCALARS + tuple(types)):
            raise refuse(what, f"an object of type {t.__module__}.{t.__qualname__}")
    return obj


def load(file, allowed=None, what="paddle.load", encoding="latin1", types=()):
    """Unpickle from a binary file object, admitting only `allowed` (default: DATA); the result is data."""
    obj = Unpickler(file, allowed, what, encoding=encoding).load()
    return check_data(obj, what, types)


def loads(data, allowed=None, what="paddle.load", encoding="latin1", types=()):
    return load(io.BytesIO(data), allowed, what, encoding, types)


def _torch_reason(e):
    """The line of torch's weights-only refusal that says what it refused."""
    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
    for i, ln in enumerate(lines):
        if ln.startswith("WeightsUnpickler error:"):
            rest = ln[len("WeightsUnpickler error:"):].strip()
            return rest or (lines[i + 1] if i + 1 < len(lines) else ln)
    return lines[0] if lines else type(e).__name__


def torch_load(file, what, thing, **kwargs):
    """torch.load(weights_only=True) (torch's own restricted unpickler, for torch.save files); a refusal
    is raised as UnsafePickleError naming what torch refused."""
    import torch

    try:
        return torch.load(file, weights_only=True, **kwargs)
    except pickle.UnpicklingError as e:
        raise refuse(what, thing, f"torch's weights-only loader refused it ({_torch_reason(e)})") from None
    except Exception as e:  # noqa: BLE001 - a file torch cannot read: one clear error of Paddle's type
        raise ValueError(f"{what} can not read {thing} ({type(e).__name__}: {_torch_reason(e)})") from None
