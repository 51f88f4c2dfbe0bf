"""Prints what paddle.distributed.launch set up (run by tests/test_auto_parallel.py)."""
import paddle
import paddle.distributed as dist

dist.init_parallel_env()
x = paddle.to_tensor([float(dist.get_rank() + 1)])
dist.all_reduce(x)
print("rank", dist.get_rank(), "world", dist.get_world_size(), "sum", float(x), flush=True)
dist.barrier()
