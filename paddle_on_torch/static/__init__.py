"""paddle.static: Paddle's static-graph mode on one program representation, a torch.fx Graph.

See docs/static.md: `paddle.enable_static()` turns recording on; ops on `paddle.static.data`
Variables append nodes to the current Program; an Executor runs the Program's graph as a torch.fx
GraphModule with the Scope's parameters.
"""
from .. import _report
from ..base import framework as _fw
from .._core import dtype as _dtypes
from .input import InputSpec  # noqa: F401
from .program import (  # noqa: F401
    Program, Variable, default_main_program, default_startup_program, name_scope, program_guard)
from .executor import (  # noqa: F401
    BuildStrategy, CompiledProgram, ExecutionStrategy, Executor, Scope, global_scope, graph_module, scope_guard)
from .backward import append_backward, gradients  # noqa: F401
from .io import (  # noqa: F401
    load, load_inference_model, load_program_state, normalize_program, save, save_inference_model,
    set_program_state)
from .misc import accuracy, cpu_places, create_global_var, create_parameter, device_guard  # noqa: F401
from . import nn  # noqa: F401

__all__ = ["InputSpec", "Program", "Variable", "default_main_program", "default_startup_program", "name_scope",
           "program_guard", "BuildStrategy", "CompiledProgram", "ExecutionStrategy", "Executor", "global_scope",
           "scope_guard", "append_backward", "gradients", "load", "load_inference_model", "load_program_state",
           "normalize_program", "save", "save_inference_model", "set_program_state", "data", "accuracy", "cpu_places",
           "create_global_var", "create_parameter", "device_guard"]


def data(name, shape, dtype=None, lod_level=0):
    """A feed Variable of the current Program; None and -1 dims are dynamic (fed at run time)."""
    from .. import _normalize
    from . import program as _prog

    if _fw._static is None:
        raise AssertionError("In PaddlePaddle 2.x, we turn on dynamic graph mode by default, and 'data()' is only "
                             "supported in static graph mode. So if you want to use this api, please call "
                             "'paddle.enable_static()' before this api to enter static graph mode.")
    if not isinstance(name, str):
        raise TypeError(f"The type of 'name' in data must be str, but received {type(name).__name__}.")
    if not isinstance(shape, (list, tuple)):
        raise TypeError(f"The type of 'shape' in data must be list or tuple, but received "
                        f"{type(shape).__name__}.")
    shape = [-1 if d is None else int(d) for d in shape]
    dtype = _dtypes.to_torch_dtype(dtype) if dtype is not None else _dtypes.default_float_torch()
    fake = _prog.current_program()._data(name, shape, dtype)
    v = _normalize.wrap(fake)
    v.name = name
    return v


_missing = _report.module_getattr("paddle.static")


def __getattr__(name):
    if name == "amp":  # Paddle imports paddle.static.amp with paddle.static; here on first touch
        import importlib

        return importlib.import_module(f"{__name__}.amp")
    return _missing(name)
