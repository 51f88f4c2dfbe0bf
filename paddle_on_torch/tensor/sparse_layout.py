"""Helpers shared by paddle.sparse and the sparse Tensor methods.

A sparse paddle Tensor holds a torch sparse tensor in `_t`: layout
torch.sparse_coo (Paddle's SparseCooTensor) or torch.sparse_csr (SparseCsrTensor).
Paddle's views of the parts differ from torch's in two ways handled here:
a COO tensor need not be coalesced (torch's `indices()`/`values()` refuse that,
so the raw `_indices()`/`_values()` are used), and a 3-D CSR tensor shows its
per-batch crows/cols/values concatenated into 1-D (torch keeps a batch axis).
"""
import warnings

import torch
from .._report import unsupported

COO, CSR = torch.sparse_coo, torch.sparse_csr


def is_coo(t):
    return t.layout is COO


def is_csr(t):
    return t.layout is CSR


def coo(indices, values, shape, coalesced=None):
    """A torch COO tensor (no invariant check, no warning about skipping it)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return torch.sparse_coo_tensor(indices, values, tuple(shape), is_coalesced=coalesced,
                                       check_invariants=False)


def csr(crows, cols, values, shape):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return torch.sparse_csr_tensor(crows, cols, values, tuple(shape), check_invariants=False)


def raw_values(t):
    """The stored values in torch's own arrangement, differentiable where torch allows it."""
    if is_coo(t):
        if t.is_coalesced():
            return t.values()
        if t.requires_grad:  # torch differentiates values only through a coalesced tensor
            return t.coalesce().values()
        return t._values()
    return t.values()


def coo_indices(t):
    if t.is_coalesced() or not t.requires_grad:
        return t._indices()
    return t.coalesce()._indices()


def with_values(t, v):
    """`t`'s sparsity pattern with new values `v` (arranged as raw_values(t))."""
    if is_coo(t):
        if t.requires_grad and not t.is_coalesced():
            t = t.coalesce()
        return coo(t._indices(), v, t.shape[:t.sparse_dim()] + v.shape[1:], coalesced=t.is_coalesced())
    return csr(t.crow_indices(), t.col_indices(), v, t.shape)


def flat_csr(t):
    """(crows, cols, values) of a CSR tensor as Paddle shows them (batches concatenated)."""
    crows, cols, vals = t.crow_indices(), t.col_indices(), t.values()
    if crows.dim() > 1:
        crows, cols = crows.reshape(-1), cols.reshape(-1)
        vals = vals.reshape(-1, *vals.shape[2:])
    return crows, cols, vals


def csr_from_flat(crows, cols, values, shape, api="paddle.sparse.sparse_csr_tensor"):
    """A torch CSR tensor from Paddle's (possibly batch-concatenated) arrays."""
    shape = list(shape)
    if len(shape) == 2:
        return csr(crows, cols, values, shape)
    if len(shape) != 3:
        raise ValueError("SparseCsrTensor only support 2-D or 3-D Tensor.")
    b, m = shape[0], shape[1]
    crows = crows.reshape(b, m + 1)
    counts = crows[:, -1].tolist()
    if len(set(counts)) > 1:
        raise unsupported(api, " for a 3-D tensor with different numbers of "
                               "non-zero elements per batch (torch's batched CSR "
                               "layout needs the same number)")
    n = counts[0] if counts else 0
    return csr(crows, cols.reshape(b, n), values.reshape(b, n, *values.shape[1:]), shape)


def to_coo(t):
    """COO view of a sparse tensor (CSR converts; explicit zeros are kept)."""
    if is_coo(t):
        return t
    return t.to_sparse_coo()


def coo_to_layout(t, layout):
    """A COO result back to `layout` (COO or CSR)."""
    if layout is COO:
        return t
    t = t.coalesce()
    if t.dim() == 2:
        return t.to_sparse_csr()
    # batched: rebuild from the coalesced indices (row-major order equals CSR order)
    b, m = t.shape[0], t.shape[1]
    idx, vals = t._indices(), t._values()
    lin = idx[0] * m + idx[1]
    counts = torch.bincount(lin, minlength=b * m).reshape(b, m)
    crows = torch.cat([torch.zeros(b, 1, dtype=torch.int64, device=idx.device), counts.cumsum(1)], 1)
    return csr_from_flat(crows.reshape(-1), idx[2], vals, t.shape, "paddle.sparse (an op giving a 3-D SparseCsrTensor)")


def require_sparse(t, what):
    if t.layout is torch.strided:
        raise SystemError(f"(Fatal) this method is only effective for {what}")
