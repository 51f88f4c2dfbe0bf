"""paddle.fft over torch.fft.

Paddle's norm names ('backward', 'forward', 'ortho') are torch's; Paddle
rejects anything else (None included) with ValueError, and turns integer
input into the default float dtype first.  n/s/axes are checked the way
Paddle checks them (ValueError).
"""
from collections.abc import Sequence

import torch

from . import _report
from ._normalize import DTypeLike, PlaceLike, RequiresGrad, TensorLike, is_tensor, op
from ._core import dtype as _dtypes

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2",
           "fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]

_COMPLEX_OF = {torch.float32: torch.complex64, torch.float64: torch.complex128, torch.float16: torch.complex64,
               torch.bfloat16: torch.complex64}


def _check_norm(norm):
    if norm not in ("forward", "backward", "ortho"):
        raise ValueError(f"Unexpected norm: {norm}. Norm should be forward, backward or ortho")


def _check_n(n):
    if n is None:
        return
    if not isinstance(n, int) or isinstance(n, bool):
        raise ValueError(f"Invalid FFT argument n({n}), it should be an integer.")
    if n <= 0:
        raise ValueError(f"Invalid FFT argument n({n}), it should be positive.")


def _check_axis(x, axis):
    nd = x.dim()
    if not isinstance(axis, int):
        raise ValueError(f"Invalid FFT axis ({axis}), it should be an integer.")
    if axis < -nd or axis >= nd:
        raise ValueError(f"Invalid FFT axis ({axis}), it should be in range [-{nd}, {nd})")


def _check_s_axes(x, s, axes, pair=False):
    nd = x.dim()
    if pair:
        if s is not None and (not isinstance(s, Sequence) or len(s) != 2):
            raise ValueError(f"Invalid FFT argument s ({s}), it should be a sequence of 2 integers.")
        if axes is not None and (not isinstance(axes, Sequence) or len(axes) != 2):
            raise ValueError(f"Invalid FFT argument axes ({axes}), it should be a sequence of 2 integers.")
    if s is not None:
        if not isinstance(s, Sequence):
            raise ValueError(f"Invalid FFT argument s({s}), it should be a sequence of integers.")
        if len(s) > nd:
            raise ValueError(f"Length of FFT argument s should not be larger than the rank of input. Received s: "
                             f"{s}, rank of x: {nd}")
        for size in s:
            if not isinstance(size, int) or size <= 0:
                raise ValueError(f"FFT sizes {s} contains invalid value ({size})")
    if axes is not None:
        if not isinstance(axes, Sequence):
            raise ValueError(f"Invalid FFT axes ({axes}), it should be a sequence of integers.")
        if len(axes) > nd:
            raise ValueError(f"Length of fft axes should not be larger than the rank of input. Received, len of "
                             f"axes: {len(axes)}, rank of x: {nd}")
        for a in axes:
            if not isinstance(a, int) or a < -nd or a >= nd:
                raise ValueError(f"FFT axes {axes} contains invalid value ({a}), it should be in range [-{nd}, {nd})")
        if s is not None and len(s) != len(axes):
            raise ValueError(f"Length of s ({len(s)}) and length of axes ({len(axes)}) does not match.")
    return None if s is None else list(s), None if axes is None else list(axes)


def _real_in(x):
    """Input of a real-to-complex transform: integers become the default float dtype."""
    if x.is_complex():
        raise RuntimeError("(NotFound) a real-to-complex FFT expects a real input tensor, but received "
                           f"{_dtypes.dtype_name(x.dtype)}.")
    if not x.is_floating_point():
        return x.to(_dtypes.default_float_torch())
    return x


def _complex_in(x, c2r=False):
    """Input of a complex transform: real becomes the matching complex dtype."""
    if x.is_complex():
        return x
    if not x.is_floating_point():
        if c2r:  # Paddle's cast lands on a real dtype here and its c2r kernel refuses it
            raise RuntimeError("(NotFound) The kernel with key (CPU, Undefined(AnyLayout), float32) of kernel "
                               "`fft_c2r` is not registered. Paddle support following DataTypes: complex128, "
                               "complex64.")
        x = x.to(_dtypes.default_float_torch())
    return x.to(_COMPLEX_OF[x.dtype])


def _one(kind):
    torch_fn = getattr(torch.fft, kind)
    real_input = kind in ("rfft", "ihfft")
    complex_input = kind in ("irfft", "hfft")

    def impl(x: TensorLike, n=None, axis=-1, norm="backward", name=None, *, out=None):
        _check_norm(norm)
        _check_n(n)
        _check_axis(x, axis)
        if real_input:
            x = _real_in(x)
        elif complex_input:
            x = _complex_in(x, c2r=True)
        elif not x.is_complex():
            x = _real_in(x)
        return torch_fn(x, n=n, dim=axis, norm=norm)

    impl.__name__ = impl.__qualname__ = kind
    impl.__module__ = __name__
    impl.__doc__ = f"paddle.fft.{kind} over torch.fft.{kind}."
    return op(impl, aliases={"dim": "axis"})


def _many(kind, pair):
    torch_fn = getattr(torch.fft, kind.replace("2", "n"))
    real_input = kind.startswith(("rfft", "ihfft"))
    complex_input = kind.startswith(("irfft", "hfft"))

    def impl(x: TensorLike, s=None, axes=None, norm="backward", name=None, *, out=None):
        _check_norm(norm)
        s, axes = _check_s_axes(x, s, axes, pair)
        if real_input:
            x = _real_in(x)
        elif complex_input:
            x = _complex_in(x, c2r=True)
        elif not x.is_complex():
            x = _real_in(x)
        return torch_fn(x, s=s, dim=axes, norm=norm)

    if pair:
        impl.__defaults__ = (None, (-2, -1), "backward", None)
    impl.__name__ = impl.__qualname__ = kind
    impl.__module__ = __name__
    impl.__doc__ = f"paddle.fft.{kind} over torch.fft."
    return op(impl, aliases={"dim": "axes"})


for _k in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"):
    globals()[_k] = _one(_k)
for _k in ("fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn"):
    globals()[_k] = _many(_k, False)
for _k in ("fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2"):
    globals()[_k] = _many(_k, True)


def _freq(torch_fn, n, d, dtype, device):
    if d * n == 0:
        raise ValueError("d or n should not be 0.")
    dtype = _dtypes.default_float_torch() if dtype is None else dtype
    return torch_fn(n, d=d, dtype=dtype, device=device)


@op
def fftfreq(n, d=1.0, dtype: DTypeLike = None, name=None, *, out=None, device: PlaceLike = None,
            requires_grad: RequiresGrad = False):
    return _freq(torch.fft.fftfreq, n, d, dtype, device)


@op
def rfftfreq(n, d=1.0, dtype: DTypeLike = None, name=None, *, out=None, device: PlaceLike = None,
             requires_grad: RequiresGrad = False):
    return _freq(torch.fft.rfftfreq, n, d, dtype, device)


def _axes_of(axes):
    if axes is None or isinstance(axes, int):
        return axes
    if is_tensor(axes):
        axes = axes._t.tolist()
    return tuple(int(a) for a in axes)


@op(aliases={"dim": "axes"})
def fftshift(x: TensorLike, axes=None, name=None):
    return torch.fft.fftshift(x, dim=_axes_of(axes))


@op(aliases={"dim": "axes"})
def ifftshift(x: TensorLike, axes=None, name=None):
    return torch.fft.ifftshift(x, dim=_axes_of(axes))


__getattr__ = _report.module_getattr("paddle.fft")
