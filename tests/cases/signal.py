"""paddle.signal.stft / istft: windows, centring, padding modes, normalisation, onesided, round trips, errors."""
from tests.cases import case


def _sig(paddle, n=16, dtype="float32"):
    return (paddle.arange(n, dtype="float32") % 7 - 3).astype(dtype) * 0.5


@case(rtol=1e-5, atol=1e-5)
def stft_default(paddle):
    return paddle.signal.stft(_sig(paddle), n_fft=8)


@case(rtol=1e-5, atol=1e-5)
def stft_options(paddle):
    x = _sig(paddle)
    w = paddle.to_tensor([0.5, 1.0, 1.0, 0.5, 0.25, 0.75])
    return [paddle.signal.stft(x, n_fft=8, hop_length=3, win_length=6, window=w),
            paddle.signal.stft(x, n_fft=8, center=False), paddle.signal.stft(x, n_fft=8, pad_mode="constant"),
            paddle.signal.stft(x, n_fft=8, normalized=True), paddle.signal.stft(x, n_fft=8, onesided=False)]


@case(rtol=1e-5, atol=1e-5)
def stft_batch_float64_complex(paddle):
    x = paddle.stack([_sig(paddle, dtype="float64"), _sig(paddle, dtype="float64") * 2])
    c = paddle.complex(_sig(paddle), _sig(paddle) * 0.5)
    return [paddle.signal.stft(x, n_fft=4, hop_length=2), paddle.signal.stft(c, n_fft=8, onesided=False)]


@case(rtol=1e-5, atol=1e-5)
def stft_istft_round_trip(paddle):
    x = _sig(paddle)
    w = paddle.to_tensor([0.5, 1.0, 1.0, 0.5, 0.5, 1.0, 1.0, 0.5])
    s = paddle.signal.stft(x, n_fft=8, hop_length=2, window=w)
    s2 = paddle.signal.stft(x, n_fft=8, onesided=False, normalized=True)
    return [paddle.signal.istft(s, n_fft=8, hop_length=2, window=w),
            paddle.signal.istft(s, n_fft=8, hop_length=2, window=w, length=12),
            paddle.signal.istft(s2, n_fft=8, onesided=False, normalized=True),
            paddle.signal.istft(s2, n_fft=8, onesided=False, normalized=True, return_complex=True)]


@case(rtol=1e-5, atol=1e-5)
def istft_batch_not_centered(paddle):
    x = paddle.stack([_sig(paddle, dtype="float64"), _sig(paddle, dtype="float64") + 1])
    s = paddle.signal.stft(x, n_fft=4, hop_length=1, center=False)
    return paddle.signal.istft(s, n_fft=4, hop_length=1, center=False)


@case
def stft_rank3_fails(paddle):
    return paddle.signal.stft(paddle.ones([2, 2, 16]), n_fft=4)


@case
def stft_n_fft_too_long_fails(paddle):
    return paddle.signal.stft(paddle.ones([4]), n_fft=8)


@case
def stft_bad_window_fails(paddle):
    return paddle.signal.stft(paddle.ones([16]), n_fft=8, window=paddle.ones([5]))


@case
def istft_real_input_fails(paddle):
    return paddle.signal.istft(paddle.ones([5, 4]), n_fft=8)


@case
def istft_wrong_fft_size_fails(paddle):
    return paddle.signal.istft(paddle.ones([4, 4], dtype="complex64"), n_fft=8)


@case
def istft_nola_fails(paddle):
    w = paddle.to_tensor([0.0, 1.0, 1.0, 0.0])
    s = paddle.signal.stft(paddle.ones([16]), n_fft=4, hop_length=4, window=w, center=False)
    return paddle.signal.istft(s, n_fft=4, hop_length=4, window=w, center=False)
