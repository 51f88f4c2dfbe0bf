"""Fused softmax cross entropy with hard labels over a large vocabulary: torch custom op
`paddle_on_torch::softmax_ce`.

The eager composition (log_softmax + gather) keeps the [M, V] log-probabilities alive for the
backward and allocates [M, V] temporaries there; this op keeps only the per-row log-sum-exp [M]
and writes the logits gradient g * (softmax - onehot) straight into one [M, V] buffer, row by row
(C++ kernel, ext/fused.cpp: ce_fwd / ce_bwd).  bench/kernels.py --ops ce
measures the memory saved.

    softmax_ce(logits[M, V], labels[M] int64, ignore_index) -> loss[M] (logits' dtype), lse[M] (float32)
    softmax_ce_bwd(logits, labels, lse, g, ignore_index) -> g * (exp(logits - lse) - onehot(labels))

A vocabulary split across ranks (ParallelCrossEntropy) composes from the same kernels: each rank runs
softmax_ce on its shard with every label ignored to get its local lse, the ranks combine the global lse
(all-reduce of max, then of sum(exp(lse_local - max))) and the picked logit (all-reduce of sum), and the
backward is softmax_ce_bwd with the global lse and shard-local labels (label - shard start inside the
shard, V for a label on another shard: a label outside [0, V) adds no one-hot term).  tests/test_kernels_fused.py
checks this recipe on two shards in one process.

Here: the schema and body (the reference composition), the fake, the autograd formula (Python: no C++ one, at these
sizes the formula's ~30 us are noise) and the CUDA kernel (kernels/cross_entropy_triton.py: the same two passes).
The CPU kernels are ext/cross_entropy.cpp's, registered with TORCH_LIBRARY_IMPL (kernels/dispatch.py).
"""
from typing import Tuple

import torch
from torch import Tensor

from . import dispatch
from .dispatch import acc as _acc

dispatch.load_cpp()  # registers the C++ kernels (ext/cross_entropy.cpp) before the first call


def ref_softmax_ce(logits, labels, ignore_index):
    """Reference composition (differentiable with plain autograd)."""
    xf = _acc(logits)
    lse = torch.logsumexp(xf, -1)
    valid = labels != ignore_index
    picked = xf.gather(-1, torch.where(valid, labels, 0)[:, None])[:, 0]
    loss = torch.where(valid, lse - picked, torch.zeros((), dtype=xf.dtype, device=xf.device))
    return loss.to(logits.dtype), lse.float()


def _ref_bwd(logits, labels, lse, g, ignore_index):
    xf = _acc(logits)
    valid = labels != ignore_index
    gv = torch.where(valid, g.to(xf.dtype), 0)[:, None]
    d = torch.exp(xf - lse[:, None].to(xf.dtype)) * gv
    mine = valid & (labels >= 0) & (labels < logits.shape[-1])  # other labels live on another vocab shard
    d = d.scatter_add(-1, torch.where(mine, labels, 0)[:, None], -torch.where(mine[:, None], gv, 0))
    return d.to(logits.dtype)


def _rows(logits):
    return logits if logits.stride(-1) == 1 else logits.contiguous()


def _check_labels(logits, labels, ignore_index):
    bad = (labels != ignore_index) & ((labels < 0) | (labels >= logits.shape[-1]))
    if bool(bad.any()):
        v = int(labels[bad][0])
        raise IndexError(f"(OutOfRange) label value should less than the shape of axis dimension when label value({v}) "
                         f"not equal to ignore_index({ignore_index}), But received label value as {v} and shape of "
                         f"axis dimension is {logits.shape[-1]}")


def _softmax_ce_reference(logits, labels, ignore_index):
    _check_labels(logits, labels, ignore_index)
    return ref_softmax_ce(logits, labels, ignore_index)


@torch.library.custom_op("paddle_on_torch::softmax_ce", mutates_args=())
def softmax_ce(logits: Tensor, labels: Tensor, ignore_index: int) -> Tuple[Tensor, Tensor]:
    return _softmax_ce_reference(logits, labels, ignore_index)


def _softmax_ce_cuda(logits, labels, ignore_index):
    tri = dispatch.triton_module("cross_entropy")
    if tri is None or not logits.numel():
        return _softmax_ce_reference(logits, labels, ignore_index)
    _check_labels(logits, labels, ignore_index)
    loss, lse = tri.ce_fwd(_rows(logits), labels, ignore_index)
    return loss.to(logits.dtype), lse


dispatch.register(softmax_ce, _softmax_ce_reference, cuda=_softmax_ce_cuda)


@softmax_ce.register_fake
def _(logits, labels, ignore_index):
    m = logits.shape[0]
    return logits.new_empty(m), logits.new_empty(m, dtype=torch.float32)


@torch.library.custom_op("paddle_on_torch::softmax_ce_bwd", mutates_args=())
def softmax_ce_bwd(logits: Tensor, labels: Tensor, lse: Tensor, g: Tensor, ignore_index: int) -> Tensor:
    return _ref_bwd(logits, labels, lse, g, ignore_index)


def _softmax_ce_bwd_cuda(logits, labels, lse, g, ignore_index):
    tri = dispatch.triton_module("cross_entropy")
    if tri is None or not logits.numel():
        return _ref_bwd(logits, labels, lse, g, ignore_index)
    return tri.ce_bwd(_rows(logits), labels, lse, g, ignore_index)


dispatch.register(softmax_ce_bwd, _ref_bwd, cuda=_softmax_ce_bwd_cuda)


@softmax_ce_bwd.register_fake
def _(logits, labels, lse, g, ignore_index):
    return logits.new_empty(logits.shape)


def _setup(ctx, inputs, output):
    logits, labels, ignore_index = inputs
    ctx.save_for_backward(logits, labels, output[1])
    ctx.ignore_index = ignore_index


def _backward(ctx, g_loss, g_lse):
    logits, labels, lse = ctx.saved_tensors
    if g_loss is None:
        return None, None, None
    return softmax_ce_bwd(logits, labels, lse, g_loss, ctx.ignore_index), None, None


softmax_ce.register_autograd(_backward, setup_context=_setup)


def fused_softmax_cross_entropy(logits, labels, ignore_index=-100):
    """Per-row loss [M] of logits [M, V] against int labels [M], through the op."""
    labels = labels.reshape(-1).to(torch.int64)
    return softmax_ce(logits, labels, int(ignore_index))[0]


__all__ = ["softmax_ce", "softmax_ce_bwd", "ref_softmax_ce", "fused_softmax_cross_entropy"]
