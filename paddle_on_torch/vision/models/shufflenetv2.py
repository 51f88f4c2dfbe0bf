"""ShuffleNetV2 (paddle.vision.models.ShuffleNetV2 / shufflenet_v2_*)."""
from ... import nn
from ...tensor.manipulation import concat, flatten, reshape, split, transpose
from ..ops import ConvNormActivation
from ._utils import _check_pretrained

__all__ = []


def create_activation_layer(act):
    if act == "swish":
        return nn.Swish
    if act == "relu":
        return nn.ReLU
    if act is None:
        return None
    raise RuntimeError(f"The activation function is not supported: {act}")


def channel_shuffle(x, groups):
    batch_size, num_channels, height, width = x.shape[0:4]
    channels_per_group = num_channels // groups
    x = reshape(x, shape=[batch_size, groups, channels_per_group, height, width])
    x = transpose(x, perm=[0, 2, 1, 3, 4])
    return reshape(x, shape=[batch_size, num_channels, height, width])


def _cna(cin, cout, k, stride=1, groups=1, act=None):
    return ConvNormActivation(in_channels=cin, out_channels=cout, kernel_size=k, stride=stride, padding=(k - 1) // 2,
                              groups=groups, activation_layer=act)


class InvertedResidual(nn.Layer):
    def __init__(self, in_channels, out_channels, stride, activation_layer=nn.ReLU):
        super().__init__()
        half = out_channels // 2
        self._conv_pw = _cna(in_channels // 2, half, 1, act=activation_layer)
        self._conv_dw = _cna(half, half, 3, stride=stride, groups=half)
        self._conv_linear = _cna(half, half, 1, act=activation_layer)

    def forward(self, inputs):
        c = inputs.shape[1] // 2
        x1, x2 = split(inputs, num_or_sections=[c, c], axis=1)
        x2 = self._conv_linear(self._conv_dw(self._conv_pw(x2)))
        return channel_shuffle(concat([x1, x2], axis=1), 2)


class InvertedResidualDS(nn.Layer):
    def __init__(self, in_channels, out_channels, stride, activation_layer=nn.ReLU):
        super().__init__()
        half = out_channels // 2
        self._conv_dw_1 = _cna(in_channels, in_channels, 3, stride=stride, groups=in_channels)
        self._conv_linear_1 = _cna(in_channels, half, 1, act=activation_layer)
        self._conv_pw_2 = _cna(in_channels, half, 1, act=activation_layer)
        self._conv_dw_2 = _cna(half, half, 3, stride=stride, groups=half)
        self._conv_linear_2 = _cna(half, half, 1, act=activation_layer)

    def forward(self, inputs):
        x1 = self._conv_linear_1(self._conv_dw_1(inputs))
        x2 = self._conv_linear_2(self._conv_dw_2(self._conv_pw_2(inputs)))
        return channel_shuffle(concat([x1, x2], axis=1), 2)


_STAGE_OUT = {0.25: [-1, 24, 24, 48, 96, 512], 0.33: [-1, 24, 32, 64, 128, 512], 0.5: [-1, 24, 48, 96, 192, 1024],
              1.0: [-1, 24, 116, 232, 464, 1024], 1.5: [-1, 24, 176, 352, 704, 1024],
              2.0: [-1, 24, 224, 488, 976, 2048]}


class ShuffleNetV2(nn.Layer):
    """ShuffleNetV2; `scale` picks the width (0.25, 0.33, 0.5, 1.0, 1.5, 2.0), `act` is 'relu', 'swish' or None."""

    def __init__(self, scale=1.0, act="relu", num_classes=1000, with_pool=True):
        super().__init__()
        self.scale = scale
        self.num_classes = num_classes
        self.with_pool = with_pool
        activation_layer = create_activation_layer(act)
        if scale not in _STAGE_OUT:
            raise NotImplementedError("This scale size:[" + str(scale) + "] is not implemented!")
        out = _STAGE_OUT[scale]
        self._conv1 = _cna(3, out[1], 3, stride=2, act=activation_layer)
        self._max_pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self._block_list = []
        for stage_id, num_repeat in enumerate([4, 8, 4]):
            for i in range(num_repeat):
                if i == 0:
                    block = InvertedResidualDS(out[stage_id + 1], out[stage_id + 2], 2, activation_layer)
                else:
                    block = InvertedResidual(out[stage_id + 2], out[stage_id + 2], 1, activation_layer)
                self._block_list.append(self.add_sublayer(sublayer=block, name=f"{stage_id + 2}_{i + 1}"))
        self._last_conv = _cna(out[-2], out[-1], 1, act=activation_layer)
        if with_pool:
            self._pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self._out_c = out[-1]
            self._fc = nn.Linear(out[-1], num_classes)

    def forward(self, inputs):
        x = self._max_pool(self._conv1(inputs))
        for inv in self._block_list:
            x = inv(x)
        x = self._last_conv(x)
        if self.with_pool:
            x = self._pool2d_avg(x)
        if self.num_classes > 0:
            x = self._fc(flatten(x, start_axis=1, stop_axis=-1))
        return x


def _shufflenet_v2(arch, pretrained=False, scale=1.0, **kwargs):
    _check_pretrained(arch, pretrained)
    return ShuffleNetV2(scale=scale, **kwargs)


def shufflenet_v2_x0_25(pretrained=False, **kwargs):
    return _shufflenet_v2("shufflenet_v2_x0_25", scale=0.25, pretrained=pretrained, **kwargs)


def shufflenet_v2_x0_33(pretrained=False, **kwargs):
    return _shufflenet_v2("shufflenet_v2_x0_33", scale=0.33, pretrained=pretrained, **kwargs)


def shufflenet_v2_x0_5(pretrained=False, **kwargs):
    return _shufflenet_v2("shufflenet_v2_x0_5", scale=0.5, pretrained=pretrained, **kwargs)


def shufflenet_v2_x1_0(pretrained=False, **kwargs):
    return _shufflenet_v2("shufflenet_v2_x1_0", scale=1.0, pretrained=pretrained, **kwargs)


def shufflenet_v2_x1_5(pretrained=False, **kwargs):
    return _shufflenet_v2("shufflenet_v2_x1_5", scale=1.5, pretrained=pretrained, **kwargs)


def shufflenet_v2_x2_0(pretrained=False, **kwargs):
    return _shufflenet_v2("shufflenet_v2_x2_0", scale=2.0, pretrained=pretrained, **kwargs)


def shufflenet_v2_swish(pretrained=False, **kwargs):
    return _shufflenet_v2("shufflenet_v2_swish", scale=1.0, act="swish", pretrained=pretrained, **kwargs)
