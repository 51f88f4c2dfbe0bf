"""What a script asked of Paddle that paddle_on_torch lacks (cudf.pandas-style report).

A Paddle API that exists in Paddle 3.3.1 but not here raises
`UnsupportedAPIError`, which is both a NotImplementedError (the brief's
contract) and an AttributeError (so `hasattr(paddle, name)` stays False and
feature checks keep working).  Every such miss, and every NotImplementedError
raised from inside our implementation, is counted; with
`PADDLE_ON_TORCH_REPORT=1` (or `--report` on the runner) the counts print at exit.
"""
import atexit
import collections
import os
import sys

from ._api import paddle_names

_misses = collections.Counter()


class UnsupportedAPIError(NotImplementedError, AttributeError):
    """A Paddle API that paddle_on_torch does not implement (yet)."""


class UnsupportedInPropertyError(NotImplementedError):
    """The same, raised from a property getter: an AttributeError there would make Python fall back to the
    class's __getattr__ (or make hasattr() False) and hide the message, so this one is not an AttributeError."""


def record(api):
    _misses[api] += 1


def unsupported(api, detail="", *, in_property=False):
    """The error to raise for a Paddle API (or a use of one: `detail` says which) that paddle_on_torch lacks,
    counted for the report: `raise unsupported("paddle.x.y", ": with z=True")`.  The one way to say so
    (tests/test_unsupported_sites.py checks that no other NotImplementedError is raised for our gaps)."""
    record(api)
    cls = UnsupportedInPropertyError if in_property else UnsupportedAPIError
    e = cls(f"{api} is not supported by paddle_on_torch yet{detail}")
    e._recorded = True
    return e


def module_getattr(namespace, also=None):
    """A module-level __getattr__ for a paddle namespace: Paddle's names raise UnsupportedAPIError.  `also`:
    {name: detail} for Paddle names outside the recorded tables (private ones libraries reach), refused the same
    way with the reason."""

    def __getattr__(name):
        if also and name in also:
            raise unsupported(f"{namespace}.{name}", also[name])
        if name in paddle_names(namespace):
            raise unsupported(f"{namespace}.{name}")
        raise AttributeError(f"module '{namespace}' has no attribute '{name}'")

    return __getattr__


class UnsupportedModuleError(NotImplementedError, ImportError):
    """Importing a Paddle module that paddle_on_torch does not provide: a NotImplementedError naming it, and an
    ImportError, so a library's `try: import ... except ImportError` guard (written for Paddle builds without
    that module) still takes its fallback."""


def unsupported_module(api, detail=""):
    """The error a module file raises at import for a Paddle module we lack: `raise unsupported_module(__name__...)`."""
    record(api)
    e = UnsupportedModuleError(f"{api} is not supported by paddle_on_torch yet{detail}")
    e._recorded = True
    return e


def unsupported_function(api, detail=""):
    """A function standing for a Paddle function we lack, for names libraries import at module level (so the
    import works and only a call fails): calling it raises UnsupportedAPIError naming `api`.  It is marked
    (`__paddle_on_torch_unsupported__`) so `paddle-on-torch check` counts it as unsupported, not supported."""
    name = api.rpartition(".")[2]

    def refuse(*args, **kwargs):
        raise unsupported(api, detail)

    refuse.__name__ = refuse.__qualname__ = name
    refuse.__doc__ = f"{api}: not supported by paddle_on_torch{detail} (calling it raises NotImplementedError)."
    refuse.__paddle_on_torch_unsupported__ = api
    return refuse


def report(stream=None):
    stream = stream or sys.stderr
    if not _misses:
        print("paddle_on_torch: every Paddle API this run used is supported.", file=stream)
        return
    print("paddle_on_torch: Paddle APIs this run used that are not supported:", file=stream)
    for api, n in _misses.most_common():
        print(f"  {n:6d}  {api}", file=stream)


def enable_report_at_exit():
    atexit.register(report)


if os.environ.get("PADDLE_ON_TORCH_REPORT") == "1":
    enable_report_at_exit()
