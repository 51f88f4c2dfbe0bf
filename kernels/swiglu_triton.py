"""Triton (CUDA) kernels of paddle_on_torch::swiglu / swiglu_bwd (kernels/swiglu.py): one
program per row block; all arithmetic in fp32.  Imported on the
op's first CUDA call (or under TRITON_INTERPRET=1 by the tests)."""
import triton
import triton.language as tl

from ._triton import _block


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
