"""Linear algebra: norms, decompositions, solvers, histograms and distances.

Every function is a thin layer over `torch.linalg` (or torch) that keeps
Paddle's conventions: `slogdet` stacks (sign, logabsdet) into one tensor,
`lu` pivots are int32, `lstsq` returns Paddle's per-driver outputs, `eig`
is always complex, and shape errors are ValueError as in Paddle.

`__all__` lists the names Paddle has at top level (`paddle.norm`,
`paddle.histogram`, ...); the rest are reached through `paddle.linalg`.
"""
import builtins
import math

import torch

from .._normalize import (AxisLike, DTypeLike, OptionalTensor, ScalarLike, ScalarOrTensor, TensorLike, TensorSequence,
                          is_tensor, op)
from .._core import dtype as _dtypes
from .._normalize.wrapping import static_mode

__all__ = [
    "norm", "dist", "cholesky", "eigvalsh", "histogram", "histogram_bin_edges", "histogramdd", "bincount",
    "cdist", "pdist", "vecdot", "matrix_transpose",
]

# Names reached through paddle.linalg only (paddle_on_torch/linalg.py imports them).
LINALG_ONLY = [
    "vector_norm", "matrix_norm", "cond", "cov", "corrcoef", "eig", "eigvals", "multi_dot", "matrix_rank",
    "svd", "svdvals", "qr", "householder_product", "ormqr", "pca_lowrank", "svd_lowrank", "lu", "lu_solve",
    "lu_unpack", "matrix_exp", "matrix_power", "det", "slogdet", "eigh", "pinv", "solve", "cholesky_solve",
    "cholesky_inverse", "triangular_solve", "lstsq",
]

_INF = float("inf")
_FLOATS = (torch.float16, torch.bfloat16, torch.float32, torch.float64)
_INEXACT = _FLOATS + (torch.complex64, torch.complex128)


def _norm_dtype(x):
    """Paddle's CPU p_norm kernel has no float16/bfloat16 variant."""
    allowed = _INEXACT if x.device.type != "cpu" else (torch.float32, torch.float64, torch.complex64,
                                                         torch.complex128)
    _kernel_dtype(x, "p_norm", allowed)


def _kernel_dtype(x, api, allowed=_INEXACT):
    """Paddle has no integer kernel for most linalg ops: it raises RuntimeError (NotFound)."""
    if x.dtype not in allowed:
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), "
                           f"{_dtypes.dtype_name(x.dtype)}) of kernel `{api}` is not registered.")


def _need_matrix(x, what="input"):
    if x.dim() < 2:
        raise ValueError(f"(InvalidArgument) The dims of {what} must be greater than 2, but received {x.dim()}.")


def _need_square(x, what="input"):
    _need_matrix(x, what)
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"(InvalidArgument) The last two dimensions of {what} are expected to be equal (a square "
                         f"matrix), but received shape {list(x.shape)}.")


def _lapack_error(fn, msg):
    """Run a torch.linalg call; its LinAlgError (singular / not PD) is ValueError in Paddle."""
    try:
        return fn()
    except torch.linalg.LinAlgError as e:
        raise ValueError(f"(InvalidArgument) {msg} ({e})") from None


# ------------------------------------------------------------------ norms


def _is_int(v):
    return isinstance(v, (int, float)) and not isinstance(v, builtins.bool)


@op(aliases={"ord": "p"})
def vector_norm(x: TensorLike, p=2.0, axis: AxisLike = None, keepdim=False, name=None, *, dtype: DTypeLike = None,
                out=None):
    if not _is_int(p):
        raise ValueError(f"only valid p type is int and float, found {type(p)}")
    if dtype is not None:
        x = x.to(dtype)
    _norm_dtype(x)
    if isinstance(axis, tuple) and len(axis) == 1:
        axis = axis[0]
    if axis is None and keepdim:
        return torch.linalg.vector_norm(x, ord=p, keepdim=True)
    return torch.linalg.vector_norm(x, ord=p, dim=axis, keepdim=keepdim)


def _matrix_norm(x, p, axis, keepdim):
    if not (isinstance(axis, (list, tuple)) and len(axis) == 2):
        n = len(axis) if isinstance(axis, (list, tuple)) else axis
        raise ValueError(f"except axis type int or list (length of list == 2), found {n}")
    if p not in ("fro", "nuc", _INF, -_INF, 1, -1, 2, -2):
        raise ValueError(f"just support p value 'fro','nuc',1,-1,inf,-inf,2,-2 if axis is 2D, found {p}")
    _norm_dtype(x)
    return torch.linalg.matrix_norm(x, ord=p, dim=tuple(axis), keepdim=keepdim)


