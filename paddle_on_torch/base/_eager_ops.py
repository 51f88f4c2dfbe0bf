"""paddle.base.core.eager.ops: Paddle's eager op functions (what paddle._C_ops re-exports), and `ops.legacy`, the
legacy-signature ones (paddle._legacy_C_ops)."""
import importlib


def __getattr__(name):
    if name == "legacy":
        return importlib.import_module("paddle_on_torch._legacy_C_ops")
    return getattr(importlib.import_module("paddle_on_torch._C_ops"), name)
