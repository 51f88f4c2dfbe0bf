"""paddle_on_torch: PaddlePaddle's Python API, implemented on PyTorch.

This package *is* the `paddle` namespace: after `paddle_on_torch.install()`
(or under `python -m paddle_on_torch script.py`), `import paddle` returns
this module and `import paddle.nn.functional` returns
`paddle_on_torch.nn.functional`.  The layout mirrors Paddle's, so
`paddle.nn.functional.conv2d` lives in paddle_on_torch/nn/functional/.
"""
import builtins as _builtins
import importlib as _importlib
import sys as _sys

# Paddle's version, which this package follows; our own is __shim_version__.
__version__ = "3.3.1"
__shim_version__ = "0.1.0"

from . import _threads  # noqa: E402  (Paddle's thread default, before any torch work)

_threads.apply()
from . import _normalize  # noqa: E402,F401  (the argument normalisation layer)
from . import version  # noqa: E402,F401
from ._hook import install, uninstall  # noqa: E402,F401

_hook.find_checkout_parts()  # kernels/ and parallel/ in a checkout used without installing it
from . import _report  # noqa: E402
from ._report import module_getattr as _module_getattr  # noqa: E402
from ._core import dtype as _dtype_mod  # noqa: E402
from ._core.dtype import (  # noqa: E402,F401
    bfloat16, bool, complex64, complex128, dtype, finfo, float8_e4m3fn, float8_e5m2, float16, float32, float64,
    get_default_dtype, iinfo, int8, int16, int32, int64, pstring, raw, set_default_dtype, uint8, uint16, uint32,
    uint64)
from .framework.flags import get_flags, set_flags  # noqa: E402,F401
from .framework.grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled  # noqa: E402,F401
from .autograd.backward import grad  # noqa: E402,F401
from .batch import batch  # noqa: E402,F401
from ._core.place import (  # noqa: E402,F401
    CPUPlace, CUDAPinnedPlace, CUDAPlace, CustomPlace, Place, XPUPinnedPlace, XPUPlace, get_device, is_compiled_with_cinn,
    is_compiled_with_cuda, is_compiled_with_custom_device, is_compiled_with_distribute, is_compiled_with_rocm,
    is_compiled_with_xpu, set_device)
from .framework.random import (  # noqa: E402,F401
    Generator, get_cuda_rng_state, get_rng_state, seed, set_cuda_rng_state, set_rng_state)
from .framework.io import load, save  # noqa: E402,F401
from .framework.mmap_storage import MmapStorage  # noqa: E402,F401
from .tensor.attribute import *  # noqa: E402,F401,F403
from .tensor.creation import *  # noqa: E402,F401,F403
from .tensor.einsum import *  # noqa: E402,F401,F403
from .tensor.linalg import *  # noqa: E402,F401,F403
from .tensor.logic import *  # noqa: E402,F401,F403
from .tensor.manipulation import *  # noqa: E402,F401,F403
from .tensor.math import *  # noqa: E402,F401,F403
from .tensor.random import *  # noqa: E402,F401,F403
from .tensor.search import *  # noqa: E402,F401,F403
from .tensor.stat import *  # noqa: E402,F401,F403
from .tensor.tensor import Size, Tensor  # noqa: E402,F401
from .tensor.to_string import set_printoptions  # noqa: E402,F401
from .utils.dlpack import from_dlpack, to_dlpack  # noqa: E402,F401

# Paddle's top-level softmax is the torch-style one
from .special import softmax  # noqa: E402,F401

manual_seed = seed
long = int64  # (Paddle 3.3's torch-style alias)
__git_commit__ = version.commit

# torch-style dtype spellings and numeric constants Paddle 3.3 has at top level
float, double, half, cfloat, cdouble = float32, float64, float16, complex64, complex128
e, pi, inf, nan, newaxis = 2.718281828459045, 3.141592653589793, _builtins.float("inf"), _builtins.float("nan"), None


def disable_signal_handler():
    """Paddle installs C++ signal handlers and this turns them off; paddle_on_torch installs none."""


def in_dynamic_mode():
    from .base import framework

    return framework._static is None


def enable_static():
    """Static-graph mode: ops on paddle.static.data Variables build a Program (a torch.fx Graph)."""
    from .static import program

    program.enable()


def disable_static(place=None):
    from .static import program

    program.disable()


