"""fleet tensor parallel at 4 ranks (dp 2 x mp 2): each TP layer against its dense twin (outputs and
gradients to 1e-5 after assembling shards), the hybrid group's layout, the RNG tracker, recompute,
and a TensorParallel + HybridParallelOptimizer step with global-norm clipping against one dense step."""
import numpy as np
import paddle
import paddle.distributed as dist
import paddle.nn.functional as F
from paddle.distributed import fleet
from paddle.distributed.fleet.meta_parallel import (ColumnParallelLinear, ParallelCrossEntropy, RowParallelLinear,
                                                    VocabParallelEmbedding, get_rng_state_tracker)

strategy = fleet.DistributedStrategy()
strategy.hybrid_configs = {"dp_degree": 2, "mp_degree": 2, "pp_degree": 1}
strategy.tensor_parallel_configs = {"tensor_init_seed": 7}
fleet.init(is_collective=True, strategy=strategy)
hcg = fleet.get_hybrid_communicate_group()
rank = dist.get_rank()
mp, mpr = hcg.get_model_parallel_world_size(), hcg.get_model_parallel_rank()
close = dict(rtol=1e-5, atol=1e-5)

# layout: model innermost, as Paddle's default order dp, pp, sharding, sep, cp, mp
assert (hcg.get_data_parallel_rank(), mpr) == divmod(rank, 2), (rank, hcg.get_data_parallel_rank(), mpr)
assert hcg.get_model_parallel_group().ranks == [rank - rank % 2, rank - rank % 2 + 1]
assert hcg.get_data_parallel_group().ranks == [rank % 2, rank % 2 + 2]
assert hcg.get_pipe_parallel_group().ranks == [rank] and hcg.get_stage_id() == 0
assert hcg.get_parallel_mode() == fleet.ParallelMode.TENSOR_PARALLEL
assert hcg.topology().get_comm_list("model") == [[0, 1], [2, 3]]
assert fleet.worker_index() == rank and fleet.worker_num() == 4 and fleet.is_first_worker() == (rank == 0)
print("HCG OK", flush=True)

rs = np.random.RandomState(0)


def full(*shape):
    return rs.standard_normal(shape).astype("float32")


def cols(a):  # my column block of a [.., n] array
    n = a.shape[-1] // mp
    return a[..., mpr * n:(mpr + 1) * n]


def rows(a):
    n = a.shape[0] // mp
    return a[mpr * n:(mpr + 1) * n]


def t(a, grad=False):
    x = paddle.to_tensor(a)
    x.stop_gradient = not grad
    return x


# ColumnParallelLinear (gather_output True and False) -> RowParallelLinear (input_is_parallel True and False)
W1, b1, W2, b2, X = full(8, 6), full(6), full(6, 4), full(4), full(3, 8)
for gather in (True, False):
    col = ColumnParallelLinear(8, 6, has_bias=True, gather_output=gather)
    row = RowParallelLinear(6, 4, has_bias=True, input_is_parallel=not gather)
    assert col.weight.shape == [8, 3] and col.bias.shape == [3] and row.weight.shape == [3, 4]
    assert col.weight.is_distributed and row.weight.is_distributed and not row.bias.is_distributed
    col.weight.set_value(cols(W1)), col.bias.set_value(cols(b1))
    row.weight.set_value(rows(W2)), row.bias.set_value(b2)
    dense1, dense2 = paddle.nn.Linear(8, 6), paddle.nn.Linear(6, 4)
    dense1.weight.set_value(W1), dense1.bias.set_value(b1), dense2.weight.set_value(W2), dense2.bias.set_value(b2)
    x, xd = t(X, True), t(X, True)
    h, hd = col(x), dense1(xd)
    np.testing.assert_allclose(h.numpy(), hd.numpy() if gather else cols(hd.numpy()), **close)
    y, yd = row(F.relu(h)), dense2(F.relu(hd))
    np.testing.assert_allclose(y.numpy(), yd.numpy(), **close)
    (y * y).sum().backward()
    (yd * yd).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), xd.grad.numpy(), **close)
    np.testing.assert_allclose(col.weight.grad.numpy(), cols(dense1.weight.grad.numpy()), **close)
    np.testing.assert_allclose(col.bias.grad.numpy(), cols(dense1.bias.grad.numpy()), **close)
    np.testing.assert_allclose(row.weight.grad.numpy(), rows(dense2.weight.grad.numpy()), **close)
    np.testing.assert_allclose(row.bias.grad.numpy(), dense2.bias.grad.numpy(), **close)
