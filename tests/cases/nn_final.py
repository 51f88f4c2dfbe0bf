"""paddle.nn fractional max pooling (2-D/3-D functional and layers) and nn.functional.rms_norm."""
import numpy as np

from tests.cases import case, data


def _ramp(paddle, shape):
    n = int(np.prod(shape))
    return paddle.arange(n, dtype="float32").reshape(shape)


@case
def fractional_max_pool2d_ramp_windows(paddle):
    # a strictly increasing input makes each output the last element of its window: the mask shows the windows
    F = paddle.nn.functional
    x = _ramp(paddle, [1, 1, 7, 7])
    res = []
    for size in (3, [3, 4], [2, 5]):
        for u in (0.3, 0.7):
            for k in (None, 2, 3):
                res.append(F.fractional_max_pool2d(x, size, kernel_size=k, random_u=u, return_mask=True))
    return res


@case
def fractional_max_pool2d_reversed_ramp(paddle):
    # decreasing input: each output is the first element of its window (the window starts)
    F = paddle.nn.functional
    x = -_ramp(paddle, [1, 1, 9, 11])
    return [F.fractional_max_pool2d(x, [4, 6], random_u=0.45, return_mask=True),
            F.fractional_max_pool2d(x, [4, 6], kernel_size=[3, 2], random_u=0.45, return_mask=True),
            F.fractional_max_pool2d(x, [1, 5], kernel_size=2, random_u=0.2, return_mask=True),
            F.fractional_max_pool2d(x, [9, 11], random_u=0.6, return_mask=True)]


@case
def fractional_max_pool2d_random_data(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(data([2, 3, 10, 8], 5))
    return [F.fractional_max_pool2d(x, [5, 3], random_u=0.35),
            F.fractional_max_pool2d(x, [5, 3], random_u=0.82, return_mask=True),
            F.fractional_max_pool2d(x, [4, None], kernel_size=[3, 1], random_u=0.5, return_mask=True),
            F.fractional_max_pool2d(x.astype("float64"), 4, kernel_size=2, random_u=0.15, return_mask=True)]


@case
def fractional_max_pool2d_ties_first_index(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(np.random.default_rng(6).integers(0, 3, [2, 2, 8, 9]).astype("float32"))
    return [F.fractional_max_pool2d(x, [3, 4], random_u=0.4, return_mask=True),
            F.fractional_max_pool2d(x, [3, 4], kernel_size=3, random_u=0.4, return_mask=True)]


@case
def fractional_max_pool3d_values_and_masks(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(data([2, 2, 6, 7, 5], 7))
    r = _ramp(paddle, [1, 1, 5, 7, 6])
    return [F.fractional_max_pool3d(x, [3, 4, 2], random_u=0.3, return_mask=True),
            F.fractional_max_pool3d(x, 3, kernel_size=2, random_u=0.7, return_mask=True),
            F.fractional_max_pool3d(x, [None, 2, 3], kernel_size=[1, 3, 2], random_u=0.55),
            F.fractional_max_pool3d(r, [2, 3, 4], random_u=0.25, return_mask=True),
            F.fractional_max_pool3d(-r, [2, 3, 4], random_u=0.25, return_mask=True)]


@case
def fractional_max_pool_layers(paddle):
    nn = paddle.nn
    x = paddle.to_tensor(data([1, 2, 8, 8], 8))
    x3 = paddle.to_tensor(data([1, 2, 4, 6, 6], 9))
    return [nn.FractionalMaxPool2D(3, random_u=0.6)(x),
            nn.FractionalMaxPool2D([3, 5], kernel_size=2, random_u=0.3, return_mask=True)(x),
            nn.FractionalMaxPool3D([2, 3, 3], random_u=0.45, return_mask=True)(x3),
            nn.FractionalMaxPool3D(2, kernel_size=[2, 3, 3], random_u=0.9)(x3)]


@case
def fractional_max_pool_grad(paddle):
    x = paddle.to_tensor(data([1, 2, 7, 6], 10), stop_gradient=False)
    y = paddle.nn.functional.fractional_max_pool2d(x, [3, 4], random_u=0.4)
    (y * paddle.arange(24, dtype="float32").reshape([1, 2, 3, 4])).sum().backward()
    return [y, x.grad]


@case(random=True)
def fractional_max_pool_random_u_shapes(paddle):
    # random_u=None: Paddle draws u in its kernel, paddle_on_torch from torch's generator; shapes only
    F = paddle.nn.functional
    x = paddle.to_tensor(data([2, 3, 9, 9], 11))
    x3 = paddle.to_tensor(data([1, 2, 5, 6, 7], 12))
    return [F.fractional_max_pool2d(x, 4), F.fractional_max_pool2d(x, [5, 3], kernel_size=2, return_mask=True),
            F.fractional_max_pool3d(x3, [2, 3, 4], return_mask=True), paddle.nn.FractionalMaxPool2D(3)(x)]


@case
def fractional_max_pool_bad_random_u(paddle):
    x = paddle.to_tensor(data([1, 1, 5, 5], 13))
    return paddle.nn.functional.fractional_max_pool2d(x, 2, random_u=1.0)


@case
def fractional_max_pool_bad_rank(paddle):
    x = paddle.to_tensor(data([1, 5, 5], 14))
    return paddle.nn.functional.fractional_max_pool2d(x, 2, random_u=0.5)


# ---------------------------------------------------------------- rms_norm
def _rms_reference(x, shape, w, eps):
    """NumPy transcription of the documented math of Paddle's rms_norm (its CPU build has no kernel:
    '(NotFound) The kernel `rms_norm` is not registered'): rows = prod of the leading dims,
    invvar = 1/sqrt(mean(x**2 over the row) + eps) of shape [rows], out = x * invvar * weight."""
    cols = int(np.prod(shape))
    x2 = x.astype("float32").reshape(-1, cols)
    invvar = (1.0 / np.sqrt((x2.astype("float64") ** 2).mean(-1) + eps)).astype("float32")
    y = (x2 * invvar[:, None]).reshape(x.shape)
    if w is not None:
        y = y * w
    return [y.astype(x.dtype), invvar]


@case(rtol=1e-5, atol=1e-5)
def rms_norm_values(paddle):
    F = paddle.nn.functional
    x = data([2, 3, 8], 20)
    w8, w24 = data([8], 21), data([3, 8], 22)
    res = []
    for shape, w, eps in (([8], w8, 1e-5), ([3, 8], w24, 1e-6), (8, None, 1e-5), ([8], None, 0.5)):
        try:
            out, inv = F.rms_norm(paddle.to_tensor(x), shape, None if w is None else paddle.to_tensor(w), eps)
            res += [out, inv]
        except RuntimeError:  # real Paddle 3.3.1 on CPU: the kernel is not registered
            res += [paddle.to_tensor(a) for a in _rms_reference(x, [shape] if isinstance(shape, int) else shape, w, eps)]
    return res
