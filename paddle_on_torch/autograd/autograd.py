"""paddle.autograd.jacobian / hessian: Paddle's lazily evaluated Jacobian and Hessian objects.

A Jacobian holds ys and xs and computes one row (one flattened element of ys, or one column of a
batched ys) at a time with a create_graph backward pass, caching rows; indexing evaluates only the
rows it touches, as Paddle's does (so a Hessian is the Jacobian of a Jacobian and stays
differentiable).  Indexing follows Paddle's rules, quirks included: ints and slices only, no
Ellipsis, and a batched Jacobian of a 1-D ys keeps a size-1 middle axis when fully sliced.
"""
from collections.abc import Sequence

import torch
from torch._subclasses.fake_tensor import FakeTensor

from .._normalize import wrap
from ..tensor.tensor import Tensor

__all__ = ["jacobian", "hessian", "Jacobian", "Hessian"]


def row_grads(y, xs):
    """d y / d x for each x in xs (torch tensors), as Paddle's jacobian helper computes them:
    create_graph=True, an x that y does not depend on gets zeros (every x does while gradients are off).
    In static mode (y a Variable) the gradient is a node of the program, as paddle.static.gradients."""
    if isinstance(y, FakeTensor):
        from ..static.backward import variable_grads

        return variable_grads(y, xs)
    live = [k for k, x in enumerate(xs) if x.requires_grad]
    got = {}
    if y.requires_grad and live and torch.is_grad_enabled():  # (with gradients off Paddle gives zeros)
        gs = torch.autograd.grad(y, [xs[k] for k in live], torch.ones_like(y), retain_graph=True,
                                 create_graph=True, allow_unused=True)
        got = dict(zip(live, gs))
    out = []
    for k, x in enumerate(xs):
        g = got.get(k)
        if g is None:
            g = torch.zeros_like(x)
            if x.requires_grad:  # Paddle's zeros keep the input's stop_gradient
                g.requires_grad_(True)
        elif not g.requires_grad:
            g = g.detach().requires_grad_(True)  # a create_graph gradient never stops gradients in Paddle
        out.append(g)
    return out


def multi_index(indexes, shape):
    """Paddle's index normalisation: a tuple of ints / positive-bounded slices, one per axis."""
    indexes = indexes if isinstance(indexes, Sequence) else (indexes,)
    if any(i is Ellipsis for i in indexes):
        raise IndexError("Ellipsis index currently is not supported.")
    indexes = tuple(indexes) + (slice(0, None, None),) * (len(shape) - len(indexes))
    out = []
    for i, index in enumerate(indexes):
        if isinstance(index, slice):
            start, stop, step = index.start or 0, index.stop or shape[i], index.step or 1
            out.append(slice(start + shape[i] if start < 0 else start, stop + shape[i] if stop < 0 else stop, step))
        elif isinstance(index, int):
            out.append(index + shape[i] if index < 0 else index)
        else:
            raise TypeError(f"Not supported index type {index}.")
    return tuple(out)


class LazyRows:
    """Rows of a Jacobian computed on demand.  Subclasses set `lazy_axis` (0 unbatched, 1 batched),
    `inner_shape`, `_flat_ys` (torch) and `_xs` (a list of torch tensors)."""

    def _cached(self, k):
        v = self._cache.get(k)
        if v is None:
            v = self._cache[k] = self._evaluate(k)
        return v

    def _rows(self, indexes):
        """The torch tensor for already normalised `indexes` over inner_shape."""
        ax = self.lazy_axis
        idx = indexes[ax]
        if isinstance(idx, int):
            return self._cached(idx)[indexes[:ax] + indexes[ax + 1:]]
        rows = range(idx.start, idx.stop, idx.step)
        shape = list(self.inner_shape)
        shape[ax] = len(rows)
        part = torch.stack([self._cached(i) for i in rows], ax).reshape(shape)
        return part[(*indexes[:ax], slice(0, len(rows), 1), *indexes[ax + 1:])]

    def _evaluate(self, k):
        xs = self._xs
        if self.lazy_axis == 0:
            gs = [g.reshape(-1) for g in row_grads(self._flat_ys[k], xs)]
            return gs[0] if len(gs) == 1 else torch.cat(gs)
        gs = [g.reshape(g.shape[0], -1) for g in row_grads(self._flat_ys[:, k], xs)]
        return gs[0] if len(gs) == 1 else torch.cat(gs, 1)


def _as_torch_ys(ys):
    return ys._evaluate_all()._t if isinstance(ys, Jacobian) else ys._t


