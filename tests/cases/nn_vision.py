"""nn vision ops: affine_grid, grid_sample, pixel_shuffle/unshuffle, channel_shuffle and their layers."""
from tests.cases import case, data


@case(rtol=1e-5, atol=1e-5)  # theta.grad sums over the grid in a different float32 order
def affine_grid_and_sample(paddle):
    F = paddle.nn.functional
    theta = paddle.to_tensor([[[0.9, 0.1, 0.05], [-0.2, 1.1, 0.0]]], stop_gradient=False)
    g = F.affine_grid(theta, [1, 2, 3, 4])
    g2 = F.affine_grid(theta, [1, 2, 3, 4], align_corners=False)
    x = paddle.to_tensor(data([1, 2, 4, 5], 1), stop_gradient=False)
    y = F.grid_sample(x, g)
    (y * y).sum().backward()
    return (g, g2, y, x.grad, theta.grad, F.grid_sample(x, g2, mode="nearest", align_corners=False),
            F.grid_sample(x, g * 1.5, padding_mode="border"), F.grid_sample(x, g * 1.5, padding_mode="reflection"))


@case
def affine_grid_3d(paddle):
    theta = paddle.to_tensor(data([2, 3, 4], 2))
    return paddle.nn.functional.affine_grid(theta, [2, 1, 2, 3, 2])


@case
def grid_sample_bad_mode(paddle):
    return paddle.nn.functional.grid_sample(paddle.ones([1, 1, 2, 2]), paddle.zeros([1, 2, 2, 2]), mode="bicubic")


@case
def shuffles(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(data([2, 8, 2, 4], 3))
    xl = x.transpose([0, 2, 3, 1])
    return (F.pixel_shuffle(x, 2), F.pixel_shuffle(xl, 2, data_format="NHWC"), F.pixel_unshuffle(x, 2),
            F.pixel_unshuffle(xl, 2, "NHWC"), F.channel_shuffle(x, 4), F.channel_shuffle(xl, 2, "NHWC"),
            paddle.nn.PixelShuffle(2)(x), paddle.nn.PixelUnshuffle(2)(x), paddle.nn.ChannelShuffle(2)(x),
            repr(paddle.nn.PixelShuffle(2)), repr(paddle.nn.PixelUnshuffle(2, "NHWC")),
            repr(paddle.nn.ChannelShuffle(4)))


@case
def pixel_shuffle_grad(paddle):
    x = paddle.to_tensor(data([1, 4, 2, 2], 4), stop_gradient=False)
    y = paddle.nn.functional.pixel_shuffle(x, 2)
    (y * paddle.to_tensor(data([1, 1, 4, 4], 5))).sum().backward()
    return y, x.grad


@case
def pixel_shuffle_bad_format(paddle):
    return paddle.nn.PixelShuffle(2, data_format="NCWH")


@case
def channel_shuffle_bad_groups(paddle):
    return paddle.nn.ChannelShuffle(0)
