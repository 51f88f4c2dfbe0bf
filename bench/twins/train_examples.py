"""Plain-torch twins of issue 4's three training examples, for bench/train.py (torch only; no
paddle_on_torch import).

For each example (examples/<name>.py) this has the same model (architecture, sizes, parameter
names), the same data (the example's NumPy generators, transcribed), the same loss, the standard
torch.optim optimizer of the same family and the same learning-rate schedule:

  lenet_mnist_hapi     LeNet, CrossEntropyLoss, torch.optim.Adam(lr=0.002) (Paddle's Adam and
                       torch's are the same update); a step also computes the top-1/top-2 accuracy
                       on the host, as hapi's Model.train_batch does with Accuracy(topk=(1, 2)).
  resnet_momentum_amp  SmallResNet, cross_entropy, torch.optim.SGD(momentum=0.9, weight_decay=1e-4)
                       with a LambdaLR piecewise schedule (Paddle's PiecewiseDecay [0.1, 0.05, 0.01]).
                       No autocast: Paddle's auto_cast(bfloat16) is a no-op on CPU, while torch's
                       CPU autocast would really run in bfloat16.
  gpt_adamw_resume     TinyGPT, cross_entropy, torch.optim.AdamW(lr=3e-3, weight_decay=0.05),
                       torch.nn.utils.clip_grad_norm_(1.0), CosineAnnealingLR(T_max, eta_min=1e-4).

The optimizers are the torch family members a torch user would pick; their formulas differ
slightly from Paddle's (e.g. where epsilon enters Adam's denominator, Momentum's first step), so
curves may drift apart slightly (measured: they agree to <1e-5 relative over the recorded steps).  `check(name)` loads the Paddle-saved initial weights
(tests/data/examples/<name>.pdparams; Linear weights transposed, BatchNorm _mean/_variance ->
running_mean/running_var, via bench.twins.load_paddle_state), asserts the first step's loss equals
the one real Paddle recorded (tests/data/examples/<name>.npz) to 1e-4 relative, and returns the
largest relative difference over the whole recorded curve (information, not asserted).
"""
import math
import os
import pickle

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from bench.twins import load_paddle_state

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "data", "examples")
EXAMPLES = ["lenet_mnist_hapi", "resnet_momentum_amp", "gpt_adamw_resume"]
FIRST_LOSS_RTOL = 1e-4


# ------------------------------------------------------------------------------------ LeNet

class LeNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 6, 3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2d(2, 2),
            nn.Conv2d(6, 16, 5, stride=1, padding=0), nn.ReLU(), nn.MaxPool2d(2, 2))
        self.fc = nn.Sequential(nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, num_classes))

    def forward(self, x):
        return self.fc(torch.flatten(self.features(x), 1))


def mnist_arrays(n, seed=2024):
    """examples/lenet_mnist_hapi.py's write_mnist_files + MnistFiles without the IDX round trip:
    images float32 [n, 1, 28, 28] in [-1, 1], labels int64 [n, 1]."""
    rng = np.random.default_rng(seed)
    patterns = rng.random((10, 28, 28)) > 0.8
    labels = rng.integers(0, 10, n).astype(np.uint8)
    noise = rng.integers(0, 90, (n, 28, 28))
    images = np.clip(patterns[labels] * 200 + noise, 0, 255).astype(np.uint8)
    x = (images.reshape(n, 1, 28, 28).astype("float32") - 127.5) / 127.5
    return x, labels.astype("int64").reshape(n, 1)


def lenet_batches(n_train=96, batch_size=16):
    x, y = mnist_arrays(n_train)
    return [(x[i:i + batch_size], y[i:i + batch_size]) for i in range(0, n_train, batch_size)]


