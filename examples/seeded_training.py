"""A seeded Paddle training script whose every number comes from Paddle's random generator: the weights from the
layers' default initializers and explicit ones, the data from paddle.rand / randn / randint, the batch order
from paddle.randperm, input noise from paddle.normal, and dropout (elementwise, channel-wise and alpha) on in
training.  Under paddle_on_torch on the CPU it prints Paddle's losses (tests/test_seeded_training.py checks them
against tools/record_seeded_training.py's recording from real Paddle).

    python examples/seeded_training.py                 # real Paddle
    python -m paddle_on_torch examples/seeded_training.py   # paddle_on_torch
"""
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

STEPS = 12


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 8, 3, padding=1)  # default: Normal(0, sqrt(2 / fan_in))
        self.bn = nn.BatchNorm2D(8)
        self.drop2d = nn.Dropout2D(0.2)
        self.conv2 = nn.Conv2D(8, 8, 3, padding=1, weight_attr=nn.initializer.KaimingUniform())
        self.fc1 = nn.Linear(8 * 4 * 4, 32, weight_attr=nn.initializer.TruncatedNormal(std=0.05))
        self.drop = nn.Dropout(0.3)
        self.alpha = nn.AlphaDropout(0.1)
        self.fc2 = nn.Linear(32, 5, weight_attr=nn.initializer.XavierNormal())  # bias: Constant(0)
        self.emb = nn.Embedding(5, 32)  # default XavierUniform

    def forward(self, x, hint):
        h = F.relu(self.bn(self.conv(x)))
        h = self.drop2d(h)
        h = F.max_pool2d(F.relu(self.conv2(h)), 2)
        h = self.drop(F.relu(self.fc1(h.flatten(1)) + self.emb(hint)))
        return self.fc2(self.alpha(h))


def make_data(n=32):
    x = paddle.rand([n, 3, 8, 8])
    y = paddle.randint(0, 5, [n])
    hint = paddle.randint(0, 5, [n])
    return x, y, hint


def train(steps=STEPS, batch=8, log=print):
    paddle.seed(2024)
    net = Net()
    x, y, hint = make_data()
    opt = paddle.optimizer.Adam(learning_rate=1e-3, parameters=net.parameters())
    net.train()
    losses = []
    for step in range(steps):
        order = paddle.randperm(x.shape[0])[:batch]
        xb = x[order] + paddle.normal(0.0, 0.05, [batch, 3, 8, 8])
        loss = F.cross_entropy(net(xb, hint[order]), y[order])
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
        log(f"step {step} loss {float(loss):.9f}")
    return losses


if __name__ == "__main__":
    train()
