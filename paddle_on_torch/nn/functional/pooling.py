"""paddle.nn.functional: pooling (Paddle's padding forms, exclusive averages, int32 masks, layouts)."""
import torch
import torch.nn.functional as TF

from ..._normalize import TensorLike, ValuesLike, op
from . import _layout as L

__all__ = ["adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool1d",
           "adaptive_max_pool2d", "adaptive_max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d",
           "fractional_max_pool2d", "fractional_max_pool3d", "lp_pool1d",
           "lp_pool2d", "max_pool1d", "max_pool2d", "max_pool3d", "max_unpool1d", "max_unpool2d", "max_unpool3d"]

_MAX = {1: TF.max_pool1d, 2: TF.max_pool2d, 3: TF.max_pool3d}
_AVG = {1: TF.avg_pool1d, 2: TF.avg_pool2d, 3: TF.avg_pool3d}
_UNPOOL = {1: TF.max_unpool1d, 2: TF.max_unpool2d, 3: TF.max_unpool3d}
_AMAX = {1: TF.adaptive_max_pool1d, 2: TF.adaptive_max_pool2d, 3: TF.adaptive_max_pool3d}
_AAVG = {1: TF.adaptive_avg_pool1d, 2: TF.adaptive_avg_pool2d, 3: TF.adaptive_avg_pool3d}
_NAMES = {1: "pool1d", 2: "pool2d", 3: "pool3d"}


def _prepare(n, x, kernel_size, stride, padding, data_format, api):
    last = L.channel_last(data_format, n)
    if x.dim() != n + 2:
        if n == 1:  # Paddle's Python check (its 2-D / 3-D pools reach the C++ one)
            raise ValueError(f"Excepted Input X is 3-D tensor, but received {x.dim()}-D Tensor in {api}")
        raise ValueError(f"(InvalidArgument) The x should be a {n + 2}-D Tensor in {api}, but received x with shape "
                         f"{list(x.shape)}")
    k = L.ntuple(kernel_size, n, "pool_size")
    s = k if stride is None else L.ntuple(stride, n, "pool_stride")
    xt = L.to_channel_first(x, last)
    pairs = L.resolve_padding(xt, padding, n, k, s, [1] * n, last)
    return last, xt, k, s, pairs


_TORCH_MAX = {1: torch.max_pool1d, 2: torch.max_pool2d, 3: torch.max_pool3d}  # (TF's are Python around them)


def _max_pool(n, x, kernel_size, stride, padding, return_mask, ceil_mode, data_format, api):
    if (type(kernel_size) is int and (stride is None or type(stride) is int and stride > 0)
            and type(padding) is int and 0 <= 2 * padding <= kernel_size > 0 and not return_mask and x.dim() == n + 2
            and data_format == L._LAYOUTS[n][0]):
        # MaxPool2D(k, s, p) on channel-first input, as most models write it: torch's op as it is
        return _TORCH_MAX[n](x, kernel_size, kernel_size if stride is None else stride, padding, 1, ceil_mode)
    last, xt, k, s, pairs = _prepare(n, x, kernel_size, stride, padding, data_format, api)
    if L.symmetric(pairs) and all(a * 2 <= kk for (a, _), kk in zip(pairs, k)):
        r = _MAX[n](xt, k, s, [a for a, _ in pairs], 1, ceil_mode, return_mask)
    else:
        xp = TF.pad(xt, L.torch_pad_arg(pairs), value=float("-inf"))
        r = _MAX[n](xp, k, s, 0, 1, ceil_mode, return_mask)
        if return_mask:  # indices into the padded input -> indices into x
            out, idx = r
            sizes, psizes = list(xt.shape[2:]), list(xp.shape[2:])
            flat, coords = idx, []
            for ps in reversed(psizes):
                coords.append(flat % ps)
                flat = flat // ps
            coords.reverse()
            new = torch.zeros_like(idx)
            for c, (a, _), sz in zip(coords, pairs, sizes):
                new = new * sz + (c - a)
            r = (out, new)
    if return_mask:
        out, idx = r
        return L.from_channel_first(out, last), L.from_channel_first(idx.to(torch.int32), last)
    return L.from_channel_first(r, last)


