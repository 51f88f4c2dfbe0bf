"""A tiny GPT trained with AdamW, global-norm gradient clipping and cosine annealing, checkpointed
with paddle.save half-way and resumed from the checkpoint by a fresh model and optimizer.

    python -m paddle_on_torch examples/gpt_adamw_resume.py            # full run
    python -m paddle_on_torch examples/gpt_adamw_resume.py --quick    # a few seconds (also: EXAMPLES_QUICK=1)

tests/test_examples.py imports build() and train_losses() and compares the loss curve (both halves)
with real Paddle's from the same initial weights (tools/record_examples.py).
"""
import math
import os
import sys
import tempfile

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

SEED = 11
VOCAB, CTX, WIDTH, HEADS, LAYERS = 32, 16, 32, 4, 2


class CausalSelfAttention(nn.Layer):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(WIDTH, 3 * WIDTH)
        self.proj = nn.Linear(WIDTH, WIDTH)

    def forward(self, x):
        b, t, _ = x.shape
        q, k, v = paddle.split(self.qkv(x), 3, axis=-1)
        heads = [z.reshape([b, t, HEADS, WIDTH // HEADS]).transpose([0, 2, 1, 3]) for z in (q, k, v)]
        q, k, v = heads
        scores = paddle.matmul(q, k, transpose_y=True) / math.sqrt(WIDTH // HEADS)
        mask = paddle.triu(paddle.full([t, t], -1e9, dtype="float32"), diagonal=1)
        att = F.softmax(scores + mask, axis=-1)
        y = paddle.matmul(att, v).transpose([0, 2, 1, 3]).reshape([b, t, WIDTH])
        return self.proj(y)


class Block(nn.Layer):
    def __init__(self):
        super().__init__()
        self.ln1 = nn.LayerNorm(WIDTH)
        self.attn = CausalSelfAttention()
        self.ln2 = nn.LayerNorm(WIDTH)
        self.mlp = nn.Sequential(nn.Linear(WIDTH, 4 * WIDTH), nn.GELU(), nn.Linear(4 * WIDTH, WIDTH))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class TinyGPT(nn.Layer):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, WIDTH)
        self.pos = nn.Embedding(CTX, WIDTH)
        self.blocks = nn.LayerList([Block() for _ in range(LAYERS)])
        self.ln_f = nn.LayerNorm(WIDTH)
        self.head = nn.Linear(WIDTH, VOCAB, bias_attr=False)

    def forward(self, ids):
        x = self.tok(ids) + self.pos(paddle.arange(ids.shape[1]).unsqueeze(0))
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln_f(x))

# what tools/record_examples.py recorded under real Paddle and tests/test_examples.py replays
TEST_SETTINGS = dict(steps=16)

def build():
    paddle.seed(SEED)
    # Optimizer state is keyed by parameter names (linear_3.w_0_moment1_0, ...): a model rebuilt to
    # resume must get the same names, as it would in a new process, hence the fresh name scope.
    with paddle.utils.unique_name.guard():
        return TinyGPT()


def batch(step, batch_size=8):
    """Sequences following a noisy rule (next = 3 * prev + 1 mod VOCAB), seeded by the step number."""
    rng = np.random.default_rng(SEED * 1000 + step)
    seq = np.empty((batch_size, CTX + 1), dtype="int64")
    seq[:, 0] = rng.integers(0, VOCAB, batch_size)
    for i in range(1, CTX + 1):
        noisy = rng.random(batch_size) < 0.1
        seq[:, i] = np.where(noisy, rng.integers(0, VOCAB, batch_size), (3 * seq[:, i - 1] + 1) % VOCAB)
    return seq[:, :-1], seq[:, 1:]


def make_optimizer(net, total_steps):
    sched = paddle.optimizer.lr.CosineAnnealingDecay(learning_rate=3e-3, T_max=total_steps, eta_min=1e-4)
    opt = paddle.optimizer.AdamW(learning_rate=sched, parameters=net.parameters(), weight_decay=0.05,
                                 grad_clip=nn.ClipGradByGlobalNorm(1.0))
    return opt, sched


def run_steps(net, opt, sched, first, last):
    losses = []
    net.train()
    for step in range(first, last):
        x, y = batch(step)
        logits = net(paddle.to_tensor(x))
        loss = F.cross_entropy(logits.reshape([-1, VOCAB]), paddle.to_tensor(y).reshape([-1]))
        loss.backward()
        opt.step()
        opt.clear_grad()
        sched.step()
        losses.append(float(loss))
    return losses


def train_losses(net, steps=16, resume_at=None):
    """Train `steps` steps; at `resume_at` save model + optimizer with paddle.save, then continue
    with a fresh model and optimizer loaded from those files.  Returns the losses of all steps.

    Each phase runs in its own paddle.utils.unique_name.guard(), as if it were its own process:
    optimizer state is keyed by generated names (parameter 'linear_3.w_0', accumulator
    'linear_3.w_0_moment1_0'), which a resumed run must reproduce to find its state."""
    resume_at = steps // 2 if resume_at is None else resume_at
    with tempfile.TemporaryDirectory() as d:
        with paddle.utils.unique_name.guard():
            opt, sched = make_optimizer(net, steps)
            losses = run_steps(net, opt, sched, 0, resume_at)
            paddle.save(net.state_dict(), os.path.join(d, "gpt.pdparams"))
            paddle.save(opt.state_dict(), os.path.join(d, "gpt.pdopt"))
        with paddle.utils.unique_name.guard():
            fresh = TinyGPT()  # a different random init, replaced by the checkpoint
            fresh.set_state_dict(paddle.load(os.path.join(d, "gpt.pdparams")))
            opt2, sched2 = make_optimizer(fresh, steps)
            opt2.set_state_dict(paddle.load(os.path.join(d, "gpt.pdopt")))  # restores the scheduler too
            losses += run_steps(fresh, opt2, sched2, resume_at, steps)
    return losses


def main(argv):
    quick = "--quick" in argv or os.environ.get("EXAMPLES_QUICK") == "1"
    steps = 8 if quick else 200
    losses = train_losses(build(), steps=steps)
    for i, v in enumerate(losses):
        note = "  (resumed from checkpoint)" if i == steps // 2 else ""
        print(f"step {i + 1}/{steps} loss {v:.4f}{note}")


if __name__ == "__main__":
    main(sys.argv[1:])
