"""Statistics: mean, var, std, median, quantile, ... (paddle.tensor.stat).

Settled against Paddle 3.3.1 (CPU):
- mean of an integer or bool tensor keeps the dtype (the float mean, cast
  back: truncated for ints, nonzero -> True for bool);
- var of an integer tensor follows Paddle's composite (integer mean, integer
  sum of squares, truncating division); std of one is sqrt of that, float32;
- median 'avg' computes in float32 (float64 stays float64) and gives NaN for
  a slice holding NaN; 'min' returns (value, index) when an axis is given;
- nanmedian keeps x's dtype and gives index -1 for an all-NaN slice;
- quantile / nanquantile use Paddle's algorithm (sorted values, linear
  interpolation as below + w * (above - below), 'nearest' rounding half
  to even); a single q (or a one-element list) drops the q axis.
"""
import numbers

import torch

from .._normalize import DTypeLike, TensorLike, is_tensor, op

__all__ = ["mean", "var", "std", "median", "nanmedian", "quantile", "nanquantile", "numel", "nanmean"]


def _dname(dtype):
    return str(dtype).replace("torch.", "")


def _reduce_dims(axis, ndim, api):
    """Paddle's reduction axis -> a tuple of non-negative dims (empty tuple: all dims)."""
    if axis is None:
        return ()
    if is_tensor(axis):
        axis = axis._t.tolist()
    if isinstance(axis, (str, bytes, float)):
        raise TypeError(f"(InvalidType) {api}(): argument 'axis' must be int, list, tuple or Tensor, but got "
                        f"{type(axis).__name__}")
    axes = [axis] if isinstance(axis, numbers.Integral) else list(axis)
    n = max(ndim, 1)
    seen = []
    for a in axes:
        a = int(a)
        if not -n <= a < n:
            raise ValueError(f"(InvalidArgument) {api}: the axis is expected to be in range of [{-n}, {n}), but "
                             f"received {a}.")
        a = a % n
        if a in seen:
            raise ValueError(f"(InvalidArgument) {api}: axis {a} appears more than once.")
        seen.append(a)
    return tuple(seen) if ndim else ()


def _reduce(fn, x, dims, keepdim, **kw):
    if not dims or x.dim() == 0:
        r = fn(x, **kw)
        return r.reshape([1] * x.dim()) if keepdim else r
    return fn(x, dim=dims, keepdim=keepdim, **kw)


@op
def mean(x: TensorLike, axis=None, keepdim=False, name=None, *, dtype: DTypeLike = None, out=None):
    """The mean over axis (all elements when None or [])."""
    if dtype is not None:
        x = x.to(dtype)
    elif axis is None and not keepdim and x.is_floating_point():
        return torch.mean(x)  # the common full mean (a loss)
    dims = _reduce_dims(axis, x.dim(), "mean")
    if x.dtype.is_floating_point or x.dtype.is_complex:
        return _reduce(torch.mean, x, dims, keepdim)
    # integer / bool: Paddle keeps the dtype
    return _reduce(torch.mean, x.to(torch.float64), dims, keepdim).to(x.dtype)


@op
def nanmean(x: TensorLike, axis=None, keepdim=False, name=None):
    dims = _reduce_dims(axis, x.dim(), "nanmean")
    return _reduce(torch.nanmean, x, dims, keepdim)


def _var(x, axis, unbiased, keepdim, correction, api):
    if unbiased is not None and correction != 1:
        raise ValueError("Only one of unbiased and correction may be given")
    c = (1.0 if unbiased else 0.0) if unbiased is not None else float(correction)
    dims = _reduce_dims(axis, x.dim(), api)
    if x.dtype is torch.bool:
        raise RuntimeError(f"(NotFound) The kernel `{api}` is not registered for data type bool.")
    if x.dtype.is_floating_point or x.dtype.is_complex:
        return _reduce(torch.var, x, dims, keepdim, correction=c)
    # Paddle's composite for integers: integer mean, integer sum of squares, truncating division
    u = _reduce(torch.mean, x.to(torch.float64), dims, True).to(x.dtype)
    s = _reduce(torch.sum, (x - u) ** 2, dims, keepdim).to(x.dtype)
    n = x.numel() // max(s.numel(), 1) if x.numel() else 0
    d = max(n - c, 0)
    return (s.to(torch.float64) / d).to(x.dtype) if d else torch.full_like(s, 0)


@op
def var(x: TensorLike, axis=None, unbiased=None, keepdim=False, name=None, *, correction=1, out=None):
    """The variance over axis; divisor N - 1 unless unbiased=False (or N - correction)."""
    return _var(x, axis, unbiased, keepdim, correction, "var")