print("LINEAR OK", flush=True)

# VocabParallelEmbedding + ParallelCrossEntropy (with an ignored label)
E, ids = full(10, 4), np.array([[0, 3, 9], [5, 4, 1]], dtype="int64")
emb = VocabParallelEmbedding(10, 4)
assert emb.weight.shape == [5, 4] and emb.vocab_start_index == 5 * mpr
emb.weight.set_value(rows(E))
dense = paddle.nn.Embedding(10, 4)
dense.weight.set_value(E)
out, outd = emb(t(ids)), dense(t(ids))
np.testing.assert_allclose(out.numpy(), outd.numpy(), **close)
g = full(2, 3, 4)
(out * t(g)).sum().backward()
(outd * t(g)).sum().backward()
np.testing.assert_allclose(emb.weight.grad.numpy(), rows(dense.weight.grad.numpy()), **close)

L, lab = full(2, 3, 10), np.array([[1, 7, 2], [9, -100, 5]], dtype="int64")
logits, logitsd = t(cols(L), True), t(L, True)
loss = ParallelCrossEntropy()(logits, t(lab[..., None]))
lossd = F.cross_entropy(logitsd, t(lab[..., None]), reduction="none", ignore_index=-100)
assert loss.shape == [2, 3, 1] and loss.dtype == paddle.float32, (loss.shape, loss.dtype)
np.testing.assert_allclose(loss.numpy(), lossd.numpy(), **close)
loss.mean().backward()
lossd.mean().backward()
np.testing.assert_allclose(logits.grad.numpy(), cols(logitsd.grad.numpy()), **close)
print("VOCAB OK", flush=True)

# the RNG tracker: inside rng_state() each model-parallel rank draws its own mask, outside all draw the same
paddle.seed(123)
ones = paddle.ones([64])
with get_rng_state_tracker().rng_state():
    local_mask = F.dropout(ones, p=0.5).numpy()
global_mask = F.dropout(ones, p=0.5).numpy()
masks = []
dist.all_gather_object(masks, (local_mask.tolist(), global_mask.tolist()), group=hcg.get_model_parallel_group())
assert masks[0][0] != masks[1][0], "model-parallel ranks drew the same mask inside rng_state()"
assert masks[0][1] == masks[1][1], "model-parallel ranks drew different masks outside rng_state()"
tracker = get_rng_state_tracker()
assert list(tracker.get_states_tracker()) == ["model_parallel_rng"]
try:
    tracker.add("model_parallel_rng", 99)
    raise SystemExit("a second state of the same name was accepted")
except ValueError:
    pass
print("RNG OK", flush=True)

# recompute: same gradients as a plain call, dropout included (the RNG state is replayed)
from paddle.distributed.fleet.utils import recompute

block = paddle.nn.Sequential(paddle.nn.Linear(8, 8), paddle.nn.Dropout(0.3), paddle.nn.GELU(), paddle.nn.Linear(8, 8))
grads = []
for use in (False, True):
    block.clear_gradients()
    x = t(X, True)
    paddle.seed(5)
    y = recompute(block, x) if use else block(x)
    (y * y).sum().backward()
    grads.append([x.grad.numpy()] + [p.grad.numpy() for p in block.parameters()])
for a, b in zip(*grads):
    np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
print("RECOMPUTE OK", flush=True)


