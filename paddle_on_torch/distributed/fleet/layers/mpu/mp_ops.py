"""Tensor-parallel communication ops (Paddle's mp_ops) as torch autograd Functions over a group's
torch ProcessGroup.  Each has the forward/backward pair Megatron-style layers need:

  _c_identity      identity        / all_reduce(sum)     (input to a column-parallel matmul)
  _mp_allreduce    all_reduce(sum) / identity            (output of a row-parallel matmul)
  _c_concat        all_gather(-1)  / keep my slice       (gather_output=True)
  _c_split         keep my slice   / all_gather(-1)      (input_is_parallel=False)
"""
import torch
import torch.distributed as tdist

from ....._normalize import wrap

__all__ = []


def _all_gather_last(t, group):
    parts = [torch.empty_like(t) for _ in range(group.nranks)]
    tdist.all_gather(parts, t.contiguous(), group=group.process_group)
    return torch.cat(parts, dim=-1)


def _my_slice(t, group):
    return t.chunk(group.nranks, dim=-1)[group.rank].contiguous()


def _summed(t, group):
    t = t.clone()
    tdist.all_reduce(t, group=group.process_group)
    return t


class _Identity(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):
        return _summed(g, ctx.group), None


class _AllReduce(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, group):
        return _summed(x, group)

    @staticmethod
    def backward(ctx, g):
        return g, None


class _Concat(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        return _all_gather_last(x, group)

    @staticmethod
    def backward(ctx, g):
        return _my_slice(g, ctx.group), None


class _Split(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        return _my_slice(x, group)

    @staticmethod
    def backward(ctx, g):
        return _all_gather_last(g, ctx.group), None


def _default_group(group):
    """No group: the global one (Paddle's _mp_allreduce does this; its other ops fail on None)."""
    if group is None:
        from ....communication.group import _groups

        group = _groups.get(0)
    return group


def _apply(fn, x, group):
    group = _default_group(group)
    if group is not None and group.rank < 0:  # not a member: Paddle returns None
        return None
    if group is None or group.nranks < 2:
        return x
    return wrap(fn.apply(x._t, group))


def _c_identity(tensor, group=None, skip_c_identity_dynamic=False):
    """Identity forward, all-reduce (sum) of the gradient over `group` (before a column-parallel matmul).
    skip_c_identity_dynamic only skips Paddle's forward copy: the same here."""
    return _apply(_Identity, tensor, group)


def _mp_allreduce(tensor, op=None, group=None, use_calc_stream=True, use_model_parallel=True,
                  skip_c_identity_dynamic=False):
    """All-reduce (sum) forward over `group`, identity backward (after a row-parallel matmul)."""
    from ....communication.reduce import ReduceOp

    if op is not None and int(op) != ReduceOp.SUM:
        raise AssertionError(f"Unknown parameter: {op}.")
    return _apply(_AllReduce, tensor, group)


def _c_concat(tensor, group=None):
    return _apply(_Concat, tensor, group)


def _c_split(tensor, group=None):
    return _apply(_Split, tensor, group)


def _c_lookup_table(table, index, start_index=0, vocab_size=-1, name=None):
    """Rows of my vocabulary slice; ids outside [start_index, start_index + rows) give zeros."""
    w, ids = table._t, index._t
    rows = w.shape[0]
    local = ids - start_index
    inside = (local >= 0) & (local < rows)
    out = torch.nn.functional.embedding(torch.where(inside, local, torch.zeros_like(local)), w)
    return wrap(out * inside.unsqueeze(-1).to(out.dtype))


class _ParallelSoftmaxCE(torch.autograd.Function):
    """Softmax cross entropy over logits split on the last axis across the group (c_softmax_with_cross_entropy)."""

    @staticmethod
    def forward(ctx, logits, label, group, ignore_index):
        pg = group.process_group
        per = logits.shape[-1]
        start = group.rank * per
        x = logits.float() if logits.dtype in (torch.float16, torch.bfloat16) else logits
        gmax = x.detach().amax(dim=-1, keepdim=True)
        tdist.all_reduce(gmax, tdist.ReduceOp.MAX, group=pg)
        shifted = x - gmax
        exp = shifted.exp()
        sumexp = exp.sum(dim=-1, keepdim=True)
        tdist.all_reduce(sumexp, group=pg)
        local = label - start
        inside = (local >= 0) & (local < per)
        picked = torch.gather(shifted, -1, torch.where(inside, local, torch.zeros_like(local)))
        picked = picked * inside.to(picked.dtype)
        tdist.all_reduce(picked, group=pg)
        ignored = label == ignore_index
        loss = (sumexp.log() - picked).masked_fill(ignored, 0.0)
        softmax = exp / sumexp
        ctx.save_for_backward(softmax, local, inside, ignored)
        ctx.dtype = logits.dtype
        return loss.to(logits.dtype), softmax.to(logits.dtype)

    @staticmethod
    def backward(ctx, gloss, gsoftmax):
        softmax, local, inside, ignored = ctx.saved_tensors
        grad = softmax.clone()
        onehot = torch.zeros_like(grad).scatter_(-1, torch.where(inside, local, torch.zeros_like(local)),
                                                 inside.to(grad.dtype))
        grad = (grad - onehot) * gloss.to(grad.dtype) * (~ignored).to(grad.dtype)
        return grad.to(ctx.dtype), None, None, None


def _c_softmax_with_cross_entropy(logits, label, group=None, return_softmax=False, ignore_index=-100):
    nranks = 1 if group is None else group.nranks
    in_dims, lab_dims = len(logits.shape), len(label.shape)
    if in_dims - 1 != lab_dims and in_dims != lab_dims:
        raise ValueError(f"Expected input_dims - 1 = label_dims or input_dims == label_dims (got input_dims{in_dims}, "
                         f"label_dims{lab_dims})")
    lab = label._t.long()
    if in_dims - 1 == lab_dims:
        lab = lab.unsqueeze(-1)
    if lab.shape[-1] < 1 or lab.shape[-1] > logits.shape[-1] * nranks:
        raise ValueError(f"Expected label_shape[-1] >= 1 and label_shape[-1] <= input_shape[-1] * nranks (got "
                         f"label_shape[-1] = {lab.shape[-1]}, input_shape[-1] = {logits.shape[-1]})")
    if nranks < 2:
        from .....nn import functional as F

        loss = F.cross_entropy(logits, wrap(lab), reduction="none", ignore_index=ignore_index)
        if not return_softmax:
            return loss
        return loss, F.softmax(logits, axis=-1)
    loss, softmax = _ParallelSoftmaxCE.apply(logits._t, lab, group, ignore_index)
    return (wrap(loss), wrap(softmax)) if return_softmax else wrap(loss)
