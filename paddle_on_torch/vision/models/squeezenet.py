"""SqueezeNet 1.0 and 1.1 (paddle.vision.models.SqueezeNet / squeezenet1_0 / squeezenet1_1)."""
from ... import nn
from ...framework.param_attr import ParamAttr
from ...nn import functional as F
from ...tensor.manipulation import concat, squeeze
from ._utils import _check_pretrained

__all__ = []


class MakeFireConv(nn.Layer):
    def __init__(self, input_channels, output_channels, filter_size, padding=0):
        super().__init__()
        self._conv = nn.Conv2D(input_channels, output_channels, filter_size, padding=padding,
                               weight_attr=ParamAttr(), bias_attr=ParamAttr())

    def forward(self, x):
        return F.relu(self._conv(x))


class MakeFire(nn.Layer):
    def __init__(self, input_channels, squeeze_channels, expand1x1_channels, expand3x3_channels):
        super().__init__()
        self._conv = MakeFireConv(input_channels, squeeze_channels, 1)
        self._conv_path1 = MakeFireConv(squeeze_channels, expand1x1_channels, 1)
        self._conv_path2 = MakeFireConv(squeeze_channels, expand3x3_channels, 3, padding=1)

    def forward(self, inputs):
        x = self._conv(inputs)
        return concat([self._conv_path1(x), self._conv_path2(x)], axis=1)


class SqueezeNet(nn.Layer):
    """SqueezeNet; `version` is '1.0' or '1.1'."""

    def __init__(self, version, num_classes=1000, with_pool=True):
        super().__init__()
        self.version = version
        self.num_classes = num_classes
        self.with_pool = with_pool
        supported_versions = ["1.0", "1.1"]
        assert version in supported_versions, \
            f"supported versions are {supported_versions} but input version is {version}"
        if version == "1.0":
            self._conv = nn.Conv2D(3, 96, 7, stride=2, weight_attr=ParamAttr(), bias_attr=ParamAttr())
            first = 96
        else:
            self._conv = nn.Conv2D(3, 64, 3, stride=2, padding=1, weight_attr=ParamAttr(), bias_attr=ParamAttr())
            first = 64
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)
        self._conv1 = MakeFire(first, 16, 64, 64)
        self._conv2 = MakeFire(128, 16, 64, 64)
        self._conv3 = MakeFire(128, 32, 128, 128)
        self._conv4 = MakeFire(256, 32, 128, 128)
        self._conv5 = MakeFire(256, 48, 192, 192)
        self._conv6 = MakeFire(384, 48, 192, 192)
        self._conv7 = MakeFire(384, 64, 256, 256)
        self._conv8 = MakeFire(512, 64, 256, 256)
        self._drop = nn.Dropout(p=0.5, mode="downscale_in_infer")
        self._conv9 = nn.Conv2D(512, num_classes, 1, weight_attr=ParamAttr(), bias_attr=ParamAttr())
        self._avg_pool = nn.AdaptiveAvgPool2D(1)

    def forward(self, inputs):
        x = self._pool(F.relu(self._conv(inputs)))
        # where the two extra max pools sit among the eight fire modules
        pools_after = (3, 7) if self.version == "1.0" else (2, 4)
        for i in range(1, 9):
            x = getattr(self, f"_conv{i}")(x)
            if i in pools_after:
                x = self._pool(x)
        if self.num_classes > 0:
            x = self._conv9(self._drop(x))
        if self.with_pool:
            x = squeeze(self._avg_pool(F.relu(x)), axis=[2, 3])
        return x


def squeezenet1_0(pretrained=False, **kwargs):
    _check_pretrained("squeezenet1_0", pretrained)
    return SqueezeNet("1.0", **kwargs)


def squeezenet1_1(pretrained=False, **kwargs):
    _check_pretrained("squeezenet1_1", pretrained)
    return SqueezeNet("1.1", **kwargs)
