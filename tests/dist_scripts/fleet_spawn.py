"""paddle.distributed.spawn from a script run as `python -m paddle_on_torch fleet_spawn.py`: two
processes all-reduce their ranks, train a DataParallel step and report through return queues; then a
child that raises brings spawn down with its traceback."""
import numpy as np
import paddle
import paddle.distributed as dist


def train(scale):
    dist.init_parallel_env()
    rank = dist.get_rank()
    x = paddle.to_tensor([float(rank + 1)])
    dist.all_reduce(x)
    paddle.seed(1)
    net = paddle.DataParallel(paddle.nn.Linear(2, 1))
    data = paddle.to_tensor(np.arange(4, dtype="float32").reshape(2, 2)[rank:rank + 1])
    (net(data) * scale).sum().backward()
    return rank, dist.get_world_size(), float(x), net._layers.weight.grad.numpy().ravel().tolist()


def fail():
    dist.init_parallel_env()
    if dist.get_rank() == 1:
        raise ValueError("rank 1 failed on purpose")
    dist.barrier()  # rank 0 waits here for a peer that is gone; spawn must not hang


if __name__ == "__main__":
    ctx = dist.spawn(train, args=(2.0,), nprocs=2)
    results = sorted(q.get() for q in ctx.return_queues)
    for r in results:
        print("result", *r, flush=True)
    try:
        dist.spawn(fail, nprocs=2)
        print("no error", flush=True)
    except Exception as e:  # noqa: BLE001
        print("spawn error:", "rank 1 failed on purpose" in str(e), flush=True)
