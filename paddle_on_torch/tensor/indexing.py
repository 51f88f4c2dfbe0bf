"""Tensor indexing: `x[index]` and `x[index] = value` with Paddle's rules.

Paddle's indexing is numpy's, which torch shares for almost every form
(ints, slices, None, Ellipsis, bool masks, advanced integer indices and
their mixing).  What differs, and is handled here:

* negative slice steps (`x[::-1]`): torch has none.  `getitem` narrows the
  axis to the elements the slice visits, flips it and takes the positive
  step; `setitem` writes through `put_` at the positions the index selects.
  (Paddle returns a view for a negative step; ours is a copy.)
* lists are always index tensors (`x[[[0, 1], [1, 0]]]` is a 2-D index, not a
  tuple); a list of bools is a mask.
* index dtypes: only bool, int32 and int64 tensors; a float index, a string or
  another object is a ValueError, as are a zero step and two Ellipses.
* setitem casts the value to x's dtype, accepts Python scalars, numpy arrays
  and Tensors (a list is a ValueError, like Paddle), and a value whose shape
  does not broadcast is a ValueError.
"""
import builtins
import numbers

import numpy as np
import torch

from .. import _normalize
from .._core import dtype as _dtypes

__all__ = ["getitem", "setitem"]

_slice = builtins.slice
_INDEX_DTYPES = (torch.int64, torch.int32, torch.bool)
_BAD_INDEX = ("(InvalidArgument) Currently, Tensor.__indices__() only allows indexing by Boolean, Integers, "
              "Slices, Ellipsis, None, Tuples of these types and List / Tensor of Bool and Integers, but "
              "received {} in {}th slice item")


def _index_tensor(t, pos):
    if t.dtype not in _INDEX_DTYPES:
        raise ValueError(f"(InvalidArgument) Index holds the wrong type, it holds [{_dtypes.dtype_name(t.dtype)}], "
                         "but desires to be [int64].")
    return t


def _list_index(v, pos, device):
    def item(e):
        if isinstance(e, _normalize.Tensor):
            return e._t.item()
        if isinstance(e, (list, tuple)):
            return [item(i) for i in e]
        if isinstance(e, (bool, numbers.Integral, np.bool_)):
            return e
        raise ValueError(_BAD_INDEX.format(type(e).__name__, pos))

    data = [item(e) for e in v]
    if len(data) == 0:
        return torch.zeros([0], dtype=torch.int64, device=device)
    try:
        return torch.tensor(data, device=device)
    except (TypeError, ValueError) as e:
        raise ValueError(f"(InvalidArgument) The list index in {pos}th slice item is not a valid index: {e}") \
            from None


def _bound(v):
    """A slice bound as an int; a size read while tracing (x[:, :x.shape[1] // 2]) stays a SymInt, as int() of it
    would bake the trace-time value into the program."""
    if isinstance(v, torch.SymInt):
        return v
    if isinstance(v, _normalize.Tensor):
        v = v._t.item()
        return v if isinstance(v, torch.SymInt) else int(v)
    return int(v)


def _convert(index, t):
    """Paddle index -> (torch index tuple, {input dim: slice} of negative-step slices)."""
    if type(index) is not tuple:
        index = (index,)
    device = t.device
    items = []
    consumed = []  # input dims each item consumes (None for the Ellipsis)
    ell = None
    for pos, v in enumerate(index):
        tv = type(v)
        if tv is int or tv is bool or v is None:
            items.append(v)
            consumed.append(1 if tv is int else 0)
        elif tv is _slice:
            start, stop, step = v.start, v.stop, v.step
            if not (start is None or type(start) is int):
                start = _bound(start)
            if not (stop is None or type(stop) is int):
                stop = _bound(stop)
            if not (step is None or type(step) is int):
                step = _bound(step)
            if step == 0:
                raise ValueError("(InvalidArgument) stride index in StridedSlice operator is 0.")
            items.append(_slice(start, stop, step) if (start, stop, step) != (v.start, v.stop, v.step) else v)
            consumed.append(1)
        elif v is Ellipsis:
            if ell is not None:
                raise ValueError("(InvalidArgument) An index can only have a single ellipsis ('...')")
            ell = pos
            items.append(v)
            consumed.append(None)
        elif isinstance(v, _normalize.Tensor):
            it = _index_tensor(v._t, pos)
            items.append(it)
            consumed.append(it.dim() if it.dtype is torch.bool else 1)
        elif isinstance(v, (list, tuple)):
            it = _list_index(v, pos, device)
            items.append(it)
            consumed.append(it.dim() if it.dtype is torch.bool else 1)
        elif isinstance(v, np.ndarray):
            if v.dtype == np.bool_:
                it = torch.from_numpy(v).to(device)
            elif v.dtype.kind in "iu":
                it = torch.from_numpy(v.astype(np.int64)).to(device)
            else:
                raise ValueError(_BAD_INDEX.format(f"ndarray of {v.dtype}", pos))
            items.append(it)
            consumed.append(it.dim() if it.dtype is torch.bool else 1)
        elif isinstance(v, (np.bool_,)):
            items.append(bool(v))
            consumed.append(0)
        elif isinstance(v, numbers.Integral):
            items.append(int(v))
            consumed.append(1)
        elif isinstance(v, torch.Tensor):
            it = _index_tensor(v, pos)
            items.append(it)
            consumed.append(it.dim() if it.dtype is torch.bool else 1)
        else:
            raise ValueError(_BAD_INDEX.format(type(v).__name__, pos))
    # negative steps: find the input dim of each such slice
    negs = None
    for pos, v in enumerate(items):
        if type(v) is _slice and v.step is not None and v.step < 0:
            if negs is None:
                negs = {}
                ndim = t.dim()
            if ell is None or pos < ell:
                dim = sum(c for c in consumed[:pos])
            else:
                dim = ndim - sum(c for c in consumed[pos:])
            if not 0 <= dim < ndim:
                raise IndexError(f"too many indices for tensor of dimension {ndim}")
            negs[dim] = pos
    return items, negs