def _avg_pool(n, x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override, data_format, api):
    if (type(kernel_size) is int and (stride is None or type(stride) is int and stride > 0)
            and type(padding) is int and 0 <= 2 * padding <= kernel_size > 0 and divisor_override is None
            and x.dim() == n + 2 and data_format == L._LAYOUTS[n][0]):
        # AvgPool2D(k, s, p) on channel-first input: torch's op as it is (count_include_pad = not exclusive)
        return _AVG[n](x, kernel_size, kernel_size if stride is None else stride, padding, ceil_mode, not exclusive)
    last, xt, k, s, pairs = _prepare(n, x, kernel_size, stride, padding, data_format, api)
    if divisor_override is not None or not exclusive:
        # non-exclusive: Paddle divides by the window clipped to the padded input, as torch's count_include_pad
        div = () if divisor_override is None else (int(divisor_override),)
        if n == 1 and div:  # torch's avg_pool1d has no divisor_override
            out = _AVG[1](TF.pad(xt, L.torch_pad_arg(pairs)), k, s, 0, ceil_mode, True, ) * (k[0] / div[0])
        elif L.symmetric(pairs) and all(a * 2 <= kk for (a, _), kk in zip(pairs, k)):
            out = _AVG[n](xt, k, s, [a for a, _ in pairs], ceil_mode, True, *div)
        else:
            out = _AVG[n](TF.pad(xt, L.torch_pad_arg(pairs)), k, s, 0, ceil_mode, True, *div)
    elif L.symmetric(pairs) and all(a * 2 <= kk for (a, _), kk in zip(pairs, k)):
        out = _AVG[n](xt, k, s, [a for a, _ in pairs], ceil_mode, False)
    else:  # exclusive: divide window sums by the number of real (unpadded) elements
        pad = L.torch_pad_arg(pairs)
        ones = TF.pad(torch.ones((1, 1) + tuple(xt.shape[2:]), dtype=xt.dtype, device=xt.device), pad)
        total = _AVG[n](TF.pad(xt, pad), k, s, 0, ceil_mode, True)
        count = _AVG[n](ones, k, s, 0, ceil_mode, True)
        out = total / count
    return L.from_channel_first(out, last)


@op
def max_pool1d(x: TensorLike, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, name=None):
    return _max_pool(1, x, kernel_size, stride, padding, return_mask, ceil_mode, "NCL", "max_pool1d")


@op
def max_pool2d(x: TensorLike, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               data_format="NCHW", name=None):
    return _max_pool(2, x, kernel_size, stride, padding, return_mask, ceil_mode, data_format, "max_pool2d")


@op
def max_pool3d(x: TensorLike, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               data_format="NCDHW", name=None):
    return _max_pool(3, x, kernel_size, stride, padding, return_mask, ceil_mode, data_format, "max_pool3d")


@op
def avg_pool1d(x: TensorLike, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False, name=None):
    return _avg_pool(1, x, kernel_size, stride, padding, ceil_mode, exclusive, None, "NCL", "avg_pool1d")


@op
def avg_pool2d(x: TensorLike, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
               divisor_override=None, data_format="NCHW", name=None):
    return _avg_pool(2, x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override, data_format,
                     "avg_pool2d")


@op
def avg_pool3d(x: TensorLike, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
               divisor_override=None, data_format="NCDHW", name=None):
    return _avg_pool(3, x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override, data_format,
                     "avg_pool3d")


def _lp_pool(n, x, norm_type, kernel_size, stride, padding, ceil_mode, data_format, api):
    p = float(norm_type)
    if p == float("inf"):
        return _max_pool(n, x, kernel_size, stride, padding, False, ceil_mode, data_format, api)
    k = L.ntuple(kernel_size, n, "pool_size")
    s = _avg_pool(n, x.pow(p), kernel_size, stride, padding, ceil_mode, False, None, data_format, api)
    return (torch.sign(s) * TF.relu(s.abs())).mul(L.prod(k)).pow(1.0 / p)


@op
def lp_pool1d(x: TensorLike, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False, data_format="NCL",
              name=None):
    return _lp_pool(1, x, norm_type, kernel_size, stride, padding, ceil_mode, data_format, "lp_pool1d")


@op
def lp_pool2d(x: TensorLike, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False, data_format="NCHW",
              name=None):
    return _lp_pool(2, x, norm_type, kernel_size, stride, padding, ceil_mode, data_format, "lp_pool2d")


# ---------------------------------------------------------------- adaptive
def _out_size(n, output_size, xt):
    if type(output_size) is int:
        return [output_size] * n
    if isinstance(output_size, (list, tuple)):
        if len(output_size) != n:
            raise ValueError(f"output_size must be an int or a list/tuple of {n} ints, got {output_size}")
        return [xt.shape[2 + i] if v is None else int(v)
                for i, v in enumerate(output_size)]
    return [int(output_size)] * n