@op
def std(x: TensorLike, axis=None, unbiased=True, keepdim=False, name=None):
    """The standard deviation over axis; divisor N - 1 unless unbiased=False."""
    v = _var(x, axis, unbiased, keepdim, 1, "std")
    if not (v.dtype.is_floating_point or v.dtype.is_complex):
        v = v.to(torch.float32)
    return torch.sqrt(v)


@op
def numel(x: TensorLike, name=None):
    """The number of elements, a 0-D int64 Tensor."""
    return torch.tensor(x.numel(), dtype=torch.int64, device=x.device)


# ----------------------------------------------------------------- median
def _check_mode(mode):
    if mode not in ("avg", "min"):
        raise ValueError(f"Mode {mode} is not supported. Must be avg or min.")


def _to_last(x, dims):
    """Move the reduced dims to the end and flatten them into one; returns (tensor, keepdim shape)."""
    kshape = list(x.shape)
    if not dims:
        return x.reshape(-1), [1] * x.dim()
    for d in dims:
        kshape[d] = 1
    rest = [d for d in range(x.dim()) if d not in dims]
    n = 1
    for d in dims:
        n *= x.shape[d]
    return x.permute(*rest, *dims).reshape([x.shape[d] for d in rest] + [n]), kshape  # (n, not -1: x may be empty)


def _finish(v, kshape, keepdim):
    return v.reshape(kshape) if keepdim else v


