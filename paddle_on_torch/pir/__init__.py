"""paddle.pir: Paddle 3's static-graph IR, as far as user and library code sees it.

Static mode here records torch.fx graphs (paddle_on_torch/static); its values are paddle Tensors over fake
tensors.  `paddle.pir.Value` answers isinstance for them as Paddle does for its PIR values (True for static
mode's values, False for eager Tensors), `Program` is paddle.static.Program and `Block` its block type.  The
IR builder and pass machinery (Operation, PassManager, insertion points, translate_to_pir, ...) are Paddle's
C++ and raise UnsupportedAPIError.
"""
import importlib

from .. import _report

__all__ = []


class _ValueMeta(type):
    def __instancecheck__(cls, instance):
        from ..base import framework
        from ..static.program import is_var

        t = getattr(instance, "_t", None)
        # static mode's values, and the parameters made in static mode (they belong to its startup program)
        return is_var(t) or (framework._static is not None and hasattr(t, "_st_param_name"))


class Value(metaclass=_ValueMeta):
    """paddle.pir.Value: a value of a static-mode program (made by paddle.static.data and by ops)."""

    def __new__(cls, *args, **kwargs):
        raise TypeError("paddle.pir.Value is made by paddle.static.data and by ops, not directly")


_ELSEWHERE = {
    "Program": ("paddle_on_torch.static.program", "Program"),
    "Block": ("paddle_on_torch.static.program", "_Block"),
    "core": ("paddle_on_torch.pir.core", None),
}
_missing = _report.module_getattr("paddle.pir")


def __getattr__(name):
    if name == "ops":  # (paddle.base.libpaddle.pir.ops, PIR's op builders)
        raise _report.unsupported("paddle.base.libpaddle.pir.ops", ": PIR's C++ op builders do not exist on torch")
    where = _ELSEWHERE.get(name)
    if where is not None:
        mod = importlib.import_module(where[0])
        return mod if where[1] is None else getattr(mod, where[1])
    return _missing(name)
