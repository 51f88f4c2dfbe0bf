"""The PIL.Image side of paddle.vision.transforms.functional.

PIL does the pixel work exactly as it does under Paddle (same library, same calls), so the bytes
match; only the glue (argument checks, sizes, dtype of to_tensor) is ours.
"""
import numbers
from collections.abc import Iterable, Sequence

import numpy as np
from PIL import Image, ImageEnhance, ImageOps

_R = getattr(Image, "Resampling", Image)
INTERP = {"nearest": _R.NEAREST, "bilinear": _R.BILINEAR, "bicubic": _R.BICUBIC, "box": _R.BOX,
          "lanczos": _R.LANCZOS, "hamming": _R.HAMMING}


def _interp(name):
    try:
        return INTERP[name]
    except (KeyError, TypeError):
        raise KeyError(name) from None


def to_tensor(pic, data_format="CHW"):
    import paddle_on_torch as paddle

    if data_format not in ("CHW", "HWC"):
        raise ValueError(f"data_format should be CHW or HWC. Got {data_format}")
    mode = pic.mode
    if mode in ("I", "I;16"):
        arr = np.asarray(pic, np.int32)
    elif mode == "F":
        arr = np.asarray(pic, np.float32)
    elif mode == "1":
        arr = np.asarray(pic, np.uint8) * np.uint8(255)
    else:
        arr = np.asarray(pic)
    channels = 3 if mode == "YCbCr" else 1 if mode == "I;16" else len(mode)
    img = paddle.to_tensor(arr)
    if arr.dtype == np.uint8:
        img = img.astype("float32") / 255.0
    img = img.reshape([pic.size[1], pic.size[0], channels])
    return img.transpose([2, 0, 1]) if data_format == "CHW" else img


def _short_side_size(w, h, size):
    """Paddle's rule for an int size: the shorter side becomes `size`, the other keeps the ratio (truncated)."""
    if w < h:
        return size, int(size * h / w)
    return int(size * w / h), size


def resize(img, size, interpolation="bilinear"):
    if not (isinstance(size, int) or (isinstance(size, Iterable) and len(size) == 2)):
        raise TypeError(f"Got inappropriate size arg: {size}")
    if isinstance(size, int):
        w, h = img.size
        if min(w, h) == size:
            return img
        return img.resize(_short_side_size(w, h, size), _interp(interpolation))
    return img.resize((size[1], size[0]), _interp(interpolation))


def _pad_sides(padding):
    """(left, top, right, bottom) from an int, a 2-sequence (lr, tb) or a 4-sequence."""
    if isinstance(padding, numbers.Number):
        return padding, padding, padding, padding
    if len(padding) == 2:
        return padding[0], padding[1], padding[0], padding[1]
    return tuple(padding)


def check_pad_args(padding, fill, padding_mode):
    if not isinstance(padding, (numbers.Number, list, tuple)):
        raise TypeError("Got inappropriate padding arg")
    if not isinstance(fill, (numbers.Number, str, list, tuple)):
        raise TypeError("Got inappropriate fill arg")
    if not isinstance(padding_mode, str):
        raise TypeError("Got inappropriate padding_mode arg")
    if isinstance(padding, (list, tuple)) and len(padding) not in (2, 4):
        raise ValueError("Padding must be an int or a 2, or 4 element tuple, not a " +
                         f"{len(padding)} element tuple")
    if padding_mode not in ("constant", "edge", "reflect", "symmetric"):
        raise AssertionError("Padding mode should be either constant, edge, reflect or symmetric")


def pad(img, padding, fill=0, padding_mode="constant"):
    check_pad_args(padding, fill, padding_mode)
    if isinstance(padding, list):
        padding = tuple(padding)
    left, top, right, bottom = _pad_sides(padding)
    palette = img.getpalette() if img.mode == "P" else None
    if padding_mode == "constant":
        out = ImageOps.expand(img, border=padding, fill=fill)
    else:
        arr = np.asarray(img)
        widths = ((top, bottom), (left, right)) + (((0, 0),) if arr.ndim == 3 else ())
        out = Image.fromarray(np.pad(arr, widths, padding_mode))
    if palette is not None:
        out.putpalette(palette)
    return out


def crop(img, top, left, height, width):
    return img.crop((left, top, left + width, top + height))


def center_crop(img, output_size):
    if isinstance(output_size, numbers.Number):
        output_size = (int(output_size), int(output_size))
    w, h = img.size
    th, tw = output_size
    return crop(img, int(round((h - th) / 2.0)), int(round((w - tw) / 2.0)), th, tw)


def hflip(img):
    return img.transpose(Image.FLIP_LEFT_RIGHT)


def vflip(img):
    return img.transpose(Image.FLIP_TOP_BOTTOM)


def adjust_brightness(img, factor):
    return ImageEnhance.Brightness(img).enhance(factor)


def adjust_contrast(img, factor):
    return ImageEnhance.Contrast(img).enhance(factor)


def adjust_saturation(img, factor):
    return ImageEnhance.Color(img).enhance(factor)


def adjust_hue(img, hue_factor):
    if not -0.5 <= hue_factor <= 0.5:
        raise ValueError(f"hue_factor:{hue_factor} is not in [-0.5, 0.5].")
    mode = img.mode
    if mode in ("L", "1", "I", "F"):
        return img
    h, s, v = img.convert("HSV").split()
    shifted = ((np.asarray(h, dtype=np.uint8).astype(np.int16) + int(hue_factor * 255)) % 256).astype(np.uint8)
    return Image.merge("HSV", (Image.fromarray(shifted, "L"), s, v)).convert(mode)


def _fill3(fill):
    return (fill,) * 3 if isinstance(fill, int) else fill


def affine(img, matrix, interpolation="nearest", fill=0):
    # Paddle hands `fill` to Image.transform's 5th parameter (`fill`, not `fillcolor`): areas outside stay 0
    return img.transform(img.size, Image.AFFINE, matrix, _interp(interpolation), _fill3(fill))


def rotate(img, angle, interpolation="nearest", expand=False, center=None, fill=0):
    return img.rotate(angle, _interp(interpolation), expand, center, fillcolor=_fill3(fill))


def perspective(img, coeffs, interpolation="nearest", fill=0):
    return img.transform(img.size, Image.PERSPECTIVE, coeffs, _interp(interpolation), _fill3(fill))


def to_grayscale(img, num_output_channels=1):
    if num_output_channels == 1:
        return img.convert("L")
    if num_output_channels == 3:
        g = np.array(img.convert("L"), dtype=np.uint8)
        return Image.fromarray(np.dstack([g, g, g]), "RGB")
    raise ValueError("num_output_channels should be either 1 or 3")


def erase(img, i, j, h, w, v, inplace=False):
    arr = np.array(img, dtype=np.uint8)
    arr[i:i + h, j:j + w, ...] = v
    return Image.fromarray(arr, "RGB")
