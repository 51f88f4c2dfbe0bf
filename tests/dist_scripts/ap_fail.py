"""Rank 1 raises while rank 0 waits in a collective: the job must end with the error shown, not hang."""
import paddle
import paddle.distributed as dist

dist.init_parallel_env()
if dist.get_rank() == 1:
    raise ValueError("rank 1 fails on purpose")
dist.all_reduce(paddle.ones([4]))
print("rank 0 should not get here", flush=True)
