"""paddle.audio.functional.get_window: scipy-style windows, computed in float64 and cast to `dtype`."""
import math

import torch

from ..._normalize import wrap
from ..._core.dtype import to_torch_dtype

_F64 = torch.float64


def _arange(a, b):
    return torch.arange(a, b, dtype=_F64)


def _general_cosine(M, a):
    fac = torch.linspace(-math.pi, math.pi, M, dtype=_F64)
    return sum(c * torch.cos(k * fac) for k, c in enumerate(a))


def _bartlett(M):
    n = _arange(0, M)
    return torch.where(n <= (M - 1) / 2.0, 2.0 * n / (M - 1), 2.0 - 2.0 * n / (M - 1))


def _kaiser(M, beta):
    n, alpha = _arange(0, M), (M - 1) / 2.0
    beta = torch.tensor(float(beta), dtype=_F64)
    return torch.special.i0(beta * torch.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / torch.special.i0(beta)


def _gaussian(M, std):
    n = _arange(0, M) - (M - 1.0) / 2.0
    return torch.exp(-(n ** 2) / (2 * std * std))


def _general_gaussian(M, p, sig):
    n = _arange(0, M) - (M - 1.0) / 2.0
    return torch.exp(-0.5 * torch.abs(n / sig) ** (2 * p))


def _exponential(M, center=None, tau=1.0):
    center = (M - 1) / 2 if center is None else center
    return torch.exp(-torch.abs(_arange(0, M) - center) / tau)


def _triang(M):
    n = _arange(1, (M + 1) // 2 + 1)
    if M % 2 == 0:
        w = (2 * n - 1.0) / M
        return torch.cat([w, w.flip(0)])
    w = 2 * n / (M + 1.0)
    return torch.cat([w, w[:-1].flip(0)])


def _bohman(M):
    fac = torch.abs(torch.linspace(-1, 1, M, dtype=_F64)[1:-1])
    w = (1 - fac) * torch.cos(math.pi * fac) + 1.0 / math.pi * torch.sin(math.pi * fac)
    z = torch.zeros(1, dtype=_F64)
    return torch.cat([z, w, z])


def _cosine(M):
    return torch.sin(math.pi / M * (_arange(0, M) + 0.5))


def _tukey(M, alpha=0.5):
    n = _arange(0, M)
    width = int(alpha * (M - 1) / 2.0)
    n1, n2, n3 = n[:width + 1], n[width + 1:M - width - 1], n[M - width - 1:]
    w1 = 0.5 * (1 + torch.cos(math.pi * (-1 + 2.0 * n1 / alpha / (M - 1))))
    w3 = 0.5 * (1 + torch.cos(math.pi * (-2.0 / alpha + 1 + 2.0 * n3 / alpha / (M - 1))))
    return torch.cat([w1, torch.ones_like(n2), w3])


def _taylor(M, nbar=4, sll=30, norm=True):
    B = 10 ** (sll / 20)
    A = math.log(B + math.sqrt(B ** 2 - 1)) / math.pi
    s2 = nbar ** 2 / (A ** 2 + (nbar - 0.5) ** 2)
    ma = _arange(1, nbar)
    m2 = ma * ma
    fm = torch.empty(nbar - 1, dtype=_F64)
    for i in range(nbar - 1):
        sign = 1.0 if i % 2 == 0 else -1.0
        num = sign * torch.prod(1 - m2[i] / s2 / (A ** 2 + (ma - 0.5) ** 2))
        den = 2 * torch.prod(1 - m2[i] / m2[:i]) * torch.prod(1 - m2[i] / m2[i + 1:])
        fm[i] = num / den

    def W(n):
        return 1 + 2 * (fm[None, :] @ torch.cos(2 * math.pi * ma[:, None] * (n - M / 2.0 + 0.5) / M))

    w = W(_arange(0, M))
    if norm:
        w = w / W(torch.tensor((M - 1) / 2, dtype=_F64))
    return w.reshape(-1)


_WINDOWS = {
    "hamming": lambda M: _general_cosine(M, [0.54, 0.46]), "hann": lambda M: _general_cosine(M, [0.5, 0.5]),
    "blackman": lambda M: _general_cosine(M, [0.42, 0.50, 0.08]),
    "nuttall": lambda M: _general_cosine(M, [0.3635819, 0.4891775, 0.1365995, 0.0106411]),
    "general_cosine": _general_cosine, "general_hamming": lambda M, alpha: _general_cosine(M, [alpha, 1.0 - alpha]),
    "bartlett": _bartlett, "kaiser": _kaiser, "gaussian": _gaussian, "general_gaussian": _general_gaussian,
    "exponential": _exponential, "triang": _triang, "bohman": _bohman, "cosine": _cosine, "tukey": _tukey,
    "taylor": _taylor,
}


def get_window(window, win_length, fftbins=True, dtype="float64"):
    """The window `window` (a name, or (name, *params)) of length win_length; periodic when fftbins."""
    args = ()
    if isinstance(window, tuple):
        name, args = window[0], tuple(window[1:])
    elif isinstance(window, str):
        if window in ("gaussian", "exponential", "kaiser"):
            raise ValueError(f"The '{window}' window needs one or more parameters -- pass a tuple.")
        name = window
    else:
        raise ValueError(f"{type(window)} as window type is not supported.")
    if name not in _WINDOWS:
        raise ValueError("Unknown window type.")
    M = win_length
    if int(M) != M or M < 0:
        raise ValueError("Window length M must be a non-negative integer")
    dt = to_torch_dtype(dtype)
    if name == "exponential" and not fftbins and len(args) > 0 and args[0] is not None:
        raise ValueError("If sym==True, center must be None.")
    if M <= 1:
        return wrap(torch.ones(M, dtype=dt))
    if name == "tukey" and (args[0] if args else 0.5) <= 0:
        return wrap(torch.ones(M, dtype=dt))
    if name == "tukey" and (args[0] if args else 0.5) >= 1.0:
        name, args = "hann", ()  # Paddle's tukey(alpha >= 1) is its hann window
    n = M + 1 if fftbins else M  # periodic: one longer, last sample dropped
    w = _WINDOWS[name](n, *args)
    return wrap((w[:-1] if fftbins else w).to(dt))


# ------------------------------------------------------------------ torch-style window functions (paddle.X_window)
# Paddle 3.3's top-level hann_window / hamming_window / blackman_window / bartlett_window / kaiser_window: torch's
# signatures over get_window (periodic = get_window's fftbins), then Paddle's post-processing of the result.

def _postprocess(w, layout, device, pin_memory, requires_grad):
    import warnings

    from ..._core.place import to_torch_device

    if layout is not None:
        warnings.warn("layout only supports 'strided' in Paddle; ignored")
    t = w._t
    if device is not None:
        t = t.to(to_torch_device(device))
    if pin_memory:
        if t.device.type != "cuda":
            from ..._core.place import _device_to_place

            raise RuntimeError(f"Pinning memory is not supported for {_device_to_place(device)}")
        t = t.pin_memory()
    out = wrap(t)
    if requires_grad is True:
        out.stop_gradient = False
    return out


def hann_window(window_length, periodic=True, *, dtype="float32", layout=None, device=None, pin_memory=False,
                requires_grad=False):
    """A Hann window of `window_length` samples (periodic: for spectral analysis, as torch.hann_window)."""
    return _postprocess(get_window("hann", window_length, fftbins=periodic, dtype=dtype), layout, device,
                        pin_memory, requires_grad)


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype="float32", layout=None, device=None,
                   pin_memory=False, requires_grad=False):
    """A generalized Hamming window alpha - beta * cos(...): Paddle rescales its standard Hamming window."""
    w0 = get_window("hamming", window_length, fftbins=periodic, dtype=dtype)
    b = beta / 0.46
    a = alpha - b * 0.54
    return _postprocess(wrap(a + b * w0._t), layout, device, pin_memory, requires_grad)


def blackman_window(window_length, periodic=True, *, dtype="float32", layout=None, device=None, pin_memory=False,
                    requires_grad=False):
    """A Blackman window of `window_length` samples."""
    return _postprocess(get_window("blackman", window_length, fftbins=periodic, dtype=dtype), layout, device,
                        pin_memory, requires_grad)


def bartlett_window(window_length, periodic=True, *, dtype="float32", layout=None, device=None, pin_memory=False,
                    requires_grad=False):
    """A Bartlett (triangular) window of `window_length` samples."""
    return _postprocess(get_window("bartlett", window_length, fftbins=periodic, dtype=dtype), layout, device,
                        pin_memory, requires_grad)


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype="float32", layout=None, device=None,
                  pin_memory=False, requires_grad=False):
    """A Kaiser window of `window_length` samples with shape parameter `beta`."""
    return _postprocess(get_window(("kaiser", beta), window_length, fftbins=periodic, dtype=dtype), layout, device,
                        pin_memory, requires_grad)
