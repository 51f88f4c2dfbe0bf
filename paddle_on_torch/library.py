"""paddle.library: Paddle 3.3's torch.library twin.  custom_op registers a Python function as an operator that
paddle.ops.<namespace>.<name> calls; register_fake and custom_op's device_types / schema / tags are accepted with
Paddle's warning that its custom operator interface does not implement them."""
import warnings

from ._ops import PYTHON_OP_REGISTRY  # noqa: F401


def warn_about_unimplemented_torch_features(feature, fn_name):
    warnings.warn(f"The feature '{feature}' in function '{fn_name}' is not implemented in PaddlePaddle's custom "
                  "operator interface.", UserWarning, stacklevel=2)


class Tag:
    """An operator tag (accepted, not used)."""


class CustomOpDef:
    """What custom_op returns: the operator's namespace, name, schema, function and tags."""

    def __init__(self, namespace, name, schema, fn, tags=None):
        self._namespace, self._name, self._schema, self._fn = namespace, name, schema, fn
        self._tags = tags if tags is not None else []

    @property
    def _qualname(self):
        return f"{self._namespace}::{self._name}"

    def __repr__(self):
        return f"<CustomOpDef({self._qualname})>"

    def register_fake(self, fn, /):
        warn_about_unimplemented_torch_features("register_fake", "torch.library.CustomOpDef")
        return fn


def custom_op(name, fn=None, /, *, mutates_args, device_types=None, schema=None, tags=None):
    """Register `fn` as the operator `name` ('namespace::op'); without fn, a decorator that does."""
    for feature, given in (("device_types", device_types), ("schema", schema), ("tags", tags)):
        if given:
            warn_about_unimplemented_torch_features(feature, "torch.library.custom_op")
    assert "::" in name, "The custom operator name should be qualified with a namespace, like 'my_namespace::my_op'."
    namespace, op_name = name.split("::", 1)

    def register(fn):
        PYTHON_OP_REGISTRY.register(name, fn)
        return CustomOpDef(namespace=namespace, name=op_name, schema=schema if schema is not None else "", fn=fn,
                           tags=tags)

    return register if fn is None else register(fn)


def register_fake(op, func=None, /, *, lib=None, _stacklevel=1, allow_override=False):
    """Accepted for torch.library's API (Paddle's warning); returns the function unchanged."""
    warn_about_unimplemented_torch_features("register_fake", "torch.library.register_fake")
    return func if func is not None else (lambda f: f)
