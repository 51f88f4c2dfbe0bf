"""paddle.framework: dtypes, places, random state, grad mode, and Paddle's other paddle.framework names where the
shim has them (resolved on first use: this package is imported while paddle_on_torch itself is importing); the
rest raise UnsupportedAPIError naming themselves."""
import functools
import importlib

from . import dtype, place  # noqa: F401
from .dtype import get_default_dtype, set_default_dtype  # noqa: F401
from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled  # noqa: F401
from .random import get_rng_state, seed, set_rng_state  # noqa: F401
from .io import async_save, clear_async_save_task_queue, load, save  # noqa: F401,E402
from .param_attr import ParamAttr  # noqa: F401,E402


_ELSEWHERE = {  # Paddle's name -> (module here, attribute)
    **{n: ("paddle_on_torch", n) for n in (
        "CPUPlace", "CUDAPlace", "CUDAPinnedPlace", "CustomPlace", "XPUPlace", "XPUPinnedPlace", "in_dynamic_mode",
        "enable_static", "disable_static", "disable_signal_handler", "grad", "get_flags", "set_flags")},
    "IPUPlace": ("paddle_on_torch.device", "IPUPlace"),
    "in_dynamic_or_pir_mode": ("paddle_on_torch.base.framework", "in_dynamic_or_pir_mode"),
    "in_pir_mode": ("paddle_on_torch.base.framework", "in_pir_mode"),
    "Program": ("paddle_on_torch.static", "Program"),
    "Parameter": ("paddle_on_torch.nn.layer.layers", "EagerParamBase"),  # Paddle: isinstance(weight, Parameter)
    "convert_np_dtype_to_dtype_": ("paddle_on_torch.framework.dtype", "convert_dtype"),
    "base": ("paddle_on_torch", "base"),
}


def use_pir_api():
    """True, as in Paddle 3.x (its static graphs are PIR programs; here fx graphs play that part)."""
    return True


def is_parameter(var):
    return isinstance(var, _attr("Parameter"))


def _only_in(dynamic, func, message):
    @functools.wraps(func)
    def impl(*args, **kwargs):
        assert _attr("in_dynamic_mode")() == dynamic, message
        return func(*args, **kwargs)
    return impl


def dygraph_only(func):
    """A decorator: `func` may only run in dynamic mode."""
    return _only_in(True, func, f"We only support '{func.__name__}()' in dynamic graph mode, please call "
                                "'paddle.disable_static()' to enter dynamic graph mode.")


def dygraph_not_support(func):
    """A decorator: `func` may not run in dynamic mode."""
    return _only_in(False, func, f"We don't support {func.__name__} in dynamic graph mode")


def _attr(name):
    module, attr = _ELSEWHERE[name]
    return getattr(importlib.import_module(module), attr)


def __getattr__(name):
    if name in _ELSEWHERE:
        return _attr(name)
    from .. import _report

    return _report.module_getattr("paddle.framework")(name)
