"""paddle.base.dygraph.base (also paddle.framework.base): the dynamic-graph switches and the to_static query."""
import contextlib

import torch

from ... import _report
from .. import framework as _fw
from ...framework.grad_mode import (  # noqa: F401
    enable_grad, is_grad_enabled, no_grad as no_grad_, set_grad_enabled)

__all__ = ["guard", "enabled", "no_grad", "no_grad_", "in_to_static_mode", "in_declarative_mode",
           "in_sot_simulation_mode", "enable_dygraph", "disable_dygraph", "grad", "enable_grad", "is_grad_enabled",
           "set_grad_enabled"]


@contextlib.contextmanager
def guard(place=None):
    """Run the block in dynamic-graph mode (static mode, when on, is switched off inside)."""
    if _fw._static is None:
        yield
        return
    from ...static import program

    program.disable()
    try:
        yield
    finally:
        program.enable()


def enabled():
    return _fw._static is None


def in_to_static_mode():
    """True while paddle.jit.to_static is tracing the code (paddle.jit.to_static is torch.compile here, so this is
    torch.compiler.is_compiling())."""
    return torch.compiler.is_compiling()


in_declarative_mode = in_to_static_mode


def in_sot_simulation_mode():
    """Paddle's SOT bytecode simulation: not how to_static runs here (dynamo traces instead)."""
    return False


def no_grad(func=None):
    """Paddle's paddle.base.dygraph.no_grad: a decorator or, called with no function, a context manager."""
    if func is None:
        return no_grad_()
    return no_grad_()(func)


def enable_dygraph(place=None):
    from ... import disable_static

    disable_static(place)


def disable_dygraph():
    from ... import enable_static

    enable_static()


def grad(*args, **kwargs):
    from ...autograd.backward import grad as _grad

    return _grad(*args, **kwargs)


__getattr__ = _report.module_getattr("paddle.base.dygraph.base")
