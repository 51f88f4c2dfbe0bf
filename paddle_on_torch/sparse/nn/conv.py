"""Sparse convolution and max pooling on COO point sets (Paddle's sparse_conv3d / sparse_maxpool).

A rulebook pairs (kernel offset, input row, output row); the convolution is one gather-GEMM per
kernel offset and a single index_add into the output rows, so autograd gives the value and weight
gradients.  The rulebook is built with tensor ops only: the linear index of every candidate output
site, then torch.unique (regular conv: every site some input reaches) or searchsorted into the
input's own sites (submanifold conv).  Output rows come in ascending linear-index order
(batch, spatial...), which is the order Paddle's CPU kernel emits for both kinds.
"""
import torch

from ... import _normalize
from ...nn.functional._layout import padding_pairs
from ...tensor import sparse_layout as U
from ..._report import unsupported


def _ints(v, n, what):
    if isinstance(v, int):
        return [v] * n
    v = [int(a) for a in v]
    if len(v) == 1:
        return v * n
    if len(v) != n:
        raise ValueError(f"The {what}'s length must be {n}, but received {v}.")
    return v


def _paddings(padding, n, api):
    # Paddle's sparse kernels take one pad per dim; 'SAME'/'VALID' both reach them as zeros
    _, pairs = padding_pairs(padding, n, last=True)
    if any(a != b for a, b in pairs):
        raise unsupported(api, " with asymmetric padding")
    return [a for a, _ in pairs]


def _coo_input(x, n, api):
    t = getattr(x, "_t", None)
    if t is None or t.layout is not U.COO:  # Paddle's own errors: no conv kernel for other layouts (every sparse
        # conv runs conv3d's), and max_pool3d's check (which names relu)
        if api == "max_pool3d":
            raise AssertionError("Currently, sparse.relu only support the input of SparseCooTensor")
        raise NotImplementedError("(Unimplemented) The kernel of (conv3d) for input tensors is unimplemented, "
                                  "please check the type of input tensors.")
    if t.dim() != n + 2:
        raise ValueError(f"Input x should be {n + 2}D tensor, but received x with the shape of {list(t.shape)}")
    if t.sparse_dim() != n + 1 or t.dense_dim() != 1:
        raise ValueError(f"{api} expects a SparseCooTensor with {n + 1} sparse dims and the channels as its "
                         f"one dense dim, got sparse_dim={t.sparse_dim()}")
    # duplicates are summed first (Paddle's subm kernel does the same)
    t = t.coalesce()
    return t, t._indices(), t.values()


def _linear(batch, coords, sizes):
    key = batch.clone()
    for i, s in enumerate(sizes):
        key = key * s + coords[..., i]
    return key


