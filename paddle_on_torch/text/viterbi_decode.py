"""paddle.text.viterbi_decode: the best tag path of a linear-chain CRF, batched.

Follows Paddle's CPU kernel step for step (phi viterbi_decode): masks are multiplied in as 0/1 floats
rather than selected, so -inf and nan propagate as they do there; with include_bos_eos_tag the last
row of `transition_params` is the start transition and the second-to-last the stop transition."""
import torch

from .._normalize import TensorLike, op
from ..nn.layer.layers import Layer

__all__ = ["viterbi_decode", "ViterbiDecoder"]


@op
def viterbi_decode(potentials: TensorLike, transition_params: TensorLike, lengths: TensorLike,
                   include_bos_eos_tag=True, name=None):
    """(scores [batch], path [batch, max(lengths)] int64) for potentials [batch, seq_len, num_tags]."""
    if potentials.dtype not in (torch.float32, torch.float64):
        raise TypeError(f"The data type of 'input' in viterbi_decode must be float32 or float64, but received "
                        f"{str(potentials.dtype).replace('torch.', '')}.")
    if lengths.dtype != torch.int64:
        raise TypeError("The data type of 'length' in viterbi_decode must be int64.")
    batch, seq_len, n = potentials.shape
    trans = transition_params.to(potentials.dtype)
    stop, start = trans[n - 2], trans[n - 1]
    left = lengths.reshape(batch).clone()
    max_len = int(left.max()) if batch else 0
    alpha = potentials[:, 0]
    if include_bos_eos_tag:
        alpha = alpha + start
        alpha = alpha + stop * (left == 1).to(alpha.dtype)[:, None]
    left -= 1
    history = []
    for i in range(1, max_len):
        best, arg = (alpha[:, :, None] + trans).max(dim=1)  # over the previous tag
        history.append(arg)
        mask = (left > 0).to(alpha.dtype)[:, None]
        alpha = alpha * (1 - mask) + (best + potentials[:, i]) * mask
        if include_bos_eos_tag:
            alpha = alpha + stop * (left == 1).to(alpha.dtype)[:, None]
        left -= 1
    scores, last = alpha.max(dim=1)
    path = torch.zeros(batch, max_len, dtype=torch.int64, device=potentials.device)
    end = min(seq_len, max_len)
    path[:, end - 1] = last * (left >= 0)
    for k, hist in enumerate(reversed(history), start=2):
        left += 1
        step = hist.gather(1, last[:, None])[:, 0] * (left > 0)
        at_end = (left == 0).to(torch.int64)
        step = step * (1 - at_end) + last * at_end  # a sequence's own last tag where it ends here
        path[:, end - k] = step
        last = last * (left < 0) + step
    return scores, path


class ViterbiDecoder(Layer):
    """A Layer holding `transitions`; forward(potentials, lengths) -> (scores, path)."""

    def __init__(self, transitions, include_bos_eos_tag=True, name=None):
        super().__init__()
        self.transitions = transitions
        self.include_bos_eos_tag = include_bos_eos_tag
        self.name = name

    def forward(self, potentials, lengths):
        return viterbi_decode(potentials, self.transitions, lengths, self.include_bos_eos_tag, self.name)
