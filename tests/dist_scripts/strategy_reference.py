"""Single-process reference for ../shared/seed_examples/strategy.py (run through seeded.py): the same
two-stage model and SGD, on the whole batch of 8 split into 4 micro-batches of 2 whose losses are
averaged (gradient accumulation, Paddle's pipeline mean over micro-batches).  Prints `step loss` for
the steps the seed script prints."""
import numpy as np
import paddle

paddle.seed(2024)
from paddle.io import BatchSampler, DataLoader, Dataset  # noqa: E402


class RandomDataset(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, idx):
        rng = np.random.RandomState(idx)
        return rng.uniform(size=[32]).astype('float32'), rng.uniform(size=[8]).astype('float32')


class Stage(paddle.nn.Layer):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.fc = paddle.nn.Linear(d_in, d_out)

    def forward(self, x):
        return paddle.nn.functional.gelu(self.fc(x))


class PipeModel(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.s0 = Stage(32, 64)
        self.s1 = Stage(64, 8)

    def forward(self, x):
        return self.s1(self.s0(x))


model = PipeModel()
opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
loader = DataLoader(RandomDataset(), batch_sampler=BatchSampler(RandomDataset(), batch_size=8))
mse = paddle.nn.MSELoss()
acc = 4
for step, (x, y) in enumerate(loader):
    total = 0.0
    for xs, ys in zip(paddle.split(x, acc), paddle.split(y, acc)):
        loss = mse(model(xs), ys)
        (loss / acc).backward()
        total += float(loss) / acc
    opt.step()
    opt.clear_grad()
    if step % 2 == 0:
        print(step, repr(total))
