"""Install the C++ fast path of the hottest ops (ext/fastpath.cpp; _normalize/fastpath.py says what it covers) at
`import paddle`, when the kernels module built at install time has it.

No build happens here: a missing, stale (built before ext/fastpath.cpp existed) or mismatched install-time
build leaves every op on its Python path, which computes the same thing, about 0.3-0.6 us slower per op.
PADDLE_ON_TORCH_FASTPATH=0 turns the fast path off (to compare the two paths, or to rule it out).
"""
import os


def install():
    """Install the fast path if the install-time kernels module has it; returns whether it did."""
    if os.environ.get("PADDLE_ON_TORCH_FASTPATH", "1") == "0":
        return False
    try:
        from .kernels import cpp

        module = cpp._installed()  # (the install-time build only: a JIT build takes minutes)
    except Exception:  # noqa: BLE001  (no build, another torch, ...: the Python path)
        return False
    if module is None or not hasattr(module, "fastpath_install"):
        return False
    return install_from(module)


def install_from(module):
    """Install the fast path of `module` (a kernels module with ext/fastpath.cpp's functions)."""
    import torch

    from . import _normalize
    from ._core import amp_state
    from ._normalize import fastpath, wrapping

    module.fastpath_install(_normalize.Tensor, torch.nn.Parameter, vars(amp_state), vars(wrapping))
    fastpath.install(module, _normalize.Tensor)
    return True
