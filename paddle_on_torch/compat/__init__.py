"""paddle.compat: torch's signatures and return types on Paddle tensors (Paddle 3.3's porting aid).

Each API here is the torch function of the same name, run on the tensors' torch storage; the named
tuples are Paddle's (MedianRetType, MinMaxRetType, SlogdetResult, SortRetType).  Paddle-style keywords
(`x=`, `axis=`) are refused with the name of the Paddle API that takes them.
"""
from typing import NamedTuple

import torch

from .. import _report
from .._normalize import wrap
from ..tensor import search as _search, stat as _stat
from ..tensor.tensor import Tensor
from . import nn  # noqa: F401
from ._args import check_out, forbid_keywords, write_out

__all__ = ["equal", "slogdet", "sort", "split", "min", "max", "unique", "median", "nanmedian", "seed"]


class MedianRetType(NamedTuple):
    values: Tensor
    indices: Tensor


class MinMaxRetType(NamedTuple):
    values: Tensor
    indices: Tensor


class SlogdetResult(NamedTuple):
    sign: Tensor
    logabsdet: Tensor


class SortRetType(NamedTuple):
    values: Tensor
    indices: Tensor


def _tensor(input):
    if not isinstance(input, Tensor):
        raise TypeError(f"input should be a tensor, but got an instance with type '{type(input).__name__}'")
    return input._t


@forbid_keywords("paddle.compat.equal", "paddle.equal", "x", "y")
def equal(input, other):
    """True when both have the same shape and elements (after promoting to a common dtype)."""
    a, b = _tensor(input), _tensor(other)
    common = torch.promote_types(a.dtype, b.dtype)
    return bool(torch.equal(a.to(common), b.to(common)))


def slogdet(x, out=None):
    sign, logabsdet = torch.linalg.slogdet(_tensor(x))
    return write_out(SlogdetResult(wrap(sign), wrap(logabsdet)), out)


@forbid_keywords("paddle.compat.sort", "paddle.sort", "x", "axis")
def sort(input, dim=-1, descending=False, stable=False, out=None):
    check_out(out, pair=True)
    values, indices = torch.sort(_tensor(input), dim=dim, descending=descending, stable=stable)
    return write_out(SortRetType(wrap(values), wrap(indices)), out)


@forbid_keywords("paddle.compat.split", "paddle.split", "x", "num_or_sections", "axis", "name")
def split(tensor, split_size_or_sections, dim=0):
    """torch.split: an int is the size of each piece (the last may be smaller), a list the sizes."""
    t = _tensor(tensor)
    if isinstance(dim, Tensor):
        dim = int(dim.item())
    if not -t.ndim <= dim < t.ndim:
        raise ValueError(f"(InvalidArgument) The dim is expected to be in range of [-{t.ndim}, {t.ndim}), but got {dim}")
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = [int(s.item()) if isinstance(s, Tensor) else s for s in split_size_or_sections]
        for i, s in enumerate(sizes):
            if s < 0:
                raise ValueError(f"paddle.compat.split expects split_sizes have only non-negative entries, but got "
                                 f"size = {s} on dim {i}")
        if sum(sizes) != t.shape[dim]:
            raise ValueError(f"The sum of split_size_or_sections ({sum(sizes)}) must equal the length of dim {dim} "
                             f"({t.shape[dim]}).")
        return tuple(wrap(p) for p in torch.split(t, sizes, dim))
    if not isinstance(split_size_or_sections, int):
        raise TypeError("The type of 'split_size_or_sections' in split must be int, list or tuple in imperative "
                        f"mode, but received {type(split_size_or_sections)}.")
    assert split_size_or_sections > 0, "split_size_or_sections must be greater than 0."
    return tuple(wrap(p) for p in torch.split(t, split_size_or_sections, dim))


