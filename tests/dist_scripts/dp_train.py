"""A Paddle data-parallel training script: each rank trains on its part of every batch; with
`--single` one process trains on the whole batch.  Writes the loss per step and a weight checksum to
`OUT_DIR/rank<r>.txt` (so that ranks' lines cannot interleave)."""
import os
import sys

import numpy as np

import paddle
import paddle.distributed as dist

single = "--single" in sys.argv
if not single:
    dist.init_parallel_env()
rank, world = (0, 1) if single else (dist.get_rank(), dist.get_world_size())

paddle.seed(7)
net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.Tanh(), paddle.nn.Linear(8, 1))
model = net if single else paddle.DataParallel(net)
opt = paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9, parameters=model.parameters())

lines = []
data = np.random.RandomState(0).randn(6, 8, 5).astype("float32")  # 6 batches of 8 rows
for step, batch in enumerate(data):
    part = batch if single else np.array_split(batch, world)[rank]
    x, y = paddle.to_tensor(part[:, :4]), paddle.to_tensor(part[:, 4:])
    loss = paddle.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    opt.clear_grad()
    full = loss if single else loss.detach()
    if not single:  # the full-batch loss, for comparison with one process
        dist.all_reduce(full)
        full = full / world
    lines.append(f"step {step} loss {float(full):.6f}")
lines.append("checksum " + " ".join(f"{float(p.sum()):.6f}" for p in net.parameters()))
with open(os.path.join(os.environ["OUT_DIR"], f"rank{rank}.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
if not single:
    dist.barrier()
