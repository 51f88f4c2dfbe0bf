"""paddle.base.dygraph: the dynamic-graph switches of Paddle 1.x/2.x scripts."""
import contextlib

from . import framework as _fw

__all__ = ["guard", "enabled"]


@contextlib.contextmanager
def guard(place=None):
    """Run the block in dynamic-graph mode (static mode, when on, is switched off inside)."""
    if _fw._static is None:
        yield
        return
    from ..static import program

    program.disable()
    try:
        yield
    finally:
        program.enable()


def enabled():
    return _fw._static is None
