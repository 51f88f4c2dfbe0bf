"""paddle.framework: dtypes, places, random state, grad mode, and Paddle's other paddle.framework names where the
shim has them (resolved on first use: this package is imported while paddle_on_torch itself is importing); the
rest raise UnsupportedAPIError naming themselves."""
import functools
import importlib
import sys

from .._core import dtype, place  # noqa: F401
from .._core.dtype import get_default_dtype, set_default_dtype  # noqa: F401

# dtype and place live in the core (paddle_on_torch._core, below the tensor layer); Paddle's module paths
# paddle.framework.dtype / .place name the same modules.
sys.modules[__name__ + ".dtype"] = dtype
sys.modules[__name__ + ".place"] = place
from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled  # noqa: F401
from .random import get_rng_state, seed, set_rng_state  # noqa: F401
from .io import async_save, clear_async_save_task_queue, load, save  # noqa: F401,E402
from .param_attr import ParamAttr  # noqa: F401,E402


_ELSEWHERE = {  # Paddle's name -> (module here, attribute); None: the module itself
    **{n: ("paddle_on_torch", n) for n in (
        "in_dynamic_mode", "enable_static", "disable_static", "disable_signal_handler", "grad", "get_flags",
        "set_flags")},
    **{n: ("paddle_on_torch._core.place", n) for n in (
        "CPUPlace", "CUDAPlace", "CUDAPinnedPlace", "CustomPlace", "XPUPlace", "XPUPinnedPlace", "IPUPlace")},
    **{n: ("paddle_on_torch.base.framework", n) for n in (
        "in_dynamic_or_pir_mode", "in_pir_mode", "in_pir_executor_mode", "use_pir_api", "Parameter",
        "_current_expected_place", "_current_expected_place_", "_set_expected_place", "_get_paddle_place",
        "_dygraph_tracer", "_no_check_dy2st_diff", "_dygraph_guard", "non_static_only", "static_only", "Block",
        "Program")},
    "LayerHelper": ("paddle_on_torch.base.layer_helper", "LayerHelper"),
    "convert_np_dtype_to_dtype_": ("paddle_on_torch._core.dtype", "convert_dtype"),
    "core": ("paddle_on_torch.base.core", None),
    "base": ("paddle_on_torch.base.dygraph.base", None),  # as in Paddle: paddle.framework.base is dygraph.base
    "recall_error": ("paddle_on_torch.framework.recall_error", None),
}


def is_parameter(var):
    return isinstance(var, _attr("Parameter"))


def is_persistable(var):
    """A parameter, or a Tensor marked persistable."""
    return bool(getattr(var, "persistable", False))


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
    mod = importlib.import_module(module)
    return mod if attr is None else getattr(mod, attr)


def __getattr__(name):
    if name in _ELSEWHERE:
        return _attr(name)
    from .. import _report

    return _report.module_getattr("paddle.framework")(name)
