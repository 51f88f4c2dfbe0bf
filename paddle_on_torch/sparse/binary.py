"""paddle.sparse binary functions and matrix products.

Paddle's elementwise results between two sparse tensors of one layout:
add/subtract/multiply keep the union of the two patterns (coalesced, explicit
zeros kept); divide stores every position (0/0 is nan).  The matrix products
take a sparse left operand and a dense (or sparse) right one; real Paddle has
GPU kernels only for these, paddle_on_torch computes them anywhere.
"""
import torch

from .. import _normalize
from ..tensor import sparse_layout as U
from .._report import unsupported

__all__ = ["add", "subtract", "multiply", "divide", "is_same_shape", "mask_as", "masked_matmul", "matmul", "mv",
           "addmm"]

_wrap = _normalize.wrap


def _unimplemented(api):
    return NotImplementedError(f"(Unimplemented) The kernel of ({api}) for input tensors is unimplemented, "
                               "please check the type of input tensors.")


def _operands(x, y, api):
    if not isinstance(y, (_normalize.Tensor, torch.Tensor)):
        raise ValueError(f"(InvalidArgument) {api}(): argument 'y' (position 1) must be Tensor, but got "
                         f"{type(y).__name__}")
    a, b = _normalize.to_torch(x), _normalize.to_torch(y)
    if a.layout is torch.strided or a.layout is not b.layout:
        raise _unimplemented(api)
    if list(a.shape) != list(b.shape):
        raise ValueError(f"(InvalidArgument) Broadcast dimension mismatch. Operands could not be broadcast together "
                         f"with the shape of X = {list(a.shape)} and the shape of Y = {list(b.shape)}.")
    _normalize.binary_operands(U.raw_values(a), U.raw_values(b))
    return a, b


def _zeros_like_pattern(c):
    c = c.coalesce()
    return U.coo(c._indices(), torch.zeros_like(c._values()), c.shape, coalesced=True)


def _union(a, b):
    """a and b (COO) on the union of their patterns, as two coalesced tensors with equal indices."""
    au = (a + _zeros_like_pattern(b)).coalesce()
    bu = (b + _zeros_like_pattern(a)).coalesce()
    return au, bu


def _finish(out, layout):
    return _wrap(U.coo_to_layout(out, layout))


def add(x, y, name=None):
    a, b = _operands(x, y, "add")
    return _finish((U.to_coo(a) + U.to_coo(b)).coalesce(), a.layout)


def subtract(x, y, name=None):
    a, b = _operands(x, y, "subtract")
    return _finish((U.to_coo(a) - U.to_coo(b)).coalesce(), a.layout)


def _scalar_map(x, y, fn):
    from .unary import _map

    if isinstance(y, _normalize.Tensor):
        y = y.item()
    return _map(x, lambda v: fn(v, y), "multiply")


def multiply(x, y, name=None):
    if not isinstance(y, (_normalize.Tensor, torch.Tensor)):
        return _scalar_map(x, y, torch.mul)
    a, b = _operands(x, y, "multiply")
    au, bu = _union(U.to_coo(a), U.to_coo(b))
    return _finish(U.coo(au._indices(), au.values() * bu.values(), au.shape, coalesced=True), a.layout)


def divide(x, y, name=None):
    if not isinstance(y, (_normalize.Tensor, torch.Tensor)):
        return _scalar_map(x, y, torch.div)
    a, b = _operands(x, y, "divide")
    ca = U.to_coo(a)
    sd = ca.sparse_dim()
    d = torch.div(a.to_dense(), b.to_dense())
    # every position is stored (0/0 is nan): all sparse coordinates, in row-major order
    grid = torch.ones(list(a.shape[:sd]), dtype=torch.bool, device=d.device).nonzero().T
    vals = d.reshape(-1, *d.shape[sd:])
    return _finish(U.coo(grid, vals, d.shape, coalesced=True), a.layout)


def is_same_shape(x, y):
    return list(_normalize.to_torch(x).shape) == list(_normalize.to_torch(y).shape)


def _gather(dense, mask):
    """The values of dense at the stored positions of the sparse `mask`, in mask's layout."""
    if U.is_coo(mask):
        idx = U.coo_indices(mask)
        vals = dense[tuple(idx)]
        return U.coo(idx, vals, dense.shape, coalesced=mask.is_coalesced())
    c = mask.to_sparse_coo()._indices()  # CSR order = row-major order
    vals = dense[tuple(c)]
    crows, cols, _ = U.flat_csr(mask)
    return U.csr_from_flat(crows, cols, vals, dense.shape)


def mask_as(x, mask, name=None):
    d, m = _normalize.to_torch(x), _normalize.to_torch(mask)
    if m.layout is torch.strided or d.layout is not torch.strided:
        raise _unimplemented("mask_as")
    if list(d.shape) != list(m.shape):
        raise ValueError(f"(InvalidArgument) x's shape {list(d.shape)} and mask's shape {list(m.shape)} must be "
                         "the same")
    return _wrap(_gather(d, m))


def _sparse_matmul(a, b):
    """sparse @ dense -> dense; sparse @ sparse -> sparse (same layout as a)."""
    if b.layout is torch.strided:
        if a.dim() == 3:
            return torch.bmm(U.to_coo(a), b)
        return torch.matmul(a, b)
    if a.dim() != 2 or b.dim() != 2:
        raise unsupported("paddle.sparse.matmul", " of two batched (3-D) sparse tensors")
    r = torch.sparse.mm(U.to_coo(a), U.to_coo(b)).coalesce()
    return U.coo_to_layout(r, a.layout)


def matmul(x, y, name=None):
    a, b = _normalize.to_torch(x), _normalize.to_torch(y)
    if a.layout is torch.strided:
        raise _unimplemented("matmul")
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"(InvalidArgument) The last dimension of x ({a.shape[-1]}) must equal the second last "
                         f"dimension of y ({b.shape[-2]}).")
    _normalize.binary_operands(U.raw_values(a), U.raw_values(b) if b.layout is not torch.strided else b)
    return _wrap(_sparse_matmul(a, b))


def mv(x, vec, name=None):
    a, v = _normalize.to_torch(x), _normalize.to_torch(vec)
    if a.layout is torch.strided or a.dim() != 2 or v.dim() != 1:
        raise _unimplemented("mv")
    if a.shape[1] != v.shape[0]:
        raise ValueError(f"(InvalidArgument) The number of columns of x ({a.shape[1]}) must equal the length of "
                         f"vec ({v.shape[0]}).")
    return _wrap(torch.matmul(a, v.unsqueeze(-1)).squeeze(-1))


def addmm(input, x, y, beta=1.0, alpha=1.0, name=None):
    i, a, b = _normalize.to_torch(input), _normalize.to_torch(x), _normalize.to_torch(y)
    if a.layout is torch.strided:
        raise _unimplemented("addmm")
    prod = _sparse_matmul(a, b)
    if i.layout is torch.strided:
        return _wrap(beta * i + alpha * (prod if prod.layout is torch.strided else prod.to_dense()))
    if prod.layout is torch.strided:
        raise _unimplemented("addmm")
    out = (U.to_coo(i) * beta + U.to_coo(prod) * alpha).coalesce()
    return _wrap(U.coo_to_layout(out, i.layout))


def masked_matmul(x, y, mask, name=None):
    a, b, m = _normalize.to_torch(x), _normalize.to_torch(y), _normalize.to_torch(mask)
    if a.layout is not torch.strided or b.layout is not torch.strided or not U.is_csr(m):
        raise _unimplemented("masked_matmul")
    return _wrap(_gather(torch.matmul(a, b), m))
