"""paddle.sparse unary functions: elementwise on the stored values, plus cast/sum/reshape/transpose/slice."""
import math

import torch

from .. import _normalize
from .._core import dtype as _dtypes
from ..tensor import sparse_layout as U
from .._report import unsupported

__all__ = ["sin", "tan", "asin", "atan", "sinh", "tanh", "asinh", "atanh", "sqrt", "square", "log1p", "abs", "pow",
           "cast", "neg", "deg2rad", "rad2deg", "expm1", "isnan", "coalesce", "sum", "transpose", "reshape", "slice",
           "pca_lowrank"]

_wrap = _normalize.wrap


def _sparse(x, api):
    t = _normalize.to_torch(x)
    if t.layout is torch.strided:
        raise NotImplementedError(f"(Unimplemented) The kernel of ({api}) for input tensors is unimplemented, "
                                  "please check the type of input tensors.")
    return t


def _keep_index_dtype(r, x):
    dt = getattr(x, "__dict__", {}).get("_index_dtype")
    if dt is not None:
        r.__dict__["_index_dtype"] = dt
    return r


def _map(x, fn, api):
    t = _sparse(x, api)
    return _keep_index_dtype(_wrap(U.with_values(t, fn(U.raw_values(t)))), x)


def _float(v):
    return v if v.is_floating_point() or v.is_complex() else v.to(torch.get_default_dtype())


def _unary(api, fn):
    def f(x, name=None):
        return _map(x, fn, api)

    f.__name__ = f.__qualname__ = api
    f.__doc__ = f"paddle.sparse.{api}: applied to the stored (non-zero) values; the pattern is unchanged."
    return f


sin = _unary("sin", torch.sin)
tan = _unary("tan", torch.tan)
asin = _unary("asin", torch.asin)
atan = _unary("atan", torch.atan)
sinh = _unary("sinh", torch.sinh)
tanh = _unary("tanh", torch.tanh)
asinh = _unary("asinh", torch.asinh)
atanh = _unary("atanh", torch.atanh)
sqrt = _unary("sqrt", torch.sqrt)
square = _unary("square", torch.square)
log1p = _unary("log1p", torch.log1p)
abs = _unary("abs", torch.abs)
neg = _unary("neg", torch.neg)
expm1 = _unary("expm1", torch.expm1)
isnan = _unary("isnan", torch.isnan)
deg2rad = _unary("deg2rad", lambda v: _float(v) * (math.pi / 180.0))
rad2deg = _unary("rad2deg", lambda v: _float(v) * (180.0 / math.pi))


def pow(x, factor, name=None):
    if isinstance(factor, _normalize.Tensor):
        factor = factor.item()
    return _map(x, lambda v: torch.pow(v, factor), "pow")


def cast(x, index_dtype=None, value_dtype=None, name=None):
    t = _sparse(x, "cast")
    vdt = None if value_dtype is None else _dtypes.to_torch_dtype(value_dtype)
    idt = None if index_dtype is None else _dtypes.to_torch_dtype(index_dtype)
    v = U.raw_values(t)
    if vdt is not None:
        v = v.to(vdt)
    if U.is_coo(t):
        r = _wrap(U.with_values(t, v))
        if idt is not None and idt is not torch.int64:
            r.__dict__["_index_dtype"] = idt  # torch keeps COO indices in int64
        elif idt is None:
            _keep_index_dtype(r, x)
        return r
    crows, cols = t.crow_indices(), t.col_indices()
    if idt is not None:
        if idt not in (torch.int32, torch.int64):
            raise unsupported("paddle.sparse.cast", f" of a CSR tensor to index_dtype={index_dtype} (torch's CSR "
                                                    "indices are int32 or int64)")
        crows, cols = crows.to(idt), cols.to(idt)
    return _wrap(U.csr(crows, cols, v, t.shape))


def coalesce(x, name=None):
    from ..tensor.sparse_methods import coalesce as m

    return m(x)


