"""Paddle 3.3's keyword aliases for the API functions that are not generated ops (plain functions and methods,
Layers' constructors and forward): a wrapper that renames the recorded aliases to their parameters.  The table is
the one the op generator reads (_api.paddle_aliases, recorded from real Paddle by tools/record_signatures.py);
the generated ops take their aliases in their own header instead (codegen.op)."""
import functools
import inspect

from .._api import paddle_aliases


def alias_map(fn, *apis):
    """{alias: parameter} of the recorded aliases of `apis` that `fn` can take (the parameter is fn's, the alias
    is not); {} when fn takes **kwargs (it sees every keyword itself) or has no readable signature."""
    recorded = paddle_aliases(*apis)
    if not recorded:  # (most names: no signature to read at import)
        return {}
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return {}
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return {}
    return {a: t for a, t in recorded.items() if t in params and a not in params and a != t}


def with_aliases(fn, *apis, qualname=None):
    """`fn`, taking the recorded aliases of `apis` too (fn itself when it has none to take)."""
    if getattr(fn, "__paddle_aliases__", None) is not None or hasattr(fn, "__wrapped_impl__"):
        return fn  # already wrapped, or a generated op (its header has them)
    amap = alias_map(fn, *apis)
    if not amap:
        return fn
    qualname = qualname or getattr(fn, "__qualname__", getattr(fn, "__name__", "function"))

    def renamed(*args, **kwargs):
        if kwargs:
            for alias, target in amap.items():
                if alias in kwargs:
                    if target in kwargs:
                        raise TypeError(f"{qualname}() got multiple values for argument '{target}'")
                    kwargs[target] = kwargs.pop(alias)
        return fn(*args, **kwargs)

    functools.update_wrapper(renamed, fn)
    del renamed.__wrapped__  # (inspect shows fn's parameters; the aliases are extra keywords)
    renamed.__signature__ = inspect.signature(fn)
    renamed.__paddle_aliases__ = amap
    return renamed


def accept_recorded_aliases_in(namespace_globals, namespace, names):
    """Rebind each plain function `names` lists in a namespace module's globals to take its recorded aliases
    (`namespace`: its Paddle name, paddle.sparse)."""
    for name in names:
        fn = namespace_globals.get(name)
        if inspect.isfunction(fn):
            namespace_globals[name] = with_aliases(fn, f"{namespace}.{name}", qualname=name)
