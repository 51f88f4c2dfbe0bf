"""The paddle.Tensor side of paddle.vision.transforms.functional (CHW images, or NCHW batches).

Written with paddle_on_torch's own ops, so dtypes, promotion and errors follow the rest of the
shim; the sampling grids of affine/rotate/perspective are built in float32 as Paddle builds them
and sampled with grid_sample (align_corners=False, zero padding, then the fill mask).
"""
import math
import numbers

import torch

import paddle_on_torch as paddle
from ..._normalize import wrap


def _check(img, data_format="CHW"):
    if not isinstance(img, paddle.Tensor) or img.ndim < 3 or img.ndim > 4 or \
            data_format.lower() not in ("chw", "hwc"):
        raise RuntimeError(f"not support [type={type(img)}, ndim={getattr(img, 'ndim', None)}, "
                           f"data_format={data_format}] paddle image")


def _axes(data_format):
    """(channel, height, width) axes for CHW / HWC."""
    return (-3, -2, -1) if data_format.lower() == "chw" else (-1, -3, -2)


def image_size(img, data_format="CHW"):
    _, h, w = _axes(data_format)
    return img.shape[w], img.shape[h]


def _channels(img, data_format="CHW"):
    return img.shape[_axes(data_format)[0]]


def _no_uint8(img, kernel):
    """Paddle has no uint8 CPU kernel for the arithmetic these colour ops use; it raises rather than computing."""
    if img.dtype == paddle.uint8:
        raise RuntimeError(f"(NotFound) The kernel `{kernel}` is not registered for data type uint8 "
                           "(Paddle supports float and int32/int64 images here).")


def _blend(img1, img2, ratio):
    top = 1.0 if paddle.is_floating_point(img1) else 255.0
    return paddle.lerp(img2, img1, float(ratio)).clip(0, top).astype(img1.dtype)


def normalize(img, mean, std, data_format="CHW"):
    _check(img, data_format)
    mean, std = paddle.to_tensor(mean, place=img.place), paddle.to_tensor(std, place=img.place)
    if _axes(data_format)[0] == -3:
        mean, std = mean.reshape([-1, 1, 1]), std.reshape([-1, 1, 1])
    return (img - mean) / std


def to_grayscale(img, num_output_channels=1, data_format="CHW"):
    _check(img, data_format)
    if num_output_channels not in (1, 3):
        raise ValueError("num_output_channels should be either 1 or 3")
    _no_uint8(img, "multiply")
    c = _axes(data_format)[0]
    weights = paddle.to_tensor([0.2989, 0.587, 0.114], place=img.place).astype(img.dtype)
    if c == -3:
        weights = weights.reshape([-1, 1, 1])
    gray = (img * weights).sum(axis=c, keepdim=True)
    shape = list(gray.shape)
    shape[c] = num_output_channels
    return gray.expand(shape)


def hflip(img, data_format="CHW"):
    _check(img, data_format)
    return img.flip(axis=[_axes(data_format)[2]])


def vflip(img, data_format="CHW"):
    _check(img, data_format)
    return img.flip(axis=[_axes(data_format)[1]])


def crop(img, top, left, height, width, data_format="CHW"):
    _check(img, data_format)
    # as Paddle: the first two axes after the leading one are sliced (a 4-D batch is cut along C and H)
    if data_format.lower() == "chw":
        return img[:, top:top + height, left:left + width]
    return img[top:top + height, left:left + width, :]


def center_crop(img, output_size, data_format="CHW"):
    _check(img, data_format)
    if isinstance(output_size, numbers.Number):
        output_size = (int(output_size), int(output_size))
    w, h = image_size(img, data_format)
    th, tw = output_size
    return crop(img, int(round((h - th) / 2.0)), int(round((w - tw) / 2.0)), th, tw, data_format)


