"""paddle.static.amp.bf16: bf16_guard, the bfloat16 twin of fp16_guard (program rewriting is not supported)."""
import contextlib

from ... import _report
from .. import name_scope

__all__ = ["bf16_guard"]


@contextlib.contextmanager
def bf16_guard():
    """Ops created inside are the ones cast to bfloat16 when a static AMP decorator has use_bf16_guard=True."""
    with name_scope(prefix="__use_bf16__"):
        yield


__getattr__ = _report.module_getattr("paddle.static.amp.bf16")
