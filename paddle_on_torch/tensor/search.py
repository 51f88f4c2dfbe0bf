"""Search and sort: argmax, sort, topk, where, nonzero, ... (paddle.tensor.search).

Settled against Paddle 3.3.1: argmax/argmin take dtype int32 or int64 only
and flatten when axis is None; sort/argsort are stable (the `stable` flag
changes nothing observable); topk returns a (values, indices) named tuple;
where's Python-scalar operands become tensors (float32 / int64) before
Paddle's promotion rule is applied, and its condition must be bool;
nonzero / where(cond) / argwhere refuse a 0-D input.
"""
import numbers
from typing import NamedTuple

import numpy as np
import torch

from .._errors import translate
from .._normalize import IntLike, TensorLike, binary_operands, is_tensor, op, rebind, wrap
from .._core import dtype as _dtypes
from .tensor import Tensor

__all__ = ["argmax", "argmin", "argsort", "sort", "msort", "topk", "where", "nonzero", "argwhere", "index_sample",
           "masked_select", "searchsorted", "bucketize", "kthvalue", "mode", "unique", "masked_scatter"]


def _dname(dtype):
    return str(dtype).replace("torch.", "")


def _axis_int(axis, ndim, api):
    """An axis that must be one int in [-ndim, ndim) (a 0-D tensor counts as rank 1)."""
    if is_tensor(axis):
        axis = axis._t.item()
    if isinstance(axis, float) and axis.is_integer():
        axis = int(axis)
    if not isinstance(axis, numbers.Integral):
        raise TypeError(f"The type of 'axis' in {api} must be int, but received {type(axis).__name__}.")
    axis = int(axis)
    n = max(ndim, 1)
    if not -n <= axis < n:
        raise ValueError(f"(InvalidArgument) {api}: the axis is expected to be in range of [{-n}, {n}), but "
                         f"received {axis}.")
    return axis


def _skip_nan(fn, x, dim):
    """Paddle's argmax / argmin pass over NaN (its comparisons with NaN are false), where torch's pick the first
    NaN: the index of the extreme of the other values, or 0 where a slice has nothing else."""
    fill = _NEG_INF if fn is torch.argmax else _INF
    if x.numel() <= _SMALL or torch.compiler.is_compiling():  # (no data-dependent branch in a graph)
        return fn(torch.nan_to_num(x, nan=fill, posinf=_INF, neginf=_NEG_INF), dim, keepdim=True)
    # a big x: look for NaN among the picked values only (cheaper than a pass over x, at the cost of a sync)
    r = fn(x, dim, keepdim=True)
    if torch.isnan(x.gather(dim, r)).any():
        r = fn(torch.nan_to_num(x, nan=fill, posinf=_INF, neginf=_NEG_INF), dim, keepdim=True)
    return r


_INF, _NEG_INF = float("inf"), float("-inf")
_SMALL = 1 << 16  # elements: below it one extra elementwise pass costs less than the NaN check's sync


def _arg_extreme(fn, api, x, axis, keepdim, dtype):
    if dtype not in (torch.int32, torch.int64):
        raise ValueError(f"(InvalidArgument) {api}: the dtype of the result must be int32 or int64, but received "
                         f"{_dname(dtype)}.")
    if axis is not None and not isinstance(axis, numbers.Integral) and isinstance(axis, (float, str)):
        axis = int(float(axis))  # Paddle reads argmax(axis=1.5) / (axis='1') as axis 1
    if x.dim() == 0 and axis is not None and axis not in (0, -1):
        raise ValueError(f"(InvalidArgument) 'axis'({axis}) must be 0 or -1 if input tensor is 0-dim.")
    float_x = x.is_floating_point()
    if axis is None or x.dim() == 0:
        if x.dim() and axis is not None:
            _axis_int(axis, x.dim(), api)
        flat = x.reshape(-1)
        r = _skip_nan(fn, flat, 0).reshape(()) if float_x else fn(flat)
        return (r.reshape([1] * x.dim()) if keepdim else r).to(dtype)
    dim = _axis_int(axis, x.dim(), api)
    if float_x:
        r = _skip_nan(fn, x, dim)
        return (r if keepdim else r.squeeze(dim)).to(dtype)
    return fn(x, dim, keepdim=keepdim).to(dtype)


