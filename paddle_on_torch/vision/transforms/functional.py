"""paddle.vision.transforms.functional: image functions on PIL images, numpy HWC arrays and CHW Tensors.

Each function checks the image kind and hands it to functional_pil, functional_cv2 (numpy) or
functional_tensor, as Paddle does.
"""
import math
import numbers

import numpy as np
from PIL import Image

import paddle_on_torch as paddle

from . import functional_cv2 as F_cv2
from . import functional_pil as F_pil
from . import functional_tensor as F_t

__all__ = []


def _is_pil_image(img):
    return isinstance(img, Image.Image)


def _is_tensor_image(img):
    return isinstance(img, paddle.Tensor)


def _is_numpy_image(img):
    return isinstance(img, np.ndarray) and img.ndim in (2, 3)


def _check_image(img, what="img"):
    if not (_is_pil_image(img) or _is_numpy_image(img) or _is_tensor_image(img)):
        raise TypeError(f"{what} should be PIL Image or Tensor Image or ndarray with dim=[2 or 3]. Got {type(img)}")


def _dispatch(img, pil, tensor, numpy):
    if _is_pil_image(img):
        return pil
    if _is_tensor_image(img):
        return tensor
    return numpy


def to_tensor(pic, data_format="CHW"):
    _check_image(pic, "pic")
    if _is_pil_image(pic):
        return F_pil.to_tensor(pic, data_format)
    if _is_numpy_image(pic):
        return F_cv2.to_tensor(pic, data_format)
    return pic if data_format.lower() == "chw" else pic.transpose((1, 2, 0))


def resize(img, size, interpolation="bilinear"):
    _check_image(img)
    return _dispatch(img, F_pil.resize, F_t.resize, F_cv2.resize)(img, size, interpolation)


def pad(img, padding, fill=0, padding_mode="constant"):
    _check_image(img)
    return _dispatch(img, F_pil.pad, F_t.pad, F_cv2.pad)(img, padding, fill, padding_mode)


def crop(img, top, left, height, width):
    _check_image(img)
    return _dispatch(img, F_pil.crop, F_t.crop, F_cv2.crop)(img, top, left, height, width)


def center_crop(img, output_size):
    _check_image(img)
    return _dispatch(img, F_pil.center_crop, F_t.center_crop, F_cv2.center_crop)(img, output_size)


def hflip(img):
    _check_image(img)
    return _dispatch(img, F_pil.hflip, F_t.hflip, F_cv2.hflip)(img)


def vflip(img):
    _check_image(img)
    return _dispatch(img, F_pil.vflip, F_t.vflip, F_cv2.vflip)(img)


def adjust_brightness(img, brightness_factor):
    _check_image(img)
    if _is_numpy_image(img):
        return F_cv2.adjust_brightness(img.astype(np.uint8), brightness_factor)
    return _dispatch(img, F_pil.adjust_brightness, F_t.adjust_brightness, None)(img, brightness_factor)


def adjust_contrast(img, contrast_factor):
    _check_image(img)
    return _dispatch(img, F_pil.adjust_contrast, F_t.adjust_contrast, F_cv2.adjust_contrast)(img, contrast_factor)


def adjust_saturation(img, saturation_factor):
    _check_image(img)
    return _dispatch(img, F_pil.adjust_saturation, F_t.adjust_saturation, F_cv2.adjust_saturation)(
        img, saturation_factor)


def adjust_hue(img, hue_factor):
    _check_image(img)
    return _dispatch(img, F_pil.adjust_hue, F_t.adjust_hue, F_cv2.adjust_hue)(img, hue_factor)


def _get_affine_matrix(center, angle, translate, scale, shear):
    """The inverse affine matrix (output pixel -> input pixel) for rotation, translation, scale and shear."""
    rot = math.radians(angle)
    sx, sy = math.radians(shear[0]), math.radians(shear[1])
    # forward: rotation-shear part [[a, b], [c, d]], inverted here
    a = math.cos(rot - sy) / math.cos(sy)
    b = -math.cos(rot - sy) * math.tan(sx) / math.cos(sy) - math.sin(rot)
    c = math.sin(rot - sy) / math.cos(sy)
    d = -math.sin(rot - sy) * math.tan(sx) / math.cos(sy) + math.cos(rot)
    cx, cy = center
    tx, ty = translate
    m = [v / scale for v in (d, -b, 0.0, -c, a, 0.0)]
    m[2] += m[0] * (-cx - tx) + m[1] * (-cy - ty)
    m[5] += m[3] * (-cx - tx) + m[4] * (-cy - ty)
    m[2] += cx
    m[5] += cy
    return m


