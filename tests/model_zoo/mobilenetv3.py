"""MobileNetV3-small-like: conv-BN-hardswish stem, inverted residuals with depthwise convs and SE blocks."""
import paddle
import paddle.nn as nn
import paddle.nn.functional as F


def _make_divisible(v, divisor=4):
    return max(divisor, int(v + divisor / 2) // divisor * divisor)


class ConvBNAct(nn.Sequential):
    def __init__(self, cin, cout, k, stride=1, groups=1, act=None):
        layers = [nn.Conv2D(cin, cout, k, stride=stride, padding=(k - 1) // 2, groups=groups, bias_attr=False),
                  nn.BatchNorm2D(cout)]
        if act == "hardswish":
            layers.append(nn.Hardswish())
        elif act == "relu":
            layers.append(nn.ReLU())
        super().__init__(*layers)


class SqueezeExcite(nn.Layer):
    def __init__(self, channels, reduction=4):
        super().__init__()
        mid = _make_divisible(channels // reduction)
        self.pool = nn.AdaptiveAvgPool2D(1)
        self.fc1 = nn.Conv2D(channels, mid, 1)
        self.fc2 = nn.Conv2D(mid, channels, 1)
        self.gate = nn.Hardsigmoid()

    def forward(self, x):
        s = self.fc2(F.relu(self.fc1(self.pool(x))))
        return x * self.gate(s)


class InvertedResidual(nn.Layer):
    def __init__(self, cin, k, exp, cout, use_se, act, stride):
        super().__init__()
        self.use_res = stride == 1 and cin == cout
        layers = []
        if exp != cin:
            layers.append(ConvBNAct(cin, exp, 1, act=act))
        layers.append(ConvBNAct(exp, exp, k, stride=stride, groups=exp, act=act))
        if use_se:
            layers.append(SqueezeExcite(exp))
        layers.append(ConvBNAct(exp, cout, 1))
        self.block = nn.Sequential(*layers)

    def forward(self, x):
        y = self.block(x)
        return x + y if self.use_res else y


# (kernel, expansion, out, SE, activation, stride), narrowed from the small configuration
CONFIG = [(3, 16, 16, True, "relu", 2), (3, 24, 16, False, "relu", 2), (3, 32, 16, False, "relu", 1),
          (5, 48, 24, True, "hardswish", 2), (5, 64, 24, True, "hardswish", 1), (5, 48, 32, True, "hardswish", 1)]


class MobileNetV3Small(nn.Layer):
    def __init__(self, num_classes=10):
        super().__init__()
        self.stem = ConvBNAct(3, 16, 3, stride=2, act="hardswish")
        blocks, cin = [], 16
        for k, exp, cout, se, act, s in CONFIG:
            blocks.append(InvertedResidual(cin, k, exp, cout, se, act, s))
            cin = cout
        self.blocks = nn.Sequential(*blocks)
        self.last_conv = ConvBNAct(cin, 96, 1, act="hardswish")
        self.pool = nn.AdaptiveAvgPool2D(1)
        self.classifier = nn.Sequential(nn.Linear(96, 64), nn.Hardswish(), nn.Dropout(p=0.0),
                                        nn.Linear(64, num_classes))

    def forward(self, x):
        x = self.pool(self.last_conv(self.blocks(self.stem(x))))
        return self.classifier(paddle.flatten(x, start_axis=1))


WARMUP = True
GRADS = ["stem.0.weight", "blocks.3.block.2.fc1.weight", "classifier.3.weight"]


def build():
    return MobileNetV3Small()


def inputs(rng):
    return [rng.standard_normal([3, 3, 48, 48]).astype("float32")]


def loss(out, inputs):
    return F.cross_entropy(out, paddle.to_tensor([2, 4, 9], dtype="int64"))