# ------------------------------------------------------------------ sum
def _axes(axis, ndim):
    if axis is None:
        return None
    axes = _normalize._axis(axis)
    axes = (axes,) if isinstance(axes, int) else axes
    return sorted({a % ndim for a in axes}) if ndim else []


def sum(x, axis=None, dtype=None, keepdim=False, name=None):
    t = _sparse(x, "sum")
    dt = None if dtype is None else _dtypes.to_torch_dtype(dtype)
    nd = t.dim()
    axes = _axes(axis, nd)
    if U.is_csr(t):
        if axes is None:  # Paddle: a [1, 1] CSR tensor holding the total
            v = U.flat_csr(t)[2].sum(dtype=dt).reshape(1)
            z = torch.zeros(1, dtype=t.crow_indices().dtype, device=v.device)
            return _wrap(U.csr(torch.cat([z, z + 1]), z, v, [1, 1]))
        if axes != [nd - 1]:
            raise NotImplementedError("(Unimplemented) `axis` of SumCsrKernel only support None or -1 now.More number "
                                      "will be supported in the future.")
        # rows that hold at least one element keep an entry (column 0 of a [.., M, 1] result)
        c = U.to_coo(t).coalesce()
        rows_idx = c._indices()[:-1]
        vals = c._values() if dt is None else c._values().to(dt)
        out = U.coo(torch.cat([rows_idx, torch.zeros_like(rows_idx[:1])]), vals, list(t.shape[:-1]) + [1])
        return _wrap(U.coo_to_layout(out.coalesce(), U.CSR))
    sd = t.sparse_dim()
    if t.requires_grad and not t.is_coalesced():
        t = t.coalesce()
    idx, vals = t._indices(), (t.values() if t.is_coalesced() else t._values())
    if dt is not None:
        vals = vals.to(dt)
    if axes is None:  # Paddle: shape [1], 1-D indices [0] and a 0-D value (see _total below)
        r = _wrap(U.coo(torch.zeros(1, 1, dtype=torch.int64, device=idx.device), vals.sum().reshape(1), [1],
                        coalesced=True))
        r.__dict__["_total"] = True
        return r
    sparse_axes = [a for a in axes if a < sd]
    dense_axes = [a for a in axes if a >= sd]
    if sparse_axes and dense_axes:
        raise unsupported("paddle.sparse.sum", " over sparse and dense axes at once")
    if dense_axes:
        v = vals.sum(dim=[a - sd + 1 for a in dense_axes], keepdim=keepdim)
        shape = [1 if i in axes else s for i, s in enumerate(t.shape) if keepdim or i not in axes]
        return _wrap(U.coo(idx, v, shape, coalesced=t.is_coalesced()))
    dense_shape = list(t.shape[sd:])
    if keepdim:
        new_idx = idx.clone()
        new_idx[axes] = 0
        shape = [1 if i in axes else s for i, s in enumerate(t.shape)]
    else:
        keep = [i for i in range(sd) if i not in axes]
        new_idx = idx[keep]
        shape = [t.shape[i] for i in keep] + dense_shape
        if not keep:  # Paddle keeps one sparse axis of size 1 when every sparse axis is summed
            new_idx = idx.new_zeros((1, idx.shape[1]))
            shape = [1] + dense_shape
    return _wrap(U.coo(new_idx, vals, shape).coalesce())


# ------------------------------------------------------------------ shape changes
def transpose(x, perm, name=None):
    t = _sparse(x, "transpose")
    perm = [p % t.dim() for p in _normalize._shape(perm)]
    if sorted(perm) != list(range(t.dim())):
        raise ValueError(f"perm {perm} is not a permutation of the {t.dim()} axes")
    c = U.to_coo(t)
    sd = c.sparse_dim()
    if sorted(perm[:sd]) != list(range(sd)):
        raise unsupported("paddle.sparse.transpose", " with a perm that mixes sparse and dense axes")
    idx = U.coo_indices(c)[perm[:sd]]
    vals = U.raw_values(c)
    if c.dense_dim():
        vals = vals.permute(0, *[p - sd + 1 for p in perm[sd:]])
    shape = [t.shape[p] for p in perm]
    out = U.coo(idx, vals, shape)
    return _wrap(out if U.is_coo(t) else U.coo_to_layout(out, U.CSR))