@op(aliases={"ord": "p"})
def matrix_norm(x: TensorLike, p="fro", axis=(-2, -1), keepdim=False, name=None):
    if isinstance(axis, int):
        axis = [axis]
    return _matrix_norm(x, p, axis, keepdim)


@op(aliases={"ord": "p", "A": "x"})
def norm(x: TensorLike, p=None, axis: AxisLike = None, keepdim=False, out=None, dtype: DTypeLike = None, name=None):
    if isinstance(axis, tuple) and len(axis) == 1:
        axis = axis[0]
    if dtype is not None:
        x = x.to(dtype)
    if isinstance(p, str):
        if p == "fro" and (axis is None or isinstance(axis, int)):
            return vector_norm.__wrapped_impl__(x, 2.0, axis, keepdim)
        return _matrix_norm(x, p, tuple(range(x.dim())) if axis is None else axis, keepdim)
    p = 2.0 if p is None else p
    if isinstance(axis, tuple) and len(axis) == 2:
        return _matrix_norm(x, p, axis, keepdim)
    return vector_norm.__wrapped_impl__(x, p, axis, keepdim)


@op(binary=("x", "y"))
def dist(x, y, p=2, name=None):
    _kernel_dtype(x, "dist", _FLOATS)
    return torch.dist(x, y, p=float(p))


@op
def cond(x: TensorLike, p=None, name=None):
    if x.dim() < 2:
        raise ValueError(f"input should be a matrix or batches of matrices, but the dimension of received input is "
                         f"{x.dim()}")
    p = 2 if p is None else p
    if p in ("fro", "nuc", 1, -1, _INF, -_INF):
        if x.shape[-1] != x.shape[-2]:
            raise ValueError(f"only support p is {p} when input is a square matrix or batches of square matrices")
    elif p not in (2, -2):
        raise ValueError(f"unsupported {p} for p, only supporting ('fro', 'nuc', 1, -1, 2, -2, inf, -inf) or none")
    return torch.linalg.cond(x, p=p)


@op
def vecdot(x: TensorLike, y: TensorLike, axis=-1, name=None):
    return (x.conj() * y).sum(dim=axis)


@op
def matrix_transpose(x: TensorLike, name=None):
    if x.dim() < 2:
        raise ValueError(f"Tensor.ndim({x.dim()}) is required to be greater than or equal to 2.")
    return x.mT


# ------------------------------------------------------------------ statistics


def _cov(x, rowvar=True, ddof=True, fweights=None, aweights=None):
    if x.dim() > 2 or x.dim() < 1:
        raise ValueError(f"Input(x) only support N-D (1<=N<=2) tensor in cov, but received length of Input(input) "
                         f"is {x.dim()}.")
    nx = x.reshape(1, -1) if x.dim() == 1 else x
    if not rowvar and nx.shape[0] != 1:
        nx = nx.t()
    n_obs = nx.shape[1]
    w = None
    if fweights is not None:
        if fweights.dim() > 1:
            raise ValueError(f"Input(fweights) only support N-D (N<=1) tensor in cov, but received shape of "
                             f"Input(input) is {fweights.dim()}.")
        if fweights.shape[0] != n_obs:
            raise ValueError(f"The number of Input(fweights) should equal to x's dim[1]: {n_obs}, but received "
                             f"size of Input(fweights) is {fweights.shape[0]}.")
        if fweights.min() < 0:
            raise ValueError(f"The value of Input(fweights) cannot be negative, but received min of Input(fweights) "
                             f"is {fweights.min().item()}.")
        if not torch.all(fweights == torch.round(fweights.double()).to(fweights.dtype)):
            raise ValueError("Input(fweights) must be integer ")
        w = fweights.to(nx.dtype)
    if aweights is not None:
        if aweights.dim() > 1:
            raise ValueError(f"Input(aweights) only support N-D (N<=1) tensor in cov, but received length of "
                             f"Input(input) is {aweights.dim()}.")
        if aweights.shape[0] != n_obs:
            raise ValueError(f"The number of Input(aweights) should equal to x's dim[1]: {n_obs}, but received "
                             f"size of Input(aweights) is {aweights.shape[0]}.")
        if aweights.min() < 0:
            raise ValueError(f"The value of Input(aweights) cannot be negative, but received min of Input(aweights) "
                             f"is {aweights.min().item()}.")
        aw = aweights.to(nx.dtype)
        w = aw if w is None else w * aw
    if w is None:
        w_sum = torch.tensor(n_obs, dtype=nx.dtype, device=nx.device)
        avg = nx.sum(dim=1) / w_sum
        nx_w = nx
    else:
        w_sum = w.sum()
        if w_sum.item() == 0:
            raise ValueError("The sum of weights is zero, can't be normalized.")
        nx_w = nx * w
        avg = nx_w.sum(dim=1) / w_sum
    if w is not None and aweights is not None and ddof:
        norm_factor = w_sum - (w * aweights.to(w.dtype)).sum() / w_sum
    else:
        norm_factor = w_sum - int(ddof)
    norm_factor = torch.clamp(norm_factor, min=0)
    nx = nx - avg.unsqueeze(1)
    return (nx @ nx_w.t().conj() / norm_factor).squeeze()