@op
def median(x: TensorLike, axis=None, keepdim=False, mode="avg", name=None, *, out=None):
    """The median over axis (all elements when None); mode 'min' takes the lower of the two middle values
    and, with an axis, also returns its index."""
    if isinstance(axis, (list, tuple)) and len(axis) == 0:
        raise ValueError("Axis list should not be empty.")
    nd = x.dim()
    if axis is not None and nd and (isinstance(axis, bool) or not isinstance(axis, numbers.Integral)
                                    or not -nd <= axis < nd):
        raise ValueError("In median, axis should be none or an integer in range [-rank(x), rank(x)).")
    if axis is not None and nd == 0 and axis not in (0, -1):
        raise ValueError("In median, when the input is 0-D, axis can only be -1, 0 or None.")
    _check_mode(mode)
    dims = () if axis is None or nd == 0 else (int(axis) % nd,)
    y, kshape = _to_last(x, dims)
    n = y.shape[-1]
    if mode == "min":
        if n == 0:
            v = torch.full(y.shape[:-1], float("nan"), dtype=x.dtype, device=x.device)
            i = torch.full(y.shape[:-1], -1, dtype=torch.int64, device=x.device)
        else:
            v, i = torch.median(y, -1)
        v, i = _finish(v, kshape, keepdim), _finish(i, kshape, keepdim)
        return (v, i) if axis is not None else v
    if x.dtype is not torch.float64:
        y = y.to(torch.float32)
    if n == 0:
        return _finish(torch.full(y.shape[:-1], float("nan"), dtype=y.dtype, device=x.device), kshape, keepdim)
    s = torch.sort(y, -1).values
    v = (s[..., (n - 1) // 2] + s[..., n // 2]) / 2
    v = torch.where(torch.isnan(y).any(-1), float("nan"), v)
    return _finish(v, kshape, keepdim)


@op
def nanmedian(x: TensorLike, axis=None, keepdim=False, mode="avg", name=None):
    """The median over axis ignoring NaN (NaN for an all-NaN slice); mode 'min' as in median."""
    if isinstance(axis, (list, tuple)) and len(axis) == 0:
        raise ValueError("Axis list should not be empty.")
    _check_mode(mode)
    need_index = axis is not None and not isinstance(axis, (list, tuple))
    dims = _reduce_dims(axis, x.dim(), "nanmedian")
    y, kshape = _to_last(x, dims)
    if y.shape[-1] == 0:
        nan = torch.full(y.shape[:-1], float("nan"), device=x.device).to(x.dtype)
        idx = torch.full(y.shape[:-1], -1, dtype=torch.int64, device=x.device)
        return (_finish(nan, kshape, keepdim), _finish(idx, kshape, keepdim)) if mode == "min" and need_index \
            else _finish(nan, kshape, keepdim)
    s, order = torch.sort(y, -1)  # NaN sorts last
    valid = (~torch.isnan(y)).sum(-1, keepdim=True) if y.dtype.is_floating_point else \
        torch.full(y.shape[:-1] + (1,), y.shape[-1], device=x.device)
    lo = ((valid - 1) // 2).clamp(min=0)
    lo_v = s.gather(-1, lo).squeeze(-1)
    if mode == "min":
        v = lo_v
        if need_index:
            i = torch.where(valid.squeeze(-1) == 0, -1, order.gather(-1, lo).squeeze(-1))
            return _finish(v, kshape, keepdim), _finish(i, kshape, keepdim)
        return _finish(v, kshape, keepdim)
    hi_v = s.gather(-1, (valid // 2).clamp(max=y.shape[-1] - 1)).squeeze(-1)
    if y.dtype.is_floating_point:
        v = (lo_v + hi_v) / 2
    else:
        v = torch.div(lo_v + hi_v, 2, rounding_mode="trunc")
    return _finish(v, kshape, keepdim)


# ----------------------------------------------------------------- quantile
_INTERPOLATIONS = ("linear", "lower", "higher", "nearest", "midpoint")


def _quantile(x, q, axis, keepdim, interpolation, ignore_nan):
    if isinstance(q, torch.Tensor) or is_tensor(q):
        qt = q._t if is_tensor(q) else q
        if qt.dim() > 1:
            raise ValueError("q should be a 0-D tensor or a 1-D tensor")
        qs = qt.reshape(-1).tolist()
        single = qt.dim() == 0
    elif isinstance(q, (int, float)):
        qs, single = [q], True
    elif isinstance(q, (list, tuple)):
        if len(q) == 0:
            raise ValueError("q should not be empty")
        qs = [v._t.item() if is_tensor(v) else v for v in q]
        single = False
    else:
        raise TypeError("Type of q should be int, float, list or tuple, or tensor")
    for v in qs:
        if v < 0 or v > 1:
            raise ValueError("q should be in range [0, 1]")
    if interpolation not in _INTERPOLATIONS:
        raise ValueError("interpolation must be one of 'linear', 'lower', 'higher', 'nearest' or 'midpoint', but "
                         f"got {interpolation}")
    dims_n = x.dim()
    bad = ValueError("Axis should be None, int, or a list, element should in range [-rank(x), rank(x)).")
    if axis is None:
        dims = ()
    else:
        axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
        for a in axes:
            if isinstance(a, bool) or not isinstance(a, numbers.Integral) or not -dims_n <= a < dims_n:
                raise bad
        dims = tuple(sorted({int(a) % dims_n for a in axes}))
        if isinstance(axis, (list, tuple)) and len(axis) == 0:
            dims = ()
    y, kshape = _to_last(x, dims)
    if not y.dtype.is_floating_point:
        raise TypeError(f"(InvalidType) {'nanquantile' if ignore_nan else 'quantile'} takes a floating-point "
                        f"Tensor, but received {_dname(y.dtype)}.")
    n = y.shape[-1]
    mask = torch.isnan(y)
    valid = (~mask).sum(-1, keepdim=True)  # [..., 1]
    qv = torch.tensor(qs, dtype=y.dtype, device=y.device).reshape([-1] + [1] * y.dim())  # [Q, 1.., 1]
    index = qv * (valid - 1).to(y.dtype)  # [Q, ..., 1]
    if not ignore_nan:
        index = torch.where(mask.any(-1, keepdim=True), float(n - 1), index)
    index = index.clamp(min=0)
    s = torch.sort(y, -1).values.unsqueeze(0).expand(len(qs), *y.shape)

    def take(i):
        return s.gather(-1, i.long().clamp(max=max(n - 1, 0)))

    if interpolation == "nearest":
        r = take(torch.round(index))  # half to even, as paddle.round does here
    else:
        below = torch.floor(index)
        r_below = take(below)
        if interpolation == "lower":
            r = r_below
        else:
            r_above = take(torch.ceil(index))
            if interpolation == "higher":
                r = r_above
            elif interpolation == "midpoint":
                r = (r_above + r_below) / 2
            else:
                r = r_below + (index - below) * (r_above - r_below)
    r = r.squeeze(-1)
    if keepdim:
        r = r.reshape([len(qs)] + kshape)
    return r[0] if single or len(qs) == 1 else r


@op
def quantile(x: TensorLike, q, axis=None, keepdim=False, interpolation="linear", name=None, *, out=None):
    """The q-th quantile(s) over axis (a list of axes is flattened together); NaN where a slice holds NaN."""
    return _quantile(x, q, axis, keepdim, interpolation, False)


@op
def nanquantile(x: TensorLike, q, axis=None, keepdim=False, interpolation="linear"):
    """quantile ignoring NaN values."""
    return _quantile(x, q, axis, keepdim, interpolation, True)
