"""Triton (CUDA) kernels of paddle_on_torch::norm_fwd / norm_bwd (kernels/norm.py): one program
per row; all arithmetic in fp32.  Imported on the
op's first CUDA call (or under TRITON_INTERPRET=1 by the tests)."""
import torch
import triton
import triton.language as tl

from ._triton import _block, _warps


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
