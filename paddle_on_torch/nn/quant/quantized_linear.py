"""paddle.nn.quant weight-only / LLM.int8 quantization, on torch.

weight_quantize reproduces the bytes of Paddle 3.3.1's CPU kernel: per-channel (or group-wise) absmax
scales, round-half-away, and for the weight-only algos the CUTLASS mixed-GEMM layout of the target
`arch` (sm70: row-major + bias/interleave; sm75-sm90: row permutation, transpose, column interleave,
bias/interleave).  Paddle's CPU build has no kernels for weight_dequantize, weight_only_linear and
llm_int8_linear; here they run on torch by undoing that layout (docs/nn_quant.md).
"""
import functools

import numpy as np
import torch

from ... import _report
from ..._normalize import OptionalTensor, TensorLike, op

_ARCHS = (70, 75, 80, 86, 89, 90, 100)
_ALGOS = ("weight_only_int8", "weight_only_int4", "llm.int8")
# algos Paddle's argument check accepts but its CPU kernel leaves unwritten (the result is uninitialised memory)
_PADDLE_ALGOS = _ALGOS + ("w4a8", "w4afp8")


def _check_group_size(group_size, what="group_size"):
    if group_size not in (-1, 64, 128):
        raise AssertionError(f"Currently {what} only support -1/64/128. but got {group_size} ")


def _check_arch(arch):
    # without CUDA, Paddle's default arch is 0, which its kernels reject
    arch = 0 if arch is None else int(arch)
    if arch not in _ARCHS:
        raise ValueError("(InvalidArgument) Currently, arch only support 70, 75, 80, 86, 89, 90, 100, "
                         f"but got {arch} (paddle_on_torch runs without CUDA: pass arch explicitly).")
    return arch


