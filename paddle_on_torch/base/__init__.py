"""paddle.base: Paddle's framework package (formerly paddle.fluid), the names of it that scripts and libraries use.

`paddle.base.core` (also `paddle.framework.core` and `paddle.core`) is paddle_on_torch/base/core.py,
`paddle.base.framework` the mode switch and framework names, `paddle.base.dygraph` the dynamic-graph switches,
`paddle.base.libpaddle` the C++ module's view of core.  The static-graph names that Paddle 2.x scripts reach
through paddle.base are paddle.static's.
"""
import importlib

from .. import _report
from . import dygraph, framework  # noqa: F401
from ..framework.flags import get_flags, set_flags  # noqa: F401
from .framework import Variable, in_dygraph_mode, in_dynamic_or_pir_mode, in_pir_mode  # noqa: F401
from .dygraph.base import disable_dygraph, enable_dygraph  # noqa: F401

enable_imperative, disable_imperative = enable_dygraph, disable_dygraph

_ELSEWHERE = {  # Paddle's name -> (module here, attribute); None: the module itself
    **{n: ("paddle_on_torch.static", n) for n in (
        "program_guard", "Program", "default_main_program", "default_startup_program", "Executor", "global_scope",
        "scope_guard", "Scope", "CompiledProgram", "BuildStrategy", "ExecutionStrategy", "name_scope",
        "WeightNormParamAttr", "cpu_places", "cuda_places", "device_guard", "gradients", "append_backward")},
    **{n: ("paddle_on_torch._core.place", n) for n in (
        "CPUPlace", "CUDAPlace", "CUDAPinnedPlace", "XPUPlace", "XPUPinnedPlace", "CustomPlace", "IPUPlace",
        "is_compiled_with_cuda", "is_compiled_with_rocm", "is_compiled_with_xpu", "is_compiled_with_cinn")},
    "ParamAttr": ("paddle_on_torch.framework.param_attr", "ParamAttr"),
    "require_version": ("paddle_on_torch.utils", "require_version"),
    "core": ("paddle_on_torch.base.core", None),
    "libpaddle": ("paddle_on_torch.base.libpaddle", None),
    "unique_name": ("paddle_on_torch.framework.unique_name", None),
    "data_feeder": ("paddle_on_torch.base.data_feeder", None),
    "layer_helper": ("paddle_on_torch.base.layer_helper", None),
}
_missing = _report.module_getattr("paddle.base")


def __getattr__(name):
    where = _ELSEWHERE.get(name)
    if where is not None:
        mod = importlib.import_module(where[0])
        return mod if where[1] is None else getattr(mod, where[1])
    return _missing(name)
