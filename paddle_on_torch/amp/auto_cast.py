"""paddle.amp.auto_cast / decorate and the autocast queries.

Paddle enables AMP only on an accelerator place: on CPU `auto_cast` warns and has no effect and
`decorate(level='O2')` returns the models unchanged, and so do these.  On CUDA the context installs
an `_state.AmpState` that the op wrappers consult (see `_state.py` for the per-op rule).
"""
import contextlib
import copy
import warnings

import torch

from .._core import dtype as _dtypes
from .._core.place import current_torch_device, get_device
from .._core import amp_state as _state
from .amp_lists import black_list, white_list
from .._report import unsupported

__all__ = ["auto_cast", "autocast", "amp_guard", "decorate", "amp_decorate", "is_autocast_enabled",
           "get_autocast_dtype", "amp_global_state", "amp_state"]

_LEVELS = ("O0", "OD", "O1", "O2")


class AMPGlobalState:
    """What Paddle remembers across auto_cast contexts (GradScaler reads `amp_dtype`)."""

    def __init__(self):
        self.model_parameters = []
        self.use_master_grad = False
        self.amp_dtype = "float32"


_amp_global_state = AMPGlobalState()


def amp_global_state():
    return _amp_global_state


_amp_guard_args = None


def amp_state():
    """The arguments of the innermost active auto_cast / amp_guard (a dict, also when it is disabled), else None."""
    return _amp_guard_args


def _place_str():
    d = get_device()
    return "Place(cpu)" if d == "cpu" else f"Place({d})"


def _accelerator():
    """Paddle's check on the expected place: AMP runs on GPU/XPU/custom places only."""
    return current_torch_device().type not in ("cpu", "meta")


def _update_list(custom_white_list, custom_black_list, level="O1", dtype="float16"):
    if level == "O0":
        return set(), set()
    white = copy.copy(white_list()[dtype][level])
    black = copy.copy(black_list()[dtype][level])
    if custom_white_list and custom_black_list:
        for name in custom_white_list:
            if name in custom_black_list:
                raise ValueError("Custom white list overlap custom black list")
    if custom_white_list:
        for name in custom_white_list:
            black.discard(name)
            white.add(name)
    if custom_black_list:
        for name in custom_black_list:
            white.discard(name)
            black.add(name)
    return white, black


def _dtype_name(dtype):
    if isinstance(dtype, str):
        return dtype.lower()
    try:
        return _dtypes.dtype_name(_dtypes.to_torch_dtype(dtype))
    except (TypeError, ValueError, KeyError):
        return str(dtype).lower()


def _gpu_supports(dtype_name):
    major, minor = torch.cuda.get_device_capability(current_torch_device())
    return (major, minor) >= (8, 0) if dtype_name == "bfloat16" else (major, minor) >= (7, 0)


@contextlib.contextmanager
def amp_guard(enable=True, custom_white_list=None, custom_black_list=None, level="O1", dtype="float16",
              use_promote=True):
    global _amp_guard_args
    saved_args, _amp_guard_args = _amp_guard_args, {
        "enable": enable, "custom_white_list": custom_white_list, "custom_black_list": custom_black_list,
        "level": level, "dtype": dtype, "use_promote": use_promote}
    try:
        level = level.upper()
        if level not in _LEVELS:
            raise ValueError("level should be O0, OD, O1 or O2.")
        dtype = _dtype_name(dtype)
        if enable and dtype not in ("float16", "bfloat16"):
            raise ValueError("If enable amp, dtype should be 'float16' or 'bfloat16'.")
        _amp_global_state.amp_dtype = dtype
        white, black = _update_list(custom_white_list, custom_black_list, level, dtype)
        if enable and not _accelerator():
            warnings.warn(f"amp_guard can only be enabled on CUDAPlace, XPUPlace, and CustomPlace, current place is "
                          f"{_place_str()}, so it makes no effect.")
            enable = False
        if enable and current_torch_device().type == "cuda" and not _gpu_supports(dtype):
            warnings.warn(f"{dtype} amp is not supported by the current GPU ({torch.cuda.get_device_name()}), "
                          "so it makes no effect.")
            enable = False
        if enable and _amp_global_state.use_master_grad:
            raise unsupported("paddle.amp.auto_cast", " after decorate(master_grad=True)")
        new = None
        if enable and level != "O0":
            new = _state.AmpState(level, _dtypes.to_torch_dtype(dtype), frozenset(white), frozenset(black),
                                  bool(use_promote))
        saved = _state._state
        _state._state = new
        try:
            yield
        finally:
            _state._state = saved
    finally:
        _amp_guard_args = saved_args


def auto_cast(enable=True, custom_white_list=None, custom_black_list=None, level="O1", dtype="float16",
              use_promote=True):
    """Run the ops inside in mixed precision (a context manager, also usable as a decorator).

    level: 'O1' casts white-list ops to `dtype` and keeps black-list ops in float32; 'O2' runs
    everything but the black list in `dtype` (with `decorate` casting the parameters); 'OD' runs only
    the white list in `dtype`; 'O0' is full precision.  Only effective on an accelerator.
    """
    return amp_guard(enable, custom_white_list, custom_black_list, level, dtype, use_promote)


def autocast(device_type=None, dtype="float16", enabled=True, cache_enabled=True):
    """torch-style spelling of auto_cast."""
    return auto_cast(enable=enabled, dtype=dtype)


def is_autocast_enabled(device_type=None):
    return _state._state is not None


def get_autocast_dtype(device_type=None):
    st = _state._state
    if st is None:
        return "float16"
    return _dtypes.dtype_name(st.dtype)