@functools.lru_cache(maxsize=32)
def _layout(m, n, bits, arch):
    """Flat element order of Paddle's packed weight: out element k is input element perm[k] ([m, n] row-major)."""
    idx = np.arange(m * n, dtype=np.int64).reshape(m, n)
    per_word = 32 // bits
    if arch != 70:
        # permute_B_rows_for_mixed_gemm: rows permuted within blocks of 8 * (16 / bits) rows
        block = 8 * (16 // bits)
        t = np.arange(block)
        src = 8 * ((t % per_word) // 2) + t % 2 + 2 * (t // per_word)
        rows = (np.arange(m) // block * block + src[np.arange(m) % block]) if m % block == 0 else None
        if rows is None:
            raise ValueError(f"(InvalidArgument) weight_quantize: rows ({m}) must be a multiple of {block} "
                             f"for arch {arch}")
        idx = idx[rows].T  # subbyte_transpose: [n, m]
        # interleave_column_major_tensor on 32-bit words
        words = idx.reshape(n, m // per_word, per_word)
        inter = 16 // bits
        vec_rows, vec_per_tile = m // per_word, 64 // per_word
        c = np.arange(n)[:, None]
        v = np.arange(vec_rows)[None, :]
        write = (c // inter) * vec_rows * inter + inter * (v // vec_per_tile * vec_per_tile) \
            + vec_per_tile * (c % inter) + v % vec_per_tile
        out = np.empty_like(words).reshape(-1, per_word)
        out[write.reshape(-1)] = words.reshape(-1, per_word)
        idx = out
    # add_bias_and_interleave: element order inside each 32-bit register
    order = [0, 2, 1, 3] if bits == 8 else [0, 2, 4, 6, 1, 3, 5, 7]
    return idx.reshape(-1, per_word)[:, order].reshape(-1)


def _scales(w, bound, group_size):
    """Per-channel (or per-group) absmax / bound, computed in float32 and stored in w's dtype."""
    a = w.float().abs()
    if group_size == -1:
        return (a.amax(0) / bound)
    m, n = a.shape
    return (a.reshape(m // group_size, group_size, n).amax(1) / bound)


def _round_away(t):
    return torch.sign(t) * torch.floor(t.abs() + 0.5)


@op
def weight_quantize(x: TensorLike, algo="weight_only_int8", arch=None, group_size=-1):
    """Quantize a [K, N] float16/bfloat16 weight: (int8 packed weight, scale)."""
    arch = _check_arch(arch)
    _check_group_size(group_size)
    if x.dtype not in (torch.float16, torch.bfloat16):
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, {str(x.dtype).replace('torch.', '')}) of kernel "
                           "`weight_quantize` is not registered. Paddle support following DataTypes: float16, "
                           "bfloat16.")
    if x.dim() != 2:
        raise ValueError(f"(InvalidArgument) The x tensor of quant op must be 2D, but got[{x.dim()}]")
    m, n = x.shape
    if n % 16:
        raise ValueError(f"(InvalidArgument) The second dimension of input must be divisible by 16, but got[{n}]")
    if algo not in _PADDLE_ALGOS:
        raise ValueError(f"(InvalidArgument) The algo must be in {list(_PADDLE_ALGOS)}, but got[{algo}]")
    if algo not in _ALGOS:
        raise _report.unsupported("paddle.nn.quant.weight_quantize", f" with algo={algo!r} (Paddle's CPU kernel "
                                                                     "returns uninitialised memory for it)")
    if group_size != -1 and m % group_size:
        raise ValueError(f"(InvalidArgument) The first dimension of input ({m}) must be divisible by group_size "
                         f"({group_size})")
    bits = 4 if algo == "weight_only_int4" else 8
    bound = 7.0 if bits == 4 else 127.0
    scale = _scales(x, bound, group_size).to(torch.float32 if algo == "llm.int8" else x.dtype)
    full = scale if group_size == -1 else scale.repeat_interleave(group_size, 0)
    q = _round_away(x.float() / full.float()).clamp(-bound, bound).to(torch.int32)  # [m, n]
    if algo == "llm.int8":
        return q.to(torch.int8).T.contiguous(), scale
    arch = 80 if arch == 100 else arch  # Paddle's CPU kernel leaves the sm100 weight unwritten
    flat = q.reshape(-1)[torch.from_numpy(_layout(m, n, bits, arch)).to(q.device)]
    if bits == 8:
        out = (flat + 128).to(torch.uint8).view(torch.int8)
        return out.reshape(n, m), scale
    u = (flat + 8).reshape(-1, 2)
    out = (u[:, 0] | (u[:, 1] << 4)).to(torch.uint8).view(torch.int8)
    return out.reshape(n // 2, m), scale


def _unpack(weight, bits, arch, k):
    """The [k, n] integer weight (int32) from Paddle's packed weight-only layout."""
    w = weight.view(torch.uint8).to(torch.int32).reshape(-1)
    if bits == 4:
        w = torch.stack([w & 0xF, w >> 4], 1).reshape(-1)
    vals = w - (128 if bits == 8 else 8)
    n = vals.numel() // k
    perm = torch.from_numpy(_layout(k, n, bits, 80 if arch == 100 else arch)).to(vals.device)
    flat = torch.empty_like(vals)
    flat[perm] = vals
    return flat.reshape(k, n)


def _dequant(q, scale, group_size):
    s = scale.float()
    if group_size != -1:
        s = s.repeat_interleave(group_size, 0)
    return q.float() * s


@op
def weight_dequantize(x: TensorLike, scale: TensorLike, algo="weight_only_int8", out_dtype="float16", group_size=-1):
    """Dequantize an 'llm.int8' weight [N, K] back to [K, N] (Paddle's CPU build has no kernel for this)."""
    _check_group_size(group_size)
    if algo != "llm.int8":
        # the packed weight-only layout depends on the arch it was packed for, which this API does not take
        raise _report.unsupported(f"paddle.nn.quant.weight_dequantize(algo={algo!r})",
                                  ": the weight-only layout is arch-specific; use weight_only_linear(arch=...) "
                                  "or algo='llm.int8'")
    from ..._core.dtype import to_torch_dtype

    return _dequant(x.to(torch.int32).T, scale, group_size).to(to_torch_dtype(out_dtype))


@op
def weight_only_linear(x: TensorLike, weight: TensorLike, bias: OptionalTensor = None,
                       weight_scale: OptionalTensor = None, weight_dtype="int8", arch=None, group_size=-1):
    """x @ dequantized(weight) + bias, for a weight packed by weight_quantize(arch=arch) (fp32 accumulation)."""
    _check_group_size(group_size, "weight_quantize only support group size of -1, 64 or")
    arch = _check_arch(arch)
    if str(weight_dtype) not in ("int8", "int4", "paddle.int8"):
        raise ValueError(f"(InvalidArgument) weight_dtype must be 'int8' or 'int4', but got {weight_dtype}")
    bits = 4 if str(weight_dtype) == "int4" else 8
    if weight.dtype != torch.int8 or weight.dim() != 2:
        raise ValueError("(InvalidArgument) weight_only_linear takes the 2-D int8 weight from weight_quantize")
    k = x.shape[-1]
    w = _dequant(_unpack(weight, bits, arch, k), weight_scale, group_size)
    out = torch.matmul(x.float(), w)
    if bias is not None:
        out = out + bias.float()
    return out.to(x.dtype)


@op
def llm_int8_linear(x: TensorLike, weight: TensorLike, bias: OptionalTensor = None,
                    weight_scale: OptionalTensor = None, threshold=6.0):
    """LLM.int8: columns of x holding an outlier (|x| >= threshold) multiply in float, the rest in int8
    (x quantized per row by absmax / 127), weight [N, K] int8 with per-channel float32 scale."""
    xf = x.float().reshape(-1, x.shape[-1])
    w = weight.to(torch.int32)  # [n, k]
    outlier = (xf.abs() >= threshold).any(0)
    xi = torch.where(outlier, torch.zeros_like(xf), xf)
    rs = xi.abs().amax(1, keepdim=True) / 127.0
    qx = _round_away(xi / torch.where(rs > 0, rs, torch.ones_like(rs))).to(torch.int32)
    acc = (qx @ w.T).float() * rs * weight_scale.float()
    if bool(outlier.any()):
        acc = acc + xf[:, outlier] @ (w[:, outlier].float() * weight_scale.float()[:, None]).T
    if bias is not None:
        acc = acc + bias.float()
    return acc.reshape(*x.shape[:-1], w.shape[0]).to(x.dtype)


@op
def apply_per_channel_scale(x: TensorLike, scales: TensorLike):
    """x * scales along the last axis (the pre-quantization smoothing; Paddle has only a GPU kernel)."""
    return x * scales.to(x.dtype)


def _get_arch_info():
    """The GPU's SM version (major * 10 + minor) when torch runs on CUDA, else 0 (Paddle's CPU-build value)."""
    if torch.cuda.is_available():
        major, minor = torch.cuda.get_device_capability()
        return int(major * 10 + minor)
    return 0
