"""A VGG-style net: stacks of 3x3 conv + BatchNorm + ReLU with MaxPool2D, then a classifier with
BatchNorm1D, Dropout (p=0) and Linear layers."""
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

CFG = [8, "M", 16, 16, "M", 32, 32, "M"]


class VGG(nn.Layer):
    def __init__(self, classes=10):
        super().__init__()
        layers, c = [], 3
        for v in CFG:
            if v == "M":
                layers.append(nn.MaxPool2D(kernel_size=2, stride=2))
            else:
                layers += [nn.Conv2D(c, v, kernel_size=3, padding=1), nn.BatchNorm2D(v), nn.ReLU()]
                c = v
        self.features = nn.Sequential(*layers)
        self.classifier = nn.Sequential(nn.Linear(c * 2 * 2, 64), nn.BatchNorm1D(64), nn.ReLU(), nn.Dropout(0.0),
                                        nn.Linear(64, classes))

    def forward(self, x):
        return self.classifier(paddle.flatten(self.features(x), 1))


WARMUP = True
# (not a conv bias: before a train-mode BatchNorm its gradient is zero up to round-off)
GRADS = ["features.0.weight", "features.4.weight", "classifier.0.weight", "classifier.1.weight", "classifier.4.bias"]


def build():
    return VGG()


def inputs(rng):
    return [rng.standard_normal([4, 3, 16, 16]).astype("float32")]


def loss(out, inputs):
    return F.cross_entropy(out, paddle.to_tensor([1, 2, 3, 4], dtype="int64"))