@op
def cov(x: TensorLike, rowvar=True, ddof=True, fweights: OptionalTensor = None, aweights: OptionalTensor = None,
        name=None):
    return _cov(x, rowvar, ddof, fweights, aweights)


@op
def corrcoef(x: TensorLike, rowvar=True, name=None):
    if x.dim() > 2 or x.dim() < 1:
        raise ValueError(f"Input(x) only support N-D (1<=N<=2) tensor in corrcoef, but received length of "
                         f"Input(input) is {x.dim()}.")
    c = _cov(x, rowvar)
    if c.dim() == 0:
        return c / c
    d = torch.diag(c)
    if d.is_complex():
        d = d.real
    std = torch.sqrt(d)
    c = c / std[:, None]
    c = c / std[None, :]
    if c.is_complex():
        return torch.complex(c.real.clamp(-1, 1), c.imag.clamp(-1, 1))
    return c.clamp(-1, 1)


def _bins_range(x, t, lo, hi):
    """Paddle's histogram range: min / max in x's type (an integer x truncates them); equal ones mean the data's
    range (NaN skipped, kept as tensors: no host read, so a static Program records it); equal again: widened by 1."""
    if x.is_floating_point():
        lo, hi = (float(torch.tensor(v, dtype=t)) for v in (lo, hi))
    else:
        lo, hi = float(int(lo)), float(int(hi))
    if lo == hi:
        data = x.to(t)
        nan = torch.isnan(data)
        lo_t = torch.where(nan, float("inf"), data).min()
        hi_t = torch.where(nan, -float("inf"), data).max()
        same = lo_t == hi_t
        return torch.where(same, lo_t - 1, lo_t), torch.where(same, hi_t + 1, hi_t)
    if hi < lo:
        raise ValueError(f"(InvalidArgument) max must be larger or equal to min.But received max is {hi:f}, min is "
                         f"{lo:f}")
    return lo, hi


@op
def histogram(input: TensorLike, bins=100, min=0.0, max=0.0, weight: OptionalTensor = None, density=False,
              name=None):
    x = input.reshape(-1)
    if x.numel() == 0:  # Paddle's kernel returns before giving the result a type: float32 zeros
        return torch.zeros(bins, dtype=torch.float32, device=x.device)
    t = x.dtype if x.is_floating_point() else torch.float64  # the bin arithmetic in x's type (exact for integers)
    lo, hi = _bins_range(x, t, min, max)
    xt = x.to(t)
    inside = (xt >= lo) & (xt <= hi)
    idx = ((xt - lo) * bins / (hi - lo)).long().clamp(0, bins - 1)
    if weight is not None and weight.dtype != input.dtype:
        raise ValueError(f"(InvalidArgument) The type of data we are trying to retrieve "
                         f"({_dtypes.dtype_name(weight.dtype)}) does not match the type of data "
                         f"({_dtypes.dtype_name(input.dtype)}) currently contained in the container.")
    # counts added into `bins` slots (a shape known before the data: static Programs record it)
    if weight is None and not density:
        return torch.zeros(bins, dtype=torch.int64, device=x.device).index_add_(0, idx, inside.long())
    out_dtype = weight.dtype if weight is not None and weight.dtype.is_floating_point else _dtypes.default_float_torch()
    w = inside.double() if weight is None else torch.where(inside, weight.reshape(-1).double(), 0.0)
    hist = torch.zeros(bins, dtype=torch.float64, device=x.device).index_add_(0, idx, w)
    if density:
        hist = hist / (hist.sum() * (hi - lo) / bins)
    return hist.to(out_dtype)


