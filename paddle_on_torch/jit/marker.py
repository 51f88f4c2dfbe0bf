"""paddle.jit.marker: decorators that tell to_static how to treat a function.  `unified` (the function already
runs the same in dynamic and static mode: not to be converted) and `not_to_static` are honoured; the others
refuse, naming themselves."""
from .. import _report


def unified(fn=None, *, for_sot=True, for_ast=True):
    """Marks `fn` (a function or Layer class) as written for both modes, so to_static leaves it as it is: here
    every function runs as written under to_static unless its control flow has to be converted, so the mark is
    recorded on the function (`__paddle_unified__`) and the function is returned unchanged, as Paddle does."""

    def mark(f):
        f.__paddle_unified__ = (for_sot, for_ast)
        return f

    return mark if fn is None else mark(fn)


def __getattr__(name):
    if name == "not_to_static":
        from . import not_to_static

        return not_to_static
    if name in ("capture_control_flow", "dynamic_dims", "force_dynamic"):
        raise _report.unsupported(f"paddle.jit.marker.{name}", ": a hint for Paddle's SOT / AST transcribers")
    raise AttributeError(f"module 'paddle.jit.marker' has no attribute '{name}'")