@op
def argmax(x: TensorLike, axis=None, keepdim=False, dtype="int64", name=None):
    """Index of the largest element (along `axis`, or of the flattened tensor)."""
    return _arg_extreme(torch.argmax, "argmax", x, axis, keepdim, _dtypes.to_torch_dtype(dtype))


@op
def argmin(x: TensorLike, axis=None, keepdim=False, dtype="int64", name=None):
    """Index of the smallest element (along `axis`, or of the flattened tensor)."""
    return _arg_extreme(torch.argmin, "argmin", x, axis, keepdim, _dtypes.to_torch_dtype(dtype))


@op
def argsort(x: TensorLike, axis=-1, descending=False, stable=False, name=None):
    """Indices that sort x along axis (NaN sorts as the largest value)."""
    if x.dim() == 0:
        _axis_int(axis, 0, "argsort")
        return torch.zeros((), dtype=torch.int64, device=x.device)
    return torch.argsort(x, dim=_axis_int(axis, x.dim(), "argsort"), descending=descending, stable=True)


@op
def sort(x: TensorLike, axis=-1, descending=False, stable=False, name=None):
    """x sorted along axis (NaN sorts as the largest value)."""
    if x.dim() == 0:
        _axis_int(axis, 0, "sort")
        return x.clone()
    return torch.sort(x, dim=_axis_int(axis, x.dim(), "sort"), descending=descending, stable=True).values


@op
def msort(input: TensorLike, *, out=None):
    return torch.sort(input, dim=0, stable=True).values


class TopKRetType(NamedTuple):
    values: object
    indices: object


@op
def _topk(x: TensorLike, k, axis=None, largest=True, sorted=True, name=None):
    if not is_tensor(k) and int(k) < 1:
        raise ValueError(f"(InvalidArgument) the attribute of k in the topk must >= 1 or be a Tensor, but received "
                         f"{k}.")
    k = int(k._t.item()) if is_tensor(k) else int(k)
    axis = -1 if axis is None else _axis_int(axis, x.dim(), "topk")
    n = x.shape[axis] if x.dim() else 1
    if k > n or k < 0:
        raise ValueError(f"(InvalidArgument) topk: k must be in [0, {n}] (the size of axis {axis}), but received "
                         f"{k}.")
    if x.dim() == 0:
        return x.clone(), torch.zeros((), dtype=torch.int64, device=x.device)
    return tuple(torch.topk(x, k, dim=axis, largest=largest, sorted=True))


def topk(x=None, k=None, axis=None, largest=True, sorted=True, name=None, *, out=None, input=None, dim=None):
    """The k largest (or smallest) elements along axis and their indices, as (values, indices)."""
    x = input if x is None else x
    axis = dim if axis is None else axis
    v, i = _topk(x, k, axis, largest, sorted)
    if out is not None:
        rebind(out[0], v._t)
        rebind(out[1], i._t)
    return TopKRetType(v, i)


topk.__wrapped_impl__ = _topk.__wrapped_impl__


def _where_operand(v, cond):
    if is_tensor(v):
        return v._t
    if isinstance(v, torch.Tensor):
        return v
    if np.isscalar(v):
        from .creation import _as_torch

        return _as_torch(v).to(cond.device)
    raise TypeError(f"where: x and y must be Tensors or scalars, but received {type(v).__name__}.")