def reshape(x, shape, name=None):
    t = _sparse(x, "reshape")
    c = U.to_coo(t)
    sd, dd = c.sparse_dim(), c.dense_dim()
    shape = _normalize._shape(shape)
    dense_shape = list(c.shape[sd:])
    if dd:
        if shape[len(shape) - dd:] != dense_shape:
            raise unsupported("paddle.sparse.reshape", " that changes the dense axes")
        sparse_new = shape[:len(shape) - dd]
    else:
        sparse_new = list(shape)
    n = 1
    for s in c.shape[:sd]:
        n *= s
    if -1 in sparse_new:
        known = 1
        for s in sparse_new:
            if s != -1:
                known *= s
        sparse_new[sparse_new.index(-1)] = n // known if known else 0
    sparse_new = [c.shape[i] if s == 0 else s for i, s in enumerate(sparse_new)]
    m = 1
    for s in sparse_new:
        m *= s
    if m != n:
        raise ValueError(f"(InvalidArgument) The 'shape' {shape} of reshape does not match the {list(t.shape)} "
                         "of the input")
    idx = U.coo_indices(c)
    lin = torch.zeros(idx.shape[1], dtype=torch.int64, device=idx.device)
    for d in range(sd):
        lin = lin * c.shape[d] + idx[d]
    new = []
    for s in reversed(sparse_new):
        new.append(lin % s)
        lin = lin // s
    new_idx = torch.stack(new[::-1]) if new else lin.new_zeros((0, idx.shape[1]))
    out = U.coo(new_idx, U.raw_values(c), sparse_new + dense_shape)
    return _wrap(out if U.is_coo(t) else U.coo_to_layout(out, U.CSR))


def slice(x, axes, starts, ends, name=None):
    t = _sparse(x, "slice")
    c = U.to_coo(t)
    sd = c.sparse_dim()
    axes, starts, ends = _normalize._shape(axes), _normalize._shape(starts), _normalize._shape(ends)
    idx, vals = U.coo_indices(c), U.raw_values(c)
    shape = list(c.shape)
    keep = torch.ones(idx.shape[1], dtype=torch.bool, device=idx.device)
    bounds = {}
    for a, s, e in zip(axes, starts, ends):
        a = a % c.dim()
        n = shape[a]
        s = max(0, min(n, s + n if s < 0 else s))
        e = max(0, min(n, e + n if e < 0 else e))
        e = max(e, s)
        bounds[a] = (s, e)
        shape[a] = e - s
    new_idx = idx.clone()
    dense_slices = [slice_(None)] * (1 + c.dense_dim())
    for a, (s, e) in bounds.items():
        if a < sd:
            keep &= (idx[a] >= s) & (idx[a] < e)
            new_idx[a] = idx[a] - s
        else:
            dense_slices[a - sd + 1] = slice_(s, e)
    vals = vals[tuple(dense_slices)]
    out = U.coo(new_idx[:, keep], vals[keep], shape, coalesced=c.is_coalesced() or None)
    return _wrap(out if U.is_coo(t) else U.coo_to_layout(out, U.CSR))


slice_ = __builtins__["slice"] if isinstance(__builtins__, dict) else __builtins__.slice


def pca_lowrank(x, q=None, center=True, niter=2, name=None):
    t = _sparse(x, "pca_lowrank")
    if t.dim() != 2:
        raise ValueError(f"input must be a 2-D sparse tensor, but got {t.dim()}-D")
    if q is None:
        q = min(6, t.shape[0], t.shape[1])
    u, s, v = torch.pca_lowrank(U.to_coo(t).coalesce(), q=q, center=center, niter=niter)
    return _wrap(u), _wrap(s), _wrap(v)
