"""nn pooling: max/avg with padding forms, ceil_mode, exclusive, masks; adaptive; LP; unpool; fractional max
pooling (2-D/3-D functional and layers)."""
import numpy as np

from tests.cases import case, data


@case
def max_pool2d_forms(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(data([2, 3, 7, 6], 1))
    return [F.max_pool2d(x, 2), F.max_pool2d(x, 3, 2, 1), F.max_pool2d(x, 3, 2, ceil_mode=True),
            F.max_pool2d(x, 2, padding="SAME"), F.max_pool2d(x, [3, 2], [1, 2], padding=[1, 0]),
            F.max_pool2d(x, 3, 1, padding=[0, 1, 1, 2]),
            F.max_pool2d(x.transpose([0, 2, 3, 1]), 2, data_format="NHWC")]


@case
def max_pool_masks(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(data([1, 2, 6, 5], 2))
    return [F.max_pool2d(x, 2, return_mask=True), F.max_pool2d(x, 3, 2, 1, return_mask=True),
            F.max_pool1d(x[:, :, 0], 2, return_mask=True), F.max_pool3d(x.unsqueeze(2), [1, 2, 2], return_mask=True),
            F.adaptive_max_pool2d(x, 3, return_mask=True), F.adaptive_max_pool1d(x[:, :, 0], 2, return_mask=True)]


@case
def avg_pool_forms(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(data([2, 2, 7, 6], 3))
    return [F.avg_pool2d(x, 2), F.avg_pool2d(x, 3, 2, 1), F.avg_pool2d(x, 3, 2, 1, exclusive=False),
            F.avg_pool2d(x, 3, 2, ceil_mode=True), F.avg_pool2d(x, 3, 2, ceil_mode=True, exclusive=False),
            F.avg_pool2d(x, 2, divisor_override=3), F.avg_pool2d(x, 3, 1, padding=[0, 1, 2, 1]),
            F.avg_pool2d(x, 2, padding="SAME"), F.avg_pool1d(x[:, :, 0], 3, 2, 1),
            F.avg_pool1d(x[:, :, 0], 3, 2, 1, exclusive=False), F.avg_pool3d(x.unsqueeze(2), [1, 2, 2]),
            F.avg_pool2d(x.transpose([0, 2, 3, 1]), 2, data_format="NHWC")]


@case
def adaptive_pools(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(data([2, 3, 7, 5], 4))
    return [F.adaptive_avg_pool2d(x, 3), F.adaptive_avg_pool2d(x, [2, None]), F.adaptive_avg_pool1d(x[:, :, 0], 4),
            F.adaptive_avg_pool3d(x.unsqueeze(2), [1, 2, 2]), F.adaptive_max_pool2d(x, [4, 3]),
            F.adaptive_avg_pool2d(x.transpose([0, 2, 3, 1]), 2, data_format="NHWC"),
            F.adaptive_max_pool3d(x.unsqueeze(2), 1)]


@case
def pool_layers_and_grad(paddle):
    nn = paddle.nn
    x = paddle.to_tensor(data([1, 2, 6, 6], 5), stop_gradient=False)
    layers = [nn.MaxPool2D(2), nn.MaxPool2D(3, 2, 1, ceil_mode=True), nn.AvgPool2D(3, 1, 1),
              nn.AvgPool2D(2, exclusive=False), nn.AdaptiveAvgPool2D(2), nn.AdaptiveMaxPool2D([3, 2]),
              nn.MaxPool1D(2), nn.AvgPool1D(3, 2), nn.AdaptiveAvgPool1D(3), nn.AdaptiveMaxPool1D(2),
              nn.MaxPool3D(1), nn.AvgPool3D(1), nn.AdaptiveAvgPool3D(1), nn.AdaptiveMaxPool3D(1),
              nn.LPPool2D(2, 2), nn.LPPool1D(3, 2)]
    out = []
    for m in layers:
        inp = x if "2D" in type(m).__name__ else (x[:, :, 0] if "1D" in type(m).__name__ else x.unsqueeze(2))
        out.append((repr(m), m(inp)))
    y = nn.MaxPool2D(3, 2, 1)(x).sum() + nn.AvgPool2D(3, 2, 1)(x).sum()
    y.backward()
    return out, x.grad


@case
def lp_pools(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(abs(data([1, 2, 6, 6], 6)))
    return [F.lp_pool2d(x, 2, 2), F.lp_pool2d(x, 3, 3, 2), F.lp_pool1d(x[:, :, 0], 2, 2), F.lp_pool1d(x[:, :, 0], 1, 3, 1)]


@case
def max_unpool(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(data([1, 2, 4, 4], 7))
    y, idx = F.max_pool2d(x, 2, return_mask=True)
    y1, idx1 = F.max_pool1d(x[:, :, 0], 2, return_mask=True)
    y3, idx3 = F.max_pool3d(x.unsqueeze(2), [1, 2, 2], return_mask=True)
    m = paddle.nn.MaxUnPool2D(2)
    return [F.max_unpool2d(y, idx, 2), F.max_unpool2d(y, idx, 2, output_size=[5, 5]), F.max_unpool1d(y1, idx1, 2),
            F.max_unpool3d(y3, idx3, [1, 2, 2]), m(y, idx), repr(m)]


@case
def pool_bad_data_format(paddle):
    return paddle.nn.functional.max_pool2d(paddle.ones([1, 1, 4, 4]), 2, data_format="NCWH")


@case
def pool_bad_padding(paddle):
    return paddle.nn.functional.avg_pool2d(paddle.ones([1, 1, 4, 4]), 2, padding="FULL")


@case
def pool_wrong_rank(paddle):
    return paddle.nn.functional.max_pool2d(paddle.ones([1, 4, 4]), 2)


# ---------------------------------------------------------------- fractional max pooling
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
