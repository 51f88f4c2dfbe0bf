"""paddle.static.amp: static-graph mixed precision.

`fp16_guard()` / `bf16.bf16_guard()` mark the ops built inside for pure low-precision training, which Paddle does
with a name scope (a no-op in dynamic mode, where model code such as PaddleClas' backbones also runs them).
Rewriting a static program for AMP (`decorate`, `cast_model_to_fp16`, the op lists) is not supported: use
paddle.amp.auto_cast / paddle.amp.decorate.
"""
import contextlib

from ... import _report
from .. import name_scope

__all__ = ["fp16_guard"]

_FP16_GUARD_PATTERN = "__use_fp16__"


@contextlib.contextmanager
def fp16_guard():
    """Ops created inside are the ones cast to float16 when a static AMP decorator has use_fp16_guard=True."""
    with name_scope(prefix=_FP16_GUARD_PATTERN):
        yield


_missing = _report.module_getattr("paddle.static.amp")


def __getattr__(name):
    if name == "bf16":
        import importlib

        return importlib.import_module(f"{__name__}.bf16")
    return _missing(name)
