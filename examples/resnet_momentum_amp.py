"""A small ResNet trained with Momentum, a PiecewiseDecay schedule and bfloat16 autocast.

Note on AMP: `paddle.amp.auto_cast(dtype='bfloat16')` only takes effect on a GPU (or XPU/custom
device).  On CPU real Paddle warns and runs everything in float32, and paddle_on_torch does the same,
so the loss curve recorded on CPU (tests/data/examples) is a float32 curve on both sides.

    python -m paddle_on_torch examples/resnet_momentum_amp.py            # full run
    python -m paddle_on_torch examples/resnet_momentum_amp.py --quick    # a few seconds (also: EXAMPLES_QUICK=1)

tests/test_examples.py imports build() and train_losses() and compares the loss curve with real
Paddle's from the same initial weights (tools/record_examples.py).
"""
import os
import sys
import warnings

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

SEED = 7


class BasicBlock(nn.Layer):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2D(cin, cout, 3, stride=stride, padding=1, bias_attr=False)
        self.bn1 = nn.BatchNorm2D(cout)
        self.conv2 = nn.Conv2D(cout, cout, 3, padding=1, bias_attr=False)
        self.bn2 = nn.BatchNorm2D(cout)
        self.short = None
        if stride != 1 or cin != cout:
            self.short = nn.Sequential(nn.Conv2D(cin, cout, 1, stride=stride, bias_attr=False), nn.BatchNorm2D(cout))

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return F.relu(y + (x if self.short is None else self.short(x)))


class SmallResNet(nn.Layer):
    def __init__(self, num_classes=5, width=8):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2D(3, width, 3, padding=1, bias_attr=False), nn.BatchNorm2D(width), nn.ReLU())
        self.layer1 = BasicBlock(width, width, 1)
        self.layer2 = BasicBlock(width, 2 * width, 2)
        self.pool = nn.AdaptiveAvgPool2D(1)
        self.fc = nn.Linear(2 * width, num_classes)

    def forward(self, x):
        x = self.layer2(self.layer1(self.stem(x)))
        return self.fc(paddle.flatten(self.pool(x), 1))

# what tools/record_examples.py recorded under real Paddle and tests/test_examples.py replays
TEST_SETTINGS = dict(steps=12)

def build():
    paddle.seed(SEED)
    return SmallResNet()


def batches(steps, batch_size=16, seed=SEED):
    """Deterministic images: a per-class mean colour pattern plus noise."""
    rng = np.random.default_rng(seed)
    means = rng.standard_normal((5, 3, 1, 1)).astype("float32")
    for _ in range(steps):
        y = rng.integers(0, 5, batch_size)
        x = (means[y] + 0.8 * rng.standard_normal((batch_size, 3, 12, 12))).astype("float32")
        yield x, y.astype("int64")


def train_losses(net, steps=12, batch_size=16):
    sched = paddle.optimizer.lr.PiecewiseDecay(boundaries=[steps // 3, 2 * steps // 3], values=[0.1, 0.05, 0.01])
    opt = paddle.optimizer.Momentum(learning_rate=sched, momentum=0.9, parameters=net.parameters(),
                                    weight_decay=1e-4)
    net.train()
    losses = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "amp_guard can only be enabled on CUDAPlace..." on CPU
        for x, y in batches(steps, batch_size):
            with paddle.amp.auto_cast(dtype="bfloat16"):
                logits = net(paddle.to_tensor(x))
                loss = F.cross_entropy(logits, paddle.to_tensor(y))
            loss.backward()
            opt.step()
            opt.clear_grad()
            sched.step()
            losses.append(float(loss))
    return losses


def main(argv):
    quick = "--quick" in argv or os.environ.get("EXAMPLES_QUICK") == "1"
    steps = 6 if quick else 60
    losses = train_losses(build(), steps=steps)
    for i, v in enumerate(losses):
        print(f"step {i + 1}/{steps} loss {v:.4f}")


if __name__ == "__main__":
    main(sys.argv[1:])
