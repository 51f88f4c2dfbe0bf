"""Custom-op packages that Paddle's libraries import by name, served on the shim's own kernels.

PaddleNLP builds `fused_ln` and `fast_ln` from its csrc as CUDA custom ops and reaches them through
`paddle.utils.try_import("fused_ln")` (LLaMA / Qwen / Gemma with use_fused_rms_norm, GPT with
use_fast_layer_norm).  Real Paddle's CPU build has no such package, so those switches fail there with an
ImportError; under the shim the hook serves these modules, which compute the same norms (in float32, as the
plain RMSNorm / LayerNorm paths do) with gradients.  A genuinely installed package of the same name is a Paddle
custom-op library that cannot run on torch, so the shim's module is served in its place.
"""
import importlib
import importlib.abc
import importlib.util
import sys

PACKAGES = ("fused_ln", "fast_ln")


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname not in PACKAGES:
            return None
        return importlib.util.find_spec(f"{__name__}.{fullname}")


_finder = _Finder()


def install():
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)


def uninstall():
    if _finder in sys.meta_path:
        sys.meta_path.remove(_finder)
    for name in PACKAGES:
        sys.modules.pop(name, None)
