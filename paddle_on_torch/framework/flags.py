"""paddle.set_flags / paddle.get_flags over the table of Paddle 3.3.1's global flags.

The names and defaults are Paddle's (recorded in _paddle_api.json).  Setting a flag stores it,
so scripts that set and read flags run; only the flags in EFFECTIVE change what paddle_on_torch
does (docs/compatibility.md).  An unknown flag is a ValueError, as in Paddle.
"""
from .._api import paddle_api

__all__ = ["set_flags", "get_flags"]

EFFECTIVE = ()  # flags whose value changes paddle_on_torch's behaviour
_values = {}


def _known():
    return paddle_api()["flags"]


def set_flags(flags):
    if not isinstance(flags, dict):
        raise TypeError("flags in set_flags should be a dict")
    for name in flags:
        if name not in _known():
            raise ValueError(f"Flag {name} cannot set its value through this function.")
    _values.update(flags)


def get_flags(flags):
    names = [flags] if isinstance(flags, str) else list(flags) if isinstance(flags, (list, tuple)) else None
    if names is None:
        raise TypeError("Flags in get_flags should be a list, tuple or string.")
    out = {}
    for name in names:
        if name not in _known():
            raise ValueError(f"Flag {name} cannot get its value through this function.")
        out[name] = _values.get(name, _known()[name])
    return out


class GlobalVarGetterSetterRegistry:
    """What paddle.base.core.globals() returns: the flag table as a mapping (`g["FLAGS_x"]`, `g["FLAGS_x"] = v`,
    `in`, keys(), get(), get_default(), is_public()), over the same values as set_flags / get_flags."""

    def _check(self, name):
        if name not in _known():
            raise RuntimeError(f"(NotFound) Cannot find global variable {name}")

    def __getitem__(self, name):
        self._check(name)
        return _values.get(name, _known()[name])

    def __setitem__(self, name, value):
        self._check(name)
        _values[name] = value

    def __contains__(self, name):
        return name in _known()

    def keys(self):
        return list(_known())

    def get(self, name, default=None):
        return self[name] if name in self else default

    def get_default(self, name):
        self._check(name)
        return _known()[name]

    def is_public(self, name):
        self._check(name)
        return True


_registry = GlobalVarGetterSetterRegistry()


def globals():  # noqa: A001 - Paddle's name (paddle.base.core.globals)
    return _registry