def _min_max_args(name, args, kwargs):
    """(dim or other Tensor or None, keepdim) from torch's three call forms, with Paddle's TypeError."""
    def invalid(prefix=""):
        got = ", ".join([type(v).__name__ for v in args] + [f"{k}={type(v).__name__}" for k, v in kwargs.items()])
        return TypeError(f"Invalid arguments for `paddle.compat.{name}`:\n{prefix}Got: (paddle.Tensor input, {got}), "
                         f"but expect one of:\n - (input: paddle.Tensor) for reduce_{name} on all dims.\n"
                         f" - (input: paddle.Tensor, other: paddle.Tensor) -> see paddle.{name}imum\n"
                         " - (input: paddle.Tensor, int dim (cannot be None), bool keepdim = False)\n")

    n = len(args) + len(kwargs)
    dim_or_other, keepdim = None, False
    if n > 2 or any(k not in ("dim", "keepdim", "other") for k in kwargs):
        raise invalid()
    if n == 2:
        if len(args) == 2:
            dim_or_other, keepdim = args
        elif "keepdim" in kwargs and (args or "dim" in kwargs):
            dim_or_other, keepdim = (args[0] if args else kwargs["dim"]), kwargs["keepdim"]
        else:
            raise invalid()
        if dim_or_other is None or isinstance(dim_or_other, Tensor):
            raise invalid()
    elif n == 1:
        dim_or_other = args[0] if args else kwargs.get("dim", kwargs.get("other"))
        if "other" in kwargs and not isinstance(dim_or_other, Tensor) or dim_or_other is None:
            raise invalid()
    if dim_or_other is not None and not isinstance(dim_or_other, Tensor) and type(dim_or_other) is not int:
        raise invalid(f"The second input must be int or Tensor or implicit None in compat.{name}, but received "
                      f"{type(dim_or_other)}.\n")
    return dim_or_other, keepdim


def _min_max(name, input, args, out, kwargs):
    t = _tensor(input)
    if not t.is_floating_point() and not t.is_complex() and t.dtype != torch.bool and not input.stop_gradient:
        raise TypeError(f"Tensors with integral type: '{input.dtype}' should stop gradient.")
    dim_or_other, keepdim = _min_max_args(name, args, kwargs)
    if isinstance(dim_or_other, Tensor):
        check_out(out)
        return write_out(wrap((torch.minimum if name == "min" else torch.maximum)(t, dim_or_other._t)), out)
    if dim_or_other is None:
        check_out(out)
        return write_out(wrap(t.amin() if name == "min" else t.amax()), out)
    check_out(out, pair=True)
    if t.ndim == 0:
        return write_out(MinMaxRetType(input, wrap(torch.zeros((), dtype=torch.int64, device=t.device))), out)
    # Paddle's CPU path: arg{min,max} (the first extreme element) then take_along_axis
    idx = (torch.argmin if name == "min" else torch.argmax)(t, dim=dim_or_other, keepdim=True)
    values = torch.take_along_dim(t, idx, dim=dim_or_other)
    if not keepdim:
        values, idx = values.squeeze(dim_or_other), idx.squeeze(dim_or_other)
    return write_out(MinMaxRetType(wrap(values), wrap(idx)), out)


@forbid_keywords("paddle.compat.min", "paddle.min", "x", "axis")
def min(input, *args, out=None, **kwargs):
    """min(input) | min(input, other) | min(input, dim, keepdim=False) -> (values, indices)."""
    return _min_max("min", input, args, out, kwargs)


@forbid_keywords("paddle.compat.max", "paddle.max", "x", "axis")
def max(input, *args, out=None, **kwargs):
    """max(input) | max(input, other) | max(input, dim, keepdim=False) -> (values, indices)."""
    return _min_max("max", input, args, out, kwargs)


@forbid_keywords("paddle.compat.unique", "paddle.unique", "x", "axis")
def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    return _search.unique(input, return_inverse=return_inverse, return_counts=return_counts, axis=dim)


def _median(fn, input, dim, keepdim, out):
    if dim is None:
        check_out(out)
        return write_out(fn(input, axis=None, keepdim=keepdim, mode="min"), out)
    check_out(out, pair=True)
    values, indices = fn(input, axis=dim, keepdim=keepdim, mode="min")
    indices._t = indices._t.clamp_min(0)  # an all-NaN slice has index -1 in nanmedian: torch says 0
    return write_out(MedianRetType(values, indices), out)


@forbid_keywords("paddle.compat.median", "paddle.median", "x", "axis")
def median(input, dim=None, keepdim=False, *, out=None):
    """The lower median; with `dim`, (values, indices)."""
    return _median(_stat.median, input, dim, keepdim, out)


@forbid_keywords("paddle.compat.nanmedian", "paddle.nanmedian", "x", "axis")
def nanmedian(input, dim=None, keepdim=False, *, out=None):
    """The lower median ignoring NaN; with `dim`, (values, indices)."""
    return _median(_stat.nanmedian, input, dim, keepdim, out)


def seed():
    """Seed every generator with a non-deterministic seed, and return it."""
    from ..framework.random import seed as _seed

    s = torch.seed()
    _seed(s)
    return s


__getattr__ = _report.module_getattr("paddle.compat")