def where(condition, x=None, y=None, name=None, *, out=None, input=None, other=None):
    """Elements of x where condition is True, else of y; with x and y omitted, nonzero(condition, as_tuple=True)."""
    x = input if x is None else x
    y = other if y is None else y
    if x is None and y is None:
        return nonzero(condition, as_tuple=True)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    # (Tensor operands, the common case, are unwrapped inline; _where_operand takes the rest)
    c = condition._t if isinstance(condition, Tensor) else _where_operand(condition, torch.zeros(()))
    if c.dtype is not torch.bool:
        raise ValueError(f"The `condition` is expected to be a boolean Tensor, but got a Tensor with dtype "
                         f"paddle.{_dname(c.dtype)}")
    xt = x._t if isinstance(x, Tensor) else _where_operand(x, c)
    yt = y._t if isinstance(y, Tensor) else _where_operand(y, c)
    try:
        if xt.dtype is not yt.dtype:
            shape = torch.broadcast_shapes(c.shape, xt.shape, yt.shape)
            binary_operands(xt.expand(shape), yt.expand(shape))
        r = wrap(torch.where(c, xt, yt))
    except RuntimeError as e:  # shapes that do not broadcast: Paddle's ValueError
        t = translate(e, "paddle.where")
        if t is None:
            raise
        raise t from None
    if out is not None:
        rebind(out, r._t.detach())
    return r


@op
def nonzero(x: TensorLike, as_tuple=False, *, out=None):
    """Indices of the nonzero elements: an [N, rank] int64 Tensor, or a tuple of rank [N] Tensors."""
    if x.dim() == 0:
        raise ValueError("(InvalidArgument) nonzero: the input must have rank >= 1, but received a 0-D Tensor.")
    if as_tuple:
        return tuple(torch.nonzero(x, as_tuple=True))
    return torch.nonzero(x)


@op
def argwhere(input: TensorLike):
    if input.dim() == 0:
        raise ValueError("(InvalidArgument) argwhere: the input must have rank >= 1, but received a 0-D Tensor.")
    return torch.nonzero(input)


@op
def index_sample(x: TensorLike, index: TensorLike):
    """out[i, j] = x[i, index[i, j]] for 2-D x and index."""
    if index.dim() != 2 or x.dim() != 2:
        raise ValueError(f"(InvalidArgument) index_sample: x and index must be 2-D, but received x of rank "
                         f"{x.dim()} and index of rank {index.dim()}.")
    if index.dtype not in (torch.int32, torch.int64):
        raise TypeError(f"index_sample: index must be int32 or int64, but received {_dname(index.dtype)}.")
    return torch.gather(x, 1, index.long())


@op
def masked_select(x: TensorLike, mask: TensorLike, name=None, *, out=None):
    """The elements of x where mask (broadcast with x) is True, as a 1-D Tensor."""
    if mask.dtype is not torch.bool:
        raise ValueError(f"(InvalidArgument) masked_select: mask must be a bool Tensor, but received "
                         f"{_dname(mask.dtype)}.")
    return torch.masked_select(x, mask)


def _common(a, b):
    if a.dtype is b.dtype:
        return a, b
    t = torch.promote_types(a.dtype, b.dtype)
    return a.to(t), b.to(t)


@op
def searchsorted(sorted_sequence: TensorLike, values: TensorLike, out_int32=False, right=False, name=None, *,
                 side=None, out=None, sorter: TensorLike = None):
    """Insertion indices of values into the innermost dimension of sorted_sequence."""
    if side is not None:
        right = side == "right"
    s, v = _common(sorted_sequence, values)
    if s.dim() > 1 and s.shape[:-1] != v.shape[:-1]:  # Paddle's error class for it: Unavailable
        raise RuntimeError(f"(Unavailable) The dimensions of sorted_sequence tensor {list(s.shape)} and values tensor "
                           f"{list(v.shape)} can not match: sorted_sequence must be 1-D, or its leading dimensions "
                           f"must equal those of values.")
    if v.dim() == 0 and s.dim() == 1:
        return torch.searchsorted(s, v.reshape(1), out_int32=out_int32, right=right, sorter=sorter).reshape(())
    return torch.searchsorted(s, v, out_int32=out_int32, right=right, sorter=sorter)


@op
def bucketize(x: TensorLike, sorted_sequence: TensorLike, out_int32=False, right=False, name=None, *, out=None):
    """The bucket of each element of x among the 1-D sorted boundaries."""
    if sorted_sequence.dim() != 1:
        raise ValueError(f"sorted_sequence tensor must be 1 dimension, but got dim {sorted_sequence.dim()}")
    s, v = _common(sorted_sequence, x)
    return torch.bucketize(v, s, out_int32=out_int32, right=right)


