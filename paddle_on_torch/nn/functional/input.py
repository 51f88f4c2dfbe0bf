"""paddle.nn.functional: embedding and one_hot."""
import torch
import torch.nn.functional as TF

from ..._normalize import TensorLike, is_tensor, op

__all__ = ["embedding", "one_hot"]


def _padding_idx(padding_idx, num):
    if padding_idx is None:
        return None
    if padding_idx >= num or padding_idx < -num:
        raise ValueError(f"padding_idx must be within [-{num}, {num})")
    return padding_idx if padding_idx >= 0 else num + padding_idx


@op
def embedding(x: TensorLike, weight: TensorLike, padding_idx=None, max_norm=None, norm_type=2.0, sparse=False,
              scale_grad_by_freq=False, name=None):
    if x.dtype is torch.int64 and padding_idx is None and max_norm is None:
        return torch.embedding(weight, x, -1, scale_grad_by_freq)  # the common lookup (TF's is Python around it)
    if x.is_floating_point() or x.is_complex() or x.dtype is torch.bool:
        e = NotImplementedError(f"(Unimplemented) embedding input only support int32 and int64, but get "
                                f"{str(x.dtype).replace('torch.', '')}")  # (Paddle's type: an input, not a missing API)
        e._recorded = True
        raise e
    pi = _padding_idx(padding_idx, weight.shape[0])
    out = TF.embedding(x.long(), weight, pi, max_norm, norm_type, scale_grad_by_freq, False)
    if pi is not None:  # Paddle's lookup gives zeros for padding_idx, whatever the row holds
        out = out.masked_fill((x == pi).unsqueeze(-1), 0)
    return out


@op
def one_hot(x: TensorLike, num_classes=-1, name=None):
    if is_tensor(num_classes):
        num_classes = int(num_classes._t.item())
    return TF.one_hot(x.long(), int(num_classes)).to(torch.float32)