@op
def histogram_bin_edges(input: TensorLike, bins=100, min=0.0, max=0.0, name=None):
    if static_mode():  # Paddle 3.3.1 checks for a legacy Variable and refuses its PIR Values
        raise TypeError("The type of 'input' in histogram_bin_edges must be <class 'paddle.base.framework.Variable'>, "
                        "but received <class 'paddle.base.libpaddle.pir.Value'>.")
    lo, hi = float(min), float(max)
    if lo == 0.0 and hi == 0.0:
        lo, hi = float(input.min()), float(input.max())
    elif hi < lo:
        raise ValueError("max must be larger than min in range parameter")
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return torch.linspace(lo, hi, bins + 1, dtype=_dtypes.default_float_torch(), device=input.device)


@op
def histogramdd(x: TensorLike, bins=10, ranges=None, density=False, weights: OptionalTensor = None, name=None):
    if x.dim() < 2:
        raise AssertionError("input x must be a tensor with at least 2 dimensions.")
    d = x.shape[-1]
    flat = x.reshape(-1, d)
    n = flat.shape[0]
    if weights is not None:
        if weights.dim() + 1 != x.dim() or list(weights.shape) != list(x.shape[:-1]):
            raise AssertionError("if weight tensor is provided,it should have the same shape as the input tensor "
                                 "excluding its innermost dimension.\n")
        if weights.dtype != x.dtype:
            raise AssertionError("The dtype of weights must be the same as x.\n")
        weights = weights.reshape(n)
    if ranges is None:
        rng = torch.stack([flat.min(dim=0).values, flat.max(dim=0).values], dim=1) if n else torch.zeros(d, 2)
    else:
        if len(ranges) != 2 * d:
            raise AssertionError(f"The length of ranges list must be {d * 2}\n")
        rng = torch.tensor([float(v) for v in ranges], dtype=x.dtype).reshape(d, 2)
    edges = []
    if isinstance(bins, (int, list)):
        if isinstance(bins, int):
            bins = [bins] * d
        if len(bins) != d:
            raise AssertionError(f"The length of bins must be {d} when bins is a list.\n")
        for i in range(d):
            if not isinstance(bins[i], int):
                raise ValueError(f"The type of {i}-th element in bins list must be int.")
            edges.append(torch.linspace(float(rng[i, 0]), float(rng[i, 1]), bins[i] + 1, dtype=x.dtype,
                                        device=x.device))
    elif isinstance(bins, tuple):
        from .._normalize import to_torch

        edges = [to_torch(b) for b in bins]
        for e in edges:
            if e.dtype != x.dtype:
                raise AssertionError("When bins is Tensor[], the dtype of bins must be the same as x.\n")
    else:
        raise ValueError("Input bins must be Tensor[], int[], or int.")
    shape = [e.shape[0] + 1 for e in edges]
    flat_index = torch.zeros(n, dtype=torch.int64, device=x.device)
    for i, e in enumerate(edges):
        col = flat[:, i].contiguous()
        idx = torch.searchsorted(e.contiguous(), col, right=True)
        idx = torch.where(col == e[-1], idx - 1, idx)
        flat_index = flat_index * shape[i] + idx
    total = math.prod(shape)
    hist = torch.bincount(flat_index, weights=weights, minlength=total).reshape(shape).to(x.dtype)
    hist = hist[(slice(1, -1),) * d]
    if density:
        s = hist.sum()
        for i in range(d):
            view = [1] * d
            view[i] = shape[i] - 2
            hist = hist / edges[i].diff().reshape(view)
        hist = hist / s
    return hist, edges


@op
def bincount(x: TensorLike, weights: OptionalTensor = None, minlength: ScalarLike = 0, name=None):
    if x.dtype not in (torch.int32, torch.int64):
        raise TypeError("Elements in Input(x) should all be integers")
    if x.dim() != 1:
        raise ValueError(f"(InvalidArgument) The 'shape' of Input(X) must be 1-D tensor.But the dimension of "
                         f"Input(X) is {list(x.shape)}")
    if x.numel() and x.min() < 0:
        raise ValueError("(InvalidArgument) The elements in input tensor must be non-negative ints")
    if weights is not None and not weights.dtype.is_floating_point:
        weights = weights.double()
    return torch.bincount(x, weights=weights, minlength=int(minlength))


