"""paddle.DataParallel's bucketed, overlapped all-reduce on two ranks: several buckets (comm_buffer_size tiny),
gradient accumulation under no_sync and across synced backwards, a parameter used on rank 0 only and one used
nowhere, all against one process's gradients on the whole batch."""
import contextlib

import numpy as np

import paddle
import paddle.distributed as dist

dist.init_parallel_env()
rank, world = dist.get_rank(), dist.get_world_size()
assert world == 2


class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.a = paddle.nn.Linear(6, 16)
        self.b = paddle.nn.Linear(16, 16)
        self.c = paddle.nn.Linear(16, 3)
        self.only_rank0 = paddle.nn.Linear(6, 3)
        self.unused = paddle.nn.Linear(2, 2)

    def forward(self, x, use_extra):
        y = self.c(paddle.tanh(self.b(paddle.tanh(self.a(x)))))
        return y + self.only_rank0(x) if use_extra else y


paddle.seed(3)
net, ref = Net(), Net()
ref.set_state_dict(net.state_dict())
dp = paddle.DataParallel(net, comm_buffer_size=0.0005, last_comm_buffer_size=0.0002)  # 512 B / 200 B: buckets
rng = np.random.default_rng(0)
batches = [(rng.standard_normal((4, 6)).astype("float32"), rng.standard_normal((4, 3)).astype("float32"))
           for _ in range(4)]


def loss_of(model, x, y, use_extra):
    return paddle.mean((model(paddle.to_tensor(x), use_extra) - paddle.to_tensor(y)) ** 2)


started_in_backward = []  # per bucket start: True when the backward was still running (overlap)
_start = dp._start
dp._start = lambda bucket: (started_in_backward.append(dp._armed), _start(bucket))

# batch 0 under no_sync, batch 1 synced (the accumulated sum is averaged), batches 2 and 3 synced again
# (accumulating); only_rank0 gets gradients on rank 0 only, `unused` nowhere
for i, (x, y) in enumerate(batches):
    mine = slice(2 * rank, 2 * rank + 2)
    ctx = dp.no_sync() if i == 0 else contextlib.nullcontext()
    with ctx:
        started_in_backward.clear()
        loss_of(dp, x[mine], y[mine], use_extra=(rank == 0)).backward()
    # the reference: each rank's half-batch loss averaged, i.e. the mean over both halves with the same weights
    for r in range(world):
        half = slice(2 * r, 2 * r + 2)
        (loss_of(ref, x[half], y[half], use_extra=(r == 0)) / world).backward()

for (name, p), q in zip(net.named_parameters(), ref.parameters()):
    if name.startswith("unused"):
        assert p.grad is None and q.grad is None, name
        continue
    np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-5, atol=1e-6, err_msg=name)
assert len(dp._buckets) > 3, len(dp._buckets)
# the last backward: after the first synced one the buckets follow rank 0's readiness order, so there all but
# the bucket of `unused` start while the backward runs (on rank 1, up to only_rank0's bucket, which has no gradient)
assert len(started_in_backward) == len(dp._buckets), started_in_backward
if rank == 0:
    assert sum(started_in_backward) == len(dp._buckets) - 1, started_in_backward
print(f"rank {rank} OK buckets={len(dp._buckets)}", flush=True)
dist.destroy_process_group()
