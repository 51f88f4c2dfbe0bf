"""Paddle 3.3's keyword aliases on the Layers' constructors and `forward` (`Conv2D()(input=x)`,
`GroupNorm(eps=...)`, `AdaptiveMaxPool2D(return_indices=True)`, `HuberLoss()(x, target=y)`), from the one recorded
table the op generator reads too (_api.paddle_aliases, recorded from real Paddle by tools/record_signatures.py).

Only the Layers that have aliases get a wrapper: it renames the alias keywords to their parameters and calls the
method (a call without keywords goes straight through)."""
import functools
import inspect

from ..._api import paddle_aliases, paddle_names


def _params(fn):
    try:
        return inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return None


def _renaming(fn, amap, qualname):
    def method(self, *args, **kwargs):
        if kwargs:
            for alias, target in amap.items():
                if alias in kwargs:
                    if target in kwargs:
                        raise TypeError(f"{qualname}() got multiple values for argument '{target}'")
                    kwargs[target] = kwargs.pop(alias)
        return fn(self, *args, **kwargs)

    functools.update_wrapper(method, fn)
    del method.__wrapped__  # (inspect shows the method's own parameters; the aliases are extra keywords)
    method.__signature__ = inspect.signature(fn)
    method.__paddle_aliases__ = amap
    return method


def _wrap(cls, attr, api):
    fn = getattr(cls, attr, None)
    if fn is None or getattr(fn, "__paddle_aliases__", None) is not None:
        return
    params = _params(fn)
    if params is None or any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return
    amap = {a: t for a, t in paddle_aliases(f"{api}.{attr}").items() if t in params and a not in params}
    if amap:
        setattr(cls, attr, _renaming(fn, amap, f"{cls.__name__}.{attr}"))


def accept_recorded_aliases(module, namespace):
    """Give every Layer class `module` exports under Paddle's `namespace` (paddle.nn) the aliases Paddle accepts
    for its constructor and forward."""
    from .layers import Layer

    for name in paddle_names(namespace):
        cls = module.__dict__.get(name)
        if isinstance(cls, type) and issubclass(cls, Layer) and cls.__module__.startswith("paddle_on_torch"):
            _wrap(cls, "__init__", f"{namespace}.{name}")
            _wrap(cls, "forward", f"{namespace}.{name}")
