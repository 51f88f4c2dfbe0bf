"""MobileNetV1 (paddle.vision.models.MobileNetV1 / mobilenet_v1)."""
from ... import nn
from ...tensor.manipulation import flatten
from ..ops import ConvNormActivation
from ._utils import _check_pretrained

__all__ = []


class DepthwiseSeparable(nn.Layer):
    def __init__(self, in_channels, out_channels1, out_channels2, num_groups, stride, scale):
        super().__init__()
        self._depthwise_conv = ConvNormActivation(in_channels, int(out_channels1 * scale), kernel_size=3,
                                                  stride=stride, padding=1, groups=int(num_groups * scale))
        self._pointwise_conv = ConvNormActivation(int(out_channels1 * scale), int(out_channels2 * scale),
                                                  kernel_size=1, stride=1, padding=0)

    def forward(self, x):
        return self._pointwise_conv(self._depthwise_conv(x))


# (sublayer name, in channels, out_channels1, out_channels2 / groups, stride); num_groups == out_channels1
_BLOCKS = [("conv2_1", 32, 32, 64, 1), ("conv2_2", 64, 64, 128, 2), ("conv3_1", 128, 128, 128, 1),
           ("conv3_2", 128, 128, 256, 2), ("conv4_1", 256, 256, 256, 1), ("conv4_2", 256, 256, 512, 2)] + \
          [(f"conv5_{i + 1}", 512, 512, 512, 1) for i in range(5)] + \
          [("conv5_6", 512, 512, 1024, 2), ("conv6", 1024, 1024, 1024, 1)]


class MobileNetV1(nn.Layer):
    """MobileNetV1; `scale` multiplies every channel count."""

    def __init__(self, scale=1.0, num_classes=1000, with_pool=True):
        super().__init__()
        self.scale = scale
        self.dwsl = []
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.conv1 = ConvNormActivation(in_channels=3, out_channels=int(32 * scale), kernel_size=3, stride=2,
                                        padding=1)
        for name, cin, c1, c2, stride in _BLOCKS:
            block = DepthwiseSeparable(in_channels=int(cin * scale), out_channels1=c1, out_channels2=c2,
                                       num_groups=c1, stride=stride, scale=scale)
            self.dwsl.append(self.add_sublayer(sublayer=block, name=name))
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.fc = nn.Linear(int(1024 * scale), num_classes)

    def forward(self, x):
        x = self.conv1(x)
        for dws in self.dwsl:
            x = dws(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = self.fc(flatten(x, 1))
        return x


def mobilenet_v1(pretrained=False, scale=1.0, **kwargs):
    _check_pretrained("mobilenetv1_" + str(scale), pretrained)
    return MobileNetV1(scale=scale, **kwargs)
