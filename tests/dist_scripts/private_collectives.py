"""Run at 2 ranks: `torchrun --standalone --nproc-per-node=2 -m paddle_on_torch private_collectives.py`.

The private distributed ops Paddle's libraries call (paddle.distributed.collective._c_identity / _c_concat /
_c_split / _mp_allreduce / _c_lookup_table / _c_softmax_with_cross_entropy, paddle.distributed.stream,
communication.group, batch_isend_irecv, sync_params_buffers), each against the value one process computes
for the whole tensor.  Prints `OK <what>` lines and `ALL OK` at the end on rank 0; a mismatch raises.
"""
import numpy as np
import paddle
import paddle.distributed as dist
from paddle.distributed import collective, stream
from paddle.distributed.communication.group import Group, _get_global_group, _get_or_throw_group_rank, is_initialized
from paddle.distributed.communication.reduce import ReduceOp

group = dist.init_parallel_env()
rank = dist.get_rank()
assert is_initialized() and isinstance(_get_global_group(), Group) and _get_global_group().nranks == 2
assert collective._get_default_group() is _get_global_group() and collective._get_global_env().rank == rank
assert _get_or_throw_group_rank(1, group) == 1


def ok(what):
    if rank == 0:
        print("OK", what, flush=True)


def eq(t, expected, rtol=1e-6):
    got = t.numpy() if hasattr(t, "numpy") else np.asarray(t)
    np.testing.assert_allclose(got, np.asarray(expected), rtol=rtol, atol=1e-6, err_msg=f"rank {rank}")


rng = np.random.default_rng(0)
full = rng.standard_normal([3, 4]).astype("float32")  # the whole activation; each rank holds two columns
mine = full[:, 2 * rank:2 * rank + 2]
g_full = rng.standard_normal([3, 4]).astype("float32")

# _c_identity: identity forward, all-reduced gradient
x = paddle.to_tensor(full * (rank + 1), stop_gradient=False)
y = collective._c_identity(x, group=group)
eq(y, full * (rank + 1))
(y * paddle.to_tensor(g_full)).sum().backward()
eq(x.grad, 2 * g_full)  # both ranks' upstream gradients summed
ok("_c_identity")

# _c_concat: all-gather along the last axis, gradient is my slice
x = paddle.to_tensor(mine, stop_gradient=False)
y = collective._c_concat(x, group=group)
eq(y, full)
(y * paddle.to_tensor(g_full)).sum().backward()
eq(x.grad, g_full[:, 2 * rank:2 * rank + 2])
ok("_c_concat")

# _c_split: my slice forward, all-gathered gradient
x = paddle.to_tensor(full, stop_gradient=False)
y = collective._c_split(x, group=group)
eq(y, mine)
(y * paddle.to_tensor(g_full[:, 2 * rank:2 * rank + 2])).sum().backward()
eq(x.grad, g_full)
ok("_c_split")

# _mp_allreduce: summed forward, identity gradient
x = paddle.to_tensor(full * (rank + 1), stop_gradient=False)
y = collective._mp_allreduce(x, group=group)
eq(y, 3 * full)
(y * paddle.to_tensor(g_full)).sum().backward()
eq(x.grad, g_full)
ok("_mp_allreduce")

# PaddleNLP's parallel_matmul: x @ W where each rank holds half of W's columns, logits gathered
w_full = rng.standard_normal([4, 6]).astype("float32")
w = paddle.to_tensor(w_full[:, 3 * rank:3 * rank + 3], stop_gradient=False)
h = paddle.to_tensor(full, stop_gradient=False)
logits = collective._c_concat(paddle.matmul(collective._c_identity(h, group=group), w), group=group)
eq(logits, full @ w_full, rtol=1e-5)
logits.sum().backward()
eq(h.grad, np.ones([3, 6], "float32") @ w_full.T, rtol=1e-5)
ok("parallel_matmul")

# the vocabulary-parallel embedding lookup and cross entropy
table = rng.standard_normal([6, 3]).astype("float32")  # rows 3*rank .. 3*rank+2 on each rank
ids = paddle.to_tensor([[0, 4], [5, 2]])
part = collective._c_lookup_table(paddle.to_tensor(table[3 * rank:3 * rank + 3]), ids, start_index=3 * rank)
eq(collective._mp_allreduce(part, group=group), table[ids.numpy()])
label = paddle.to_tensor([[1], [5], [3]])
shard = paddle.to_tensor((full @ w_full)[:, 3 * rank:3 * rank + 3], stop_gradient=False)
loss, softmax = collective._c_softmax_with_cross_entropy(shard, label, group=group, return_softmax=True)
whole = paddle.to_tensor(full @ w_full, stop_gradient=False)
ref = paddle.nn.functional.cross_entropy(whole, label, reduction="none")
eq(loss, ref.numpy(), rtol=1e-5)
eq(softmax, paddle.nn.functional.softmax(whole).numpy()[:, 3 * rank:3 * rank + 3], rtol=1e-5)
loss.sum().backward()
ref.sum().backward()
eq(shard.grad, whole.grad.numpy()[:, 3 * rank:3 * rank + 3], rtol=1e-5)
ok("_c_lookup_table/_c_softmax_with_cross_entropy")

