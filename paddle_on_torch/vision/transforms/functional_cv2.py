"""The numpy (HWC) side of paddle.vision.transforms.functional.

Paddle does this with OpenCV.  paddle_on_torch does not depend on OpenCV: where `cv2` is importable
it is used exactly as Paddle uses it; without it, the operations whose OpenCV result is a plain
array operation (flips, lookup-table brightness/contrast, borders, crops, normalize, erase) are
computed with numpy, and the resampling ones (resize, affine, rotate, perspective, hue, saturation)
raise Paddle's ImportError for a missing cv2.
"""
import importlib
import math
import numbers
from collections.abc import Iterable

import numpy as np

from .functional_pil import _pad_sides, check_pad_args


def _cv2(required=True):
    try:
        return importlib.import_module("cv2")
    except ImportError:
        if not required:
            return None
        raise ImportError("Failed importing cv2. This likely means that some paddle modules require additional "
                          "dependencies that have to be manually installed (usually with `pip install "
                          "opencv-python`). ") from None


def _interp(cv2, name):
    table = {"nearest": cv2.INTER_NEAREST, "bilinear": cv2.INTER_LINEAR, "area": cv2.INTER_AREA,
             "bicubic": cv2.INTER_CUBIC, "lanczos": cv2.INTER_LANCZOS4}
    return table[name]


def _keep_channel(img, out):
    """OpenCV drops a trailing channel axis of 1; Paddle puts it back."""
    return out[:, :, np.newaxis] if img.ndim == 3 and img.shape[2] == 1 and out.ndim == 2 else out


def to_tensor(pic, data_format="CHW"):
    import paddle_on_torch as paddle

    if data_format not in ("CHW", "HWC"):
        raise ValueError(f"data_format should be CHW or HWC. Got {data_format}")
    if pic.ndim == 2:
        pic = pic[:, :, None]
    img = paddle.to_tensor(pic.transpose((2, 0, 1)) if data_format == "CHW" else pic)
    if pic.dtype == np.uint8:
        return img.astype("float32") / 255.0
    return img


def resize(img, size, interpolation="bilinear"):
    cv2 = _cv2()
    interp = _interp(cv2, interpolation)
    if not (isinstance(size, int) or (isinstance(size, Iterable) and len(size) == 2)):
        raise TypeError(f"Got inappropriate size arg: {size}")
    h, w = img.shape[:2]
    if isinstance(size, int):
        if min(w, h) == size:
            return img
        dsize = (size, int(size * h / w)) if w < h else (int(size * w / h), size)
    else:
        dsize = (size[1], size[0])
    return _keep_channel(img, cv2.resize(img, dsize=dsize, interpolation=interp))


def pad(img, padding, fill=0, padding_mode="constant"):
    cv2 = _cv2(required=False)
    check_pad_args(padding, fill, padding_mode)
    left, top, right, bottom = _pad_sides(tuple(padding) if isinstance(padding, list) else padding)
    if cv2 is not None:
        border = {"constant": cv2.BORDER_CONSTANT, "edge": cv2.BORDER_REPLICATE,
                  "reflect": cv2.BORDER_REFLECT_101, "symmetric": cv2.BORDER_REFLECT}[padding_mode]
        out = cv2.copyMakeBorder(img, top=top, bottom=bottom, left=left, right=right, borderType=border,
                                 value=fill)
        return _keep_channel(img, out)
    widths = ((top, bottom), (left, right)) + (((0, 0),) if img.ndim == 3 else ())
    if padding_mode != "constant":
        return np.pad(img, widths, padding_mode)  # numpy's reflect/symmetric are OpenCV's REFLECT_101/REFLECT
    channels = img.shape[2] if img.ndim == 3 else 1
    if isinstance(fill, str):
        raise TypeError("fill must be a number or a sequence of numbers for a numpy image")
    # OpenCV reads a number as the scalar (fill, 0, 0, 0): only the first channel gets it
    values = list(fill) if isinstance(fill, (list, tuple)) else [fill]
    values = (values + [0] * 4)[:channels]
    out = np.empty((img.shape[0] + top + bottom, img.shape[1] + left + right) + img.shape[2:], img.dtype)
    if img.ndim == 3:
        out[...] = np.asarray(values).astype(img.dtype)
    else:
        out[...] = np.asarray(values[0]).astype(img.dtype)
    out[top:top + img.shape[0], left:left + img.shape[1]] = img
    return out


def crop(img, top, left, height, width):
    return img[top:top + height, left:left + width, :]


def center_crop(img, output_size):
    if isinstance(output_size, numbers.Number):
        output_size = (int(output_size), int(output_size))
    h, w = img.shape[0:2]
    th, tw = output_size
    return crop(img, int(round((h - th) / 2.0)), int(round((w - tw) / 2.0)), th, tw)


def hflip(img):
    cv2 = _cv2(required=False)
    return cv2.flip(img, 1) if cv2 is not None else np.ascontiguousarray(img[:, ::-1])


def vflip(img):
    cv2 = _cv2(required=False)
    if cv2 is not None:
        return _keep_channel(img, cv2.flip(img, 0))
    return np.ascontiguousarray(img[::-1])


def _lut(img, table):
    cv2 = _cv2(required=False)
    if cv2 is not None:
        return _keep_channel(img, cv2.LUT(img, table))
    if img.dtype != np.uint8:
        raise ValueError("a lookup table applies to uint8 images only")
    return table[img]


