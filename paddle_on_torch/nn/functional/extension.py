"""paddle.nn.functional: sequence_mask, temporal_shift."""
import torch

from ..._normalize import DTypeLike, TensorLike, op

__all__ = ["sequence_mask", "temporal_shift"]


@op
def sequence_mask(x: TensorLike, maxlen=None, dtype: DTypeLike = "int64", name=None):
    if hasattr(maxlen, "_t"):
        maxlen = int(maxlen._t.item())
    if maxlen is None or maxlen < 0:
        maxlen = int(x.max().item()) if x.numel() else 0
    r = torch.arange(maxlen, device=x.device)
    return (r < x.unsqueeze(-1)).to(dtype)


@op
def temporal_shift(x: TensorLike, seg_num, shift_ratio=0.25, name=None, data_format="NCHW"):
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"Attr(data_format) should be 'NCHW' or 'NHWC'. Received Attr(data_format): {data_format}.")
    if x.dim() != 4:
        raise ValueError(f"Input(X) rank should be 4, but received {x.dim()}.")
    last = data_format == "NHWC"
    xt = x.permute(0, 3, 1, 2) if last else x
    nt, c, h, w = xt.shape
    v = xt.reshape(nt // seg_num, seg_num, c, h, w)
    c1, c2 = int(c * shift_ratio), int(c * 2 * shift_ratio)
    zero = torch.zeros_like(v[:, :1])
    a = torch.cat([zero[:, :, :c1], v[:, :-1, :c1]], 1)          # from the previous frame
    b = torch.cat([v[:, 1:, c1:c2], zero[:, :, c1:c2]], 1)       # from the next frame
    out = torch.cat([a, b, v[:, :, c2:]], 2).reshape(nt, c, h, w)
    return out.permute(0, 2, 3, 1) if last else out