@op
def cdist(x: TensorLike, y: TensorLike, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary", name=None):
    modes = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist")
    if compute_mode not in modes:
        raise ValueError(f"The compute_mode should be 'use_mm_for_euclid_dist_if_necessary', "
                         f"'use_mm_for_euclid_dist' or 'donot_use_mm_for_euclid_dist', but received compute_mode "
                         f"is {compute_mode}.")
    if x.dim() < 2:
        raise AssertionError(f"The x must be at least 2-dimensional, But received Input x's dimensional is "
                             f"{x.dim()}.\n")
    if y.dim() < 2:
        raise AssertionError(f"The y must be at least 2-dimensional, But received Input y's dimensional is "
                             f"{y.dim()}.\n")
    if x.shape[-1] != y.shape[-1]:
        raise AssertionError(f"The x and y must have same last dimension, But received Input x's last dimension is "
                             f"{x.shape[-1]}, Input y's last dimension is {y.shape[-1]}.\n")
    if p < 0:
        raise AssertionError(f"The p must be greater than or equal to 0, But received p is {p}.\n")
    return torch.cdist(x, y, p=float(p), compute_mode=compute_mode)


# ------------------------------------------------------------------ determinants and inverses


@op
def det(x: TensorLike, name=None):
    _kernel_dtype(x, "determinant")
    _need_square(x)
    return torch.linalg.det(x)


@op
def slogdet(x: TensorLike, name=None):
    _kernel_dtype(x, "slogdet")
    _need_square(x)
    sign, logabs = torch.linalg.slogdet(x)
    return torch.stack([sign, logabs.to(sign.dtype)])


# paddle.inverse (paddle.linalg.inv) lives in tensor/math.py, as in Paddle.


@op
def pinv(x: TensorLike, rcond: ScalarOrTensor = 1e-15, hermitian=False, name=None):
    _kernel_dtype(x, "svd")
    out = torch.linalg.pinv(x, rtol=rcond, hermitian=hermitian)
    if out.is_complex() and not hermitian:
        # Paddle's SVD path transposes U and Vh without conjugating them: it returns the conjugate (a quirk
        # reproduced, docs/compatibility.md)
        out = out.conj().resolve_conj()
    return out


@op
def matrix_power(x: TensorLike, n, name=None):
    _kernel_dtype(x, "matrix_power")
    _need_square(x, "Input(X)")
    return _lapack_error(lambda: torch.linalg.matrix_power(x, n), "Input is not invertible.")


@op
def matrix_exp(x: TensorLike, name=None):
    if x.dtype not in (torch.float32, torch.float64):
        raise ValueError(f"The input tensor's dtype must be float32 or float64, but got {_dtypes.dtype_name(x.dtype)}")
    if x.dim() == 0:
        return torch.exp(x)
    if x.dim() < 2:
        raise ValueError("The input tensor must be at least two-dimensional")
    if x.shape[-1] != x.shape[-2]:
        raise ValueError("Last 2 dimensions of the tensor must be square")
    return torch.linalg.matrix_exp(x)


@op
def matrix_rank(x: TensorLike, tol: ScalarOrTensor = None, hermitian=False, atol: ScalarOrTensor = None,
                rtol: ScalarOrTensor = None, name=None):
    _need_matrix(x)
    if atol is not None or rtol is not None:
        if tol is not None:
            raise ValueError("Only support to use tol alone or use atol and rtol without tol.")
        real = x.real.dtype if x.is_complex() else x.dtype
        atol = torch.as_tensor(0.0 if atol is None else atol, dtype=real, device=x.device)
        rtol = None if rtol is None else torch.as_tensor(rtol, dtype=real, device=x.device)
        return torch.linalg.matrix_rank(x, atol=atol, rtol=rtol, hermitian=hermitian)
    if tol is None:
        return torch.linalg.matrix_rank(x, hermitian=hermitian)
    if isinstance(tol, torch.Tensor):
        tol = tol.to(x.real.dtype if x.is_complex() else x.dtype)
        return torch.linalg.matrix_rank(x, atol=tol, rtol=torch.zeros_like(tol), hermitian=hermitian)
    return torch.linalg.matrix_rank(x, atol=float(tol), rtol=0.0, hermitian=hermitian)


@op
def multi_dot(x: TensorSequence, name=None):
    if len(x) < 2:
        raise ValueError(f"(InvalidArgument) The number of input tensors in multi_dot op should > 1, but received "
                         f"{len(x)}.")
    if any(t.dtype != x[0].dtype for t in x):
        raise ValueError("(InvalidArgument) All the Tensors in the input of multi_dot must have the same data type.")
    return torch.linalg.multi_dot(x)


# ------------------------------------------------------------------ decompositions


@op
def cholesky(x: TensorLike, upper=False, name=None):
    if x.dim() < 2 or x.shape[-1] != x.shape[-2]:
        raise AssertionError("Shape must have at least 2 dimensions and last two dimensions must be equal.")
    _kernel_dtype(x, "cholesky")
    return _lapack_error(lambda: torch.linalg.cholesky(x, upper=upper),
                         "Cholesky decomposition was not successful. The input matrice might not be positive "
                         "definite.")


@op
def cholesky_solve(x: TensorLike, y: TensorLike, upper=False, name=None):
    _kernel_dtype(x, "cholesky_solve")
    return torch.cholesky_solve(x, y, upper=upper)


@op
def cholesky_inverse(x: TensorLike, upper=False, name=None):
    if x.dim() != 2:
        raise ValueError("The input tensor must be 2-dimensional")
    if x.shape[0] != x.shape[1]:
        raise ValueError("The input tensor must be square matrix")
    return torch.cholesky_inverse(x, upper=upper)


@op
def _svd(x: TensorLike, full_matrices=False):
    _kernel_dtype(x, "svd")
    _need_matrix(x)
    return torch.linalg.svd(x, full_matrices=full_matrices)


def svd(x, full_matrices=False, name=None, *, out=None):
    """paddle.linalg.svd: (U, S, VH) with x = U @ diag(S) @ VH; `out` is a tuple of three Tensors."""
    r = _svd(x, full_matrices)
    if out is not None:
        for o, v in zip(out, r):
            o._t = v._t.detach()
    return r


@op
def svdvals(x: TensorLike, name=None):
    _kernel_dtype(x, "svdvals")
    _need_matrix(x)
    return torch.linalg.svdvals(x)


def _lowrank_checks(x, q, niter, limit_check=True):
    if not is_tensor(x):
        raise ValueError(f"Input must be tensor, but got {type(x)}")
    m, n = x._t.shape[-2:]
    if q is None:
        q = builtins.min(6, m, n)
    elif (not limit_check or builtins.min(m, n) != 0) and not (0 <= q <= builtins.min(m, n)):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than min(m, n)={builtins.min(m, n)}")
    if not niter >= 0:
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    return q


def svd_lowrank(x, q=None, niter=2, M=None, name=None):
    """paddle.linalg.svd_lowrank over torch.svd_lowrank (randomised; returns U, S, V)."""
    from .._normalize import to_torch, wrap_result

    q = _lowrank_checks(x, q, niter)
    return wrap_result(torch.svd_lowrank(x._t, q=q, niter=niter, M=None if M is None else to_torch(M)))


def pca_lowrank(x, q=None, center=True, niter=2, name=None):
    """paddle.linalg.pca_lowrank over torch.pca_lowrank (randomised; returns U, S, V)."""
    from .._normalize import wrap_result

    q = _lowrank_checks(x, q, niter, limit_check=False)
    return wrap_result(torch.pca_lowrank(x._t, q=q, center=center, niter=niter))


@op
def qr(x: TensorLike, mode="reduced", name=None):
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"(InvalidArgument) QR received unrecognized mode '{mode}' but expected one of 'reduced' "
                         f"(default), 'r', or 'complete'")
    _kernel_dtype(x, "qr")
    _need_matrix(x)
    q, r = torch.linalg.qr(x, mode=mode)
    return r if mode == "r" else (q, r)