@op
def kthvalue(x: TensorLike, k: IntLike, axis=None, keepdim=False, name=None):
    """The k-th smallest element along axis (default the last) and its index."""
    axis = -1 if axis is None else _axis_int(axis, x.dim(), "kthvalue")
    n = x.shape[axis] if x.dim() else 1
    if not 1 <= k <= n:
        raise ValueError(f"(InvalidArgument) kthvalue: k must be in [1, {n}] (the size of axis {axis}), but "
                         f"received {k}.")
    return tuple(torch.kthvalue(x, k, dim=axis, keepdim=keepdim))


@op
def mode(x: TensorLike, axis=-1, keepdim=False, name=None):
    """The most frequent value along axis (the smallest among ties) and its last index."""
    if x.dim() == 0:
        return x.clone(), torch.zeros((), dtype=torch.int64, device=x.device)
    return tuple(torch.mode(x, dim=_axis_int(axis, x.dim(), "mode"), keepdim=keepdim))


@op
def unique(x: TensorLike, return_index=False, return_inverse=False, return_counts=False, axis=None,
           dtype="int64", sorted=True, name=None):
    """Sorted unique values (of the flattened x, or slices along axis), with optional index / inverse / counts
    (`sorted`, Paddle 3.3's torch-style flag: the values come sorted either way, as in Paddle)."""
    dtype = _dtypes.to_torch_dtype(dtype)
    if dtype not in (torch.int32, torch.int64):
        # Paddle's own error (its kernel's data-type dispatch), with the dtype's name for its enum number
        raise NotImplementedError(f"(Unimplemented) Not supported {_dname(dtype)} as data type (unique's dtype must "
                                  "be int32 or int64).")
    if axis is None:
        x = x.reshape(-1)
        dim = 0
    elif x.dim() == 0:
        raise ValueError(f"(InvalidArgument) The Input(X) with 0-D Tensor, axis must be None. But now the axis is "
                         f"{axis}.")
    else:
        dim = _axis_int(axis, x.dim(), "unique")
    if not (return_index or return_inverse or return_counts):
        return torch.unique(x, sorted=True, dim=None if axis is None else dim)
    out, inverse, counts = torch.unique(x, sorted=True, return_inverse=True, return_counts=True,
                                        dim=None if axis is None else dim)
    result = [out]
    if return_index:
        n = x.shape[dim]
        pos = torch.arange(n, device=x.device)
        first = torch.full((out.shape[dim],), n, dtype=torch.int64, device=x.device)
        result.append(first.scatter_reduce(0, inverse.reshape(-1), pos, "amin").to(dtype))
    if return_inverse:
        result.append(inverse.reshape(-1).to(dtype))
    if return_counts:
        result.append(counts.to(dtype))
    return tuple(result)


@op
def masked_scatter(x: TensorLike, mask: TensorLike, value: TensorLike, name=None):
    return torch.masked_scatter(x, mask, value)


def _restrict_nonzero(condition, total_true_num):
    """Paddle's private GPU-only op (its CPU build has no restrict_nonzero kernel either)."""
    from .. import _report

    raise _report.unsupported("paddle.tensor.search._restrict_nonzero",
                              ": Paddle's restrict_nonzero kernel is GPU-only (its CPU build has none either)")


_restrict_nonzero.__paddle_on_torch_unsupported__ = "paddle.tensor.search._restrict_nonzero"


def top_p_sampling(x, ps, threshold=None, topp_seed=None, seed=-1, k=0, mode="truncated", return_top=False,
                   name=None):
    """paddle.tensor.top_p_sampling: Paddle's fused nucleus-sampling kernel, GPU-only (its CPU build has none)."""
    from .. import _report

    raise _report.unsupported("paddle.tensor.top_p_sampling",
                              ": Paddle's top_p_sampling kernel is GPU-only (its CPU build has none either)")


top_p_sampling.__paddle_on_torch_unsupported__ = "paddle.tensor.top_p_sampling"
