"""Run at 2 ranks: `torchrun --standalone --nproc-per-node=2 -m paddle_on_torch collectives.py`.

Checks paddle.distributed's collectives, DataParallel and in-mesh reshard against values worked
out by hand; any mismatch raises (and takes the job down).  Prints `OK <what>` lines and
`ALL OK` at the end on rank 0."""
import numpy as np
import paddle
import paddle.distributed as dist

group = dist.init_parallel_env()
rank, world = dist.get_rank(), dist.get_world_size()
assert world == 2 and dist.is_initialized() and group.nranks == 2 and group.rank == rank, (world, group)
assert dist.ParallelEnv().rank == rank and dist.ParallelEnv().world_size == 2
assert dist.get_backend() in ("GLOO", "NCCL")


def ok(what):
    if rank == 0:
        print("OK", what, flush=True)


def eq(t, expected):
    got = t.numpy() if hasattr(t, "numpy") else np.asarray(t)
    np.testing.assert_allclose(got, np.asarray(expected), rtol=1e-6, err_msg=f"rank {rank}")


x = paddle.to_tensor([1.0, 2.0]) * (rank + 1)  # rank 0: [1, 2], rank 1: [2, 4]
y = x.clone(); dist.all_reduce(y); eq(y, [3, 6])
y = x.clone(); dist.all_reduce(y, op=dist.ReduceOp.MAX); eq(y, [2, 4])
y = x.clone(); dist.all_reduce(y, op=dist.ReduceOp.AVG); eq(y, [1.5, 3])
y = x.clone(); dist.all_reduce(y, op=dist.ReduceOp.PROD); eq(y, [2, 8])
i = paddle.to_tensor([rank + 1]); dist.all_reduce(i); eq(i, [3])
ok("all_reduce")

out = []; dist.all_gather(out, x); eq(out[0], [1, 2]); eq(out[1], [2, 4])
objs = []; dist.all_gather_object(objs, {"rank": rank}); assert objs == [{"rank": 0}, {"rank": 1}], objs
ok("all_gather")

y = x.clone(); dist.broadcast(y, src=1); eq(y, [2, 4])
lst = [rank, "a"] if rank == 0 else [None, None]; dist.broadcast_object_list(lst, src=0); assert lst == [0, "a"]
ok("broadcast")

y = x.clone(); dist.reduce(y, dst=0); eq(y, [3, 6]) if rank == 0 else None
y = paddle.zeros([2]); dist.scatter(y, [paddle.to_tensor([5.0, 6.0]), paddle.to_tensor([7.0, 8.0])], src=0)
eq(y, [[5, 6], [7, 8]][rank])
y = paddle.zeros([2]); dist.reduce_scatter(y, [x, x * 10]); eq(y, [[3, 6], [30, 60]][rank])
outs = []; dist.alltoall(outs, [x, x + 100]); eq(outs[0], [1 + 100 * rank, 2 + 100 * rank]); eq(outs[1], [2 + 100 * rank, 4 + 100 * rank])
ok("reduce/scatter/reduce_scatter/alltoall")

if rank == 0:
    dist.send(paddle.to_tensor([42.0]), dst=1)
    t = paddle.zeros([1]); task = dist.irecv(t, src=1); task.wait(); eq(t, [43])
else:
    t = paddle.zeros([1]); dist.recv(t, src=0); eq(t, [42])
    dist.isend(t + 1, dst=0).wait()
dist.barrier()
ok("send/recv")

g = dist.new_group([0, 1]); y = x.clone(); dist.all_reduce(y, group=g); eq(y, [3, 6])
ok("new_group")

# DataParallel: the step equals one process's step on the whole batch
paddle.seed(7)
net = paddle.nn.Linear(3, 2)
ref = paddle.nn.Linear(3, 2)
ref.set_state_dict(net.state_dict())
if rank == 1:  # DataParallel must bring rank 1 to rank 0's parameters
    net.weight.set_value(paddle.zeros([3, 2]))
dp = paddle.DataParallel(net)
data = paddle.to_tensor(np.arange(12, dtype="float32").reshape(4, 3) / 10)
label = paddle.to_tensor(np.ones([4, 2], dtype="float32"))
loss = paddle.mean((dp(data[2 * rank:2 * rank + 2]) - label[2 * rank:2 * rank + 2]) ** 2)
loss.backward()
ref_loss = paddle.mean((ref(data) - label) ** 2)
ref_loss.backward()
np.testing.assert_allclose(net.weight.grad.numpy(), ref.weight.grad.numpy(), rtol=1e-5, atol=1e-7)
np.testing.assert_allclose(net.bias.grad.numpy(), ref.bias.grad.numpy(), rtol=1e-5, atol=1e-7)
ok("DataParallel")

# auto-parallel within a mesh
mesh = dist.ProcessMesh([0, 1], dim_names=["dp"])
dense = paddle.arange(12, dtype="float32").reshape([4, 3])
s = dist.shard_tensor(dense, mesh, [dist.Shard(0)])
assert s.shape == [4, 3] and s._local_value().shape == [2, 3] and s.placements == [dist.Shard(0)]
eq(s._local_value(), dense.numpy()[2 * rank:2 * rank + 2])
r = dist.reshard(s, mesh, [dist.Replicate()]); eq(r._local_value(), dense.numpy())
s1 = dist.reshard(s, mesh, [dist.Shard(1)]); assert s1._local_value().shape == [4, 2 if rank == 0 else 1]
p = dist.reshard(r, mesh, [dist.Partial()])
eq(p._local_value(), dense.numpy() * (1 - rank))  # Paddle keeps the value on mesh coordinate 0
eq(dist.reshard(p, mesh, [dist.Replicate()])._local_value(), dense.numpy())
from paddle.distributed.auto_parallel.api import dtensor_from_local  # noqa: E402
pa = dtensor_from_local(paddle.full([2], float(rank + 1)), mesh, [dist.Partial(dist.ReduceType.kRedAvg)])
eq(dist.unshard_dtensor(pa), [1.5, 1.5])
ok("reshard")

dist.destroy_process_group()
if rank == 0:
    print("ALL OK", flush=True)