@op
def householder_product(x: TensorLike, tau: TensorLike, name=None):
    if x.dim() < 2:
        raise AssertionError("x should be at least 2-dimensional")
    if x.shape[-2] < x.shape[-1]:
        raise AssertionError("The rows of x must be greater than or equal to the columns of x")
    return torch.linalg.householder_product(x, tau)


@op
def ormqr(x: TensorLike, tau: TensorLike, y: TensorLike, left=True, transpose=False, name=None):
    if not (x.dtype == tau.dtype == y.dtype):
        raise AssertionError("The input tau and y must have the same dtype with the x.\n")
    if x.dim() < 2 or y.dim() < 2 or tau.dim() < 1 or x.dim() != tau.dim() + 1 or x.dim() != y.dim():
        raise AssertionError("The input x and y must have more than 2 dimensions, and input tau must have more than "
                             "1 dimension")
    if x.shape[-1] != tau.shape[-1]:
        raise AssertionError("The innermost dimension of x and tau should be the same")
    # Paddle multiplies by the thin Q (m x n) of householder_product, so these are its shape rules
    rows, cols = x.shape[-2:]
    if left and transpose and rows != y.shape[-2]:
        raise AssertionError("The row dimensions of x and y should be the same")
    if left and not transpose and cols != y.shape[-2]:
        raise AssertionError("The column dimension of x and the row dimension of y should be the same")
    if not left and transpose and rows != y.shape[-1]:
        raise AssertionError("The row dimension of x and the column dimension of y should be the same")
    if not left and not transpose and cols != y.shape[-1]:
        raise AssertionError("The column dimensions of Impt and Osser's should be the same")
    if x.dim() == 3 and not (x.shape[0] == y.shape[0] == tau.shape[0]):
        raise AssertionError("The input and tau and y parameters should have the same batch")
    q = torch.linalg.householder_product(x, tau)
    if transpose:
        q = q.mT
    return q @ y if left else y @ q


