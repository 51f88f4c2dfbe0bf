"""Paddle's size / padding / data_format conventions for conv, pool and pad, turned into torch's.

Shared by nn.functional.{conv,pooling,common,vision,norm} and their layers.
"""
import math

import torch

from ..._normalize import is_tensor

_LAYOUTS = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}


def ntuple(v, n, name="size"):
    """An int or a list/tuple of n ints -> list of n ints (Paddle's convert_to_list)."""
    if is_tensor(v):
        v = v._t.tolist()
    if isinstance(v, (list, tuple)):
        if len(v) == 1 and n != 1:
            v = list(v) * n
        if len(v) != n:
            raise ValueError(f"The {name}'s length must be {n}. Received: {name}={list(v)}")
        out = []
        for e in v:
            if is_tensor(e):
                e = e._t.item()
            if not isinstance(e, int) and not (isinstance(e, float) and e.is_integer()):
                raise TypeError(f"The {name}'s type must be a list or tuple of {n} integers. Received: {v}")
            out.append(int(e))
        return out
    if isinstance(v, float) and not v.is_integer():
        raise TypeError(f"The {name}'s type must be an integer. Received: {name}={v}")
    return [int(v)] * n


def channel_last(data_format, n):
    """True for NLC/NHWC/NDHWC; ValueError for a format that is neither layout of n spatial dims."""
    cf, cl = _LAYOUTS[n]
    if data_format == cf:
        return False
    if data_format == cl:
        return True
    raise ValueError(f"Attr(data_format) should be '{cf}' or '{cl}'. Received Attr(data_format): {data_format}.")


def to_channel_first(x, last):
    return x.movedim(-1, 1) if last else x


def from_channel_first(x, last):
    return x.movedim(1, -1) if last else x


def check_ndim(x, n, api):
    if x.dim() != n + 2:
        raise ValueError(f"The input of {api} should be a {n + 2}-D Tensor, but received a {x.dim()}-D Tensor "
                         f"with shape {list(x.shape)}.")


def padding_pairs(padding, n, last=False):
    """Paddle's conv/pool padding -> ('SAME' | None, [(before, after)] * n).

    Accepts an int, n ints, 2n ints [d1_before, d1_after, ...], n+2 pairs (batch and channel pairs
    must be zero) or the strings 'SAME' / 'VALID' (any case).
    """
    if isinstance(padding, str):
        p = padding.upper()
        if p not in ("SAME", "VALID"):
            raise ValueError(f"Unknown padding: '{padding}'. It can only be 'SAME' or 'VALID'.")
        return (p if p == "SAME" else None), [(0, 0)] * n
    if is_tensor(padding):
        padding = padding._t.tolist()
    if isinstance(padding, (list, tuple)):
        padding = list(padding)
        if len(padding) == n + 2 and isinstance(padding[0], (list, tuple)):
            outer = [padding[0], padding[-1]] if last else padding[:2]
            if any(int(a) != 0 or int(b) != 0 for a, b in outer):
                raise ValueError(f"Non-zero padding({padding}) in the batch or channel dimensions is not supported.")
            spatial = padding[1:-1] if last else padding[2:]
            pairs = [(int(a), int(b)) for a, b in spatial]
        elif len(padding) == 2 * n and not isinstance(padding[0], (list, tuple)):
            pairs = [(int(padding[2 * i]), int(padding[2 * i + 1])) for i in range(n)]
        elif len(padding) == n and not isinstance(padding[0], (list, tuple)):
            pairs = [(int(p), int(p)) for p in padding]
        elif len(padding) == 1 and not isinstance(padding[0], (list, tuple)):
            pairs = [(int(padding[0]), int(padding[0]))] * n
        else:
            raise ValueError(f"In valid padding: {padding}")
    else:
        pairs = [(int(padding), int(padding))] * n
    if any(a < 0 or b < 0 for a, b in pairs):
        flat = [v for pr in pairs for v in pr]
        raise ValueError(f"Invalid padding, all value should be larger than or equal to 0, but received: {flat}")
    return None, pairs


def same_pairs(sizes, kernel, stride, dilation):
    """Paddle's 'SAME': out = ceil(in / stride), the total pad split with the extra on the after side."""
    pairs = []
    for i, k, s, d in zip(sizes, kernel, stride, dilation):
        out = (i + s - 1) // s
        total = max((out - 1) * s + (k - 1) * d + 1 - i, 0)
        pairs.append((total // 2, total - total // 2))
    return pairs


def symmetric(pairs):
    return all(a == b for a, b in pairs)


def torch_pad_arg(pairs):
    """[(before, after)] per spatial dim (first dim first) -> torch F.pad's last-dim-first list."""
    out = []
    for a, b in reversed(pairs):
        out += [a, b]
    return out


def resolve_padding(x, padding, n, kernel, stride, dilation, last=False):
    """Padding pairs for a channel-first input x (the 'SAME' case needs its spatial sizes)."""
    mode, pairs = padding_pairs(padding, n, last)
    if mode == "SAME":
        pairs = same_pairs(list(x.shape[2:]), kernel, stride, dilation)
    return pairs


def fmt_list(v):
    return list(v) if isinstance(v, tuple) else v


def out_size_ceil(i, k, s, pb, pa, ceil):
    num = i + pb + pa - k
    return (num + (s - 1 if ceil else 0)) // s + 1 if num >= 0 or ceil else num // s + 1


def prod(v):
    return math.prod(v)


def empty_like_float(x):
    return torch.empty(0, dtype=x.dtype, device=x.device)
