"""paddle.nn.functional: vision ops (affine_grid, grid_sample, pixel/channel shuffles)."""
import torch
import torch.nn.functional as TF

from ..._normalize import TensorLike, ValuesLike, op

__all__ = ["affine_grid", "channel_shuffle", "grid_sample", "pixel_shuffle", "pixel_unshuffle"]


def _fmt(data_format, api):
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"Attr(data_format) should be 'NCHW' or 'NHWC'. But receive Attr(data_format): "
                         f"{data_format}")
    return data_format == "NHWC"


@op
def affine_grid(theta: TensorLike, out_shape: ValuesLike, align_corners=True, name=None):
    out_shape = [int(v) for v in out_shape]
    if theta.dim() != 3 or theta.shape[1:] not in ((2, 3), (3, 4)):
        raise ValueError(f"The shape of theta should be [N, 2, 3] or [N, 3, 4], but got {list(theta.shape)}")
    return TF.affine_grid(theta, out_shape, align_corners=align_corners)


@op
def grid_sample(x: TensorLike, grid: TensorLike, mode="bilinear", padding_mode="zeros", align_corners=True,
                name=None):
    if mode not in ("bilinear", "nearest"):
        raise ValueError(f"(InvalidArgument) The mode of grid sample function should be in ['bilinear', 'nearest'], but got: {mode}")
    if padding_mode not in ("zeros", "reflection", "border"):
        raise ValueError("The padding mode of grid sample function should be in ['zeros', 'reflection', "
                         f"'border'], but got: {padding_mode}")
    if not isinstance(align_corners, bool):
        raise ValueError(f"The align corners should be bool, but got: {align_corners}")
    return TF.grid_sample(x, grid, mode=mode, padding_mode=padding_mode, align_corners=align_corners)


@op
def pixel_shuffle(x: TensorLike, upscale_factor, data_format="NCHW", name=None):
    if x.dim() != 4:
        raise ValueError(f"Input x should be 4D tensor, but received x with the shape of {list(x.shape)}")
    last = _fmt(data_format, "pixel_shuffle")
    xt = x.permute(0, 3, 1, 2) if last else x
    out = TF.pixel_shuffle(xt, upscale_factor)
    return out.permute(0, 2, 3, 1) if last else out


@op
def pixel_unshuffle(x: TensorLike, downscale_factor, data_format="NCHW", name=None):
    if x.dim() != 4:
        raise ValueError(f"Input x should be 4D tensor, but received x with the shape of {list(x.shape)}")
    if not isinstance(downscale_factor, int) or downscale_factor <= 0:
        raise ValueError("Downscale factor must be positive")
    last = _fmt(data_format, "pixel_unshuffle")
    xt = x.permute(0, 3, 1, 2) if last else x
    out = TF.pixel_unshuffle(xt, downscale_factor)
    return out.permute(0, 2, 3, 1) if last else out


@op
def channel_shuffle(x: TensorLike, groups, data_format="NCHW", name=None):
    if x.dim() != 4:
        raise ValueError(f"Input x should be 4D tensor, but received x with the shape of {list(x.shape)}")
    if not isinstance(groups, int) or groups <= 0:
        raise ValueError("groups should be a positive integer")
    last = _fmt(data_format, "channel_shuffle")
    xt = x.permute(0, 3, 1, 2) if last else x
    n, c, h, w = xt.shape
    if c % groups:
        raise ValueError("The number of channels must be divisible by groups")
    out = xt.reshape(n, groups, c // groups, h, w).transpose(1, 2).reshape(n, c, h, w)
    return out.permute(0, 2, 3, 1) if last else out


del torch