def _adaptive(n, x, output_size, data_format, return_mask, is_max, api):
    if not is_max and type(output_size) is int and x.dim() == n + 2 and data_format == L._LAYOUTS[n][0]:
        return _AAVG[n](x, output_size)  # the global pooling of most classifiers
    last = L.channel_last(data_format, n)
    if x.dim() != n + 2:
        raise ValueError(f"Excepted Input X is {n + 2}-D tensor, but received {x.dim()}-D Tensor in {api}")
    xt = L.to_channel_first(x, last)
    size = _out_size(n, output_size, xt)
    if not is_max:
        return L.from_channel_first(_AAVG[n](xt, size), last)
    r = _AMAX[n](xt, size, return_mask)
    if return_mask:
        return L.from_channel_first(r[0], last), L.from_channel_first(r[1].to(torch.int32), last)
    return L.from_channel_first(r, last)


@op
def adaptive_avg_pool1d(x: TensorLike, output_size: ValuesLike, name=None):
    return _adaptive(1, x, output_size, "NCL", False, False, "adaptive_avg_pool1d")


@op
def adaptive_avg_pool2d(x: TensorLike, output_size: ValuesLike, data_format="NCHW", name=None):
    return _adaptive(2, x, output_size, data_format, False, False, "adaptive_avg_pool2d")


@op
def adaptive_avg_pool3d(x: TensorLike, output_size: ValuesLike, data_format="NCDHW", name=None):
    return _adaptive(3, x, output_size, data_format, False, False, "adaptive_avg_pool3d")


@op
def adaptive_max_pool1d(x: TensorLike, output_size: ValuesLike, return_mask=False, name=None):
    return _adaptive(1, x, output_size, "NCL", return_mask, True, "adaptive_max_pool1d")


@op
def adaptive_max_pool2d(x: TensorLike, output_size: ValuesLike, return_mask=False, name=None):
    return _adaptive(2, x, output_size, "NCHW", return_mask, True, "adaptive_max_pool2d")


@op
def adaptive_max_pool3d(x: TensorLike, output_size: ValuesLike, return_mask=False, name=None):
    return _adaptive(3, x, output_size, "NCDHW", return_mask, True, "adaptive_max_pool3d")


# ---------------------------------------------------------------- unpool
def _unpool(n, x, indices, kernel_size, stride, padding, data_format, output_size, api):
    if L.channel_last(data_format, n):
        raise ValueError(f"The data_format of {api} only supports channel-first layouts.")
    k = L.ntuple(kernel_size, n, "pool_size")
    s = k if stride is None else L.ntuple(stride, n, "pool_stride")
    _, pairs = L.padding_pairs(padding, n)
    p = [a for a, _ in pairs]
    default = [(i - 1) * st - 2 * pp + kk for i, st, pp, kk in zip(x.shape[2:], s, p, k)]
    if output_size is None:
        size = default
    else:
        size = [int(v) for v in output_size][-n:]
        for o, dflt, st in zip(size, default, s):
            if not dflt - st < o < dflt + st:
                raise ValueError(f"invalid output_size {size}: it must be between {default} +/- stride {s}")
    return _UNPOOL[n](x, indices.long(), k, s, p, size)


@op
def max_unpool1d(x: TensorLike, indices: TensorLike, kernel_size, stride=None, padding=0, data_format="NCL",
                 output_size: ValuesLike = None, name=None):
    return _unpool(1, x, indices, kernel_size, stride, padding, data_format, output_size, "max_unpool1d")


@op
def max_unpool2d(x: TensorLike, indices: TensorLike, kernel_size, stride=None, padding=0, data_format="NCHW",
                 output_size: ValuesLike = None, name=None):
    return _unpool(2, x, indices, kernel_size, stride, padding, data_format, output_size, "max_unpool2d")


@op
def max_unpool3d(x: TensorLike, indices: TensorLike, kernel_size, stride=None, padding=0, data_format="NCDHW",
                 output_size: ValuesLike = None, name=None):
    return _unpool(3, x, indices, kernel_size, stride, padding, data_format, output_size, "max_unpool3d")


