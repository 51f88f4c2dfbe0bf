"""Single-process reference for ../shared/seed_examples/to_static.py: the same model, data and
optimizer, trained with a plain dynamic-graph loop on the whole batch of 8.  Prints `step loss`."""
import numpy as np
import paddle

paddle.seed(2024)
from paddle.io import BatchSampler, DataLoader, Dataset


class RandomDataset(Dataset):
    def __init__(self, num_samples=64):
        self.num_samples = num_samples

    def __getitem__(self, idx):
        rng = np.random.RandomState(idx)
        return rng.uniform(size=[16]).astype('float32'), rng.uniform(size=[4]).astype('float32')

    def __len__(self):
        return self.num_samples


class MyModel(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = paddle.nn.Linear(16, 32)
        self.fc2 = paddle.nn.Linear(32, 4)

    def forward(self, x):
        return self.fc2(paddle.nn.functional.relu(self.fc1(x)))


model = MyModel()
optimizer = paddle.optimizer.AdamW(learning_rate=0.01, parameters=model.parameters())
loader = DataLoader(RandomDataset(), batch_sampler=BatchSampler(RandomDataset(), batch_size=8))
for step, (x, label) in enumerate(loader):
    loss = paddle.mean((model(x) - label) ** 2)
    loss.backward()
    optimizer.step()
    optimizer.clear_grad()
    print(step, loss.numpy())
