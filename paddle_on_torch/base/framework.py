"""paddle.base.framework: the static/dynamic mode switch, and the framework names libraries import from here.

`_static` is None in dynamic mode; static mode (paddle_on_torch.static) sets it to its recorder state.
Hooks elsewhere (parameter creation, Tensor.shape) test `_static is None` first, so dynamic mode pays
one global lookup and nothing else.  Static mode is Paddle 3's PIR mode: `in_pir_mode()` is True there and
`in_dynamic_or_pir_mode()` is True in both.

The other names resolve on first use (this module is imported while paddle_on_torch itself is importing).
"""
import contextlib
import functools
import importlib

_static = None


def in_dygraph_mode():
    return _static is None


in_dynamic_mode = in_dygraph_mode


def in_pir_mode():
    """Static mode, unless FLAGS_enable_pir_api is off (pir_utils.OldIrGuard): Paddle's legacy IR is then in
    force for it, and programs are built the one way static mode builds them here."""
    return _static is not None and _pir_api_enabled()


def _pir_api_enabled():
    from ..framework import flags

    return flags.get_flags("FLAGS_enable_pir_api")["FLAGS_enable_pir_api"]


def in_dynamic_or_pir_mode():
    """True in dynamic mode and in static (PIR) mode: Paddle 3's static graphs are PIR programs."""
    return True


def in_pir_executor_mode():
    return _static is not None


def use_pir_api():
    """True, as in Paddle 3.x (its static graphs are PIR programs; here fx graphs play that part)."""
    return True


def _dygraph_tracer():
    """The dynamic-graph tracer (None in static mode)."""
    if _static is not None:
        return None
    return importlib.import_module("paddle_on_torch.base.dygraph.tracer")._tracer


def _current_expected_place_():
    """The current place as Paddle's place constructors make it (CPUPlace(), CUDAPlace(i), ...)."""
    from .._core.place import current_place

    return current_place()


def _current_expected_place():
    """The current place; in static (PIR) mode Paddle answers an undefined Place()."""
    if _static is not None:
        from .._core.place import Place

        return Place()
    return _current_expected_place_()


def _set_expected_place(place):
    from .._core.place import set_device

    set_device(place)


def _get_paddle_place(place):
    """Paddle's reading of a place argument (None, a Place, or a device string)."""
    from .._core.place import _device_to_place

    return None if place is None else _device_to_place(place)


def non_static_only(func):
    """A decorator: `func` may not run in static mode."""
    @functools.wraps(func)
    def impl(*args, **kwargs):
        assert _static is None, f"We only support '{func.__name__}()' in dynamic graph mode, please call " \
                                "'paddle.disable_static()' to enter dynamic graph mode."
        return func(*args, **kwargs)
    return impl


def static_only(func):
    """A decorator: `func` may only run in static mode."""
    @functools.wraps(func)
    def impl(*args, **kwargs):
        assert _static is not None, f"In PaddlePaddle 2.x, we turn on dynamic graph mode by default, and " \
                                    f"'{func.__name__}()' is only supported in static graph mode. So if you want " \
                                    "to use this api, please call 'paddle.enable_static()' before this api to " \
                                    "enter static graph mode."
        return func(*args, **kwargs)
    return impl


@contextlib.contextmanager
def _no_check_dy2st_diff():
    """Paddle turns off its check that to_static and eager agree inside this block; no such check runs here."""
    yield


@contextlib.contextmanager
def _stride_in_no_check_dy2st_diff():
    yield


@contextlib.contextmanager
def _dygraph_guard(tracer=None):
    from .dygraph.base import guard

    with guard():
        yield


_classes = []


def _eager_classes():
    if not _classes:
        from ..nn.layer.layers import EagerParamBase
        from ..tensor.tensor import Tensor

        _classes[:] = [Tensor, EagerParamBase]
    return _classes


class VariableMetaClass(type):
    """isinstance(x, Variable) as Paddle answers it: in dynamic mode every Tensor is a Variable; in static mode
    only a legacy-IR Variable is, and static mode's values are PIR Values (paddle.pir.Value), not Variables."""

    def __instancecheck__(cls, instance):
        if _static is None:
            return issubclass(type(instance), _eager_classes()[0])
        return issubclass(type(instance), Variable)


class ParameterMetaClass(VariableMetaClass):
    def __instancecheck__(cls, instance):
        if _static is None:
            return issubclass(type(instance), _eager_classes()[1])
        return issubclass(type(instance), Parameter)


class Variable(metaclass=VariableMetaClass):
    """paddle.static.Variable (paddle.base.framework.Variable): a legacy static-graph variable.  Only its type
    questions are answered here; static mode's values are made by paddle.static.data and by ops."""

    def __new__(cls, *args, **kwargs):
        raise TypeError("paddle.static.Variable is made by paddle.static.data and by ops, not directly")


class Parameter(Variable, metaclass=ParameterMetaClass):
    """paddle.framework.Parameter: isinstance(p, Parameter) is True for a Layer's parameters in dynamic mode."""


class Program:
    """paddle.base.framework.Program: a legacy (ProgramDesc) program.  Static mode here builds PIR-style programs
    only: paddle.static.Program (= paddle.pir.Program)."""

    def __init__(self, *args, **kwargs):
        from .. import _report

        raise _report.unsupported("paddle.base.framework.Program", ": legacy ProgramDesc programs do not exist here; "
                                                                    "use paddle.static.Program")


class Block:
    """paddle.base.framework.Block: a block of a legacy program (static mode's blocks are paddle.pir.Block)."""

    def __init__(self, *args, **kwargs):
        from .. import _report

        raise _report.unsupported("paddle.base.framework.Block", ": legacy ProgramDesc programs do not exist here")


_ELSEWHERE = {  # Paddle's name -> (module here, attribute)
    "default_main_program": ("paddle_on_torch.static", "default_main_program"),
    "default_startup_program": ("paddle_on_torch.static", "default_startup_program"),
    "program_guard": ("paddle_on_torch.static", "program_guard"),
    "name_scope": ("paddle_on_torch.static", "name_scope"),
    "EagerParamBase": ("paddle_on_torch.nn.layer.layers", "EagerParamBase"),
    "dygraph_only": ("paddle_on_torch.framework", "dygraph_only"),
    "dygraph_not_support": ("paddle_on_torch.framework", "dygraph_not_support"),
    "convert_np_dtype_to_dtype_": ("paddle_on_torch.framework", "convert_np_dtype_to_dtype_"),
    "get_flags": ("paddle_on_torch.framework.flags", "get_flags"),
    "set_flags": ("paddle_on_torch.framework.flags", "set_flags"),
    "_global_flags": ("paddle_on_torch.framework.flags", "globals"),
    "core": ("paddle_on_torch.base", "core"),
}


def __getattr__(name):
    where = _ELSEWHERE.get(name)
    if where is not None:
        return getattr(importlib.import_module(where[0]), where[1])
    from .. import _report

    return _report.module_getattr("paddle.base.framework")(name)