def pad(img, padding, fill=0, padding_mode="constant", data_format="CHW"):
    from .functional_pil import _pad_sides, check_pad_args

    _check(img, data_format)
    check_pad_args(padding, fill, padding_mode)
    left, top, right, bottom = _pad_sides(padding)
    if padding_mode == "symmetric":
        raise ValueError("Do not support symmetric mode")
    mode = "replicate" if padding_mode == "edge" else padding_mode
    out = paddle.nn.functional.pad(img.unsqueeze(0), pad=[left, right, top, bottom], mode=mode, value=float(fill),
                                   data_format="N" + data_format)
    return out.squeeze(0)


def resize(img, size, interpolation="bilinear", data_format="CHW"):
    _check(img, data_format)
    if not (isinstance(size, int) or (isinstance(size, (tuple, list)) and len(size) == 2)):
        raise TypeError(f"Got inappropriate size arg: {size}")
    if isinstance(size, int):
        w, h = image_size(img, data_format)
        if w <= 0 or h <= 0:
            raise NotImplementedError(f"Not support while w<=0 or h<=0, but received w={w}, h={h}")
        if min(w, h) == size:
            return img
        ow, oh = (size, int(size * h / w)) if w < h else (int(size * w / h), size)
    else:
        oh, ow = size
    mode = interpolation.lower()
    x = img.unsqueeze(0)
    integer = mode in ("bilinear", "linear") and not paddle.is_floating_point(img)
    if integer:  # Paddle's integer kernels compute in float32 and truncate (torch's round)
        x = x.astype("float32")
    out = paddle.nn.functional.interpolate(x, size=(oh, ow), mode=mode, data_format="N" + data_format.upper())
    if integer:
        out = out.trunc().astype(img.dtype)
    return out.squeeze(0)


def erase(img, i, j, h, w, v, inplace=False):
    _check(img, "CHW")
    if not inplace:
        img = img.clone()
    img[..., i:i + h, j:j + w] = v
    return img


# ---------------------------------------------------------------- colour


def adjust_brightness(img, factor):
    _check(img, "CHW")
    assert factor >= 0, "brightness_factor should be non-negative."
    assert _channels(img) in (1, 3), "channels of input should be either 1 or 3."
    _no_uint8(img, "lerp")
    return _blend(img, paddle.zeros_like(img, img.dtype), factor)


def adjust_contrast(img, factor):
    _check(img, "CHW")
    assert factor >= 0, "contrast_factor should be non-negative."
    channels = _channels(img)
    _no_uint8(img, "multiply")
    dtype = img.dtype if paddle.is_floating_point(img) else paddle.float32
    if channels == 1:
        gray = img
    elif channels == 3:
        gray = to_grayscale(img)
    else:
        raise ValueError("channels of input should be either 1 or 3.")
    return _blend(img, paddle.mean(gray.astype(dtype), axis=(-3, -2, -1), keepdim=True), factor)


def adjust_saturation(img, factor):
    _check(img, "CHW")
    assert factor >= 0, "saturation_factor should be non-negative."
    channels = _channels(img)
    if channels == 1:
        return img
    if channels != 3:
        raise ValueError("channels of input should be either 1 or 3.")
    _no_uint8(img, "multiply")
    return _blend(img, to_grayscale(img), factor)


def _rgb_to_hsv(x):
    """torch (..., 3, H, W) in [0, 1] -> hue, saturation, value, as Paddle computes them."""
    maxc, minc = x.amax(dim=-3), x.amin(dim=-3)
    same = maxc == minc
    one = torch.ones_like(maxc)
    delta = maxc - minc
    s = delta / torch.where(same, one, maxc)
    r, g, b = x.unbind(dim=-3)
    d = torch.where(same, one, delta)
    rc, gc, bc = (maxc - r) / d, (maxc - g) / d, (maxc - b) / d
    hr = (maxc == r).to(x.dtype) * (bc - gc)
    hg = ((maxc == g) & (maxc != r)).to(x.dtype) * (rc - bc + 2.0)
    hb = ((maxc != r) & (maxc != g)).to(x.dtype) * (gc - rc + 4.0)
    h = (hr + hg + hb) / 6.0 + 1.0
    return h - h.trunc(), s, maxc


