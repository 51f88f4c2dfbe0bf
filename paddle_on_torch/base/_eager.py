"""paddle.base.core.eager: the eager-mode part of Paddle's C++ core.  `eager.Tensor` is paddle.Tensor,
`eager.PyLayer` the base of paddle.autograd.PyLayer, `eager.ops` Paddle's op functions (paddle._C_ops)."""
import importlib

from .. import _report
from ..tensor.tensor import Tensor  # noqa: F401

_missing = _report.module_getattr("paddle.base.core.eager")
_hooks = []


def register_saved_tensors_hooks(pack_hook, unpack_hook):
    """Install pack / unpack hooks for the tensors autograd saves from now on, until reset_saved_tensors_hooks()
    (what paddle.autograd.saved_tensors_hooks does on entry)."""
    from ..autograd.saved_tensors_hooks import saved_tensors_hooks

    ctx = saved_tensors_hooks(pack_hook, unpack_hook)
    ctx.__enter__()
    _hooks.append(ctx)


def reset_saved_tensors_hooks():
    if _hooks:
        _hooks.pop().__exit__(None, None, None)


def _run_custom_op(op_name, *args):
    raise _report.unsupported("paddle.base.core.eager._run_custom_op",
                              f" ({op_name!r}): Paddle's custom C++ operators cannot be loaded on torch")


def run_backward(tensors, grad_tensors, retain_graph):
    from ..autograd.backward import backward

    backward(tensors, grad_tensors, retain_graph)


def __getattr__(name):
    if name == "PyLayer":
        return importlib.import_module("paddle_on_torch.autograd.py_layer").PyLayer
    if name == "ops":
        return importlib.import_module("paddle_on_torch.base._eager_ops")
    return _missing(name)

