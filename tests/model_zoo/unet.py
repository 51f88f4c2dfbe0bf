"""A UNet-like segmenter: conv-BN-ReLU encoder with max pooling, a decoder that upsamples once with
Conv2DTranspose and once with F.interpolate (bilinear), concatenating skip connections."""
import paddle
import paddle.nn as nn
import paddle.nn.functional as F


class DoubleConv(nn.Sequential):
    def __init__(self, cin, cout):
        super().__init__(nn.Conv2D(cin, cout, 3, padding=1, bias_attr=False), nn.BatchNorm2D(cout), nn.ReLU(),
                         nn.Conv2D(cout, cout, 3, padding=1, bias_attr=False), nn.BatchNorm2D(cout), nn.ReLU())


class UNet(nn.Layer):
    def __init__(self, cin=3, classes=4, w=8):
        super().__init__()
        self.inc = DoubleConv(cin, w)
        self.down1 = nn.Sequential(nn.MaxPool2D(2), DoubleConv(w, 2 * w))
        self.down2 = nn.Sequential(nn.MaxPool2D(2), DoubleConv(2 * w, 4 * w))
        self.up1 = nn.Conv2DTranspose(4 * w, 2 * w, kernel_size=2, stride=2)
        self.conv1 = DoubleConv(4 * w, 2 * w)
        self.reduce = nn.Conv2D(2 * w, w, 1)
        self.conv2 = DoubleConv(2 * w, w)
        self.outc = nn.Conv2D(w, classes, 1)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down1(x1)
        x3 = self.down2(x2)
        y = self.conv1(paddle.concat([x2, self.up1(x3)], axis=1))
        y = F.interpolate(self.reduce(y), size=x1.shape[2:], mode="bilinear", align_corners=False)
        y = self.conv2(paddle.concat([x1, y], axis=1))
        return self.outc(y)


WARMUP = True
GRADS = ["inc.0.weight", "up1.weight", "up1.bias", "outc.weight"]


def build():
    return UNet()


def inputs(rng):
    return [rng.standard_normal([2, 3, 24, 24]).astype("float32")]


def loss(out, inputs):
    target = paddle.to_tensor((inputs[0][:, :1] > 0).astype("int64")).squeeze(1)
    return F.cross_entropy(out.transpose([0, 2, 3, 1]), target, axis=-1)
