"""Triton (CUDA) kernels of paddle_on_torch::softmax_ce / softmax_ce_bwd (kernels/cross_entropy.py): one program
per row, an online log-sum-exp over vocabulary blocks; all arithmetic in fp32.  Imported on the op's first CUDA
call (or under TRITON_INTERPRET=1 by the tests)."""
import torch
import triton
import triton.language as tl

from ._triton import _block


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