def _hsv_to_rgb(h, s, v):
    f = h * 6.0
    i = torch.floor(f)
    f = f - i
    i = i.to(torch.int32) % 6
    p = (v * (1.0 - s)).clamp(0.0, 1.0)
    q = (v * (1.0 - s * f)).clamp(0.0, 1.0)
    t = (v * (1.0 - s * (1.0 - f))).clamp(0.0, 1.0)
    sector = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)]
    out = torch.zeros(h.shape[:-2] + (3,) + h.shape[-2:], dtype=h.dtype, device=h.device)
    for k, rgb in enumerate(sector):
        m = (i == k).to(h.dtype).unsqueeze(-3)
        out = out + m * torch.stack(rgb, dim=-3)
    return out


def adjust_hue(img, hue_factor):
    _check(img, "CHW")
    assert -0.5 <= hue_factor <= 0.5, "hue_factor should be in range [-0.5, 0.5]"
    channels = _channels(img)
    if channels == 1:
        return img
    if channels != 3:
        raise ValueError("channels of input should be either 1 or 3.")
    x = img._t
    dtype = x.dtype
    if dtype == torch.uint8:
        x = x.to(torch.float32) / 255.0
    h, s, v = _rgb_to_hsv(x)
    h = h + hue_factor
    h = h - h.floor()
    out = _hsv_to_rgb(h, s, v)
    if dtype == torch.uint8:
        out = (out * 255.0).to(dtype)
    return wrap(out)


# ---------------------------------------------------------------- geometry (grid sampling)


def _linspace(a, b, n):
    return torch.linspace(a, b, n, dtype=torch.float32)


def _affine_grid(theta, w, h, ow, oh):
    """theta: torch (1, 2, 3) float32 in pixel units about the centre -> grid (1, oh, ow, 2) in [-1, 1]."""
    base = torch.ones((1, oh, ow, 3), dtype=theta.dtype)
    base[..., 0] = _linspace(-ow * 0.5 + 0.5, ow * 0.5 - 0.5, ow)
    base[..., 1] = _linspace(-oh * 0.5 + 0.5, oh * 0.5 - 0.5, oh).unsqueeze(-1)
    scaled = theta.transpose(1, 2) / torch.tensor([0.5 * w, 0.5 * h], dtype=torch.float32)
    return base.reshape(1, oh * ow, 3).bmm(scaled).reshape(1, oh, ow, 2)


def _grid_transform(img, grid, mode, fill):
    """img: paddle Tensor (N, C, H, W); grid: torch (1, oh, ow, 2)."""
    n = img.shape[0]
    if n > 1:
        grid = grid.expand(n, *grid.shape[1:])
    grid = wrap(grid.to(img._t.dtype) if img._t.is_floating_point() else grid)
    if fill is not None:
        img = paddle.concat([img, paddle.ones([n, 1, img.shape[2], img.shape[3]], dtype=img.dtype)], axis=1)
    out = paddle.nn.functional.grid_sample(img, grid, mode=mode, padding_mode="zeros", align_corners=False)
    if fill is None:
        return out
    mask = out[:, -1:, :, :].tile([1, out.shape[1] - 1, 1, 1])
    out = out[:, :-1, :, :]
    k = len(fill) if isinstance(fill, (tuple, list)) else 1
    fill_img = paddle.to_tensor(fill).reshape([1, k, 1, 1]).astype(out.dtype).expand_as(out)
    if mode == "nearest":
        mask = (mask < 0.5).astype(out.dtype)
        return out * (1.0 - mask) + mask * fill_img
    return out * mask + (1.0 - mask) * fill_img


def _to_nchw(img, data_format):
    return img if data_format.lower() == "chw" else img.transpose([0, 3, 1, 2])


