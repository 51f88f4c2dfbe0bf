"""Mel-scale conversions (Slaney's by default, HTK on request), filter banks, power_to_db and the DCT matrix."""
import math

import torch

from ..._normalize import TensorLike, op, wrap
from ..._core.dtype import to_torch_dtype
from ...tensor.tensor import Tensor

_F_SP = 200.0 / 3  # Slaney: linear below 1 kHz ...
_MIN_LOG_HZ = 1000.0
_MIN_LOG_MEL = _MIN_LOG_HZ / _F_SP
_LOGSTEP = math.log(6.4) / 27.0  # ... logarithmic above


def _hz_to_mel(f, htk):
    if htk:
        return 2595.0 * torch.log10(1.0 + f / 700.0)
    # the same blend as Paddle (the 1e-10 keeps log finite below 1 kHz, where the mask drops it)
    mask = (f > _MIN_LOG_HZ).to(f.dtype)
    return (_MIN_LOG_MEL + torch.log(f / _MIN_LOG_HZ + 1e-10) / _LOGSTEP) * mask + f / _F_SP * (1 - mask)


def _mel_to_hz(m, htk):
    if htk:
        return 700.0 * (10.0 ** (m / 2595.0) - 1.0)
    mask = (m > _MIN_LOG_MEL).to(m.dtype)
    return _MIN_LOG_HZ * torch.exp(_LOGSTEP * (m - _MIN_LOG_MEL)) * mask + _F_SP * m * (1 - mask)


def hz_to_mel(freq, htk=False):
    """Hz to mels: a Tensor gives a Tensor, a number a number."""
    if isinstance(freq, Tensor):
        return wrap(_hz_to_mel(freq._t, htk))
    if htk:
        return 2595.0 * math.log10(1.0 + freq / 700.0)
    if freq >= _MIN_LOG_HZ:
        return _MIN_LOG_MEL + math.log(freq / _MIN_LOG_HZ + 1e-10) / _LOGSTEP
    return freq / _F_SP


def mel_to_hz(mel, htk=False):
    """Mels to Hz: a Tensor gives a Tensor, a number a number."""
    if isinstance(mel, Tensor):
        return wrap(_mel_to_hz(mel._t, htk))
    if htk:
        return 700.0 * (10.0 ** (mel / 2595.0) - 1.0)
    if mel >= _MIN_LOG_MEL:
        return _MIN_LOG_HZ * math.exp(_LOGSTEP * (mel - _MIN_LOG_MEL))
    return _F_SP * mel


def _mel_frequencies(n_mels, f_min, f_max, htk, dt):
    mels = torch.linspace(hz_to_mel(f_min, htk), hz_to_mel(f_max, htk), n_mels, dtype=dt)
    return _mel_to_hz(mels, htk)


def mel_frequencies(n_mels=64, f_min=0.0, f_max=11025.0, htk=False, dtype="float32"):
    return wrap(_mel_frequencies(n_mels, f_min, f_max, htk, to_torch_dtype(dtype)))


def fft_frequencies(sr, n_fft, dtype="float32"):
    return wrap(torch.linspace(0, float(sr) / 2, int(1 + n_fft // 2), dtype=to_torch_dtype(dtype)))


def compute_fbank_matrix(sr, n_fft, n_mels=64, f_min=0.0, f_max=None, htk=False, norm="slaney", dtype="float32"):
    """Triangular mel filters [n_mels, 1 + n_fft // 2]; 'slaney' scales to constant energy, a number p p-normalises."""
    dt = to_torch_dtype(dtype)
    f_max = float(sr) / 2 if f_max is None else f_max
    fftfreqs = torch.linspace(0, float(sr) / 2, int(1 + n_fft // 2), dtype=dt)
    mel_f = _mel_frequencies(n_mels + 2, f_min, f_max, htk, dt)
    fdiff = mel_f[1:] - mel_f[:-1]
    ramps = mel_f[:, None] - fftfreqs[None, :]
    lower = -ramps[:n_mels] / fdiff[:n_mels, None]
    upper = ramps[2:n_mels + 2] / fdiff[1:n_mels + 1, None]
    weights = torch.clamp(torch.minimum(lower, upper), min=0)
    if norm == "slaney":
        weights = weights * (2.0 / (mel_f[2:n_mels + 2] - mel_f[:n_mels]))[:, None]
    elif isinstance(norm, (int, float)):
        weights = torch.nn.functional.normalize(weights, p=norm, dim=-1, eps=1e-12)
    return wrap(weights)


@op
def power_to_db(spect: TensorLike, ref_value=1.0, amin=1e-10, top_db=80.0):
    """10 * log10(max(spect, amin) / ref_value), floored at max - top_db."""
    if amin <= 0:
        raise Exception("amin must be strictly positive")
    if ref_value <= 0:
        raise Exception("ref_value must be strictly positive")
    log_spec = 10.0 * torch.log10(torch.clamp(spect, min=amin)) - 10.0 * math.log10(max(ref_value, amin))
    if top_db is not None:
        if top_db < 0:
            raise Exception("top_db must be non-negative")
        log_spec = torch.maximum(log_spec, log_spec.max() - top_db)
    return log_spec


def create_dct(n_mfcc, n_mels, norm="ortho", dtype="float32"):
    """DCT-II matrix [n_mels, n_mfcc] ('ortho' or unnormalised)."""
    dt = to_torch_dtype(dtype)
    n = torch.arange(n_mels, dtype=dt)
    k = torch.arange(n_mfcc, dtype=dt)[:, None]
    dct = torch.cos(math.pi / float(n_mels) * (n + 0.5) * k)
    if norm is None:
        dct = dct * 2.0
    else:
        assert norm == "ortho"
        dct[0] *= 1.0 / math.sqrt(2.0)
        dct = dct * math.sqrt(2.0 / float(n_mels))
    return wrap(dct.T.contiguous())