class LenetTrainer:
    """The torch loop that does what hapi's Model.train_batch does for the example."""

    def __init__(self, net):
        self.net = net
        self.opt = torch.optim.Adam(net.parameters(), lr=0.002)
        self.loss_fn = nn.CrossEntropyLoss()

    def train_batch(self, x, y):
        self.net.train()
        xt, yt = torch.as_tensor(x), torch.as_tensor(y)  # numpy (train_batch) or tensors (DataLoader)
        logits = self.net(xt)
        loss = self.loss_fn(logits, yt.reshape(-1))
        loss.backward()
        self.opt.step()
        self.opt.zero_grad()
        correct = (logits.topk(2, dim=1).indices == yt).float().numpy()  # Accuracy(topk=(1, 2))
        accs = [float(correct[:, :k].sum()) / len(correct) for k in (1, 2)]
        return loss.detach().numpy(), accs


# ----------------------------------------------------------------------------------- ResNet

class BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.short = None
        if stride != 1 or cin != cout:
            self.short = nn.Sequential(nn.Conv2d(cin, cout, 1, stride=stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return F.relu(y + (x if self.short is None else self.short(x)))


class SmallResNet(nn.Module):
    def __init__(self, num_classes=5, width=8):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, width, 3, padding=1, bias=False), nn.BatchNorm2d(width), nn.ReLU())
        self.layer1 = BasicBlock(width, width, 1)
        self.layer2 = BasicBlock(width, 2 * width, 2)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(2 * width, num_classes)

    def forward(self, x):
        x = self.layer2(self.layer1(self.stem(x)))
        return self.fc(torch.flatten(self.pool(x), 1))


def resnet_batches(steps, batch_size=16, seed=7):
    """examples/resnet_momentum_amp.py's batches()."""
    rng = np.random.default_rng(seed)
    means = rng.standard_normal((5, 3, 1, 1)).astype("float32")
    out = []
    for _ in range(steps):
        y = rng.integers(0, 5, batch_size)
        x = (means[y] + 0.8 * rng.standard_normal((batch_size, 3, 12, 12))).astype("float32")
        out.append((x, y.astype("int64")))
    return out


class ResnetTrainer:
    def __init__(self, net, steps=12):
        self.net = net
        bounds, values = [steps // 3, 2 * steps // 3], [0.1, 0.05, 0.01]
        self.opt = torch.optim.SGD(net.parameters(), lr=1.0, momentum=0.9, weight_decay=1e-4)
        self.sched = torch.optim.lr_scheduler.LambdaLR(
            self.opt, lambda e: values[sum(e >= b for b in bounds)])  # PiecewiseDecay
        net.train()

    def step(self, x, y):
        logits = self.net(torch.from_numpy(x))
        loss = F.cross_entropy(logits, torch.from_numpy(y))
        loss.backward()
        self.opt.step()
        self.opt.zero_grad()
        self.sched.step()
        return loss.item()


# -------------------------------------------------------------------------------------- GPT

VOCAB, CTX, WIDTH, HEADS, LAYERS = 32, 16, 32, 4, 2


class CausalSelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(WIDTH, 3 * WIDTH)
        self.proj = nn.Linear(WIDTH, WIDTH)

    def forward(self, x):
        b, t, _ = x.shape
        q, k, v = torch.split(self.qkv(x), WIDTH, dim=-1)
        q, k, v = [z.reshape(b, t, HEADS, WIDTH // HEADS).permute(0, 2, 1, 3) for z in (q, k, v)]
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(WIDTH // HEADS)
        mask = torch.triu(torch.full((t, t), -1e9), diagonal=1)
        att = F.softmax(scores + mask, dim=-1)
        y = torch.matmul(att, v).permute(0, 2, 1, 3).reshape(b, t, WIDTH)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1 = nn.LayerNorm(WIDTH)
        self.attn = CausalSelfAttention()
        self.ln2 = nn.LayerNorm(WIDTH)
        self.mlp = nn.Sequential(nn.Linear(WIDTH, 4 * WIDTH), nn.GELU(), nn.Linear(4 * WIDTH, WIDTH))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class TinyGPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, WIDTH)
        self.pos = nn.Embedding(CTX, WIDTH)
        self.blocks = nn.ModuleList([Block() for _ in range(LAYERS)])
        self.ln_f = nn.LayerNorm(WIDTH)
        self.head = nn.Linear(WIDTH, VOCAB, bias=False)

    def forward(self, ids):
        x = self.tok(ids) + self.pos(torch.arange(ids.shape[1]).unsqueeze(0))
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln_f(x))


def gpt_batch(step, batch_size=8, seed=11):
    """examples/gpt_adamw_resume.py's batch()."""
    rng = np.random.default_rng(seed * 1000 + step)
    seq = np.empty((batch_size, CTX + 1), dtype="int64")
    seq[:, 0] = rng.integers(0, VOCAB, batch_size)
    for i in range(1, CTX + 1):
        noisy = rng.random(batch_size) < 0.1
        seq[:, i] = np.where(noisy, rng.integers(0, VOCAB, batch_size), (3 * seq[:, i - 1] + 1) % VOCAB)
    return seq[:, :-1], seq[:, 1:]


class GptTrainer:
    def __init__(self, net, steps=16):
        self.net = net
        self.opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=0.05)
        self.sched = torch.optim.lr_scheduler.CosineAnnealingLR(self.opt, T_max=steps, eta_min=1e-4)
        net.train()

    def step(self, x, y):
        logits = self.net(torch.from_numpy(x))
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), torch.from_numpy(y).reshape(-1))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.net.parameters(), 1.0)
        self.opt.step()
        self.opt.zero_grad()
        self.sched.step()
        return loss.item()


