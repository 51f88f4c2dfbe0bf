"""paddle.nn.functional: sequence_mask, temporal_shift, gather_tree."""
import torch

from ..._normalize import DTypeLike, TensorLike, is_tensor, op

__all__ = ["sequence_mask", "temporal_shift", "gather_tree"]


@op
def sequence_mask(x: TensorLike, maxlen=None, dtype: DTypeLike = "int64", name=None):
    if is_tensor(maxlen):
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


_INT_IDS = (torch.int32, torch.int64)


@op
def gather_tree(ids: TensorLike, parents: TensorLike):
    """Backtrace beam-search ids [time, batch, beam] through their parents (Paddle's gather_tree kernel)."""
    if ids.dim() != 3:
        raise ValueError("The input ids must be a 3D tensor with shape [length, batch_size, beam_size]")
    if ids.dim() != parents.dim():
        raise ValueError("The ids's shape must be the same as parents' shape. ")
    if parents.dtype not in _INT_IDS:
        if ids.dtype not in _INT_IDS:
            raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), "
                               f"{_dtype_name(ids.dtype)}) of kernel `gather_tree` is not registered.")
        raise ValueError(f"(InvalidArgument) The type of data we are trying to retrieve ({_dtype_name(ids.dtype)}) "
                         f"does not match the type of data ({_dtype_name(parents.dtype)}) currently contained in "
                         "the container.")
    if ids.shape != parents.shape:
        raise ValueError("(InvalidArgument) The shape of Input(Parents) must be same with the shape of Input(Ids).")
    if ids.dtype not in _INT_IDS:
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), {_dtype_name(ids.dtype)}) "
                           "of kernel `gather_tree` is not registered.")
    if ids.dtype != parents.dtype:
        raise ValueError(f"(InvalidArgument) The type of data we are trying to retrieve ({_dtype_name(ids.dtype)}) "
                         f"does not match the type of data ({_dtype_name(parents.dtype)}) currently contained in "
                         "the container.")
    steps, beam = ids.shape[0], ids.shape[2]
    if steps == 0:
        return ids.clone()
    out = [ids[-1]]
    parent = parents[-1].long()
    for step in range(steps - 2, -1, -1):
        if parent.numel():
            hi, lo = int(parent.max()), int(parent.min())
            if hi >= beam:
                raise ValueError(f"(InvalidArgument) The parents must be less than beam size, but received parents "
                                 f"{hi} is greater than or equal to beam size {beam}. ")
            if lo < 0:
                raise ValueError(f"(InvalidArgument) The parents must be greater than or equal to 0, but received "
                                 f"parents {lo} is less than 0. ")
        out.append(torch.gather(ids[step], 1, parent))
        parent = torch.gather(parents[step], 1, parent).long()
    return torch.stack(out[::-1], 0)


def _dtype_name(dt):
    from ..._core import dtype as _dtypes

    return _dtypes.dtype_name(dt)