def adjust_brightness(img, factor):
    return _lut(img, np.array([i * factor for i in range(256)]).clip(0, 255).astype("uint8"))


def adjust_contrast(img, factor):
    return _lut(img, np.array([(i - 74) * factor + 74 for i in range(256)]).clip(0, 255).astype("uint8"))


def adjust_saturation(img, factor):
    cv2 = _cv2()
    dtype = img.dtype
    img = img.astype(np.float32)
    alpha = np.random.uniform(max(0, 1 - factor), 1 + factor)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)[..., np.newaxis]
    return (img * alpha + gray * (1 - alpha)).clip(0, 255).astype(dtype)


def adjust_hue(img, hue_factor):
    cv2 = _cv2()
    if not -0.5 <= hue_factor <= 0.5:
        raise ValueError(f"hue_factor:{hue_factor} is not in [-0.5, 0.5].")
    dtype = img.dtype
    h, s, v = cv2.split(cv2.cvtColor(img.astype(np.uint8), cv2.COLOR_BGR2HSV_FULL))
    h = ((h.astype(np.int32) + int(hue_factor * 255)) % 256).astype(np.uint8)
    return cv2.cvtColor(cv2.merge([h, s, v]), cv2.COLOR_HSV2BGR_FULL).astype(dtype)


def affine(img, angle, translate, scale, shear, interpolation="nearest", fill=0, center=None):
    cv2 = _cv2()
    interp = _interp(cv2, interpolation)
    h, w = img.shape[0:2]
    if isinstance(fill, int):
        fill = (fill,) * 3
    if center is None:
        center = (w / 2.0, h / 2.0)
    rot = cv2.getRotationMatrix2D(angle=angle, center=center, scale=scale)
    sx, sy = math.tan(math.radians(shear[0])), math.tan(math.radians(shear[1]))
    m = np.ones([2, 3])
    m[0] = rot[0] + sy * rot[1]
    m[1] = rot[1] + sx * rot[0]
    m[0, 2], m[1, 2] = translate
    return _keep_channel(img, cv2.warpAffine(img, m, dsize=(w, h), flags=interp, borderValue=fill))


def rotate(img, angle, interpolation="nearest", expand=False, center=None, fill=0):
    cv2 = _cv2()
    interp = _interp(cv2, interpolation)
    h, w = img.shape[0:2]
    if center is None:
        center = (w / 2.0, h / 2.0)
    m = cv2.getRotationMatrix2D(center, angle, 1)
    if expand:
        a = -math.radians(angle)
        c, s = round(math.cos(a), 15), round(math.sin(a), 15)
        tx = c * -center[0] + s * -center[1] + center[0]
        ty = -s * -center[0] + c * -center[1] + center[1]
        pts = [(c * x + s * y + tx, -s * x + c * y + ty) for x, y in ((0, 0), (w, 0), (w, h), (0, h))]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        nw = math.ceil(max(xs)) - math.floor(min(xs))
        nh = math.ceil(max(ys)) - math.floor(min(ys))
        m[0, 2] += (nw - w) * 0.5
        m[1, 2] += (nh - h) * 0.5
        w, h = int(nw), int(nh)
    return _keep_channel(img, cv2.warpAffine(img, m, (w, h), flags=interp, borderValue=fill))


def perspective(img, startpoints, endpoints, interpolation="nearest", fill=0):
    cv2 = _cv2()
    interp = _interp(cv2, interpolation)
    h, w = img.shape[0:2]
    m = cv2.getPerspectiveTransform(np.array(startpoints, dtype="float32"), np.array(endpoints, dtype="float32"))
    return _keep_channel(img, cv2.warpPerspective(img, m, dsize=(w, h), flags=interp, borderValue=fill))


def _rgb_to_gray(img):
    cv2 = _cv2(required=False)
    if cv2 is not None:
        return cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)
    if img.ndim != 3 or img.shape[2] not in (3, 4):
        raise ValueError("to_grayscale expects an RGB image of shape (H, W, 3)")
    r, g, b = (img[..., k] for k in range(3))
    if img.dtype in (np.uint8, np.uint16):  # OpenCV's fixed-point weights (14 bits), rounded
        y = (r.astype(np.int64) * 4899 + g.astype(np.int64) * 9617 + b.astype(np.int64) * 1868 + (1 << 13)) >> 14
        return y.astype(img.dtype)
    if img.dtype == np.float32:
        return (r * np.float32(0.299) + g * np.float32(0.587) + b * np.float32(0.114)).astype(np.float32)
    raise ValueError(f"to_grayscale supports uint8, uint16 and float32 numpy images, got {img.dtype}")


def to_grayscale(img, num_output_channels=1):
    if num_output_channels == 1:
        return _rgb_to_gray(img)[:, :, np.newaxis]
    if num_output_channels == 3:
        return np.broadcast_to(_rgb_to_gray(img)[:, :, np.newaxis], img.shape)
    raise ValueError("num_output_channels should be either 1 or 3")


def normalize(img, mean, std, data_format="CHW", to_rgb=False):
    shape = (-1, 1, 1) if data_format == "CHW" else (1, 1, -1)
    mean = np.float32(np.array(mean).reshape(shape))
    std = np.float32(np.array(std).reshape(shape))
    if to_rgb:
        img = img[..., ::-1]
    return (img - mean) / std


def erase(img, i, j, h, w, v, inplace=False):
    if not inplace:
        img = img.copy()
    img[i:i + h, j:j + w, ...] = v
    return img
