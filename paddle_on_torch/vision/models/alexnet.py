"""AlexNet (paddle.vision.models.AlexNet / alexnet)."""
import math

from ... import nn
from ...framework.param_attr import ParamAttr
from ...nn import functional as F
from ...nn.initializer import Uniform
from ...tensor.manipulation import flatten
from ._utils import _check_pretrained

__all__ = []


def _uniform(stdv):
    return ParamAttr(initializer=Uniform(-stdv, stdv))


def _conv(cin, cout, k, stride, padding, stdv, groups=1):
    return nn.Conv2D(cin, cout, k, stride=stride, padding=padding, groups=groups,
                     weight_attr=_uniform(stdv), bias_attr=_uniform(stdv))


class ConvPoolLayer(nn.Layer):
    def __init__(self, input_channels, output_channels, filter_size, stride, padding, stdv, groups=1, act=None):
        super().__init__()
        self.relu = nn.ReLU() if act == "relu" else None
        self._conv = _conv(input_channels, output_channels, filter_size, stride, padding, stdv, groups)
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)

    def forward(self, inputs):
        x = self._conv(inputs)
        if self.relu is not None:
            x = self.relu(x)
        return self._pool(x)


class AlexNet(nn.Layer):
    """AlexNet for 3x224x224 inputs; `num_classes <= 0` leaves out the classifier."""

    def __init__(self, num_classes=1000):
        super().__init__()
        self.num_classes = num_classes
        self._conv1 = ConvPoolLayer(3, 64, 11, 4, 2, 1.0 / math.sqrt(3 * 11 * 11), act="relu")
        self._conv2 = ConvPoolLayer(64, 192, 5, 1, 2, 1.0 / math.sqrt(64 * 5 * 5), act="relu")
        self._conv3 = _conv(192, 384, 3, 1, 1, 1.0 / math.sqrt(192 * 3 * 3))
        self._conv4 = _conv(384, 256, 3, 1, 1, 1.0 / math.sqrt(384 * 3 * 3))
        self._conv5 = ConvPoolLayer(256, 256, 3, 1, 1, 1.0 / math.sqrt(256 * 3 * 3), act="relu")
        if num_classes > 0:
            stdv = 1.0 / math.sqrt(256 * 6 * 6)
            self._drop1 = nn.Dropout(p=0.5, mode="downscale_in_infer")
            self._fc6 = nn.Linear(256 * 6 * 6, 4096, weight_attr=_uniform(stdv), bias_attr=_uniform(stdv))
            self._drop2 = nn.Dropout(p=0.5, mode="downscale_in_infer")
            self._fc7 = nn.Linear(4096, 4096, weight_attr=_uniform(stdv), bias_attr=_uniform(stdv))
            self._fc8 = nn.Linear(4096, num_classes, weight_attr=_uniform(stdv), bias_attr=_uniform(stdv))

    def forward(self, inputs):
        x = self._conv2(self._conv1(inputs))
        x = F.relu(self._conv3(x))
        x = F.relu(self._conv4(x))
        x = self._conv5(x)
        if self.num_classes > 0:
            x = flatten(x, start_axis=1, stop_axis=-1)
            x = F.relu(self._fc6(self._drop1(x)))
            x = F.relu(self._fc7(self._drop2(x)))
            x = self._fc8(x)
        return x


def alexnet(pretrained=False, **kwargs):
    _check_pretrained("alexnet", pretrained)
    return AlexNet(**kwargs)
