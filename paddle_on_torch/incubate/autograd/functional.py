"""paddle.incubate.autograd: vjp, jvp and the lazily evaluated Jacobian / Hessian of a function.

As in Paddle (either mode): the inputs are first "separated" (a Tensor that needs gradients is
copied inside the graph, one that does not is detached and made to need them), gradients are taken
with create_graph=True, an input the outputs do not depend on gets zeros, and jvp is the
double-backward trick (the vjp of the vjp).  In static mode the same calls record gradient nodes into the
program (paddle.static.gradients), as Paddle's do with the prim switch off.  Rows of a Jacobian are computed on demand and cached.
"""
from collections.abc import Sequence

import torch

from ..._normalize import wrap
from ...autograd.autograd import LazyRows, multi_index
from ...autograd.backward import grad as _paddle_grad
from ...tensor.tensor import Tensor
from . import primapi

__all__ = ["vjp", "jvp", "Jacobian", "Hessian"]


def _is_seq(v):
    return isinstance(v, Sequence) and not isinstance(v, Tensor)


def _as_tensors(xs):
    return (xs,) if isinstance(xs, Tensor) else tuple(xs)


def _single_separate(x):
    if x is None:
        return None
    if not x.stop_gradient:
        return wrap(x._t.clone())  # paddle.assign: a copy that stays in the graph
    x = wrap(x._t.detach())
    x.stop_gradient = False
    return x


def _separate(xs):
    return tuple(_single_separate(x) for x in xs) if _is_seq(xs) else _single_separate(xs)


def _zeros_like(ref):
    z = wrap(torch.zeros_like(ref._t))
    z.stop_gradient = ref.stop_gradient
    return z


def _grad(ys, xs, v=None):
    from ... import in_dynamic_mode

    if not in_dynamic_mode():  # a static program: gradient nodes (paddle.static.gradients), as Paddle
        g = primapi.grad(ys, xs, v)
        g = [g] if isinstance(xs, Tensor) else g
    else:
        g = _paddle_grad(ys, xs, v, create_graph=True, allow_unused=True)
    if isinstance(xs, Tensor):
        return g[0] if g[0] is not None else _zeros_like(xs)
    return tuple(_zeros_like(x) if gi is None else gi for gi, x in zip(g, xs))


def _check_inputs(func, xs, v=None):
    if not callable(func):
        raise TypeError(f"Expected 'fun' is Callable, but got {type(func)}.")
    if not isinstance(xs, (Tensor, Sequence)):
        raise TypeError(f"Expected 'xs' is a Tensor|Sequence[Tensor], but got {type(xs)}.")
    if _is_seq(xs) and not all(isinstance(x, Tensor) for x in xs):
        raise TypeError("All elements of 'xs' should be Tensor.")
    if not isinstance(v, (Tensor, Sequence, type(None))):
        raise TypeError(f"Expected 'v' is Tensor|Sequence[Tensor]|None, but got {type(v)}.")
    if _is_seq(v) and not all(isinstance(e, Tensor) for e in v):
        raise TypeError("All elements of 'xs' should be Tensor.")


def _check_v_shape(v, refs):
    if v is None:
        return
    v, refs = _as_tensors(v), _as_tensors(refs)
    if len(refs) != len(v):
        raise RuntimeError(f"The argument v is a tuple of invalid length:should be {len(refs)} but got {len(v)}.")
    for k, (e, r) in enumerate(zip(v, refs)):
        if e.shape != r.shape:
            raise RuntimeError(f"The v[{k}] has invalid shape: should be {r.shape} but got {e.shape}.")


def _call(func, xs):
    return func(*xs) if _is_seq(xs) else func(xs)


def vjp(func, xs, v=None):
    """(func(xs), v^T J): the vector-Jacobian product (v defaults to ones)."""
    _check_inputs(func, xs, v)
    xs, v = _separate(xs), _separate(v)
    ys = _call(func, xs)
    _check_v_shape(v, ys)
    return ys, _grad(ys, xs, v)


def jvp(func, xs, v=None):
    """(func(xs), J v): the Jacobian-vector product (v defaults to ones), by double backward."""
    _check_inputs(func, xs, v)
    xs, v = _separate(xs), _separate(v)
    ys = _call(func, xs)
    _check_v_shape(v, xs)
    ys_grad = tuple(_zeros_with_grad(y) for y in ys) if _is_seq(ys) else _zeros_with_grad(ys)
    xs_grad = _grad(ys, xs, ys_grad)
    return ys, _grad(xs_grad, ys_grad, v)


def _zeros_with_grad(y):
    z = wrap(torch.zeros_like(y._t))
    z.stop_gradient = False
    return z


class _FuncJacobian(LazyRows):
    def __init__(self, func, xs, is_batched):
        self._sep = _separate(xs)
        ys = _call_tensors(func, self._sep)
        xs_t = [x._t for x in _as_tensors(self._sep)]
        ys_t = [y._t for y in _as_tensors(ys)]
        self._xs = xs_t
        self._cache = {}
        if is_batched:
            self.lazy_axis = 1
            self._flat_ys = torch.cat([y.reshape(y.shape[0], -1) for y in ys_t], 1)
            nx = sum(x.reshape(x.shape[0], -1).shape[1] for x in xs_t)
            self.shape = (xs_t[0].shape[0], self._flat_ys.shape[1], nx)
        else:
            self.lazy_axis = 0
            self._flat_ys = torch.cat([y.reshape(-1) for y in ys_t])
            self.shape = (self._flat_ys.shape[0], sum(x.numel() for x in xs_t))
        self.inner_shape = self.shape

    def __getitem__(self, indexes):
        return wrap(self._rows(multi_index(indexes, self.shape)))


def _call_tensors(func, xs):
    return func(*_as_tensors(xs))


class Jacobian:
    """The Jacobian of func at xs, evaluated lazily by indexing (`J[:]`, `J[i]`, `J[:, j]`)."""

    def __init__(self, func, xs, is_batched=False):
        self._jacobian = _FuncJacobian(func, xs, is_batched)

    def __getitem__(self, indexes):
        return self._jacobian[indexes]

    @property
    def shape(self):
        return self._jacobian.shape


class Hessian:
    """The Hessian of a single-element (per batch row) function at xs, evaluated lazily by indexing."""

    def __init__(self, func, xs, is_batched=False):
        def _jac_func(*xs):
            jac = Jacobian(func, xs, is_batched=is_batched)
            if (is_batched and jac.shape[1] != 1) or (not is_batched and jac.shape[0] != 1):
                raise RuntimeError("The function given to Hessian should return as single element Tensor or "
                                   "batched single element Tensor.")
            return jac[:, 0, :] if is_batched else jac[0, :]

        self.symbolic = Jacobian(_jac_func, xs, is_batched=is_batched)

    def __getitem__(self, indexes):
        return self.symbolic[indexes]

    @property
    def shape(self):
        return self.symbolic.shape
