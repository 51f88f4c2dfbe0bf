"""Small float32 CPU conv1d / conv2d / conv2d_transpose run torch's im2col + GEMM kernels (thnn_conv2d,
slow_conv_transpose2d) instead of oneDNN (paddle_on_torch/nn/functional/conv.py, SMALL_CONV_MACS); everything else
keeps torch's ops.  Values and gradients against torch's ops; Paddle's own values for these paths are in the
golden cases (nn_conv)."""
import numpy as np
import pytest
import torch


def _route(out):
    return type(out._t.grad_fn).__name__


CONV2D = [
    ((2, 3, 9, 9), (4, 3, 3, 3), dict(padding=1), "SlowConv2DBackward0"),
    ((2, 3, 9, 9), (4, 3, 3, 2), dict(padding=[1, 0], stride=2), "SlowConv2DBackward0"),
    ((1, 2, 5, 7), (3, 2, 1, 1), dict(bias=False), "SlowConv2DBackward0"),
    ((2, 4, 8, 8), (4, 4, 3, 3), dict(padding="SAME"), "SlowConv2DBackward0"),
    ((2, 4, 8, 8), (4, 2, 3, 3), dict(groups=2, padding=1), "ConvolutionBackward0"),  # groups
    ((2, 3, 9, 9), (4, 3, 3, 3), dict(dilation=2), "ConvolutionBackward0"),  # dilation
    ((2, 64, 16, 16), (64, 64, 3, 3), dict(padding=1), "ConvolutionBackward0"),  # 18.9M MACs
]
CONV1D = [
    ((2, 16, 32), (16, 16, 3), dict(padding=1), "SqueezeBackward1"),
    ((2, 4, 9), (3, 4, 2), dict(stride=2, padding=[1]), "SqueezeBackward1"),
    ((2, 4, 9), (3, 4, 2), dict(padding="SAME"), "SqueezeBackward1"),
    ((8, 64, 100), (64, 64, 5), dict(padding=2), "ConvolutionBackward0"),  # 16.4M MACs
]
CONV2D_T = [
    ((2, 32, 6, 6), (32, 16, 2, 2), dict(stride=2), "SlowConvTranspose2DBackward0"),
    ((2, 4, 5, 5), (4, 3, 3, 3), dict(stride=2, padding=1, output_padding=1), "SlowConvTranspose2DBackward0"),
    ((2, 64, 8, 8), (64, 32, 4, 4), dict(stride=2), "ConvolutionBackward0"),  # 4.2M MACs
]
TORCH = {"conv1d": torch.nn.functional.conv1d, "conv2d": torch.nn.functional.conv2d,
         "conv2d_transpose": torch.nn.functional.conv_transpose2d}


@pytest.mark.parametrize("api, shape, wshape, kw, route", [("conv2d",) + c for c in CONV2D] +
                         [("conv1d",) + c for c in CONV1D] + [("conv2d_transpose",) + c for c in CONV2D_T])
def test_small_convs_route_and_match_torch(paddle, api, shape, wshape, kw, route):
    kw = dict(kw)
    with_bias = kw.pop("bias", True)
    x = paddle.randn(list(shape))
    w = paddle.randn(list(wshape))
    b = paddle.randn([wshape[1] if api.endswith("transpose") else wshape[0]]) if with_bias else None
    for t in (x, w, b):
        if t is not None:
            t.stop_gradient = False
    out = getattr(paddle.nn.functional, api)(x, w, b, **kw)
    assert _route(out) == route
    (out * out).sum().backward()
    ts = [t._t.detach().requires_grad_() if t is not None else None for t in (x, w, b)]
    pad = kw.get("padding", 0)
    pad = "same" if pad == "SAME" else pad
    if api.endswith("transpose"):
        ref = TORCH[api](ts[0], ts[1], ts[2], kw.get("stride", 1), pad, kw.get("output_padding", 0))
    else:
        ref = TORCH[api](ts[0], ts[1], ts[2], kw.get("stride", 1), pad, kw.get("dilation", 1), kw.get("groups", 1))
    (ref * ref).sum().backward()
    np.testing.assert_allclose(out.numpy(), ref.detach().numpy(), rtol=1e-5, atol=1e-5)
    for t, r in zip((x, w, b), ts):
        if t is not None:
            np.testing.assert_allclose(t.grad.numpy(), r.grad.numpy(), rtol=1e-4, atol=1e-4)


def test_channels_last_input_and_tracing_keep_torchs_conv(paddle):
    layer = paddle.nn.Conv2D(3, 2, [2, 3], data_format="NHWC")
    x = paddle.randn([2, 5, 5, 3])
    x.stop_gradient = False
    y = layer(x)  # the NCHW view of NHWC data is not contiguous: slow_conv2d's backward refuses it
    assert type(y._t.grad_fn.next_functions[0][0]).__name__ == "ConvolutionBackward0"  # (y: back to NHWC)
    y.sum().backward()
    from torch.fx.experimental.proxy_tensor import make_fx

    from paddle_on_torch.interop import from_torch

    small = paddle.nn.Conv2D(3, 4, 3, padding=1)  # under tracing (and torch.compile) the public conv op
    gm = make_fx(lambda t: small(from_torch(t))._t)(torch.randn(1, 3, 6, 6))
    assert "convolution" in str(gm.graph) and "slow_conv2d" not in str(gm.graph)


def test_empty_batch_keeps_torchs_ops(paddle):
    """An empty batch has no work: torch's ops give the empty result (slow_conv_transpose2d would refuse it)."""
    F = paddle.nn.functional
    assert F.conv2d(paddle.randn([0, 3, 8, 8]), paddle.randn([4, 3, 3, 3]), padding=1).shape == [0, 4, 8, 8]
    assert F.conv1d(paddle.randn([0, 3, 8]), paddle.randn([4, 3, 3])).shape == [0, 4, 6]
    assert F.conv2d_transpose(paddle.randn([0, 3, 4, 4]), paddle.randn([3, 2, 2, 2]), stride=2).shape == [0, 2, 8, 8]
