"""Paddle 3.3's keyword aliases on the Layers' constructors and `forward` (`Conv2D()(input=x)`,
`GroupNorm(eps=...)`, `AdaptiveMaxPool2D(return_indices=True)`, `HuberLoss()(x, target=y)`), from the one recorded
table the op generator reads too (_normalize.aliases).  Only the Layers that have aliases get a wrapper; a call
without keywords goes straight through it."""
import functools

from ..._api import paddle_names
from ..._normalize.aliases import with_aliases
from ..._normalize.codegen import refuse_keywords

# Paddle 3.3's ForbidKeywordsDecorator on Layer constructors: torch's keywords they refuse, pointing at
# paddle.compat.nn (the functions' table is _normalize.codegen.FORBIDDEN_KEYWORDS)
FORBIDDEN_INIT_KEYWORDS = {"Linear": ("bias", "device", "dtype"),
                           "Unfold": ("dilation", "kernel_size", "padding", "stride")}


def _wrap(cls, attr, api):
    fn = cls.__dict__.get(attr) or getattr(cls, attr, None)
    if fn is None:
        return
    new = with_aliases(fn, f"{api}.{attr}", qualname=f"{cls.__name__}.{attr}")
    if new is not fn:
        setattr(cls, attr, new)


def accept_recorded_aliases(module, namespace):
    """Give every Layer class `module` exports under Paddle's `namespace` (paddle.nn) the aliases Paddle accepts
    for its constructor and forward."""
    from .layers import Layer

    for name in paddle_names(namespace):
        cls = module.__dict__.get(name)
        if isinstance(cls, type) and issubclass(cls, Layer) and cls.__module__.startswith("paddle_on_torch"):
            _wrap(cls, "__init__", f"{namespace}.{name}")
            _wrap(cls, "forward", f"{namespace}.{name}")


def _refusing(init, api, spec):
    @functools.wraps(init)
    def __init__(self, *args, **kwargs):
        if kwargs and any(k in kwargs for k in spec[0]):
            refuse_keywords(api, {k: kwargs[k] for k in spec[0] if k in kwargs}, spec)
        init(self, *args, **kwargs)

    return __init__


def refuse_forbidden_keywords(module, namespace):
    """Make the constructors FORBIDDEN_INIT_KEYWORDS names refuse those keywords with Paddle's TypeError."""
    for name, keys in FORBIDDEN_INIT_KEYWORDS.items():
        cls = module.__dict__[name]
        cls.__init__ = _refusing(cls.__init__, f"{namespace}.{name}",
                                 (keys, f"paddle.compat.nn.{name}", f"torch.nn.{name}"))