def _fractional_windows(n_in, n_out, k, u):
    """(start, end) of each output's window along one dim, as Paddle 3.3.1's CPU kernel picks them.

    Settled by probing Paddle with explicit random_u (the documented formula alone does not reproduce it):
    without kernel_size (k == 0): alpha = in/out and u is rescaled to
    u' = u * min((in//out + 2)/alpha - 1, (in + 1 - in//out)/alpha - (out - 1)); with kernel_size:
    alpha = (in - k)/(out - 1) and u' = u.  b(i) = ceil(alpha*(i + u') - 1) - b0 with b0 the same at i = 0,
    so the first window starts at 0.  Windows are [b(i), b(i+1)) (clipped; the last ends at in) without
    kernel_size and [b(i), b(i) + k) with it.  alpha, u' and i + u' are float32, the product is taken in
    float64; this matched 2962 of 3000 random 1-D probes, the rest differ by one at exact-integer ties.
    """
    f = torch.float32
    u = torch.tensor(u, dtype=f)
    if k > 0:
        if n_out == 1:  # alpha is infinite; Paddle's single window starts at 0
            return [(0, min(k, n_in))]
        alpha = torch.tensor(n_in - k, dtype=f) / torch.tensor(n_out - 1, dtype=f)
    else:
        alpha = torch.tensor(n_in, dtype=f) / torch.tensor(n_out, dtype=f)
        base = n_in // n_out
        max_u = torch.minimum(torch.tensor(base + 2, dtype=f) / alpha - 1,
                              torch.tensor(n_in + 1 - base, dtype=f) / alpha - torch.tensor(n_out - 1, dtype=f))
        u = u * max_u
    t = torch.arange(n_out + 1, dtype=f) + u
    b = torch.ceil(alpha.double() * t.double() - 1).to(torch.int64)
    b = (b - b[0]).tolist()
    if k > 0:
        return [(max(s, 0), min(s + k, n_in)) for s in b[:n_out]]
    w = [(max(b[j], 0), min(b[j + 1], n_in)) for j in range(n_out)]
    w[-1] = (w[-1][0], n_in)
    return w


def _fractional_max_pool(n, x, output_size, kernel_size, random_u, return_mask):
    if x.dim() != n + 2:
        raise ValueError(f"Excepted Input X is {n + 2}-D tensor, but received {x.dim()}-D Tensor")
    if random_u is None:
        # Paddle draws u in its C++ kernel from its own generator; we draw it from torch's default generator.
        u = float(torch.rand(()).item())
    else:
        if random_u <= 0 or random_u >= 1:
            raise ValueError("The param `random_u` should be a `float` in (0, 1).")
        u = float(random_u)
    ks = [0] * n if kernel_size is None else L.ntuple(kernel_size, n, "kernel_size")
    ins = list(x.shape[2:])
    outs = _out_size(n, output_size, x)
    lead = list(x.shape[:2])
    g = x
    for d in range(n):  # gather each dim into [out, L] windows (padded by repeating the last index)
        win = _fractional_windows(ins[d], outs[d], ks[d], u)
        width = max([e - s for s, e in win] + [1])
        idx = torch.tensor([[min(s + j, max(e - 1, s)) for j in range(width)] for s, e in win],
                           dtype=torch.int64, device=x.device)
        ax = 2 + 2 * d
        g = g.index_select(ax, idx.reshape(-1))
        g = g.reshape(list(g.shape[:ax]) + [outs[d], width] + list(g.shape[ax + 1:]))
        pos = idx if d == 0 else pos[..., None, None] * ins[d] + idx  # flat index per plane: [o1, L1, ..., od, Ld]
    # g: [N, C, o1, L1, o2, L2, ...] -> [N, C, o1, o2, ..., L1*L2*...]
    perm = [0, 1] + [2 + 2 * d for d in range(n)] + [3 + 2 * d for d in range(n)]
    g = g.permute(perm).reshape(lead + outs + [-1])
    pperm = [2 * d for d in range(n)] + [2 * d + 1 for d in range(n)]
    pos = pos.permute(pperm).reshape(outs + [-1])
    out, arg = g.max(dim=-1)
    if not return_mask:
        return out
    mask = torch.gather(pos.expand(lead + list(pos.shape)), -1, arg.unsqueeze(-1)).squeeze(-1)
    return out, mask.to(torch.int32)


@op
def fractional_max_pool2d(x: TensorLike, output_size: ValuesLike, kernel_size=None, random_u=None, return_mask=False,
                          name=None):
    return _fractional_max_pool(2, x, output_size, kernel_size, random_u, return_mask)


@op
def fractional_max_pool3d(x: TensorLike, output_size: ValuesLike, kernel_size=None, random_u=None, return_mask=False,
                          name=None):
    return _fractional_max_pool(3, x, output_size, kernel_size, random_u, return_mask)