def rulebook(indices, spatial, kernel, padding, stride, dilation, subm, api):
    """(kernel offset, input row, output row) triples, the output's indices and spatial sizes.

    `indices` are a coalesced tensor's [1 + n, nnz] indices (batch first).
    """
    n = len(spatial)
    dev = indices.device
    if subm:  # Paddle resets a submanifold conv to a centred kernel with stride 1
        padding = [k // 2 for k in kernel]
        stride = [1] * n
    out_sp = [(i + 2 * p - d * (k - 1) - 1) // s + 1
              for i, p, d, k, s in zip(spatial, padding, dilation, kernel, stride)]
    if subm and out_sp != list(spatial):
        # Paddle's kernel then decodes the input's linear sites in the output's shape (scrambled indices)
        raise unsupported(api, " with an even kernel size or dilation > 1: the output's spatial shape changes, "
                               "which Paddle's submanifold kernel mishandles")
    if any(o <= 0 for o in out_sp):
        raise ValueError(f"the output size of the sparse convolution/pooling must be positive, got {out_sp}")
    offs = torch.cartesian_prod(*[torch.arange(k, device=dev) for k in kernel]).reshape(-1, n)
    pts = indices[1:].t()                                                  # [nnz, n]
    num = pts[:, None, :] + torch.tensor(padding, device=dev) - offs[None] * torch.tensor(dilation, device=dev)
    ok = (num >= 0).all(-1)
    out = num
    if any(s != 1 for s in stride):  # skipped for subm and stride-1 convs: these ops dominate small inputs
        st = torch.tensor(stride, device=dev)
        ok &= ((num % st) == 0).all(-1)
        out = torch.div(num, st, rounding_mode="floor")
    ok &= (out < torch.tensor(out_sp, device=dev)).all(-1)
    batch = indices[0][:, None].expand_as(ok)
    key = _linear(batch, out, out_sp)                                      # [nnz, kvol]
    in_row = torch.arange(pts.shape[0], device=dev)[:, None].expand_as(ok)
    k_id = torch.arange(offs.shape[0], device=dev)[None].expand_as(ok)
    key, in_row, k_id = key[ok], in_row[ok], k_id[ok]
    if subm:
        sites = _linear(indices[0], pts, out_sp)                           # ascending: coalesced input
        pos = torch.searchsorted(sites, key).clamp_max(max(sites.numel() - 1, 0))
        hit = sites[pos] == key if sites.numel() else torch.zeros_like(key, dtype=torch.bool)
        k_id, in_row, out_row = k_id[hit], in_row[hit], pos[hit]
        out_idx = indices
    else:
        uniq, out_row = torch.unique(key, sorted=True, return_inverse=True)
        rest, coords = uniq, []
        for s in reversed(out_sp):
            coords.append(rest % s)
            rest = torch.div(rest, s, rounding_mode="floor")
        out_idx = torch.stack([rest] + coords[::-1]).to(indices.dtype)
    return (k_id, in_row, out_row), out_idx, out_sp


def _result(out_idx, values, shape, coalesced=True):
    return _normalize.wrap(U.coo(out_idx, values, shape, coalesced=coalesced))


def sparse_conv(x, weight, bias, stride, padding, dilation, groups, subm, key, data_format, n, api):
    fmt = "NDHWC" if n == 3 else "NHWC"
    if groups != 1:
        raise AssertionError("Currently, only support groups=1")
    if data_format != fmt:
        raise ValueError(f"Attr(data_format) should be '{fmt}'. Received Attr(data_format): {data_format}.")
    t, idx, vals = _coo_input(x, n, api)
    w = weight._t
    if w.dim() != n + 2:
        raise ValueError(f"{api}: the weight must be {n + 2}-D [{'kd, ' if n == 3 else ''}kh, kw, in, out], "
                         f"got shape {list(w.shape)}")
    kernel, cin, cout = list(w.shape[:n]), w.shape[n], w.shape[n + 1]
    if cin != t.shape[-1]:
        raise ValueError(f"{api}: the input has {t.shape[-1]} channels but the weight expects {cin}")
    (k_id, in_row, out_row), out_idx, out_sp = rulebook(
        idx, list(t.shape[1:-1]), kernel, _paddings(padding, n, f"paddle.sparse.nn.functional.{api}"),
        _ints(stride, n, "stride"), _ints(dilation, n, "dilation"), subm, f"paddle.sparse.nn.functional.{api}")
    wk = w.reshape(-1, cin, cout)
    order = torch.argsort(k_id, stable=True)
    k_id, in_row, out_row = k_id[order], in_row[order], out_row[order]
    counts = torch.bincount(k_id, minlength=wk.shape[0]).tolist()
    parts = [vals[rows] @ wk[k] for k, rows in enumerate(torch.split(in_row, counts)) if rows.numel()]
    out = torch.zeros(out_idx.shape[1], cout, dtype=vals.dtype, device=vals.device)
    if parts:
        out = out.index_add(0, out_row, torch.cat(parts))
    if bias is not None:  # Paddle adds the bias with sparse add, whose result is not flagged coalesced
        out = out + bias._t
    return _result(out_idx, out, [t.shape[0], *out_sp, cout], coalesced=bias is None)


def max_pool(x, kernel_size, stride, padding, ceil_mode, data_format, n=3, api="max_pool3d"):
    # ceil_mode never reaches Paddle's sparse_maxpool kernel: the output size is always floored
    if data_format != "NDHWC":
        raise ValueError("Currently, sparse.max_pool3d only support data format of 'NDHWC'")
    t, idx, vals = _coo_input(x, n, api)
    kernel = _ints(kernel_size, n, "pool_size")
    stride = kernel if stride is None else _ints(stride, n, "pool_stride")
    name = f"paddle.sparse.nn.functional.{api}"
    (_, in_row, out_row), out_idx, out_sp = rulebook(idx, list(t.shape[1:-1]), kernel, _paddings(padding, n, name),
                                                     stride, [1] * n, False, name)
    c = vals.shape[-1]
    out = torch.zeros(out_idx.shape[1], c, dtype=vals.dtype, device=vals.device)
    out = out.scatter_reduce(0, out_row[:, None].expand(-1, c), vals[in_row], "amax", include_self=False)
    return _result(out_idx, out, [t.shape[0], *out_sp, c])