# Submodules load on first touch (`paddle.nn` without `import paddle.nn` works, as in Paddle),
# keeping `import paddle` light.
_SUBMODULES = {
    "nn", "linalg", "fft", "signal", "special", "autograd", "optimizer", "io", "amp", "jit", "metric", "vision",
    "distributed", "incubate", "static", "device", "utils", "framework", "tensor", "regularizer", "callbacks",
    "hapi", "distribution", "sparse", "inference", "text", "profiler", "sysconfig", "geometric", "audio",
    "quantization", "onnx", "cuda", "base", "compat", "_C_ops", "_legacy_C_ops",
    "pir", "pir_utils", "common_ops_import", "functional", "random", "hub", "library",
}
_unsupported_getattr = _module_getattr("paddle")
# Top-level names from namespaces that load on first touch (nn, distributed, hapi: most of the package), so
# `import paddle` pays only for the tensor API: name -> the module that defines it
_FROM_SUBMODULES = {
    **dict.fromkeys(("adaptive_avg_pool1d", "conv1d", "conv2d", "conv3d", "group_norm", "layer_norm"),
                    "nn.functional"),  # nn.functional ops Paddle also exports at top level
    "LazyGuard": "nn.initializer.lazy_init", "DataParallel": "distributed.parallel",
    "Model": "hapi", "flops": "hapi", "summary": "hapi", "device_guard": "device", "get_cudnn_version": "device",
    # Paddle 3.3's torch-style top-level names
    **dict.fromkeys(("hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"),
                    "audio.functional.window"),
    **dict.fromkeys(("set_default_device", "get_default_device", "get_device_module", "Event", "Stream"), "device"),
    "ops": "_ops", "classes": "_classes",  # (Paddle 3.3's torch.ops / torch.classes twins: module objects)
}


def __getattr__(name):
    if name == "core":  # Paddle's paddle.core is paddle.base.core
        return _importlib.import_module(f"{__name__}.base.core")
    if name == "paddle":  # Paddle's package holds itself under its own name (PaddleDetection uses paddle.paddle)
        return _sys.modules[__name__]
    if name in _FROM_SUBMODULES:
        value = getattr(_importlib.import_module(f"{__name__}.{_FROM_SUBMODULES[name]}"), name)
        globals()[name] = value  # (later touches find it directly)
        return value
    if name in _SUBMODULES:
        try:
            return _importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{name}":
                raise
    return _unsupported_getattr(name)


def __dir__():
    return sorted(set(globals()) | set(_FROM_SUBMODULES) | _SUBMODULES)


def _bind_methods_and_inplace():
    from . import linalg, signal, special
    from .tensor import inplace, methods

    methods.bind(lenders=(linalg, signal, special), package_namespace=globals())
    g = globals()
    for name, kind in _api_names().items():
        if name.endswith("_") and not name.startswith("_") and name not in g and name[:-1] in g:
            g[name] = inplace.make_inplace(g[name[:-1]], name)


def _api_names():
    from ._api import paddle_names

    return paddle_names("paddle")


_bind_methods_and_inplace()
from . import _fastpath  # noqa: E402  (the C++ fast path of the hottest ops, when the kernels build has it)

_fastpath.install()


def _provide_to_tensor_layer():
    """What the tensor layer calls above itself (tensor/_above.py), each loaded on first use."""
    from .tensor import _above

    def create_parameter(*args, **kwargs):
        from .nn.layer.layers import _create_parameter

        return _create_parameter(*args, **kwargs)

    _above.provide(
        distributed=lambda: _importlib.import_module(f"{__name__}.distributed.auto_parallel.api"),
        distributed_ops=lambda: _importlib.import_module(f"{__name__}.distributed.auto_parallel.op_rules"),
        create_parameter=create_parameter)


_provide_to_tensor_layer()

# Top-level names from namespaces that build on everything above
from .framework.param_attr import ParamAttr  # noqa: E402,F401
from .amp.auto_cast import autocast, get_autocast_dtype, is_autocast_enabled  # noqa: E402,F401
from .amp import get_autocast_cpu_dtype, get_autocast_gpu_dtype  # noqa: E402,F401

def _accept_recorded_aliases():
    """Paddle 3.3's keyword aliases for the top-level functions and Tensor methods that are not generated ops
    (those take theirs in their header): paddle.finfo(type=), Tensor.copy_(non_blocking=), ..."""
    import inspect as _inspect

    from ._normalize.aliases import with_aliases

    g = globals()
    for name in _api_names():
        fn = g.get(name)
        if _inspect.isfunction(fn):
            g[name] = with_aliases(fn, f"paddle.{name}", qualname=name)
    for name, fn in list(vars(Tensor).items()):
        if _inspect.isfunction(fn) and not name.startswith("_"):
            new = with_aliases(fn, f"paddle.Tensor.{name}", qualname=f"Tensor.{name}")
            if new is not fn:
                setattr(Tensor, name, new)


_accept_recorded_aliases()

# torch-style integer dtype spellings (last: `int` shadows the builtin in this module from here on)
int, short = int32, int16  # noqa: A001