def _resolve_negative_steps(t, items, negs):
    """Narrow each negative-step axis to the elements its slice visits and flip it."""
    items = list(items)
    flips = []
    for dim, pos in negs.items():
        s = items[pos]
        n = t.shape[dim]
        r = range(*s.indices(n))
        if len(r) == 0:
            items[pos] = _slice(0, 0)
            continue
        lo, hi = r[-1], r[0] + 1
        t = t.narrow(dim, lo, hi - lo)
        flips.append(dim)
        items[pos] = _slice(None, None, -s.step)
    if flips:
        t = t.flip(flips)
    return t, tuple(items)


def _basic(index):
    """True for an index torch takes as Paddle means it: ints, None, one Ellipsis, positive-step int slices."""
    tp = type(index)
    if tp is int:
        return True
    if tp is _slice:
        st = index.step
        return ((st is None or (type(st) is int and st > 0)) and type(index.start) in _BOUND
                and type(index.stop) in _BOUND)
    if tp is tuple:
        ell = False
        for v in index:
            tv = type(v)
            if tv is int or v is None:
                continue
            if tv is _slice:
                st = v.step
                if not ((st is None or (type(st) is int and st > 0)) and type(v.start) in _BOUND
                        and type(v.stop) in _BOUND):
                    return False
            elif v is Ellipsis and not ell:
                ell = True
            else:
                return False
        return True
    return False


_BOUND = (int, type(None))


def _out_of_range(e):
    """torch's IndexError (an index past the end, too many indices, a mask of the wrong shape) as Paddle's, whose
    slice checks raise IndexError "(OutOfRange) ..." for the same indices."""
    return IndexError(f"(OutOfRange) {e}")


def getitem(x, index):
    """`x[index]` with Paddle's semantics."""
    t = x._t
    if _basic(index):  # hot path: torch's indexing is Paddle's here
        try:
            r = t[index]
        except IndexError as e:
            raise _out_of_range(e) from None
    else:
        items, negs = _convert(index, t)
        if negs:
            t, items = _resolve_negative_steps(t, items, negs)
        try:
            r = t[tuple(items)]
        except IndexError as e:
            if "too many indices" not in str(e):
                raise _out_of_range(e) from None
            raise ValueError(f"(InvalidArgument) Too many indices for a tensor of dimension {t.dim()}.") from None
    obj = _normalize._new(_normalize.Tensor)
    obj._t = r
    return obj


_SCALARS = (bool, int, float, complex)


def _value(value, t):
    if isinstance(value, _normalize.Tensor):
        v = value._t
    elif isinstance(value, _SCALARS):
        return value
    elif isinstance(value, np.ndarray):
        v = torch.from_numpy(value)
    elif isinstance(value, torch.Tensor):
        v = value
    else:
        raise ValueError("(InvalidArgument) Value type error. The assign value allows Tensor, numpy.ndarray, "
                         f"integer, float, complex or bool, but received {type(value).__name__}.")
    if v.dtype != t.dtype or v.device != t.device:
        v = v.to(device=t.device, dtype=t.dtype)
    return v


def _check_leaf(x, t):
    if t.requires_grad and t.is_leaf and torch.is_grad_enabled():
        raise ValueError(f"(InvalidArgument) Leaf Tensor ({x.name}) that doesn't stop gradient can't use "
                         "inplace strategy.")


def setitem(x, index, value):
    """`x[index] = value` with Paddle's semantics (in place; the value is cast to x's dtype)."""
    t = x._t
    v = _value(value, t)
    _check_leaf(x, t)
    if _basic(index):
        items, negs = index, None
    else:
        items, negs = _convert(index, t)
    try:
        if negs:
            # write at the flat positions the index selects (put_ treats t as 1-D in row-major order)
            pos = torch.arange(t.numel(), device=t.device).view(t.shape)
            pos, pitems = _resolve_negative_steps(pos, items, negs)
            pos = pos[pitems]
            if not isinstance(v, torch.Tensor):
                v = torch.tensor(v, dtype=t.dtype, device=t.device)
            while v.dim() > pos.dim() and v.shape[0] == 1:
                v = v[0]
            t.put_(pos, v.broadcast_to(pos.shape))
        else:
            t[items if type(items) is not list else tuple(items)] = v
    except IndexError as e:
        raise _out_of_range(e) from None
    except RuntimeError as e:
        msg = str(e)
        if "shape" in msg or "size" in msg or "broadcast" in msg:
            raise ValueError(f"(InvalidArgument) The shape of tensor assigned value must match the shape of "
                             f"target shape: {msg}") from None
        raise

