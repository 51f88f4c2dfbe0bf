"""paddle.sparse: sparse COO / CSR tensors over torch's sparse layouts.

A sparse paddle Tensor holds a torch.sparse_coo or torch.sparse_csr tensor in
`_t`; its methods (indices, values, crows, cols, to_dense, ...) are in
paddle_on_torch/tensor/sparse_methods.py.
"""
import importlib as _importlib

from .. import _report
from .binary import add, addmm, divide, is_same_shape, mask_as, masked_matmul, matmul, multiply, mv, subtract
from .creation import sparse_coo_tensor, sparse_csr_tensor
from .unary import (abs, asin, asinh, atan, atanh, cast, coalesce, deg2rad, expm1, isnan, log1p, neg, pca_lowrank,
                    pow, rad2deg, reshape, sin, sinh, slice, sqrt, square, sum, tan, tanh, transpose)

__all__ = ["sparse_coo_tensor", "sparse_csr_tensor", "sin", "tan", "asin", "atan", "sinh", "tanh", "asinh", "atanh",
           "sqrt", "square", "log1p", "abs", "pow", "pca_lowrank", "cast", "neg", "deg2rad", "rad2deg", "expm1", "mv",
           "matmul", "mask_as", "masked_matmul", "addmm", "add", "subtract", "transpose", "sum", "multiply", "divide",
           "coalesce", "is_same_shape", "reshape", "isnan", "slice"]

_unsupported_getattr = _report.module_getattr("paddle.sparse")


def _accept_recorded_aliases():
    from .._normalize.aliases import accept_recorded_aliases_in

    accept_recorded_aliases_in(globals(), "paddle.sparse", __all__)  # (Paddle 3.3's reshape(input=), ...)


_accept_recorded_aliases()


def __getattr__(name):
    if name == "nn":  # loaded on first touch: it builds on paddle.nn (Tensor's sparse methods need only this one)
        return _importlib.import_module(f"{__name__}.nn")
    return _unsupported_getattr(name)
