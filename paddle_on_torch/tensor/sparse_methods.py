"""Tensor methods of Paddle's sparse tensors (SparseCooTensor / SparseCsrTensor).

A sparse Tensor holds a torch sparse_coo or sparse_csr tensor in `_t`; see
paddle_on_torch/tensor/sparse_layout.py for how Paddle's view of the parts maps onto
torch's.  These are methods only (Paddle has no paddle.indices etc.).
"""
import torch

from .. import _normalize
from . import sparse_layout as U
from .to_string import format_data
from .._report import unsupported

__all__ = []
__tensor_methods__ = ["to_sparse_coo", "to_sparse_csr", "to_dense", "indices", "values", "crows", "cols", "nnz",
                      "sparse_dim", "dense_dim", "coalesce", "is_coalesced"]

_wrap = _normalize.wrap


def _index_dtype(x):
    return x.__dict__.get("_index_dtype")


def to_sparse_coo(self, sparse_dim):
    t = self._t
    if U.is_coo(t):
        return self  # Paddle returns a COO tensor unchanged, whatever sparse_dim asks
    if U.is_csr(t):
        return _wrap(t.to_sparse_coo())
    sparse_dim = int(sparse_dim)
    if sparse_dim <= 0:
        raise ValueError(f"(InvalidArgument) sparse_dim must be >0, but received sparse_dim:{sparse_dim}.")
    if sparse_dim > t.dim():
        raise ValueError("(InvalidArgument) sparse_dim must be less than the size of x.dims(), but received "
                         f"sparse_dim:{sparse_dim} > x_dims.size():{t.dim()}.")
    return _wrap(t.to_sparse(sparse_dim))


def to_sparse_csr(self):
    t = self._t
    if U.is_csr(t):
        return self
    if t.dim() not in (2, 3):
        raise ValueError("(InvalidArgument) SparseCsrTensor only support 2-D or 3-D Tensor.")
    if U.is_coo(t):
        if t.dense_dim():
            raise unsupported("paddle.Tensor.to_sparse_csr", " of a COO tensor with dense dimensions")
        return _wrap(U.coo_to_layout(t, U.CSR))
    try:
        return _wrap(t.to_sparse_csr())
    except RuntimeError as e:
        if "same number of specified elements" in str(e):
            raise unsupported("paddle.Tensor.to_sparse_csr", " of a 3-D tensor with different numbers of non-zero "
                                                             "elements per batch (torch's batched CSR layout "
                                                             "needs the same number)") from None
        raise


def to_dense(self):
    t = self._t
    if t.layout is torch.strided:
        raise NotImplementedError("(Unimplemented) The kernel of (to_dense) for input tensors is unimplemented, "
                                  "please check the type of input tensors.")
    return _wrap(t.to_dense())


def indices(self):
    t = self._t
    if not U.is_coo(t):
        raise SystemError("(Fatal) this method is only effective for SparseCooTensor")
    i = U.coo_indices(t)
    if "_total" in self.__dict__:  # paddle.sparse.sum(x): Paddle's indices are 1-D
        i = i.reshape(-1)
    dt = _index_dtype(self)
    return _wrap(i if dt is None else i.to(dt))


def values(self):
    t = self._t
    if U.is_coo(t):
        v = U.raw_values(t)
        return _wrap(v.reshape(()) if "_total" in self.__dict__ else v)  # sum(x): a 0-D value
    if U.is_csr(t):
        return _wrap(U.flat_csr(t)[2])
    raise NotImplementedError("(Unimplemented) The kernel of (values) for input tensors is unimplemented, "
                              "please check the type of input tensors.")


def crows(self):
    if not U.is_csr(self._t):
        raise SystemError("(Fatal) this method is only effective for SparseCsrTensor")
    return _wrap(U.flat_csr(self._t)[0])


def cols(self):
    if not U.is_csr(self._t):
        raise SystemError("(Fatal) this method is only effective for SparseCsrTensor")
    return _wrap(U.flat_csr(self._t)[1])


def nnz(self):
    t = self._t
    if U.is_coo(t):
        return t._nnz()
    if U.is_csr(t):
        return U.flat_csr(t)[1].numel()
    raise SystemError("(Fatal) this method is only effective for SparseCooTensor or SparseCsrTensor")


def sparse_dim(self):
    t = self._t
    if U.is_coo(t):
        return t.sparse_dim()
    if U.is_csr(t):
        return 2  # Paddle counts a batched CSR's rows and columns only
    return 0


def dense_dim(self):
    t = self._t
    if U.is_coo(t):
        return t.dense_dim()
    if U.is_csr(t):
        return 0
    return t.dim()


def coalesce(self, name=None):
    t = self._t
    if not U.is_coo(t):
        raise NotImplementedError("(Unimplemented) The kernel of (coalesce) for input tensors is unimplemented, "
                                  "please check the type of input tensors.")
    r = _wrap(t.coalesce())
    if _index_dtype(self) is not None:
        r.__dict__["_index_dtype"] = _index_dtype(self)
    return r


def is_coalesced(self):
    if not U.is_coo(self._t):
        raise TypeError("(InvalidType) Method is_coalesced only support sparse coo tensor.")
    return self._t.is_coalesced()


def sparse_to_string(x, prefix="Tensor"):
    """Paddle's sparse_tensor_to_string: the indices/values or crows/cols/values blocks."""
    indent = len(prefix) + 1
    t = x._t
    head = (f"{prefix}(shape={list(t.shape)}, dtype={x.dtype}, place={x.place}, "
            f"stop_gradient={x.stop_gradient}, ")
    pad = " " * indent
    if U.is_coo(t):
        parts = [("indices=", indices(x)._t), ("values=", values(x)._t)]
    else:
        crows_, cols_, vals = U.flat_csr(t)
        parts = [("crows=", crows_), ("cols=", cols_), ("values=", vals)]
    blocks = [name + format_data(p, indent + len(name)) for name, p in parts]
    return head + "".join(f"\n{pad}{b}, " for b in blocks[:-1]) + f"\n{pad}{blocks[-1]})"
