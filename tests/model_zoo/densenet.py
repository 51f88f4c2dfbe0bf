"""A DenseNet-style conv net: dense blocks (BN-ReLU-conv bottlenecks, concatenated features) with
transition layers (1x1 conv + AvgPool2D), max-pooled stem and global pooling."""
import paddle
import paddle.nn as nn
import paddle.nn.functional as F


class DenseLayer(nn.Layer):
    def __init__(self, cin, growth, bn_size=2):
        super().__init__()
        self.norm1 = nn.BatchNorm2D(cin)
        self.conv1 = nn.Conv2D(cin, bn_size * growth, 1, bias_attr=False)
        self.norm2 = nn.BatchNorm2D(bn_size * growth)
        self.conv2 = nn.Conv2D(bn_size * growth, growth, 3, padding=1, bias_attr=False)

    def forward(self, x):
        y = self.conv1(F.relu(self.norm1(x)))
        y = self.conv2(F.relu(self.norm2(y)))
        return paddle.concat([x, y], axis=1)


class Transition(nn.Sequential):
    def __init__(self, cin, cout):
        super().__init__(nn.BatchNorm2D(cin), nn.ReLU(), nn.Conv2D(cin, cout, 1, bias_attr=False),
                         nn.AvgPool2D(kernel_size=2, stride=2))


class DenseNet(nn.Layer):
    def __init__(self, growth=8, blocks=(3, 3, 3), init=16, classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2D(3, init, 3, padding=1, bias_attr=False), nn.BatchNorm2D(init), nn.ReLU(),
                                  nn.MaxPool2D(kernel_size=3, stride=2, padding=1))
        layers, c = [], init
        for i, n in enumerate(blocks):
            for _ in range(n):
                layers.append(DenseLayer(c, growth))
                c += growth
            if i != len(blocks) - 1:
                layers.append(Transition(c, c // 2))
                c //= 2
        self.features = nn.Sequential(*layers)
        self.norm = nn.BatchNorm2D(c)
        self.classifier = nn.Linear(c, classes)

    def forward(self, x):
        x = F.relu(self.norm(self.features(self.stem(x))))
        x = F.adaptive_avg_pool2d(x, 1).flatten(1)
        return self.classifier(x)


WARMUP = True
GRADS = ["stem.0.weight", "features.2.conv2.weight", "classifier.weight"]


def build():
    return DenseNet()


def inputs(rng):
    return [rng.standard_normal([2, 3, 32, 32]).astype("float32")]


def loss(out, inputs):
    return F.cross_entropy(out, paddle.to_tensor([4, 0], dtype="int64"))
