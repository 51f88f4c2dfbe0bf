"""paddle.fft: every transform with each norm, int/float64/complex inputs, n/s/axes handling and Paddle's errors."""
from tests.cases import case

_NORMS = ("backward", "forward", "ortho")


def _sig(paddle, dtype="float32"):
    return paddle.to_tensor([1.0, 2.0, -1.0, 0.5, 3.0, -2.0], dtype=dtype)


def _cplx(paddle, dtype="complex64"):
    return paddle.to_tensor([1 + 1j, 2 - 1j, -1 + 0.5j, 0.5j, 3.0 + 0j], dtype=dtype)


def _grid(paddle, dtype="float32"):
    return (paddle.arange(24, dtype="float32").reshape([2, 3, 4]) % 5 - 2).astype(dtype)


@case(rtol=1e-5, atol=1e-5)
def fft_ifft_norms(paddle):
    x = _sig(paddle)
    return [[paddle.fft.fft(x, norm=n), paddle.fft.ifft(x, norm=n)] for n in _NORMS]


@case(rtol=1e-5, atol=1e-5)
def fft_complex_and_float64(paddle):
    return [paddle.fft.fft(_cplx(paddle)), paddle.fft.ifft(_cplx(paddle, "complex128")),
            paddle.fft.fft(_sig(paddle, "float64"))]


@case(rtol=1e-5, atol=1e-5)
def fft_int_input_uses_default_dtype(paddle):
    x = paddle.to_tensor([1, 2, 3, 4])
    return [paddle.fft.fft(x), paddle.fft.rfft(x), paddle.fft.ihfft(x), paddle.fft.ifft2(x.reshape([2, 2]))]


@case
def irfft_int_input_fails(paddle):
    return paddle.fft.irfft(paddle.to_tensor([1, 2, 3, 4]))


@case
def hfftn_int_input_fails(paddle):
    return paddle.fft.hfftn(paddle.to_tensor([[1, 2], [3, 4]]))


@case(rtol=1e-5, atol=1e-5)
def fft_n_pads_and_truncates(paddle):
    x = _sig(paddle)
    return [paddle.fft.fft(x, n=8), paddle.fft.fft(x, n=3), paddle.fft.rfft(x, n=9),
            paddle.fft.irfft(paddle.fft.rfft(x), n=6), paddle.fft.hfft(_cplx(paddle), n=7)]


@case(rtol=1e-5, atol=1e-5)
def fft_axis(paddle):
    g = _grid(paddle)
    return [paddle.fft.fft(g, axis=1), paddle.fft.rfft(g, axis=0, norm="ortho"), paddle.fft.ifft(g, axis=-2)]


@case(rtol=1e-5, atol=1e-5)
def rfft_irfft_hfft_ihfft_norms(paddle):
    x = _sig(paddle)
    c = _cplx(paddle)
    return [[paddle.fft.rfft(x, norm=n), paddle.fft.irfft(c, norm=n), paddle.fft.hfft(c, norm=n),
             paddle.fft.ihfft(x, norm=n)] for n in _NORMS]


@case(rtol=1e-5, atol=1e-5)
def irfft_real_input_is_promoted(paddle):
    return [paddle.fft.irfft(_sig(paddle)), paddle.fft.hfft(_sig(paddle, "float64"))]


@case(rtol=1e-5, atol=1e-5)
def fft2_family(paddle):
    g = _grid(paddle)
    c = paddle.fft.fft2(g)
    return [c, paddle.fft.ifft2(g, norm="ortho"), paddle.fft.rfft2(g, norm="forward"), paddle.fft.irfft2(c),
            paddle.fft.hfft2(c[..., :3]), paddle.fft.ihfft2(g), paddle.fft.fft2(g, s=[2, 6]),
            paddle.fft.fft2(g, axes=(0, 2))]


@case(rtol=1e-5, atol=1e-5)
def fftn_family(paddle):
    g = _grid(paddle, "float64")
    c = paddle.fft.fftn(g)
    return [c, paddle.fft.ifftn(c, norm="forward"), paddle.fft.rfftn(g), paddle.fft.irfftn(paddle.fft.rfftn(g)),
            paddle.fft.hfftn(c[..., :3], norm="ortho"), paddle.fft.ihfftn(g), paddle.fft.fftn(g, s=[3, 5]),
            paddle.fft.fftn(g, axes=[2, 0]), paddle.fft.rfftn(g, s=[2, 5], axes=[0, 2]),
            paddle.fft.irfftn(c, s=[4, 6], axes=[1, 2])]


@case
def fft_bad_norm_fails(paddle):
    return paddle.fft.fft(paddle.ones([4]), norm="xyz")


@case
def fft_none_norm_fails(paddle):
    return paddle.fft.fft(paddle.ones([4]), norm=None)


@case
def fft_bad_n_fails(paddle):
    return paddle.fft.fft(paddle.ones([4]), n=0)


@case
def fft_bad_axis_fails(paddle):
    return paddle.fft.fft(paddle.ones([4]), axis=1)


@case
def fft2_bad_s_fails(paddle):
    return paddle.fft.fft2(paddle.ones([4, 4]), s=[4])


@case
def fftn_s_axes_length_mismatch_fails(paddle):
    return paddle.fft.fftn(paddle.ones([4, 4]), s=[4, 4], axes=[0])


@case
def rfft_complex_input_fails(paddle):
    return paddle.fft.rfft(_cplx(paddle))


@case
def fftfreq_and_rfftfreq(paddle):
    return [paddle.fft.fftfreq(5), paddle.fft.fftfreq(6, d=0.5), paddle.fft.rfftfreq(7, d=2.0),
            paddle.fft.fftfreq(4, dtype="float64"), paddle.fft.rfftfreq(4, dtype="float64")]


@case
def fftfreq_zero_fails(paddle):
    return paddle.fft.fftfreq(0)


@case
def fftshift_ifftshift(paddle):
    # (a single axis, int or one-element list, crashes in Paddle 3.3.1 with SystemError; not tested)
    x = paddle.arange(30).reshape([2, 3, 5])
    return [paddle.fft.fftshift(x), paddle.fft.ifftshift(x), paddle.fft.fftshift(x, axes=[0, 2]),
            paddle.fft.ifftshift(x, axes=(2, 1)), paddle.fft.fftshift(paddle.fft.fftfreq(5).reshape([1, 5]))]


@case
def fft_grad_flows(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = paddle.fft.rfft(x).abs().sum()
    y.backward()
    return [y.stop_gradient, x.grad]