# TensorParallel + HybridParallelOptimizer (dp 2 x mp 2) with global-norm clipping == one dense SGD step
class TPNet(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.col = ColumnParallelLinear(8, 6, has_bias=True, gather_output=False)
        self.row = RowParallelLinear(6, 4, input_is_parallel=True)
        self.norm = paddle.nn.LayerNorm(4)

    def forward(self, x):
        return self.norm(self.row(F.relu(self.col(x))))


class DenseNet(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.col, self.row, self.norm = paddle.nn.Linear(8, 6), paddle.nn.Linear(6, 4), paddle.nn.LayerNorm(4)

    def forward(self, x):
        return self.norm(self.row(F.relu(self.col(x))))


net, ref = TPNet(), DenseNet()
net.col.weight.set_value(cols(W1)), net.col.bias.set_value(cols(b1)), net.row.weight.set_value(rows(W2))
net.row.bias.set_value(b2)
ref.col.weight.set_value(W1), ref.col.bias.set_value(b1), ref.row.weight.set_value(W2), ref.row.bias.set_value(b2)
model = fleet.distributed_model(net)
assert type(model).__name__ == "TensorParallel"
opt = fleet.distributed_optimizer(paddle.optimizer.SGD(0.5, parameters=net.parameters(),
                                                        grad_clip=paddle.nn.ClipGradByGlobalNorm(0.1)))
ref_opt = paddle.optimizer.SGD(0.5, parameters=ref.parameters(), grad_clip=paddle.nn.ClipGradByGlobalNorm(0.1))
batch = full(8, 8)
dp_rank = hcg.get_data_parallel_rank()
mine = batch[dp_rank * 4:(dp_rank + 1) * 4]  # each data-parallel rank takes its half of the batch
for step in range(2):
    loss = (model(t(mine)) ** 2).mean()
    loss.backward()
    opt.step()
    opt.clear_grad()
    lossd = (ref(t(batch)) ** 2).mean()
    lossd.backward()
    ref_opt.step()
    ref_opt.clear_grad()
np.testing.assert_allclose(net.col.weight.numpy(), cols(ref.col.weight.numpy()), **close)
np.testing.assert_allclose(net.row.weight.numpy(), rows(ref.row.weight.numpy()), **close)
np.testing.assert_allclose(net.norm.weight.numpy(), ref.norm.weight.numpy(), **close)
np.testing.assert_allclose(net.row.bias.numpy(), ref.row.bias.numpy(), **close)
print("OPTIMIZER OK", flush=True)

# sequence parallel: [seq, batch, hidden] split on seq between the TP matmuls, equal to the dense block
from paddle.distributed.fleet.utils import sequence_parallel_utils as spu

ln, col = paddle.nn.LayerNorm(8), spu.ColumnSequenceParallelLinear(8, 6, has_bias=True, gather_output=False)
row = spu.RowSequenceParallelLinear(6, 8, has_bias=True, input_is_parallel=True)
for p in ln.parameters():
    spu.mark_as_sequence_parallel_parameter(p)
assert spu.is_sequence_parallel_parameter(row.bias) and not spu.is_sequence_parallel_parameter(row.weight)
col.weight.set_value(cols(W1)), col.bias.set_value(cols(b1))
row.weight.set_value(rows(W1.T.copy())), row.bias.set_value(W1[:, 0].copy())
dln, dcol, drow = paddle.nn.LayerNorm(8), paddle.nn.Linear(8, 6), paddle.nn.Linear(6, 8)
dcol.weight.set_value(W1), dcol.bias.set_value(b1), drow.weight.set_value(W1.T.copy())
drow.bias.set_value(row.bias.numpy())
block = paddle.nn.LayerList([ln, col, row])
spu.register_sequence_parallel_allreduce_hooks(block, accumulation_steps=1, fuse_sequence_parallel_allreduce=False)
S = full(4, 2, 8)
x, xd = t(S, True), t(S, True)
y = spu.GatherOp.apply(row(F.relu(col(ln(spu.ScatterOp.apply(x))))))
yd = drow(F.relu(dcol(dln(xd))))
np.testing.assert_allclose(y.numpy(), yd.numpy(), **close)
(y * y).sum().backward()
(yd * yd).sum().backward()
np.testing.assert_allclose(x.grad.numpy(), xd.grad.numpy(), **close)
np.testing.assert_allclose(ln.weight.grad.numpy(), dln.weight.grad.numpy(), **close)
np.testing.assert_allclose(row.bias.grad.numpy(), drow.bias.grad.numpy(), **close)
np.testing.assert_allclose(col.weight.grad.numpy(), cols(dcol.weight.grad.numpy()), **close)
np.testing.assert_allclose(row.weight.grad.numpy(), rows(drow.weight.grad.numpy()), **close)
print("SEQUENCE PARALLEL OK", flush=True)
print("ALL OK", flush=True)
