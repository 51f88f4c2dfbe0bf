"""Single-process reference for ../shared/seed_examples/hybrid_mlp.py run through hybrid_run.py:
the same model, initial parameters, data and AdamW, trained on the whole batch of 2.

The seed script's dataset draws from numpy's global random state in __getitem__, so what a rank
loads depends on that rank's own stream: with every rank's numpy seeded alike (hybrid_run.py), the
data-parallel ranks 0 and 1 of the first mesh each load the k-th draw of the same stream at step k.  The global batch at
step k is therefore two copies of that draw, and that is what this reference feeds.
Prints `loss STEP VALUE` per step and `param NAME SUM ABSSUM` at the end, as hybrid_run.py does."""
import sys

import numpy as np
import paddle

paddle.seed(2024)
np.random.seed(2024)  # as hybrid_run.py: paddle.seed leaves numpy alone, as Paddle's does
from paddle.io import BatchSampler, DataLoader, Dataset  # noqa: E402

steps = int(sys.argv[1]) if len(sys.argv) > 1 else None


class RandomDataset(Dataset):
    def __init__(self, seq_len, hidden, num_samples=100):
        self.seq_len = seq_len
        self.hidden = hidden
        self.num_samples = num_samples

    def __getitem__(self, idx):
        input = np.random.uniform(size=[self.seq_len, self.hidden]).astype('float32')
        label = np.random.uniform(size=[self.seq_len, self.hidden]).astype('float32')
        return input, label

    def __len__(self):
        return self.num_samples


class MlpModel(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.w0 = self.create_parameter([1024, 4096])
        self.w1 = self.create_parameter([4096, 1024])

    def forward(self, x):
        return paddle.matmul(paddle.matmul(x, self.w0), self.w1)


model = MlpModel()
dataset = RandomDataset(128, 1024)
# one data-parallel rank's loader: batches of 1, drawn in order from this process's numpy stream
loader = DataLoader(dataset, batch_sampler=BatchSampler(dataset, batch_size=1))
opt = paddle.optimizer.AdamW(learning_rate=0.001, parameters=model.parameters())
for step, (data, _) in enumerate(loader):
    if step == len(dataset) // 2 or step == steps:
        break
    logits = model(paddle.concat([data, data]))
    loss = paddle.mean(logits)
    print("loss", step, repr(float(loss)), flush=True)
    loss.backward()
    opt.step()
    opt.clear_grad()
for name, p in model.named_parameters():
    v = p.numpy().astype(np.float64)
    print("param", name, repr(v.sum()), repr(np.abs(v).sum()), flush=True)
