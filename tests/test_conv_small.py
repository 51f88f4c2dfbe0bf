"""Small float32 CPU conv2d runs torch's im2col + GEMM kernel (thnn_conv2d) instead of oneDNN
(paddle_on_torch/nn/functional/conv.py, SMALL_CONV_MACS); everything else keeps torch's conv2d.  Values and
gradients against torch's conv2d; Paddle's own values for these paths are in the golden cases (nn_conv)."""
import numpy as np
import pytest
import torch


def _route(out):
    return type(out._t.grad_fn).__name__


@pytest.mark.parametrize("shape, wshape, kw, route", [
    ((2, 3, 9, 9), (4, 3, 3, 3), dict(padding=1), "SlowConv2DBackward0"),
    ((2, 3, 9, 9), (4, 3, 3, 2), dict(padding=[1, 0], stride=2), "SlowConv2DBackward0"),
    ((1, 2, 5, 7), (3, 2, 1, 1), dict(bias=False), "SlowConv2DBackward0"),
    ((2, 4, 8, 8), (4, 4, 3, 3), dict(padding="SAME"), "SlowConv2DBackward0"),
    ((2, 4, 8, 8), (4, 2, 3, 3), dict(groups=2, padding=1), "ConvolutionBackward0"),  # groups
    ((2, 3, 9, 9), (4, 3, 3, 3), dict(dilation=2), "ConvolutionBackward0"),  # dilation
    ((2, 64, 16, 16), (64, 64, 3, 3), dict(padding=1), "ConvolutionBackward0"),  # 18.9M MACs
])
def test_small_convs_route_and_match_torch(paddle, shape, wshape, kw, route):
    kw = dict(kw)
    with_bias = kw.pop("bias", True)
    x = paddle.randn(list(shape))
    w = paddle.randn(list(wshape))
    b = paddle.randn([wshape[0]]) if with_bias else None
    for t in (x, w, b):
        if t is not None:
            t.stop_gradient = False
    out = paddle.nn.functional.conv2d(x, w, b, **kw)
    assert _route(out) == route
    (out * out).sum().backward()
    ts = [t._t.detach().requires_grad_() if t is not None else None for t in (x, w, b)]
    pad = kw.get("padding", 0)
    ref = torch.nn.functional.conv2d(ts[0], ts[1], ts[2], kw.get("stride", 1), "same" if pad == "SAME" else pad,
                                     kw.get("dilation", 1), kw.get("groups", 1))
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