def affine(img, angle, translate, scale, shear, interpolation="nearest", fill=0, center=None):
    _check_image(img)
    if not isinstance(angle, (int, float)):
        raise TypeError("Argument angle should be int or float")
    if not isinstance(translate, (list, tuple)):
        raise TypeError("Argument translate should be a sequence")
    if len(translate) != 2:
        raise ValueError("Argument translate should be a sequence of length 2")
    if scale <= 0.0:
        raise ValueError("Argument scale should be positive")
    if not isinstance(shear, (numbers.Number, list, tuple)):
        raise TypeError("Shear should be either a single value or a sequence of two values")
    if not isinstance(interpolation, str):
        raise TypeError("Argument interpolation should be a string")
    angle = float(angle)
    translate = list(translate)
    shear = [shear, 0.0] if isinstance(shear, numbers.Number) else list(shear)
    if len(shear) == 1:
        shear = [shear[0], shear[0]]
    if len(shear) != 2:
        raise ValueError(f"Shear should be a sequence containing two values. Got {shear}")
    if center is not None and not isinstance(center, (list, tuple)):
        raise TypeError("Argument center should be a sequence")
    if _is_pil_image(img):
        w, h = img.size
        if center is None:
            center = [w * 0.5, h * 0.5]
        return F_pil.affine(img, _get_affine_matrix(center, angle, translate, scale, shear), interpolation, fill)
    if _is_numpy_image(img):
        # Paddle names shape[0] the width here; the centre it computes is (rows / 2, cols / 2)
        rows, cols = img.shape[0:2]
        if center is None:
            center = (rows * 0.5, cols * 0.5)
        return F_cv2.affine(img, angle, translate, scale, shear, interpolation, fill, center)
    center_f = [0.0, 0.0]
    if center is not None:
        # Paddle pairs the x centre with the image height and y with the width (kept as it is)
        sizes = [img.shape[-2], img.shape[-1]]
        center_f = [1.0 * (c - s * 0.5) for c, s in zip(center, sizes)]
    matrix = _get_affine_matrix(center_f, angle, [1.0 * t for t in translate], scale, shear)
    return F_t.affine(img, matrix, interpolation, fill)


def rotate(img, angle, interpolation="nearest", expand=False, center=None, fill=0):
    _check_image(img)
    if isinstance(center, list):
        center = tuple(center)
    if isinstance(fill, list):
        fill = tuple(fill)
    return _dispatch(img, F_pil.rotate, F_t.rotate, F_cv2.rotate)(img, angle, interpolation, expand, center, fill)


def _get_perspective_coeffs(startpoints, endpoints):
    """The 8 coefficients mapping output (end) points to input (start) points, by least squares."""
    rows = []
    for (ex, ey), (sx, sy) in zip(endpoints, startpoints):
        rows.append([ex, ey, 1, 0, 0, 0, -sx * ex, -sx * ey])
        rows.append([0, 0, 0, ex, ey, 1, -sy * ex, -sy * ey])
    a = np.array(rows, dtype=np.float64)
    b = np.array(startpoints).reshape([8])
    return list(np.linalg.lstsq(a, b, rcond=None)[0])


def perspective(img, startpoints, endpoints, interpolation="nearest", fill=0):
    _check_image(img)
    if _is_numpy_image(img):
        return F_cv2.perspective(img, startpoints, endpoints, interpolation, fill)
    coeffs = _get_perspective_coeffs(startpoints, endpoints)
    return _dispatch(img, F_pil.perspective, F_t.perspective, None)(img, coeffs, interpolation, fill)


def to_grayscale(img, num_output_channels=1):
    _check_image(img)
    return _dispatch(img, F_pil.to_grayscale, F_t.to_grayscale, F_cv2.to_grayscale)(img, num_output_channels)


def normalize(img, mean, std, data_format="CHW", to_rgb=False):
    if _is_tensor_image(img):
        return F_t.normalize(img, mean, std, data_format)
    if _is_pil_image(img):
        img = np.array(img).astype(np.float32)
    return F_cv2.normalize(img, mean, std, data_format, to_rgb)


def erase(img, i, j, h, w, v, inplace=False):
    if _is_tensor_image(img):
        return F_t.erase(img, i, j, h, w, v, inplace=inplace)
    if _is_pil_image(img):
        return F_pil.erase(img, i, j, h, w, v, inplace=inplace)
    return F_cv2.erase(img, i, j, h, w, v, inplace=inplace)
