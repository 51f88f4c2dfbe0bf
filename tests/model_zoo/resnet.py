"""ResNet-18 structure (BasicBlock x [2, 2, 2, 2]) at width 8, for 32x32 images."""
import paddle
import paddle.nn as nn
import paddle.nn.functional as F


class BasicBlock(nn.Layer):
    expansion = 1

    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2D(cin, cout, 3, stride=stride, padding=1, bias_attr=False)
        self.bn1 = nn.BatchNorm2D(cout)
        self.conv2 = nn.Conv2D(cout, cout, 3, padding=1, bias_attr=False)
        self.bn2 = nn.BatchNorm2D(cout)
        self.relu = nn.ReLU()
        self.downsample = None
        if stride != 1 or cin != cout:
            self.downsample = nn.Sequential(nn.Conv2D(cin, cout, 1, stride=stride, bias_attr=False),
                                            nn.BatchNorm2D(cout))

    def forward(self, x):
        identity = x if self.downsample is None else self.downsample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + identity)


class ResNet(nn.Layer):
    def __init__(self, layers=(2, 2, 2, 2), width=8, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2D(3, width, 3, padding=1, bias_attr=False)
        self.bn1 = nn.BatchNorm2D(width)
        self.relu = nn.ReLU()
        self.maxpool = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        stages, cin = [], width
        for i, n in enumerate(layers):
            cout = width * 2 ** i
            blocks = [BasicBlock(cin, cout, stride=1 if i == 0 else 2)]
            blocks += [BasicBlock(cout, cout) for _ in range(n - 1)]
            stages.append(nn.Sequential(*blocks))
            cin = cout
        self.layer1, self.layer2, self.layer3, self.layer4 = stages
        self.avgpool = nn.AdaptiveAvgPool2D((1, 1))
        self.fc = nn.Linear(cin, num_classes)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        x = paddle.flatten(self.avgpool(x), 1)
        return self.fc(x)


WARMUP = True
GRADS = ["conv1.weight", "layer3.0.conv2.weight", "fc.weight", "fc.bias"]


def build():
    return ResNet()


def inputs(rng):
    return [rng.standard_normal([4, 3, 32, 32]).astype("float32")]


def loss(out, inputs):
    label = paddle.to_tensor([[1], [3], [5], [7]], dtype="int64")
    return F.cross_entropy(out, label)
