"""paddle.base: the few names of Paddle's framework package that user scripts touch."""
import importlib

from .. import _report
from . import dygraph  # noqa: F401
from ..framework.flags import get_flags, set_flags  # noqa: F401

# Paddle 2.x scripts reach the static-graph API through paddle.base (formerly paddle.fluid)
_STATIC = {"program_guard", "Program", "default_main_program", "default_startup_program", "Executor",
           "global_scope", "scope_guard", "Scope", "CompiledProgram", "BuildStrategy", "ExecutionStrategy",
           "name_scope", "data"}
_missing = _report.module_getattr("paddle.base")


def __getattr__(name):
    if name in _STATIC:
        return getattr(importlib.import_module("paddle_on_torch.static"), name)
    if name in ("CPUPlace", "CUDAPlace"):
        return getattr(importlib.import_module("paddle_on_torch"), name)
    if name == "framework":
        return importlib.import_module(f"{__name__}.framework")
    return _missing(name)