# paddle.distributed.stream: Paddle's stream arguments and its single-tensor forms
v = paddle.to_tensor([1.0, 2.0]) * (rank + 1)
t = v.clone(); stream.all_reduce(t, op=ReduceOp.SUM, group=group, sync_op=True, use_calc_stream=True); eq(t, [3, 6])
t = v.clone(); task = stream.all_reduce(t, sync_op=False); task.wait(); eq(t, [3, 6])
try:
    stream.all_reduce(v.clone(), sync_op=False, use_calc_stream=True)
    raise AssertionError("use_calc_stream without sync_op must raise")
except RuntimeError as e:
    assert "use_calc_stream can only be true in sync op behavior" in str(e)
out = paddle.zeros([4]); stream.all_gather(out, v, use_calc_stream=True); eq(out, [1, 2, 2, 4])
lst = []; stream.all_gather(lst, v); eq(lst[1], [2, 4])
src = paddle.to_tensor([10.0, 11.0, 12.0, 13.0]) + 100 * rank
out = paddle.zeros([4]); stream.alltoall(out, src); eq(out, [[10, 11, 110, 111], [12, 13, 112, 113]][rank])
out = paddle.zeros([4]); stream.alltoall_single(out, src, None, None, group, True, True)  # moe_layer.py's call
eq(out, [[10, 11, 110, 111], [12, 13, 112, 113]][rank])
out = paddle.zeros([2]); stream.reduce_scatter(out, src); eq(out, [[120, 122], [124, 126]][rank])
out = paddle.zeros([2]); stream.scatter(out, paddle.to_tensor([5.0, 6.0, 7.0, 8.0]), src=0)
eq(out, [[5, 6], [7, 8]][rank])
t = v.clone(); stream.broadcast(t, src=1); eq(t, [2, 4])
t = v.clone(); stream.reduce(t, dst=0); eq(t, [3, 6]) if rank == 0 else None
if rank == 0:
    stream.send(paddle.to_tensor([42.0]), dst=1)
else:
    t = paddle.zeros([1]); stream.recv(t, src=0); eq(t, [42])
ok("stream")

# batch_isend_irecv: each rank sends its tensor to the other and receives the other's
mine_t, theirs = paddle.to_tensor([float(rank)] * 3), paddle.zeros([3])
other = 1 - rank
tasks = dist.batch_isend_irecv([dist.P2POp(dist.isend, mine_t, other), dist.P2POp(dist.irecv, theirs, other)])
for task in tasks:
    task.wait()
eq(theirs, [float(other)] * 3)
ok("batch_isend_irecv")

# sync_params_buffers: rank 1's different initial weights become rank 0's
from paddle.distributed.parallel import sync_params_buffers  # noqa: E402

paddle.seed(rank)
net = paddle.nn.Sequential(paddle.nn.Linear(3, 2), paddle.nn.BatchNorm1D(2))
sync_params_buffers(net, src_rank=0)
gathered = []
dist.all_gather(gathered, paddle.concat([p.flatten() for p in net.parameters()]))
eq(gathered[0], gathered[1].numpy())
ok("sync_params_buffers")

# a group this rank is not in: Paddle's ops return None there
solo = dist.new_group([0])
if rank == 1:
    assert collective._c_identity(paddle.ones([2]), group=solo) is None
ok("non-member group")

# the PyLayers PaddleNLP's refined-recompute layers call: MPScale and InnerOverlapLinear
from paddle.distributed.fleet.layers.mpu import mp_layers  # noqa: E402

bias = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
scaled = mp_layers.MPScale.apply(bias, 2)
eq(scaled, [0.5, 1.0])
scaled.sum().backward()
eq(bias.grad, [1.0, 1.0])
x = paddle.to_tensor(full, stop_gradient=False)
w = paddle.to_tensor(w_full[:, 3 * rank:3 * rank + 3], stop_gradient=False)
out = mp_layers.InnerOverlapLinear.apply(x, w, None, False, True, False, False, group)
eq(out, (full @ w_full)[:, 3 * rank:3 * rank + 3], rtol=1e-5)
out.sum().backward()
eq(x.grad, np.ones([3, 6], "float32") @ w_full.T, rtol=1e-5)  # both ranks' halves summed
ok("MPScale/InnerOverlapLinear")

# the same ops as paddle._C_ops functions, by ring id (the group's id), as Paddle's own mp_ops call them
C = paddle._C_ops
x = paddle.to_tensor(full * (rank + 1), stop_gradient=False)
y = C.c_identity(x, group.id, True, True)
(y * paddle.to_tensor(g_full)).sum().backward()
eq(x.grad, 2 * g_full)
eq(C.c_concat(paddle.to_tensor(mine), rank, 2, group.id, True, True), full)
eq(C.c_split(paddle.to_tensor(full), rank, 2, group.id, True), mine)
eq(C.mp_allreduce_sum(paddle.to_tensor(full * (rank + 1)), group.id), 3 * full)
sm, ce = C.c_softmax_with_cross_entropy(paddle.to_tensor((full @ w_full)[:, 3 * rank:3 * rank + 3]), label, -100,
                                        group.id, rank, 2)
eq(ce, ref.numpy(), rtol=1e-5)
t = v.clone(); C.all_reduce_(t, group.id, int(ReduceOp.MAX)); eq(t, [2, 4])
ok("_C_ops by ring id")

dist.barrier()
ok("ALL")
if rank == 0:
    print("ALL OK", flush=True)
