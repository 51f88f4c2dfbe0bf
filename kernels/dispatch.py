"""How a fused op reaches its kernel: torch's dispatcher, one registration per device.

Every fused op (kernels/fused.py, kernels/cross_entropy.py) is one `torch.library.custom_op` whose body is the
reference composition of torch ops (the default kernel, for any device without one of its own, and the tests'
oracle).  `register(op, cpu=..., cuda=...)` adds its device kernels with `op.register_kernel`:

    CPU   the C++ kernel of ext/ (paddle_on_torch.kernels._C, see kernels/cpp.py); dtypes it lacks (float64) and a
          machine where it cannot be built get the reference composition
    CUDA  the Triton kernel (kernels/fused_triton.py, imported on the first CUDA call: importing this package never
          imports triton); no triton installed: the reference composition

The op's fake implementation and its autograd formula (`register_fake` / `register_autograd`, beside the op) serve
every device and torch.compile / export / make_fx.  The one eager fast path skips the dispatcher: see `fast_path`.

`PADDLE_ON_TORCH_KERNELS=reference|cpp|triton` (read at import; `reload_env()`) or `set_backend(name)` rewires the
table: `reference` puts the reference composition on every device, `triton` also puts the Triton kernels on CPU
(for tests under TRITON_INTERPRET=1), `cpp` and None are the table above.  The choice lives in the dispatcher's
table, not in the op bodies.
"""
import os

import torch

from .cpp import CPP
from .eager import plain_eager

BACKENDS = ("reference", "cpp", "triton")
CPP_DTYPES = (torch.float32, torch.bfloat16, torch.float16)

_forced = None  # set_backend's choice (None: the environment's, else the default table)
_env = None
_has_triton = None
# op name -> {"op": CustomOpDef, "reference": fn, "cpu": fn, "cuda": fn}: what `route` registers
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


def cpp_module():
    """The loaded C++ kernels module, or None (loads it on first use; one warning when it cannot be built)."""
    return CPP.module or CPP.load()


def register(op, reference, cpu, cuda):
    """Register custom op `op`'s device kernels (routed as the forced backend says); `reference` is its body, the
    reference composition.  Returns `op`."""
    name = str(op._opoverload).rsplit(".", 1)[0].replace(".", "::", 1)  # "paddle_on_torch::norm_fwd"
    TABLE[name] = {"op": op, "reference": reference, "cpu": cpu, "cuda": cuda}
    _route(name)
    return op


def _route(name):
    entry, be = TABLE[name], forced()
    op = entry["op"]
    if be == "reference":
        op.register_kernel("cpu", entry["reference"])
        op.register_kernel("cuda", entry["reference"])
    else:
        op.register_kernel("cpu", entry["cuda"] if be == "triton" else entry["cpu"])
        op.register_kernel("cuda", entry["cuda"])


def kernel_for(name, device_type):
    """The kernel the dispatcher runs for op `name` (e.g. "paddle_on_torch::norm_fwd") on `device_type`."""
    entry, be = TABLE[name], forced()
    if be == "reference":
        return entry["reference"]
    if device_type == "cpu" and be == "triton":
        return entry["cuda"]
    return entry[device_type] if device_type in ("cpu", "cuda") else entry["reference"]


def set_backend(name):
    """Force a backend for this process (None: automatic / the environment variable)."""
    global _forced
    if name is not None and name not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {name!r}")
    _forced = name
    for op_name in TABLE:
        _route(op_name)


def reload_env():
    """Re-read PADDLE_ON_TORCH_KERNELS (it is read once, at import)."""
    global _env
    env = os.environ.get("PADDLE_ON_TORCH_KERNELS") or None
    if env is not None and env not in BACKENDS:
        raise ValueError(f"PADDLE_ON_TORCH_KERNELS must be one of {BACKENDS}, got {env!r}")
    _env = env
    for op_name in TABLE:
        _route(op_name)


reload_env()


def backend_for(t):
    """The backend a call of a fused op with tensor `t` runs: "reference", "cpp" or "triton"."""
    be = forced()
    if be in ("reference", "triton"):
        return be
    if t.is_cuda:
        return "triton" if triton_available() else "reference"
    if t.device.type == "cpu" and t.dtype in CPP_DTYPES and cpp_module() is not None:
        return "cpp"
    return "reference"


def cpu_kernel_usable(x):
    """Whether the C++ kernel takes a CPU call with tensor `x` (else the reference composition does)."""
    return x.dtype in CPP_DTYPES and x.numel() > 0 and cpp_module() is not None


def fast_path(*ts):
    """The one eager fast path: True when a call may skip the dispatcher and run the C++ kernel under its C++
    autograd node (ext/fused_autograd.cpp): plain CPU tensors (None allowed) of a dtype the kernel has, no
    tracing / compiling / fake, dispatch or functorch mode, no backend forced other than `cpp`, the kernels built.
    The dispatcher and the custom op's Python autograd wrapper cost ~20-60 us a call, as much as the whole kernel
    at small sizes; the node runs forward and backward without entering Python."""
    x = ts[0]
    if (_forced or _env) not in (None, "cpp") or not x.is_cpu or x.dtype not in CPP_DTYPES or not x.numel():
        return False
    return plain_eager(*ts) and cpp_module() is not None
