"""paddle.sparse.nn.functional: activations on the stored values, softmax over the stored row entries."""
import torch

from ... import _normalize, _report
from ...tensor import sparse_layout as U
from ..unary import _map, _sparse
from .conv_functional import (conv2d, conv3d, max_pool3d, subm_conv2d, subm_conv2d_igemm,  # noqa: F401
                              subm_conv3d, subm_conv3d_igemm)

__all__ = ["relu", "relu6", "leaky_relu", "softmax", "conv2d", "conv3d", "subm_conv2d", "subm_conv2d_igemm",
           "subm_conv3d", "subm_conv3d_igemm", "max_pool3d"]

_PADDLE_NAMES = ("conv2d", "conv3d", "subm_conv2d", "subm_conv2d_igemm", "subm_conv3d", "subm_conv3d_igemm",
                 "max_pool3d", "relu", "relu6", "leaky_relu", "softmax", "attention")


def relu(x, name=None):
    return _map(x, torch.relu, "relu")


def relu6(x, name=None):
    return _map(x, lambda v: torch.clamp(v, 0, 6), "relu6")


def leaky_relu(x, negative_slope=0.01, name=None):
    return _map(x, lambda v: torch.nn.functional.leaky_relu(v, negative_slope), "leaky_relu")


def softmax(x, axis=-1, name=None):
    """Softmax along `axis` over the stored entries (unstored ones count as -inf); a CSR tensor only along -1."""
    t = _sparse(x, "softmax")
    if U.is_coo(t):
        return _normalize.wrap(torch.sparse.softmax(t.coalesce(), axis))
    if axis != -1:  # Paddle's own limit (its CSR kernel checks axis == -1, so the last axis as 1 fails too)
        raise NotImplementedError("(Unimplemented) SparseCsrTensor only support axis=-1 for softmax, which is faster "
                                  "when reading data by row (axis=-1)")
    return _normalize.wrap(U.coo_to_layout(torch.sparse.softmax(U.to_coo(t).coalesce(), -1), U.CSR))


def __getattr__(name):
    if name in _PADDLE_NAMES:
        raise _report.unsupported(f"paddle.sparse.nn.functional.{name}")
    raise AttributeError(f"module 'paddle.sparse.nn.functional' has no attribute '{name}'")
