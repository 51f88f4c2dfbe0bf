"""Triton (CUDA) kernels of paddle_on_torch::rope / rope_bwd (kernels/rope.py): one program per
position, all its heads; all arithmetic in fp32.  Imported on the
op's first CUDA call (or under TRITON_INTERPRET=1 by the tests)."""
import torch
import triton
import triton.language as tl

from ._triton import _warps


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
