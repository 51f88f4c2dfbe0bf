"""nn pooling: max/avg with padding forms, ceil_mode, exclusive, masks; adaptive; LP; unpool."""
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