def _from_nchw(img, data_format):
    return img if data_format.lower() == "chw" else img.transpose([0, 2, 3, 1])


def affine(img, matrix, interpolation="nearest", fill=None, data_format="CHW"):
    ndim = img.ndim
    if ndim == 3:
        img = img.unsqueeze(0)
    img = _to_nchw(img, data_format)
    theta = torch.tensor(matrix, dtype=torch.float32).reshape(1, 2, 3)
    h, w = img.shape[-2], img.shape[-1]
    grid = _affine_grid(theta, w, h, w, h)
    if isinstance(fill, int):
        fill = (fill,) * 3
    out = _from_nchw(_grid_transform(img, grid, interpolation, fill), data_format)
    return out.squeeze(0) if ndim == 3 else out


def rotate(img, angle, interpolation="nearest", expand=False, center=None, fill=None, data_format="CHW"):
    angle = -angle % 360
    img = img.unsqueeze(0)
    w, h = image_size(img, data_format)
    img = _to_nchw(img, data_format)
    cx, cy = (0, 0) if center is None else (center[0] - w * 0.5, center[1] - h * 0.5)
    a = math.radians(angle)
    m = torch.tensor([math.cos(a), math.sin(a), 0.0, -math.sin(a), math.cos(a), 0.0], dtype=torch.float32)
    m[2] += m[0] * (-cx - 0) + m[1] * (-cy - 0) + cx
    m[5] += m[3] * (-cx - 0) + m[4] * (-cy - 0) + cy
    theta = m.reshape(1, 2, 3)
    if expand:
        corners = torch.tensor([[-0.5 * w, -0.5 * h, 1.0], [-0.5 * w, 0.5 * h, 1.0], [0.5 * w, 0.5 * h, 1.0],
                                [0.5 * w, -0.5 * h, 1.0]], dtype=torch.float32)
        pos = corners.reshape(1, -1, 3).bmm(theta.transpose(1, 2)).reshape(1, -1, 2)
        size = pos.amax(dim=-2).ceil() - pos.amin(dim=-2).floor()
        ow, oh = int(size[0][0]), int(size[0][1])
    else:
        ow, oh = w, h
    grid = _affine_grid(theta, w, h, ow, oh)
    out = _from_nchw(_grid_transform(img, grid, interpolation, fill), data_format)
    return out.squeeze(0)


def _perspective_grid(coeffs, ow, oh, dtype):
    theta1 = coeffs[:6].reshape(1, 2, 3)
    theta2 = torch.cat([coeffs[6:].reshape(1, 2).repeat(2, 1), torch.ones((2, 1), dtype=dtype)], dim=1).unsqueeze(0)
    base = torch.ones((1, oh, ow, 3), dtype=dtype)
    base[..., 0] = _linspace(0.5, ow * 1.0 - 0.5, ow)
    base[..., 1] = _linspace(0.5, oh * 1.0 - 0.5, oh).unsqueeze(-1)
    flat = base.reshape(1, oh * ow, 3)
    g1 = flat.bmm(theta1.transpose(1, 2) / torch.tensor([0.5 * ow, 0.5 * oh], dtype=torch.float32))
    g2 = flat.bmm(theta2.transpose(1, 2))
    return (g1 / g2 - 1.0).reshape(1, oh, ow, 2)


def perspective(img, coeffs, interpolation="nearest", fill=None, data_format="CHW"):
    ndim = img.ndim
    if ndim == 3:
        img = img.unsqueeze(0)
    img = _to_nchw(img, data_format)
    ow, oh = img.shape[-1], img.shape[-2]
    dtype = img._t.dtype if img._t.is_floating_point() else torch.float32
    coeffs = paddle.to_tensor(coeffs)._t.to(dtype)
    grid = _perspective_grid(coeffs, ow, oh, dtype)
    out = _from_nchw(_grid_transform(img, grid, interpolation, fill), data_format)
    return out.squeeze(0) if ndim == 3 else out