class _JacobianImpl(LazyRows):
    def __init__(self, ys, xs, is_batched):
        self.is_batched = is_batched
        self.original_ys_shape = list(ys.shape)
        self.original_xs_shape = list(xs.shape)
        y, x = _as_torch_ys(ys), xs._t
        self._xs = [x]
        self._cache = {}
        if is_batched:
            self._flat_ys = y.reshape(y.shape[0], -1)
            fx = x.reshape(x.shape[0], -1)
            self.lazy_axis = 1
            self.inner_shape = [fx.shape[0], self._flat_ys.shape[1], fx.shape[1]]
            self.shape = [fx.shape[0], *self.original_ys_shape[1:2], *self.original_xs_shape[1:2]]
        else:
            self._flat_ys = y.reshape(-1)
            self.lazy_axis = 0
            self.inner_shape = [self._flat_ys.shape[0], x.reshape(-1).shape[0]]
            self.shape = [*self.original_ys_shape[0:1], *self.original_xs_shape[0:1]]

    def __getitem__(self, indexes):
        if not self.is_batched:
            if len(self.shape) == 0:
                raise IndexError("0-D tensor can not be indexed.")
            if len(self.shape) == 1:  # ys or xs is 0-D: the index addresses the other axis
                indexes = (0, indexes) if len(self.original_ys_shape) == 0 else (indexes, 0)
        elif len(self.shape) == 1:
            indexes = (indexes, 0, 0)
        elif len(self.shape) == 2:
            if isinstance(indexes, slice):
                indexes = (indexes, slice(None, None, None))
            else:
                indexes = ((indexes[0], 0, indexes[1]) if len(self.original_ys_shape) == 1
                           else (indexes[0], indexes[1], 0))
        indexes = multi_index(indexes, self.inner_shape)
        r = self._rows(indexes)
        for _ in range(r.dim() - len(self.shape)):  # Paddle squeezes trailing axes only (a no-op unless 1)
            r = r.squeeze(-1)
        return wrap(r)

    def _evaluate_all(self):
        if len(self.shape) == 0:
            return wrap(self._cached(0).reshape([]))
        return self[:]


def _binary(method):
    def op(self, other):
        rhs = other._evaluate_all() if isinstance(other, Jacobian) else other
        return getattr(self._evaluate_all(), method)(rhs)

    op.__name__ = method
    return op


class Jacobian:
    """The Jacobian of ys with respect to xs, evaluated lazily by indexing (`J[:]`, `J[i]`, `J[:, j]`)."""

    def __init__(self, ys, xs, is_batched=False):
        if not is_batched:
            if not 0 <= len(xs.shape) <= 1:
                raise ValueError(f"xs.ndim should be 0 or 1 when is_batched=False but got {len(xs.shape)}")
            if not 0 <= len(ys.shape) <= 1:
                raise ValueError(f"ys.ndim should be 0 or 1 when is_batched=False but got {len(ys.shape)}")
        else:
            if not 1 <= len(ys.shape) <= 2:
                raise ValueError(f"ys.ndim should be 1 or 2 when is_batched=True but got {len(ys.shape)}")
            if not 1 <= len(xs.shape) <= 2:
                raise ValueError(f"xs.ndim should be 1 or 2 when is_batched=True but got {len(xs.shape)}")
        self._jacobian = _JacobianImpl(ys, xs, is_batched)

    @property
    def shape(self):
        return self._jacobian.shape

    def __getitem__(self, indexes):
        return self._jacobian[indexes]

    def _evaluate_all(self):
        return self._jacobian._evaluate_all()

    def __getattr__(self, name):  # anything else is the evaluated Tensor's (J.numpy(), J.dtype, ...)
        if name.startswith("__") or name == "_jacobian":
            raise AttributeError(name)
        return getattr(self._jacobian._evaluate_all(), name)

    for _m in ("__add__", "__sub__", "__mul__", "__truediv__", "__pow__", "__mod__", "__floordiv__", "__matmul__",
               "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"):
        locals()[_m] = _binary(_m)
    __div__ = __truediv__
    __hash__ = object.__hash__
    del _m


class Hessian(Jacobian):
    pass


def _is_seq(v):
    return isinstance(v, Sequence) and not isinstance(v, Tensor)


def jacobian(ys, xs, batch_axis=None):
    """The Jacobian(s) of ys with respect to xs (Tensors or sequences of them); batch_axis None or 0."""
    if batch_axis is not None and batch_axis != 0:
        raise ValueError(f"batch_axis should be None or 0, but got {batch_axis}.")
    b = batch_axis is not None
    if _is_seq(ys) and _is_seq(xs):
        return tuple(tuple(Jacobian(y, x, b) for x in xs) for y in ys)
    if _is_seq(ys):
        return tuple(Jacobian(y, xs, b) for y in ys)
    if _is_seq(xs):
        return tuple(Jacobian(ys, x, b) for x in xs)
    return Jacobian(ys, xs, b)


def hessian(ys, xs, batch_axis=None):
    """The Hessian(s) of a single-element ys (per batch row with batch_axis=0) with respect to xs."""
    from .. import in_dynamic_mode

    if not in_dynamic_mode():
        # Paddle's check `ys.numel() > 1` asks bool() of a Variable there, which static mode refuses
        raise TypeError("bool(Tensor) is not supported in static graph mode. Because it's value is not available "
                        "during the static mode.")
    if batch_axis is None:
        if ys.numel() > 1:
            raise ValueError(f"Only support ys.numel()({ys.numel()})==1 when batch_axis is None.")
        ys = ys.reshape(())
    elif isinstance(batch_axis, int):
        if ys[0].numel() > 1:
            raise ValueError(f"Only support ys[0].numel()({ys.numel()})==1 when batch_axis is int")
        if batch_axis != 0:
            raise ValueError("Only support batch_axis=0 yet.")
        ys = ys.reshape((-1,))
    else:
        raise ValueError(f"batch_axis should be None or int, but got {type(batch_axis)}.")
    first = jacobian(ys, xs, batch_axis)
    if not _is_seq(xs):
        h = jacobian(first, xs, batch_axis)
        h.__class__ = Hessian
        return h
    h = tuple(jacobian(j, xs, batch_axis) for j in first)
    for row in h:
        for j in row:
            j.__class__ = Hessian
    return h
