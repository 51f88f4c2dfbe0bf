"""Search and sort: argmax, sort, topk, where, nonzero, ... (paddle.tensor.search)."""
import torch

from .._normalize import DTypeLike, ScalarOrTensor, TensorLike, op

__all__ = ["argmax", "argmin", "argsort", "sort", "topk", "where", "nonzero", "index_sample", "searchsorted",
           "bucketize", "kthvalue", "mode", "unique", "masked_scatter", "top_p_sampling", "msort"]


@op
def argmax(x: TensorLike, axis=None, keepdim=False, dtype: DTypeLike = "int64", name=None):
    if axis is None:
        r = torch.argmax(x.reshape(-1))
        return (r.reshape([1] * x.dim()) if keepdim else r).to(dtype)
    return torch.argmax(x, axis, keepdim=keepdim).to(dtype)


@op
def argmin(x: TensorLike, axis=None, keepdim=False, dtype: DTypeLike = "int64", name=None):
    if axis is None:
        r = torch.argmin(x.reshape(-1))
        return (r.reshape([1] * x.dim()) if keepdim else r).to(dtype)
    return torch.argmin(x, axis, keepdim=keepdim).to(dtype)


@op
def argsort(x: TensorLike, axis=-1, descending=False, stable=False, name=None):
    return torch.argsort(x, dim=axis, descending=descending, stable=True)


@op
def sort(x: TensorLike, axis=-1, descending=False, stable=False, name=None):
    return torch.sort(x, dim=axis, descending=descending, stable=True).values


@op
def msort(input: TensorLike, name=None):
    return torch.sort(input, dim=0, stable=True).values


@op
def topk(x: TensorLike, k, axis=None, largest=True, sorted=True, name=None):
    k = int(k.item()) if isinstance(k, torch.Tensor) else k
    v, i = torch.topk(x, k, dim=-1 if axis is None else axis, largest=largest, sorted=sorted)
    return v, i


@op
def where(condition: TensorLike, x: ScalarOrTensor = None, y: ScalarOrTensor = None, name=None):
    if x is None and y is None:
        return tuple(torch.nonzero(condition, as_tuple=True)) if condition.dim() else (torch.nonzero(condition),)
    return torch.where(condition, x, y)


@op
def nonzero(x: TensorLike, as_tuple=False):
    if as_tuple:
        return tuple(i.unsqueeze(-1) for i in torch.nonzero(x, as_tuple=True))
    return torch.nonzero(x)


@op
def index_sample(x: TensorLike, index: TensorLike):
    return torch.gather(x, 1, index)


@op
def searchsorted(sorted_sequence: TensorLike, values: TensorLike, out_int32=False, right=False, name=None):
    return torch.searchsorted(sorted_sequence, values, out_int32=out_int32, right=right)


@op
def bucketize(x: TensorLike, sorted_sequence: TensorLike, out_int32=False, right=False, name=None):
    return torch.bucketize(x, sorted_sequence, out_int32=out_int32, right=right)


@op
def kthvalue(x: TensorLike, k, axis=None, keepdim=False, name=None):
    return tuple(torch.kthvalue(x, k, dim=-1 if axis is None else axis, keepdim=keepdim))


@op
def mode(x: TensorLike, axis=-1, keepdim=False, name=None):
    return tuple(torch.mode(x, dim=axis, keepdim=keepdim))


@op
def unique(x: TensorLike, return_index=False, return_inverse=False, return_counts=False, axis=None,
           dtype: DTypeLike = "int64", name=None):
    out, inverse, counts = torch.unique(x, sorted=True, return_inverse=True, return_counts=True, dim=axis)
    result = [out]
    if return_index:
        n = x.shape[0] if axis is not None else x.numel()
        first = torch.full((out.shape[0] if axis is not None else out.numel(),), n, dtype=torch.int64)
        first = first.scatter_reduce(0, inverse.reshape(-1), torch.arange(inverse.numel()), "amin")
        result.append(first.to(dtype))
    if return_inverse:
        result.append(inverse.reshape(-1).to(dtype) if axis is None else inverse.to(dtype))
    if return_counts:
        result.append(counts.to(dtype))
    return result[0] if len(result) == 1 else tuple(result)


@op
def masked_scatter(x: TensorLike, mask: TensorLike, value: TensorLike, name=None):
    return torch.masked_scatter(x, mask, value)


@op
def top_p_sampling(x: TensorLike, ps: TensorLike, threshold=None, topp_seed=None, seed=-1, k=0, mode="truncated",
                   return_top=False, name=None):
    raise NotImplementedError("paddle.tensor.top_p_sampling is not supported by paddle_on_torch yet")
