"""How a fused op reaches its kernel: torch's dispatcher, one registration per device.

Each fused op (kernels/norm.py, rope.py, swiglu.py, cross_entropy.py, rnn.py) is one `torch.library.custom_op`
whose body is the reference composition of torch ops (the kernel of any device without one of its own, and the
tests' oracle), with a fake implementation and an autograd formula in Python (the optimizer steps of
kernels/optim.py: defined with torch.library directly, no gradient, the reference on CompositeExplicitAutograd).
Its device kernels:

    CPU          the C++ kernel, registered by the extension itself (TORCH_LIBRARY_IMPL in ext/<op>.cpp) when
                 paddle_on_torch.kernels._C loads (`load_cpp`, at the op module's import); it takes every dtype
                 (float64 and empty inputs through an ATen composition).  No build here: the op's body.
    AutogradCPU  the autograd formula in C++ (ext/<op>.cpp), for the ops where it pays (norm, rope, swiglu): the
                 eager fast path, through the same registration.  Other devices: the Python formula.
    CUDA         the Triton kernel (kernels/<op>_triton.py, imported on the first CUDA call: importing this package
                 never imports triton); no triton installed: the reference composition.

`PADDLE_ON_TORCH_KERNELS=reference|cpp|triton` (read at import; `reload_env()`) or `set_backend(name)` rewires the
table: `reference` puts the reference composition on CPU and CUDA, `triton` also puts the Triton kernels on CPU
(for tests under TRITON_INTERPRET=1), `cpp` and None are the table above.  A forced CPU kernel is a Python kernel
registered over the C++ one on the CPU key (torch keeps the C++ one underneath and restores it when the override's
library is destroyed), so the choice lives in the dispatcher's table, not in the op bodies.
"""
import os
import warnings

import torch

from .cpp import CPP

BACKENDS = ("reference", "cpp", "triton")

_forced = None  # set_backend's choice (None: the environment's, else the default table)
_env = None
_has_triton = None
_overrides = None  # the torch.library.Library holding the forced CPU kernels (None: the C++ ones rule)
# op name -> {"op": CustomOpDef, "reference": fn, "cuda": fn}: what `_route` registers
TABLE = {}


def forced():
    """The backend forced by set_backend or PADDLE_ON_TORCH_KERNELS, or None."""
    return _forced or _env


def triton_available():
    global _has_triton
    if _has_triton is None:
        try:
            import triton  # noqa: F401
            _has_triton = True
        except Exception:
            _has_triton = False
    return _has_triton


def load_cpp():
    """The C++ kernels module, loaded (its kernels registered with the dispatcher) on first use, or None (one
    warning) when it cannot be had here."""
    return CPP.module or CPP.load()


def register(op, reference, cuda, cpu=None):
    """Register custom op `op`'s CUDA kernel and the forced backend's CPU kernel (its CPU kernel proper comes from
    the C++ extension; `cpu`: a Python CPU kernel instead); `reference` is its body, the reference composition.
    `op` may also be the name of an op defined with torch.library (kernels/optim.py), whose reference is already its
    CompositeExplicitAutograd kernel (the CUDA one too): then only the forced CPU kernel is routed here.
    Returns `op`."""
    if isinstance(op, str):
        name = op
    else:
        name = str(op._opoverload).rsplit(".", 1)[0].replace(".", "::", 1)  # "paddle_on_torch::norm_fwd"
    TABLE[name] = {"op": op, "reference": reference, "cuda": cuda, "cpu": cpu}
    if cpu is not None:
        op.register_kernel("cpu", cpu)
    _route(name)
    return op


def _route(name):
    global _overrides
    entry, be = TABLE[name], forced()
    if not isinstance(entry["op"], str):
        entry["op"].register_kernel("cuda", entry["reference"] if be == "reference" else entry["cuda"])
    if be in ("reference", "triton"):
        if _overrides is None:
            _overrides = torch.library.Library("paddle_on_torch", "IMPL")
        with warnings.catch_warnings():  # torch warns once that a kernel (the C++ one) is overridden
            warnings.simplefilter("ignore")
            _overrides.impl(name.split("::")[1], entry["reference"] if be == "reference" else entry["cuda"], "CPU")


def _reroute():
    global _overrides
    if _overrides is not None:  # drop every forced CPU kernel: the C++ ones (or the op bodies) rule again
        _overrides._destroy()
        _overrides = None
    for op_name in TABLE:
        _route(op_name)


def kernel_for(name, device_type):
    """What the dispatcher runs for op `name` (e.g. "paddle_on_torch::norm_fwd") on `device_type`: a Python
    function, or "cpp" for the C++ kernel the extension registered."""
    entry, be = TABLE[name], forced()
    if be == "reference":
        return entry["reference"]
    if device_type == "cpu":
        if be == "triton":
            return entry["cuda"]
        if entry["cpu"] is not None:
            return entry["cpu"]
        return "cpp" if torch._C._dispatch_has_kernel_for_dispatch_key(name, "CPU") else entry["reference"]
    return entry["cuda"] if device_type == "cuda" else entry["reference"]


def set_backend(name):
    """Force a backend for this process (None: automatic / the environment variable)."""
    global _forced
    if name is not None and name not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {name!r}")
    _forced = name
    _reroute()


def reload_env():
    """Re-read PADDLE_ON_TORCH_KERNELS (it is read once, at import)."""
    global _env
    env = os.environ.get("PADDLE_ON_TORCH_KERNELS") or None
    if env is not None and env not in BACKENDS:
        raise ValueError(f"PADDLE_ON_TORCH_KERNELS must be one of {BACKENDS}, got {env!r}")
    _env = env
    _reroute()


reload_env()


def backend_for(t):
    """The backend a call of a fused op with tensor `t` runs: "reference", "cpp" or "triton"."""
    be = forced()
    if be in ("reference", "triton"):
        return be
    if t.is_cuda:
        return "triton" if triton_available() else "reference"
    if t.device.type == "cpu" and load_cpp() is not None:
        return "cpp"
    return "reference"


def triton_module(name):
    """kernels/<name>_triton.py (imported on the first CUDA call), or None without triton."""
    if not triton_available():
        return None
    import importlib

    return importlib.import_module(f"{__package__}.{name}_triton")


def acc(t):
    """fp32 for half types, fp64 stays fp64 (the reference compositions' accumulation type)."""
    return t if t.dtype == torch.float64 else t.float()
