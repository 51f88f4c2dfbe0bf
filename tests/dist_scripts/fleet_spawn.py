"""paddle.distributed.spawn from a script run as `python -m paddle_on_torch fleet_spawn.py`: two
processes join through fleet.init (pure data parallel: distributed_model gives paddle.DataParallel),
all-reduce their ranks, run a backward and report through return queues; then a child that raises
brings spawn down with its traceback."""
import numpy as np
import paddle
import paddle.distributed as dist


def train(scale):
    from paddle.distributed import fleet

    fleet.init(is_collective=True)  # dp_degree -1: the whole world
    rank = dist.get_rank()
    x = paddle.to_tensor([float(rank + 1)])
    dist.all_reduce(x)
    paddle.seed(1)
    net = fleet.distributed_model(paddle.nn.Linear(2, 1))
    assert type(net) is paddle.DataParallel, type(net)
    opt = fleet.distributed_optimizer(paddle.optimizer.SGD(0.1, parameters=net.parameters()))
    assert type(opt).__name__ == "HybridParallelOptimizer" and not opt._dp_enable  # DataParallel averages
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
