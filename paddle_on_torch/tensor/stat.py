"""Statistics: mean, var, std, median, quantile, ... (paddle.tensor.stat)."""
import torch

from .._normalize import AxisLike, DTypeLike, TensorLike, op

__all__ = ["mean", "var", "std", "median", "nanmedian", "quantile", "nanquantile", "numel", "nanmean"]


def _dims(axis):
    return () if axis is None else axis


def _float_only(x, api):
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        raise TypeError(f"The data type of 'x' in {api} only support float16, bfloat16, float32, float64, "
                        f"complex64, complex128, but received {str(x.dtype).replace('torch.', '')}.")


@op
def mean(x: TensorLike, axis: AxisLike = None, keepdim=False, name=None, *, dtype: DTypeLike = None, out=None):
    if dtype is not None:
        x = x.to(dtype)
    _float_only(x, "mean")
    return torch.mean(x, dim=_dims(axis), keepdim=keepdim)


@op
def nanmean(x: TensorLike, axis: AxisLike = None, keepdim=False, name=None):
    return torch.nanmean(x, dim=_dims(axis), keepdim=keepdim)


@op
def var(x: TensorLike, axis: AxisLike = None, unbiased=True, keepdim=False, name=None, *, correction=None):
    c = (1 if unbiased else 0) if correction is None else correction
    return torch.var(x, dim=axis, correction=c, keepdim=keepdim)


@op
def std(x: TensorLike, axis: AxisLike = None, unbiased=True, keepdim=False, name=None, *, correction=None):
    c = (1 if unbiased else 0) if correction is None else correction
    return torch.std(x, dim=axis, correction=c, keepdim=keepdim)


@op
def numel(x: TensorLike, name=None):
    return torch.tensor(x.numel())


def _median(x, axis, keepdim, mode, fn):
    if axis is None:
        flat = x.reshape(-1)
        if mode == "min":
            v, i = fn(flat, 0)
            return v.reshape([1] * x.dim()) if keepdim else v
        s, _ = torch.sort(flat)
        n = flat.numel()
        v = (s[(n - 1) // 2] + s[n // 2]) / 2 if s.dtype.is_floating_point else s[(n - 1) // 2]
        return v.reshape([1] * x.dim()) if keepdim else v
    v, i = fn(x, axis, keepdim=keepdim)
    if mode == "min":
        return v, i
    s, _ = torch.sort(x, dim=axis)
    n = x.shape[axis]
    lo = s.narrow(axis, (n - 1) // 2, 1)
    hi = s.narrow(axis, n // 2, 1)
    v = (lo + hi) / 2
    return v if keepdim else v.squeeze(axis)


@op
def median(x: TensorLike, axis=None, keepdim=False, mode="avg", name=None):
    return _median(x, axis, keepdim, mode, torch.median)


@op
def nanmedian(x: TensorLike, axis=None, keepdim=False, mode="avg", name=None):
    return _median(x, axis, keepdim, mode, torch.nanmedian)


@op
def quantile(x: TensorLike, q, axis=None, keepdim=False, interpolation="linear", name=None):
    q = torch.as_tensor(q, dtype=x.dtype) if not isinstance(q, torch.Tensor) else q
    if isinstance(axis, (list, tuple)):
        raise NotImplementedError("paddle.quantile with a list of axes is not supported by paddle_on_torch yet")
    return torch.quantile(x, q, dim=axis, keepdim=keepdim, interpolation=interpolation)


@op
def nanquantile(x: TensorLike, q, axis=None, keepdim=False, interpolation="linear", name=None):
    q = torch.as_tensor(q, dtype=x.dtype) if not isinstance(q, torch.Tensor) else q
    return torch.nanquantile(x, q, dim=axis, keepdim=keepdim, interpolation=interpolation)