@op
def lu(x: TensorLike, pivot=True, get_infos=False, name=None):
    _kernel_dtype(x, "lu")
    _need_matrix(x)
    lu_, piv, info = torch.linalg.lu_factor_ex(x, pivot=pivot)
    return (lu_, piv, info) if get_infos else (lu_, piv)


@op
def lu_unpack(x: TensorLike, y: TensorLike, unpack_ludata=True, unpack_pivots=True, name=None):
    if x.dim() < 2:
        raise ValueError(f"The shape of x should be (*, M, N), but received ndim is [{x.dim()} < 2]")
    if y.dim() < 1:
        raise ValueError(f"The shape of Pivots should be (*, K), but received ndim is [{y.dim()} < 1]")
    p, l_, u = torch.lu_unpack(x, y, unpack_data=True, unpack_pivots=True)
    empty = x.new_empty(0)
    return (p if unpack_pivots else empty, l_ if unpack_ludata else empty, u if unpack_ludata else empty)


@op
def lu_solve(b: TensorLike, lu: TensorLike, pivots: TensorLike, trans="N", name=None):
    if b.dim() < 2:
        raise ValueError(f"`b` dimension must be gather than 2, but got {b.dim()}")
    if lu.dim() < 2:
        raise ValueError(f"`lu` dimension must be gather than 2, but got {lu.dim()}")
    if pivots.dim() < 1:
        raise ValueError(f"`pivots` dimension must be gather than 1, but got {pivots.dim()}")
    if b.shape[-2] != lu.shape[-2]:
        raise ValueError(f"the rows of `b` must be equal to the rows of `lu`, but got {b.shape[-2]} and "
                         f"{lu.shape[-2]}")
    if lu.shape[-1] != lu.shape[-2]:
        raise ValueError(f"`lu` shape[-1] must be equal to `lu` shape[-2], but got {lu.shape[-1]} and "
                         f"{lu.shape[-2]}")
    if pivots.shape[-1] != lu.shape[-1]:
        raise ValueError(f"`pivots` shape[-1] must be equal to `lu` shape[-1], but got {pivots.shape[-1]} and "
                         f"{lu.shape[-1]}")
    if trans == "N":
        return torch.linalg.lu_solve(lu, pivots, b)
    # Paddle maps both 'T' and 'C' to a plain transpose
    if lu.is_complex():
        return torch.linalg.lu_solve(lu, pivots, b.conj(), adjoint=True).conj()
    return torch.linalg.lu_solve(lu, pivots, b, adjoint=True)


@op
def eig(x: TensorLike, name=None):
    _kernel_dtype(x, "eig")
    _need_square(x)
    return torch.linalg.eig(x)


@op
def eigvals(x: TensorLike, name=None):
    if x.dim() < 2:
        raise ValueError(f"The dimension of Input(x) should be at least 2, but received x's dimension = {x.dim()}, "
                         f"x's shape = {list(x.shape)}")
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"The last two dimensions of Input(x) should be equal, but received x's shape = "
                         f"{list(x.shape)}")
    _kernel_dtype(x, "eigvals")
    return torch.linalg.eigvals(x)


