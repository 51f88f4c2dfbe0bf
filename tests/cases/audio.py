"""paddle.audio: functional helpers, windows and the feature layers (with gradients)."""
import numpy as np

from tests.cases import case


def _wave(paddle, n=2, length=2000, dtype="float32", grad=False):
    t = np.arange(length) / 8000.0
    rng = np.random.default_rng(0)
    w = np.stack([np.sin(2 * np.pi * (300 + 170 * i) * t) * 0.3 + rng.normal(0, 0.02, length) for i in range(n)])
    return paddle.to_tensor(w.astype(dtype), stop_gradient=not grad)


@case(rtol=1e-5, atol=1e-4)
def mel_conversions(paddle):
    F = paddle.audio.functional
    f = paddle.to_tensor([0.0, 200.0, 999.0, 1000.0, 1500.0, 8000.0])
    return [F.hz_to_mel(f), F.hz_to_mel(f, htk=True), F.mel_to_hz(F.hz_to_mel(f)), F.mel_to_hz(paddle.to_tensor(
        [0.0, 10.0, 15.0, 30.0]), htk=True), F.hz_to_mel(440.0), F.hz_to_mel(4000.0), F.hz_to_mel(440.0, True),
        F.mel_to_hz(20.0), F.mel_to_hz(5.0), F.mel_to_hz(1000.0, htk=True)]


@case(rtol=1e-5, atol=1e-4)
def mel_and_fft_frequencies(paddle):
    F = paddle.audio.functional
    return [F.mel_frequencies(10, 20.0, 8000.0), F.mel_frequencies(6, htk=True, dtype="float64"),
            F.fft_frequencies(16000, 16), F.fft_frequencies(22050, 9, dtype="float64")]


@case(rtol=1e-5, atol=1e-6)
def fbank_matrices(paddle):
    F = paddle.audio.functional
    return [F.compute_fbank_matrix(16000, 64, n_mels=8), F.compute_fbank_matrix(8000, 32, 6, 100.0, 3000.0, htk=True),
            F.compute_fbank_matrix(16000, 64, n_mels=5, norm=2.0, dtype="float64"),
            F.compute_fbank_matrix(16000, 32, n_mels=4, norm=None)]


@case(rtol=1e-5, atol=1e-4)
def power_to_db_variants(paddle):
    F = paddle.audio.functional
    s = paddle.to_tensor([[1e-12, 1e-3, 0.5], [2.0, 10.0, 1e4]])
    return [F.power_to_db(s), F.power_to_db(s, ref_value=2.0, top_db=None), F.power_to_db(s, amin=1e-5, top_db=20.0)]


@case
def power_to_db_bad_amin(paddle):
    return paddle.audio.functional.power_to_db(paddle.ones([2]), amin=0.0)


@case(rtol=1e-5, atol=1e-6)
def dct_matrices(paddle):
    F = paddle.audio.functional
    return [F.create_dct(4, 6), F.create_dct(3, 5, norm=None, dtype="float64")]


@case(rtol=1e-6, atol=1e-7)
def windows(paddle):
    g = paddle.audio.functional.get_window
    out = []
    for w in ["hann", "hamming", "blackman", "bartlett", "triang", "bohman", "cosine", "nuttall", "tukey", "taylor",
              ("kaiser", 6.0), ("gaussian", 2.5), ("exponential", None, 2.0), ("tukey", 0.3),
              ("general_gaussian", 1.5, 3.0), ("general_hamming", 0.6), ("taylor", 5, 40)]:
        out += [g(w, 9), g(w, 10, fftbins=False)]
    out += [g("hann", 8, dtype="float32"), g("hann", 1), g(("tukey", 1.5), 7), g(("tukey", 0.0), 5)]
    return out


@case
def window_needs_parameter(paddle):
    return paddle.audio.functional.get_window("kaiser", 8)


@case
def window_unknown(paddle):
    return paddle.audio.functional.get_window("nonsense", 8)


@case(rtol=1e-4, atol=1e-4)
def spectrogram_layer(paddle):
    x = _wave(paddle, grad=True)
    layer = paddle.audio.features.Spectrogram(n_fft=128, hop_length=64, power=2.0)
    y = layer(x)
    y.sum().backward()
    return [y, x.grad, sorted(layer.state_dict().keys())]


@case(rtol=1e-4, atol=1e-3)
def mel_spectrogram_layer(paddle):
    x = _wave(paddle)
    return [paddle.audio.features.MelSpectrogram(sr=8000, n_fft=256, hop_length=128, n_mels=16)(x),
            paddle.audio.features.MelSpectrogram(sr=8000, n_fft=128, hop_length=32, window="hamming", power=1.0,
                                                 n_mels=8, f_min=0.0, f_max=3000.0, htk=True, norm=1.0)(x)]


@case(rtol=1e-4, atol=1e-3)
def log_mel_and_mfcc_layers(paddle):
    x = _wave(paddle, grad=True)
    lm = paddle.audio.features.LogMelSpectrogram(sr=8000, n_fft=256, hop_length=100, n_mels=12, top_db=60.0)
    mf = paddle.audio.features.MFCC(sr=8000, n_mfcc=5, n_fft=256, hop_length=100, n_mels=12)
    a, b = lm(x), mf(x)
    b.sum().backward()
    return [a, b, x.grad, sorted(mf.state_dict().keys())]
