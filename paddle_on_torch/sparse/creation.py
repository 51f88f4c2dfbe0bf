"""paddle.sparse.sparse_coo_tensor / sparse_csr_tensor."""
import numpy as np
import torch

from .. import _normalize
from .._core import dtype as _dtypes
from ..tensor import sparse_layout as U

__all__ = ["sparse_coo_tensor", "sparse_csr_tensor"]

_INDEX_DTYPES = (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8)


def _as_torch(data, dtype=None, place=None):
    from ..tensor.creation import _as_torch

    if isinstance(data, _normalize.Tensor):
        t = data._t
        return t if dtype is None else t.to(_dtypes.to_torch_dtype(dtype))
    return _as_torch(data, dtype, place)


def _check_indices_dtype(t):
    if t.dtype not in _INDEX_DTYPES:
        raise TypeError("the dtype of indices must be 'int8' or 'int16' or 'int32' or 'int64'")


def _values(values, dtype, place, stop_gradient):
    v = _as_torch(values, dtype, place)
    if dtype is not None:
        v = v.to(_dtypes.to_torch_dtype(dtype))
    if stop_gradient:
        v = v.detach()
    return v


def _finish(t, values_were_tensor, stop_gradient):
    if not stop_gradient and not t.requires_grad and t.dtype in (torch.float16, torch.bfloat16, torch.float32,
                                                                  torch.float64, torch.complex64, torch.complex128):
        t = t.requires_grad_(True)
    return t


def sparse_coo_tensor(indices, values, shape=None, dtype=None, place=None, stop_gradient=True):
    idx = _as_torch(indices, None, place)
    is_tensor = isinstance(values, _normalize.Tensor)
    v = _values(values, dtype, place, stop_gradient)
    if idx.dim() != 2:
        raise ValueError("'indices' must be 2-D.")
    nnz, sparse_dim = idx.shape[1], idx.shape[0]
    _check_indices_dtype(idx)
    if v.dim() == 0 or nnz != v.shape[0]:
        raise ValueError(f"the indices and values must have same number of non-zero, but get {nnz} and "
                         f"{v.shape[0] if v.dim() else 0}")
    dense_dim = v.dim() - 1
    min_shape = (idx.amax(1) + 1).tolist() if nnz else [0] * sparse_dim
    min_shape += list(v.shape[1:])
    if shape is None:
        shape = min_shape
    else:
        shape = _normalize._shape(shape)
        if shape < min_shape:  # Paddle compares the lists (lexicographically)
            raise ValueError(f"the minimum shape required is {min_shape}, but get {shape}")
        if len(shape) != sparse_dim + dense_dim:
            raise ValueError(f"the number of dimensions(len(shape) must be sparse_dim({sparse_dim}) + "
                             f"dense_dim({dense_dim}), but get {len(shape)}")
    t = U.coo(idx.to(torch.int64), v, shape)
    r = _normalize.wrap(_finish(t, is_tensor, stop_gradient))
    if idx.dtype is not torch.int64:
        r.__dict__["_index_dtype"] = idx.dtype  # torch stores int64; indices() hands back Paddle's dtype
    return r


def _infer_csr_shape(crows, cols):
    c = crows.cpu().numpy()
    batches = int(np.sum(c[:-1] > c[1:])) + 1
    if (len(c) // batches) * batches != len(c):
        raise ValueError(f"The calculated original matrix batch size is {batches}, but it cannot correctly "
                         "split the row data. Please carefully check the data or the input shape.")
    col = int(cols.max()) + 1
    row = len(c) // batches - 1
    return [row, col] if batches == 1 else [batches, row, col]


def sparse_csr_tensor(crows, cols, values, shape=None, dtype=None, place=None, stop_gradient=True):
    crows = _as_torch(crows, None, place)
    cols = _as_torch(cols, None, place)
    is_tensor = isinstance(values, _normalize.Tensor)
    v = _values(values, dtype, place, stop_gradient)
    _check_indices_dtype(crows)
    _check_indices_dtype(cols)
    if shape is not None:
        shape = _normalize._shape(shape)
        if len(shape) not in (2, 3):
            raise ValueError(f"SparseCsrTensor only support 2-D or 3-D matrix. but get shape {shape}")
    else:
        shape = _infer_csr_shape(crows, cols)
    rows = shape[-2]
    if crows.dim() != 1 or cols.dim() != 1 or v.dim() != 1:
        raise ValueError("The 'crows', 'cols' and 'values' must be 1-D.")
    if len(cols) != len(v):
        raise ValueError("the length of cols must be same as length of values")
    if len(shape) == 2:
        if crows.shape[0] != rows + 1:
            raise ValueError(f"The length({crows.shape[0]}) of crows must be equal to the rows({rows})+1 of matrix.")
        if crows[0] != 0:
            raise ValueError("the 0th value of crows must be 0")
        if crows[-1] != v.shape[0]:
            raise ValueError("the last value of crows must be equal the number of non-zero")
    elif crows.shape[0] % (rows + 1) != 0:
        raise ValueError(f"The length({crows.shape[0]}) of crows must be divisible the rows({rows})+1 of matrix.")
    if crows.dtype is not cols.dtype or crows.dtype not in (torch.int32, torch.int64):
        crows, cols = crows.to(torch.int64), cols.to(torch.int64)
    t = U.csr_from_flat(crows, cols, v, shape)
    return _normalize.wrap(_finish(t, is_tensor, stop_gradient))
