"""The planner pieces of issue 22: FLOPs priced for matmuls and CPU flash attention, candidate plans
(`starts`) the result is never worse than, and the layout planner (parallel/layout.py) that chooses dp / tp /
pp / sharding degrees from one block planned per tensor-parallel degree.  In-process, fake process group."""
import pytest

from paddle_on_torch import parallel
from paddle_on_torch.parallel import layout


def _block(paddle, h=32, heads=4, kv=2, ffn=64):
    F = paddle.nn.functional

    class Block(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.hd = h // heads
            self.q_proj = paddle.nn.Linear(h, h, bias_attr=False)
            self.k_proj = paddle.nn.Linear(h, kv * self.hd, bias_attr=False)
            self.v_proj = paddle.nn.Linear(h, kv * self.hd, bias_attr=False)
            self.o_proj = paddle.nn.Linear(h, h, bias_attr=False)
            self.gate_proj = paddle.nn.Linear(h, ffn, bias_attr=False)
            self.down_proj = paddle.nn.Linear(ffn, h, bias_attr=False)

        def forward(self, x):
            b, s, _ = x.shape
            q = self.q_proj(x).reshape([b, s, heads, self.hd])
            k = paddle.repeat_interleave(self.k_proj(x).reshape([b, s, kv, self.hd]), heads // kv, axis=2)
            v = paddle.repeat_interleave(self.v_proj(x).reshape([b, s, kv, self.hd]), heads // kv, axis=2)
            o, _ = F.flash_attention.flash_attention(q, k, v, causal=True)
            x = x + self.o_proj(o.reshape([b, s, h]))
            return x + self.down_proj(F.silu(self.gate_proj(x)))

    with paddle.LazyGuard():
        return Block()


def test_flops_count_matmuls_and_cpu_flash_attention(paddle):
    from paddle_on_torch.parallel.capture import capture
    from paddle_on_torch.parallel.cost import op_flops

    h, heads, kv, ffn, b, s = 32, 4, 2, 64, 2, 16
    cap = capture(_block(paddle, h, heads, kv, ffn), [paddle.zeros([b, s, h])], [], None, points=False)
    total = sum(op_flops(n) for n in cap.graph.nodes if n.op == "call_function")
    weights = h * h * 2 + 2 * h * (kv * h // heads) + 2 * h * ffn
    # forward 2 FLOPs per multiply-add, backward twice that (input and weight gradients) -- but q / k / v read
    # the block's input, which needs no gradient, so their input gradients are not computed; attention's two
    # matmuls forward (4 b h s s d), four backward
    attention = (4 + 8) * b * heads * s * s * (h // heads)
    qkv = h * h + 2 * h * (kv * h // heads)
    assert total == 6 * b * s * weights - 2 * b * s * qkv + attention


def test_candidate_plan_is_never_beaten_by_the_result(paddle):
    dist = paddle.distributed
    blk = _block(paddle)
    mesh = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["dp", "mp"])
    x = paddle.zeros([4, 16, 32])
    marks = {0: [dist.Shard(0), dist.Replicate()]}
    rep = [dist.Replicate()]
    hand = {"q_proj.weight": rep + [dist.Shard(1)], "k_proj.weight": rep + [dist.Shard(1)],
            "v_proj.weight": rep + [dist.Shard(1)], "o_proj.weight": rep + [dist.Shard(0)],
            "gate_proj.weight": rep + [dist.Shard(1)], "down_proj.weight": rep + [dist.Shard(0)]}
    hand_plan = parallel.plan(blk, [x], mesh, marks={**marks, **hand}, activations=False)
    p = parallel.plan(blk, [x], mesh, marks=marks, starts=[hand], time_budget=1e-3)  # no time to search
    assert p.estimate["step_s"] <= hand_plan.estimate["step_s"] * (1 + 1e-9)
    with pytest.raises(ValueError):  # a placement the tensor cannot take
        parallel.plan(blk, [x], mesh, marks=marks, starts=[{"q_proj.weight": rep + [dist.Shard(2)]}])


def test_layout_planner_prices_every_degree_split(paddle):
    blk = _block(paddle)
    blocks = layout.plan_blocks(blk, [paddle.zeros([1, 16, 32])], tps=(1, 2), time_budget=5)
    assert set(blocks) == {1, 2}
    # a tp-way block holds about 1/tp of the whole block's parameters (the limit plan_blocks sets)
    assert blocks[2].params_per_rank <= blocks[1].params_per_rank * 0.55 * 2 / 2 + 1e-9 or \
        blocks[2].plan.estimate["memory_per_rank"] <= blocks[1].plan.estimate["memory_per_rank"] * 1.1 / 2
    kw = dict(layers=4, global_batch=8, hidden=32, vocab=64, seq=16)
    lays = layout.plan_layout(blocks, 8, heads=4, **kw)
    got = {(l.dp, l.tp, l.pp, l.stage, l.detail["recompute"]) for l in lays}
    for tp in (1, 2):
        for pp in (1, 2, 4):
            if 8 % (tp * pp) == 0:
                dp = 8 // (tp * pp)
                assert (dp, tp, pp, 0, False) in got
    assert all(l.dp * l.tp * l.pp == 8 for l in lays)
    assert [l.step_s for l in lays if l.feasible] == sorted(l.step_s for l in lays if l.feasible)
    # sharding stages cut memory and never the communication
    base = layout.price_layout(blocks[1], 8, 8, 1, 1, 0, **kw)
    mems = [layout.price_layout(blocks[1], 8, 8, 1, 1, st, **kw) for st in (1, 2, 3)]
    assert base.memory_per_rank > mems[0].memory_per_rank > mems[1].memory_per_rank > mems[2].memory_per_rank
    assert mems[2].comm_s > base.comm_s
    # a memory limit below the replicated states rules out plain data parallelism
    tight = layout.plan_layout(blocks, 8, heads=4, memory_limit=base.memory_per_rank * 0.5, **kw)
    assert tight[0].feasible and (tight[0].stage, tight[0].tp, tight[0].pp) != (0, 1, 1)
    with pytest.raises(ValueError):
        layout.price_layout(blocks[1], 8, 4, 1, 1, 0, **kw)
