"""fleet sharding stage 1 at 4 ranks (dp 2 x sharding 2): ShardingParallel + HybridParallelOptimizer
(DygraphShardingOptimizer) with AdamW and global-norm clipping, two steps on a quarter of the batch
each, against one dense process on the whole batch; each rank keeps optimizer state only for the
parameters it owns."""
import numpy as np
import paddle
import paddle.distributed as dist
from paddle.distributed import fleet

strategy = fleet.DistributedStrategy()
strategy.hybrid_configs = {"dp_degree": 2, "mp_degree": 1, "pp_degree": 1, "sharding_degree": 2}
fleet.init(is_collective=True, strategy=strategy)
hcg = fleet.get_hybrid_communicate_group()
rank = dist.get_rank()
assert (hcg.get_data_parallel_rank(), hcg.get_sharding_parallel_rank()) == divmod(rank, 2)
assert hcg.get_sharding_parallel_group().ranks == [rank - rank % 2, rank - rank % 2 + 1]


def build():
    paddle.seed(4)
    return paddle.nn.Sequential(paddle.nn.Linear(6, 16), paddle.nn.GELU(), paddle.nn.Linear(16, 8),
                                paddle.nn.LayerNorm(8), paddle.nn.Linear(8, 3))


net, ref = build(), build()
model = fleet.distributed_model(net)
assert type(model).__name__ == "ShardingParallel"
opt = fleet.distributed_optimizer(paddle.optimizer.AdamW(0.05, parameters=net.parameters(), weight_decay=0.1,
                                                         grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5)))
ref_opt = paddle.optimizer.AdamW(0.05, parameters=ref.parameters(), weight_decay=0.1,
                                 grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5))
rs = np.random.RandomState(0)
for step in range(2):
    x = rs.standard_normal((8, 6)).astype("float32")
    y = rs.standard_normal((8, 3)).astype("float32")
    part = slice(2 * rank, 2 * rank + 2)  # the four data-parallel-like ranks (dp x sharding) split the batch
    loss = paddle.nn.functional.mse_loss(model(paddle.to_tensor(x[part])), paddle.to_tensor(y[part]))
    loss.backward()
    opt.step()
    opt.clear_grad()
    ref_loss = paddle.nn.functional.mse_loss(ref(paddle.to_tensor(x)), paddle.to_tensor(y))
    ref_loss.backward()
    ref_opt.step()
    ref_opt.clear_grad()
for p, q in zip(net.parameters(), ref.parameters()):
    np.testing.assert_allclose(p.numpy(), q.numpy(), rtol=1e-5, atol=1e-5)
inner = opt._inner_opt
mine = {p.name for p in inner._rank2params[hcg.get_sharding_parallel_rank()]}
held = {name for accs in inner._inner_opt._accumulators.values() for name in accs}
assert held and held <= mine, (held, mine)
sizes = [sum(p._t.numel() for p in ps) for ps in inner._rank2params.values()]
assert sizes == [147, 144], sizes  # Paddle's greedy deal, largest first: 128+8+8+3 | 96+24+16+8
print("SHARDING OK", sizes, flush=True)
