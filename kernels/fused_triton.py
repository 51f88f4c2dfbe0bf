"""Triton kernels for paddle_on_torch.kernels.fused (the CUDA backend).

One program per row (norms), per position (rotary: all its heads) or per row block (swiglu); all arithmetic in fp32.  These run on
CPU tensors only under TRITON_INTERPRET=1 (set before this module is imported), which the tests use.
"""
import torch
import triton
import triton.language as tl


def _block(n):
    return max(16, triton.next_power_of_2(n))


def _warps(block):
    """Warps for a program that holds `block` elements in registers: more warps for wider rows, so that each
    thread keeps at most ~64 of them (4096 fp32 per row on 4 warps spills on a Hopper SM)."""
    return 32 if block >= 32768 else 16 if block >= 8192 else 8 if block >= 2048 else 4


@triton.jit
def _norm_fwd_kernel(X, R, B, W, NB, OUT, ROUT, MEAN, RSTD, N, eps, alpha,
                     HAS_RES: tl.constexpr, HAS_B: tl.constexpr, HAS_W: tl.constexpr, HAS_NB: tl.constexpr,
                     RMS: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    at = row.to(tl.int64) * N  # rows x N can pass 2**31 elements
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    s = tl.load(X + at + cols, mask=mask, other=0.0).to(tl.float32)
    if HAS_RES:
        s = s + alpha * tl.load(R + at + cols, mask=mask, other=0.0).to(tl.float32)
        if HAS_B:
            s = s + tl.load(B + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(ROUT + at + cols, s.to(ROUT.dtype.element_ty), mask=mask)
    if RMS:
        mean = 0.0
        d = s
    else:
        mean = tl.sum(s, axis=0) / N
        d = tl.where(mask, s - mean, 0.0)
        tl.store(MEAN + row, mean)
    rstd = 1.0 / tl.sqrt(tl.sum(d * d, axis=0) / N + eps)
    tl.store(RSTD + row, rstd)
    y = d * rstd
    if HAS_W:
        y = y * tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    if HAS_NB:
        y = y + tl.load(NB + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(OUT + at + cols, y.to(OUT.dtype.element_ty), mask=mask)


def norm_fwd(x, residual, bias, weight, norm_bias, eps, alpha, rms):
    x = x.contiguous()
    m, n = x.shape
    out = torch.empty_like(x)
    has_res = residual is not None
    rout = torch.empty_like(x) if has_res else x.new_empty(0)
    mean = x.new_empty(0 if rms else m, dtype=torch.float32)
    rstd = x.new_empty(m, dtype=torch.float32)
    dummy = rstd
    if m:
        _norm_fwd_kernel[(m,)](x, residual.contiguous() if has_res else dummy,
                               bias if (has_res and bias is not None) else dummy,
                               weight if weight is not None else dummy, norm_bias if norm_bias is not None else dummy,
                               out, rout if has_res else dummy, mean if not rms else dummy, rstd, n, eps, alpha,
                               HAS_RES=has_res, HAS_B=bias is not None, HAS_W=weight is not None,
                               HAS_NB=norm_bias is not None, RMS=rms, BLOCK=_block(n), num_warps=_warps(_block(n)))
    return out, rout, mean, rstd


@triton.jit
def _norm_bwd_kernel(DY, S, MEAN, RSTD, W, DS, DW, DB, M, N, ROWS_PER_PROG,
                     HAS_W: tl.constexpr, RMS: tl.constexpr, WANT_DW: tl.constexpr, WANT_DB: tl.constexpr,
                     BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    if HAS_W:
        w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    dw = tl.zeros([BLOCK], dtype=tl.float32)
    db = tl.zeros([BLOCK], dtype=tl.float32)
    r0 = pid * ROWS_PER_PROG
    for i in range(0, ROWS_PER_PROG):
        row = r0 + i
        if row < M:
            at = row.to(tl.int64) * N
            dy = tl.load(DY + at + cols, mask=mask, other=0.0).to(tl.float32)
            s = tl.load(S + at + cols, mask=mask, other=0.0).to(tl.float32)
            rstd = tl.load(RSTD + row)
            if RMS:
                xh = s * rstd
            else:
                xh = tl.where(mask, (s - tl.load(MEAN + row)) * rstd, 0.0)
            g = dy * w if HAS_W else dy
            ds = g - xh * (tl.sum(g * xh, axis=0) / N)
            if not RMS:
                ds = ds - tl.sum(g, axis=0) / N
            tl.store(DS + at + cols, (ds * rstd).to(DS.dtype.element_ty), mask=mask)
            dw += dy * xh
            db += dy
    if WANT_DW:
        tl.store(DW + pid * N + cols, dw, mask=mask)
    if WANT_DB:
        tl.store(DB + pid * N + cols, db, mask=mask)


def norm_bwd(dy, s, mean, rstd, weight, rms, want_dw, want_db):
    dy, s = dy.contiguous(), s.contiguous()
    m, n = s.shape
    ds = torch.empty_like(s)
    progs = max(1, min(m, 4 * torch.cuda.get_device_properties(s.device).multi_processor_count if s.is_cuda else 4))
    per = (m + progs - 1) // progs if m else 1
    # every program writes its whole row of partial sums, so no zero fill (on an H100 host the two fills cost more
    # CPU time than the backward kernel takes); a partial sum that is not wanted gets a dummy pointer
    partials = s.new_empty if m else s.new_zeros  # (no rows: no program runs, the sums are 0)
    pdw = partials((progs, n), dtype=torch.float32) if want_dw else rstd
    pdb = partials((progs, n), dtype=torch.float32) if want_db else rstd
    if m:
        _norm_bwd_kernel[(progs,)](dy, s, mean if not rms else rstd, rstd, weight if weight is not None else rstd,
                                   ds, pdw, pdb, m, n, per, HAS_W=weight is not None, RMS=rms,
                                   WANT_DW=want_dw, WANT_DB=want_db, BLOCK=_block(n), num_warps=_warps(_block(n)))
    return ds, pdw.sum(0) if want_dw else None, pdb.sum(0) if want_db else None


@triton.jit
def _rope_kernel(X, COS, SIN, OUT, A1, H, D, cs0, cs1, NEOX: tl.constexpr, TRANSPOSE: tl.constexpr,
                 BLOCK_H: tl.constexpr, BLOCK_P: tl.constexpr):
    """One program per (a0, a1) position: all its heads share one cos / sin row.  Each rotated pair (j1, j2) --
    (2i, 2i + 1) in the neox style, (i, i + D/2) otherwise -- is loaded as two [heads, D/2] tiles, so no lane
    gathers its partner."""
    pos = tl.program_id(0)
    a0 = pos // A1
    a1 = pos % A1
    heads = tl.arange(0, BLOCK_H)[:, None]
    pairs = tl.arange(0, BLOCK_P)[None, :]
    half = D // 2
    pair_ok = pairs < half
    mask = (heads < H) & pair_ok
    if NEOX:
        j1 = 2 * pairs
        j2 = j1 + 1
    else:
        j1 = pairs
        j2 = pairs + half
    base = a0 * cs0 + a1 * cs1
    c1 = tl.load(COS + base + j1, mask=pair_ok, other=0.0).to(tl.float32)
    c2 = tl.load(COS + base + j2, mask=pair_ok, other=0.0).to(tl.float32)
    s1 = tl.load(SIN + base + j1, mask=pair_ok, other=0.0).to(tl.float32)
    s2 = tl.load(SIN + base + j2, mask=pair_ok, other=0.0).to(tl.float32)
    at = pos.to(tl.int64) * H * D + heads * D
    x1 = tl.load(X + at + j1, mask=mask, other=0.0).to(tl.float32)
    x2 = tl.load(X + at + j2, mask=mask, other=0.0).to(tl.float32)
    if TRANSPOSE:  # the backward: the transposed rotation
        o1 = x1 * c1 + x2 * s2
        o2 = x2 * c2 - x1 * s1
    else:
        o1 = x1 * c1 - x2 * s1
        o2 = x2 * c2 + x1 * s2
    tl.store(OUT + at + j1, o1.to(OUT.dtype.element_ty), mask=mask)
    tl.store(OUT + at + j2, o2.to(OUT.dtype.element_ty), mask=mask)


def rope_fwd(x, cos, sin, neox, transpose=False):
    """rope(x); transpose=True applies the transposed rotation (the backward) with the same cos / sin."""
    x = x.contiguous()
    a0, a1, h, d = x.shape
    out = torch.empty_like(x)
    cos, sin = cos.contiguous(), sin.contiguous()
    cs0 = 0 if cos.shape[0] == 1 else cos.stride(0)
    cs1 = 0 if cos.shape[1] == 1 else cos.stride(1)
    if x.numel():
        bh, bp = triton.next_power_of_2(h), max(16, triton.next_power_of_2(d // 2))
        _rope_kernel[(a0 * a1,)](x, cos, sin, out, a1, h, d, cs0, cs1, NEOX=neox, TRANSPOSE=transpose,
                                 BLOCK_H=bh, BLOCK_P=bp, num_warps=_warps(2 * bh * bp))
    return out


@triton.jit
def _swiglu_fwd_kernel(X, Y, OUT, N, sx, sy, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * sx + cols, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(Y + row * sy + cols, mask=mask, other=0.0).to(tl.float32)
    out = x * tl.sigmoid(x) * y
    tl.store(OUT + row * N + cols, out.to(OUT.dtype.element_ty), mask=mask)


@triton.jit
def _swiglu_bwd_kernel(G, X, Y, DX, DY, N, sx, sy, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < N
    g = tl.load(G + row * N + cols, mask=mask, other=0.0).to(tl.float32)
    x = tl.load(X + row * sx + cols, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(Y + row * sy + cols, mask=mask, other=0.0).to(tl.float32)
    sg = tl.sigmoid(x)
    tl.store(DX + row * N + cols, (g * y * sg * (1.0 + x * (1.0 - sg))).to(DX.dtype.element_ty), mask=mask)
    tl.store(DY + row * N + cols, (g * x * sg).to(DY.dtype.element_ty), mask=mask)


_SW_BLOCK = 1024


def swiglu_fwd(x, y):
    m, n = x.shape
    out = x.new_empty((m, n))
    grid = (m, triton.cdiv(n, _SW_BLOCK))
    _swiglu_fwd_kernel[grid](x, y, out, n, x.stride(0), y.stride(0), BLOCK=min(_SW_BLOCK, _block(n)))
    return out


def swiglu_bwd(g, x, y):
    m, n = x.shape
    dx, dy = x.new_empty((m, n)), x.new_empty((m, n))
    grid = (m, triton.cdiv(n, _SW_BLOCK))
    _swiglu_bwd_kernel[grid](g.contiguous(), x, y, dx, dy, n, x.stride(0), y.stride(0),
                             BLOCK=min(_SW_BLOCK, _block(n)))
    return dx, dy


# --------------------------------------------------------------- softmax cross entropy (hard labels)
# One program per row, walking the vocabulary in blocks.  Forward: an online log-sum-exp (running max and rescaled
# sum per lane), then loss = lse - x[label]; only loss and lse are stored.  Backward: exp(x - lse) * g with g
# subtracted at the label, written block by block, so no [M, V] softmax is ever kept.  A label outside [0, V) (a
# vocabulary shard that does not own it) adds no one-hot term; rows labelled ignore_index get loss 0 and grad 0.

_CE_BLOCK = 4096


@triton.jit
def _ce_fwd_kernel(X, LAB, LOSS, LSE, V, stride, ignore_index, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = X + row.to(tl.int64) * stride
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        live = m_new > float("-inf")  # a lane that has seen only -inf keeps sum 0 (exp(-inf - -inf) is nan)
        s = tl.where(live, s * tl.exp(m - m_new) + tl.exp(x - m_new), 0.0)
        m = m_new
    mx = tl.max(m, axis=0)
    mx = tl.where(mx > float("-inf"), mx, 0.0)  # an all -inf row: lse = -inf, as the reference
    lse = mx + tl.log(tl.sum(tl.where(m > float("-inf"), s * tl.exp(m - mx), 0.0), axis=0))
    lab = tl.load(LAB + row)
    valid = lab != ignore_index
    picked = tl.load(base + tl.where(valid, lab, 0)).to(tl.float32)
    tl.store(LSE + row, lse)
    tl.store(LOSS + row, tl.where(valid, lse - picked, 0.0))


@triton.jit
def _ce_bwd_kernel(X, LAB, LSE, G, DX, V, stride, ignore_index, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = X + row.to(tl.int64) * stride
    out = DX + row.to(tl.int64) * V
    lab = tl.load(LAB + row)
    ignored = lab == ignore_index
    g = tl.load(G + row).to(tl.float32)
    lse = tl.load(LSE + row)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < V
        x = tl.load(base + cols, mask=mask, other=0.0).to(tl.float32)
        d = tl.exp(x - lse) * g
        d = tl.where(cols == lab, d - g, d)
        d = tl.where(ignored, 0.0, d)
        tl.store(out + cols, d.to(DX.dtype.element_ty), mask=mask)


def _ce_rows(logits):
    return logits if logits.stride(-1) == 1 else logits.contiguous()


def ce_fwd(logits, labels, ignore_index):
    """(loss [M] float32, lse [M] float32) of logits [M, V] against int64 labels [M] (already range-checked)."""
    x = _ce_rows(logits)
    m, v = x.shape
    loss = x.new_empty(m, dtype=torch.float32)
    lse = x.new_empty(m, dtype=torch.float32)
    if m:
        _ce_fwd_kernel[(m,)](x, labels.contiguous(), loss, lse, v, x.stride(0), ignore_index,
                             BLOCK=min(_CE_BLOCK, _block(v)))
    return loss, lse


def ce_bwd(logits, labels, lse, g, ignore_index):
    """g[r] * (softmax(logits) - onehot(labels)) [M, V] in logits' dtype; 0 on rows labelled ignore_index."""
    x = _ce_rows(logits)
    m, v = x.shape
    dx = torch.empty((m, v), dtype=x.dtype, device=x.device)
    if m:
        _ce_bwd_kernel[(m,)](x, labels.contiguous(), lse.contiguous(), g.contiguous(), dx, v, x.stride(0),
                             ignore_index, BLOCK=min(_CE_BLOCK, _block(v)))
    return dx
