"""Argument helpers the detection operators share."""
import torch


def _pair(v, name):
    if isinstance(v, int):
        return (v, v)
    v = tuple(int(a) for a in v)
    if len(v) != 2:
        raise ValueError(f"The size of {name} must be 2, but received {list(v)}.")
    return v


def _round_half_away(t):
    """C's round(): halves go away from zero (torch.round goes to even)."""
    return torch.sign(t) * torch.floor(t.abs() + 0.5)


def _batch_ids(boxes_num, n_boxes, device):
    counts = boxes_num.to(torch.int64).reshape(-1)
    if int(counts.sum()) != n_boxes:
        raise ValueError(f"The sum of boxes_num ({int(counts.sum())}) must equal the number of boxes ({n_boxes}).")
    return torch.repeat_interleave(torch.arange(counts.numel(), device=device), counts)