# ------------------------------------------------------------------------------ loading, check

MODELS = {"lenet_mnist_hapi": LeNet, "resnet_momentum_amp": SmallResNet, "gpt_adamw_resume": TinyGPT}


def load(name):
    """The twin model with real Paddle's initial weights for the example."""
    with open(os.path.join(DATA, f"{name}.pdparams"), "rb") as f:
        state = pickle.load(f)
    state.pop("StructuredToParameterName@@", None)
    return load_paddle_state(MODELS[name](), state)


def trainer(name, steps=None):
    """(step_fn, batches): step_fn(*batch) runs one training step of the twin from Paddle's weights."""
    net = load(name)
    if name == "lenet_mnist_hapi":
        t = LenetTrainer(net)
        return t.train_batch, lenet_batches()
    if name == "resnet_momentum_amp":
        steps = steps or 12
        return ResnetTrainer(net, steps).step, resnet_batches(steps)
    steps = steps or 16
    return GptTrainer(net, steps).step, [gpt_batch(s) for s in range(steps)]


def losses(name):
    """The twin's loss curve over the recorded run (tools/record_examples.py's TEST_SETTINGS)."""
    if name == "lenet_mnist_hapi":  # Model.fit, 96 samples, batch 16, 2 epochs, shuffle=False
        step, batches = trainer(name)
        return [float(step(x, y)[0]) for _ in range(2) for x, y in batches]
    step, batches = trainer(name)
    return [step(x, y) for x, y in batches]


def check(name):
    """Assert the twin's first-step loss equals real Paddle's to 1e-4 relative; returns
    (first-step relative difference, largest relative difference over the recorded curve)."""
    want = np.load(os.path.join(DATA, f"{name}.npz"))["losses"]
    got = np.asarray(losses(name))
    assert len(got) == len(want), f"{name}: {len(got)} losses, recorded {len(want)}"
    first = abs(got[0] - want[0]) / abs(want[0])
    assert first <= FIRST_LOSS_RTOL, f"{name}: first loss {got[0]} != recorded {want[0]} (rel {first:.2e})"
    return first, float(np.max(np.abs(got - want) / np.abs(want)))


if __name__ == "__main__":
    torch.set_num_threads(1)
    for n in EXAMPLES:
        f, c = check(n)
        print(f"{n:22s} first-step loss rel diff {f:.1e}, whole curve max rel diff {c:.1e}")
