"""Random tensors (paddle.tensor.random), drawn from torch's generator.

Values differ from real Paddle's for the same seed (another generator);
shapes, dtypes and distributions agree.
"""
import torch

from .._normalize import DTypeLike, ShapeLike, TensorLike, op
from ..framework import dtype as _dtypes

__all__ = ["rand", "randn", "randint", "randint_like", "randperm", "normal", "uniform", "standard_normal",
           "bernoulli", "multinomial", "poisson", "rand_like", "randn_like", "standard_gamma", "binomial",
           "gaussian"]


def _float(dtype):
    return dtype if dtype is not None else _dtypes.default_float_torch()


@op
def rand(shape: ShapeLike, dtype: DTypeLike = None, name=None, *, out=None, device=None, requires_grad=False):
    return torch.rand(shape, dtype=_float(dtype), requires_grad=requires_grad)


@op
def randn(shape: ShapeLike, dtype: DTypeLike = None, name=None, *, out=None, device=None, requires_grad=False):
    return torch.randn(shape, dtype=_float(dtype), requires_grad=requires_grad)


standard_normal = randn


@op
def rand_like(input: TensorLike, name=None, *, dtype: DTypeLike = None, device=None, requires_grad=False):
    return torch.rand_like(input, dtype=dtype or input.dtype, requires_grad=requires_grad)


@op
def randn_like(input: TensorLike, name=None, *, dtype: DTypeLike = None, device=None, requires_grad=False):
    return torch.randn_like(input, dtype=dtype or input.dtype, requires_grad=requires_grad)


@op
def randint(low=0, high=None, shape: ShapeLike = (1,), dtype: DTypeLike = None, name=None):
    if high is None:
        low, high = 0, low
    if low >= high:
        raise ValueError(f"randint's low must less then high, but received low = {low}, high = {high}")
    return torch.randint(low, high, shape, dtype=dtype or torch.int64)


@op
def randint_like(x: TensorLike, low=0, high=None, dtype: DTypeLike = None, name=None):
    if high is None:
        low, high = 0, low
    return torch.randint(low, high, x.shape, dtype=torch.int64).to(dtype or x.dtype)


@op
def randperm(n, dtype: DTypeLike = "int64", name=None):
    return torch.randperm(n, dtype=dtype)


@op
def normal(mean=0.0, std=1.0, shape: ShapeLike = None, name=None):
    m = mean._t if hasattr(mean, "_t") else mean
    s = std._t if hasattr(std, "_t") else std
    if isinstance(m, torch.Tensor) or isinstance(s, torch.Tensor):
        return torch.normal(torch.as_tensor(m, dtype=_float(None)), torch.as_tensor(s, dtype=_float(None)))
    return torch.normal(m, s, shape, dtype=_float(None))


@op
def gaussian(shape: ShapeLike, mean=0.0, std=1.0, seed=0, dtype: DTypeLike = None, name=None):
    return torch.normal(mean, std, shape, dtype=_float(dtype))


@op
def uniform(shape: ShapeLike, dtype: DTypeLike = None, min=-1.0, max=1.0, seed=0, name=None):
    return torch.empty(shape, dtype=_float(dtype)).uniform_(min, max)


@op
def bernoulli(x: TensorLike, p=None, name=None):
    return torch.bernoulli(x) if p is None else torch.bernoulli(x, p)


@op
def binomial(count: TensorLike, prob: TensorLike, name=None):
    return torch.binomial(count.to(prob.dtype), prob).to(torch.int64)


@op
def multinomial(x: TensorLike, num_samples=1, replacement=False, name=None):
    return torch.multinomial(x, num_samples, replacement)


@op
def poisson(x: TensorLike, name=None):
    return torch.poisson(x)


@op
def standard_gamma(x: TensorLike, name=None):
    return torch._standard_gamma(x)