# ------------------------------------------------------------------ decorate
def _keeps_fp32(layer, dtype):
    from .. import nn

    if not layer._cast_to_low_precision:
        return True
    norms = tuple(getattr(nn, n) for n in ("BatchNorm", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D", "SyncBatchNorm")
                  if hasattr(nn, n))
    if isinstance(layer, norms):
        return True
    if layer._dtype == "float16":
        return True
    fp16_norms = tuple(getattr(nn, n) for n in ("LayerNorm", "InstanceNorm1D", "InstanceNorm2D", "InstanceNorm3D")
                       if hasattr(nn, n))
    return dtype == "float16" and isinstance(layer, fp16_norms)


def _set_excluded_layers(models, excluded_layers):
    from ..nn import Layer

    message = "excluded_layers must be either a nn.Layer instance/type or a list of nn.Layer instances/types."
    instances, types = [], []
    if excluded_layers is None:
        pass
    elif isinstance(excluded_layers, Layer):
        instances = [excluded_layers]
    elif isinstance(excluded_layers, type) and issubclass(excluded_layers, Layer):
        types = [excluded_layers]
    elif isinstance(excluded_layers, list):
        for item in excluded_layers:
            if isinstance(item, Layer):
                instances.append(item)
            elif isinstance(item, type) and issubclass(item, Layer):
                types.append(item)
            else:
                raise TypeError(message)
    else:
        raise TypeError(message)
    for inst in instances:
        for layer in inst.sublayers(include_self=True):
            layer._cast_to_low_precision = False
    types = tuple(types)
    for model in models:
        for layer in model.sublayers(include_self=True):
            if types and isinstance(layer, types):
                layer._cast_to_low_precision = False


def _is_optimizer(obj):
    try:
        from ..optimizer import Optimizer
    except (ImportError, AttributeError, NotImplementedError):  # paddle.optimizer not available
        return callable(getattr(obj, "step", None)) and callable(getattr(obj, "clear_grad", None))
    return isinstance(obj, Optimizer)


class StateDictHook:
    """Casts the floating entries of a state dict to `save_dtype` (decorate's save_dtype)."""

    def __init__(self, save_dtype):
        self._save_dtype = save_dtype

    def __call__(self, state_dict):
        from .. import _normalize

        tdtype = _dtypes.to_torch_dtype(self._save_dtype)
        for key in state_dict:
            v = state_dict[key]
            if v._t.is_floating_point():
                cast = _normalize.wrap(v._t.detach().to(tdtype))
                cast.name = v.name
                state_dict[key] = cast


def amp_decorate(models, optimizers=None, level="O1", dtype="float16", master_weight=None, save_dtype=None,
                 master_grad=False, excluded_layers=None):
    from ..nn import Layer

    if level not in ("O1", "O2"):
        raise ValueError("level should be O1 or O2, O1 represent AMP train mode, O2 represent Pure fp16 train mode.")
    if dtype not in ("float16", "bfloat16"):
        raise ValueError("dtype only support float16 or bfloat16.")
    unchanged = models if optimizers is None else (models, optimizers)
    if level == "O1" or not _accelerator():
        return unchanged
    if current_torch_device().type == "cuda" and not _gpu_supports(dtype):
        return unchanged
    if master_grad:
        raise unsupported("paddle.amp.decorate", " with master_grad=True")
    single_model = isinstance(models, Layer)
    model_list = [models] if single_model else models
    if not isinstance(model_list, list):
        raise TypeError("models must be either a single model or a list of models.")
    for m in model_list:
        if not isinstance(m, Layer):
            raise RuntimeError(f"Current train mode is pure fp16, models should be paddle.nn.Layer, but receive "
                               f"{type(m)}.")
    _set_excluded_layers(model_list, excluded_layers)
    for m in model_list:
        for layer in m.sublayers(include_self=True):
            if not _keeps_fp32(layer, dtype):
                layer._to_impl(dtype=dtype, include_sublayers=False, floating_only=True)
    opt_list = None
    if optimizers is not None:
        if _is_optimizer(optimizers):
            opt_list = [optimizers]
        elif isinstance(optimizers, list):
            opt_list = optimizers
        else:
            raise TypeError("optimizers must be either a single optimizer or a list of optimizers.")
        for opt in opt_list:
            if not _is_optimizer(opt):
                raise RuntimeError(f"Current train mode is pure fp16, optimizers should be paddle.optimizer.Optimizer "
                                   f"or DygraphShardingOptimizer, but receive {type(opt)}.")
            if hasattr(opt, "_multi_precision"):
                opt._multi_precision = master_weight is not False
    if save_dtype is not None:
        if save_dtype not in ("float16", "bfloat16", "float32", "float64"):
            raise ValueError(f"save_dtype can only be float16 float32 or float64, but your input save_dtype is "
                             f"{save_dtype}.")
        for m in model_list:
            for layer in m.sublayers(include_self=True):
                layer.register_state_dict_hook(StateDictHook(save_dtype))
    if optimizers is None:
        return models
    return models, optimizers


def decorate(models, optimizers=None, level="O1", dtype="float16", master_weight=None, save_dtype=None,
             master_grad=False, excluded_layers=None):
    """Prepare models (and optimizers) for pure low-precision (O2) training.

    At O2 on an accelerator the floating parameters of every layer but the norms and the
    `excluded_layers` are cast to `dtype`; optimizers keep float32 master weights unless
    `master_weight=False`; `save_dtype` makes state_dict() return that dtype.  O1 returns its
    arguments unchanged, and so does O2 on CPU, as in Paddle.
    """
    return amp_decorate(models, optimizers, level, dtype, master_weight, save_dtype, master_grad, excluded_layers)