def _eigh_checks(x, uplo):
    if x.dim() < 2:
        raise ValueError(f"Input(input) only support >=2 tensor, but received length of Input(input) is {x.dim()}.")
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"The input matrix must be batches of square matrices. But received x's dimension: "
                         f"{list(x.shape)}")
    if uplo not in ("L", "U"):
        raise ValueError(f"UPLO must be L or U. But received UPLO is: {uplo}")
    _kernel_dtype(x, "eigh")


@op
def eigh(x: TensorLike, UPLO="L", name=None):
    _eigh_checks(x, UPLO)
    return torch.linalg.eigh(x, UPLO=UPLO)


@op
def eigvalsh(x: TensorLike, UPLO="L", name=None):
    _eigh_checks(x, UPLO)
    return torch.linalg.eigvalsh(x, UPLO=UPLO)


# ------------------------------------------------------------------ solvers


@op(aliases={"A": "x", "B": "y"})
def solve(x: TensorLike, y: TensorLike, left=True, name=None, *, out=None):
    _kernel_dtype(x, "solve")
    _need_square(x)
    return _lapack_error(lambda: torch.linalg.solve(x, y, left=left), "Input is not invertible.")


@op
def triangular_solve(x: TensorLike, y: TensorLike, upper=True, transpose=False, unitriangular=False, name=None):
    _kernel_dtype(x, "triangular_solve")
    if y.dim() < 2:
        raise ValueError(f"(InvalidArgument) The input tensor Y's dimensions of TriangularSolveOp should be >=2. But "
                         f"received Y's dimensions = {y.dim()}, Y's shape = {list(y.shape)}")
    if x.dim() < 2:
        raise ValueError(f"(InvalidArgument) The input tensor X's dimensions of TriangularSolveOp should be >=2. But "
                         f"received X's dimensions = {x.dim()}, X's shape = {list(x.shape)}")
    if transpose:
        x, upper = x.mT, not upper
    return torch.linalg.solve_triangular(x, y, upper=upper, left=True, unitriangular=unitriangular)


@op
def lstsq(x: TensorLike, y: TensorLike, rcond=None, driver=None, name=None):
    if x.device.type == "cpu":
        if driver not in (None, "gels", "gelss", "gelsd", "gelsy"):
            raise ValueError(f"Only support valid driver is 'gels', 'gelss', 'gelsd', 'gelsy' or None for CPU "
                             f"inputs. But got {driver}")
        driver = driver or "gelsy"
    else:
        if driver not in (None, "gels"):
            raise ValueError(f"Only support valid driver is 'gels' or None for CUDA inputs. But got {driver}")
        driver = "gels"
    if not (x.dtype == y.dtype and x.dtype in (torch.float32, torch.float64)):
        raise ValueError("Only support x and y have the same dtype such as 'float32' and 'float64'.")
    if x.dim() < 2:
        raise ValueError(f"The shape of x should be (*, M, N), but received ndim is [{x.dim()} < 2]")
    if y.dim() < 2:
        raise ValueError(f"The shape of y should be (*, M, K), but received ndim is [{y.dim()} < 2]")
    if x.shape[-2] != y.shape[-2]:
        raise ValueError(f"x with shape (*, M = {x.shape[-2]}, N) and y with shape (*, M = {y.shape[-2]}, K) should "
                         f"have same M.")
    m, n = x.shape[-2:]
    if rcond is None:
        rcond = (1e-07 if x.dtype == torch.float32 else 1e-15) * builtins.max(m, n)
    res = torch.linalg.lstsq(x, y, rcond=rcond, driver=driver)
    sol = res.solution
    if m > n and driver != "gelsy":
        residuals = ((x @ sol - y).abs() ** 2).sum(dim=-2)
    else:
        residuals = x.new_empty(0)
    if driver == "gels":
        rank = torch.empty(0, dtype=torch.int64, device=x.device)
    else:
        rank = res.rank.to(torch.int32)
    sv = res.singular_values if driver in ("gelsd", "gelss") else x.new_empty(0)
    return sol, residuals, rank, sv



@op
def pdist(x: TensorLike, p=2.0, name=None):
    """Pairwise p-norm distances between the rows of a 2-D x (the upper triangle, row-major)."""
    if x.dim() != 2:
        raise AssertionError("The x must be 2-dimensional")  # Paddle checks with an assert
    return torch.pdist(x, p)
