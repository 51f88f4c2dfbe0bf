"""A 1024-rank world without processes: torch's fake process group (shapes and communication calls
are real, values are not) under paddle.distributed's auto-parallel API.

A GPT block (pre-LayerNorm causal attention + GELU MLP, Paddle's [in, out] Linear layout) is laid
out on an 8 x 16 x 8 (dp x fsdp x mp) ProcessMesh: Megatron tensor parallelism on mp (q/k/v and
fc1 column-parallel, proj and fc2 row-parallel), the six weight matrices also sharded on fsdp and
all-gathered before use (ZeRO-3 / FSDP), the batch split over dp and fsdp.  One forward and one
backward run as this process (rank 0) would run them, and torch's CommDebugMode counts the
collectives, which are checked against what the placements imply, by kind, mesh axis and bytes.
About 10-15 s on 2 busy cores.  (The planner's own 1024-rank test is in test_planner.py.)
"""
import numpy as np
import pytest
import torch.distributed as tdist
from torch.distributed.tensor.debug import CommDebugMode

DP, FSDP, MP = 8, 16, 8
B, S, H, HEADS, FFN = DP * FSDP, 16, 256, 8, 1024  # one sequence per (dp, fsdp) rank pair
ROW_BYTES = B // (DP * FSDP) * S * H * 4  # one rank's [b, s, h] fp32 activation


class _Comms(CommDebugMode):
    """CommDebugMode that also keeps (collective, mesh axis, input bytes) of every call."""

    def __init__(self):
        super().__init__()
        self.calls = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = super().__torch_dispatch__(func, types, args, kwargs)
        if out is not NotImplemented and func._overloadpacket in self.comm_registry:
            nbytes = args[0].numel() * args[0].element_size()
            self.calls.append((func._overloadpacket.__name__, _axis(args[-1]), nbytes))
        return out


def _axis(group_name):
    """The mesh axis of a process group of rank 0, from its ranks (mesh [dp, fsdp, mp], row-major)."""
    from torch.distributed.distributed_c10d import _resolve_process_group

    ranks = tdist.get_process_group_ranks(_resolve_process_group(group_name))
    step = ranks[1] - ranks[0]
    assert ranks == list(range(0, step * len(ranks), step)), ranks
    return {1: "mp", MP: "fsdp", MP * FSDP: "dp"}[step]


@pytest.fixture
def fake_world():
    from torch.testing._internal.distributed.fake_pg import FakeStore

    assert not tdist.is_initialized()
    tdist.init_process_group("fake", store=FakeStore(), rank=0, world_size=DP * FSDP * MP)
    yield  # the conftest fixture destroys the group and the DeviceMeshes built on it


def _gpt_block(paddle, mesh):
    from paddle.distributed.auto_parallel.api import dtensor_from_local, dtensor_to_local

    dist, F = paddle.distributed, paddle.nn.functional
    R = dist.Replicate()

    class Block(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.ln1, self.ln2 = paddle.nn.LayerNorm(H), paddle.nn.LayerNorm(H)
            self.q, self.k, self.v = (paddle.nn.Linear(H, H) for _ in range(3))
            self.proj = paddle.nn.Linear(H, H)
            self.fc1, self.fc2 = paddle.nn.Linear(H, FFN), paddle.nn.Linear(FFN, H)
            for name in ("q", "k", "v", "fc1"):  # column parallel: weight [in/fsdp, out/mp], bias [out/mp]
                lin = getattr(self, name)
                lin.weight = dist.shard_tensor(lin.weight, mesh, [R, dist.Shard(0), dist.Shard(1)])
                lin.bias = dist.shard_tensor(lin.bias, mesh, [R, R, dist.Shard(0)])
            for name in ("proj", "fc2"):  # row parallel: weight [in/mp, out/fsdp], bias replicated
                lin = getattr(self, name)
                lin.weight = dist.shard_tensor(lin.weight, mesh, [R, dist.Shard(1), dist.Shard(0)])
                lin.bias = dist.shard_tensor(lin.bias, mesh, [R, R, R])
            for ln in (self.ln1, self.ln2):
                ln.weight = dist.shard_tensor(ln.weight, mesh, [R, R, R])
                ln.bias = dist.shard_tensor(ln.bias, mesh, [R, R, R])

        def _linear(self, lin, x):
            # FSDP: the weight is gathered over fsdp for its use (its gradient is reduce-scattered back)
            mp = lin.weight.placements[2]
            w = dist.reshard(lin.weight, mesh, [R, R, mp])
            if mp == dist.Shard(1):  # column parallel: the output stays split over mp
                return F.linear(x, w, lin.bias)
            # row parallel: the partial sums are all-reduced over mp before the bias (Megatron's g)
            return dist.reshard(F.linear(x, w), mesh, [*x.placements[:2], R]) + lin.bias

        def _attention(self, q, k, v):
            # each process attends over its own sequences and heads: the core runs on the local pieces
            # (as a fused attention kernel would), with no communication and no sharding propagation
            placements = q.placements
            q, k, v = (dtensor_to_local(t, mesh, placements) for t in (q, k, v))
            b, s, h = q.shape
            q, k, v = (t.reshape([b, s, -1, H // HEADS]).transpose([0, 2, 1, 3]) for t in (q, k, v))
            att = paddle.matmul(q, k, transpose_y=True) * (H // HEADS) ** -0.5
            att = F.softmax(att + paddle.triu(paddle.full([s, s], float("-inf")), 1), axis=-1)
            out = paddle.matmul(att, v).transpose([0, 2, 1, 3]).reshape([b, s, h])
            return dtensor_from_local(out, mesh, placements)

        def forward(self, x):
            y = self.ln1(x)
            att = self._attention(*(self._linear(lin, y) for lin in (self.q, self.k, self.v)))
            x = x + self._linear(self.proj, att)
            return x + self._linear(self.fc2, F.gelu(self._linear(self.fc1, self.ln2(x))))

    return Block()


def test_gpt_block_on_1024_simulated_ranks_counts_collectives(paddle, fake_world):
    dist = paddle.distributed
    mesh = dist.ProcessMesh(np.arange(DP * FSDP * MP).reshape(DP, FSDP, MP), dim_names=["dp", "fsdp", "mp"])
    blk = _gpt_block(paddle, mesh)
    # the batch is split over dp and fsdp (both on dim 0), replicated over mp
    x = dist.shard_tensor(paddle.zeros([B, S, H]), mesh, [dist.Shard(0), dist.Shard(0), dist.Replicate()])
    x.stop_gradient = False
    assert x._local_value().shape == [B // (DP * FSDP), S, H]

    fwd = _Comms()
    with fwd:
        out = blk(x)
    assert out.shape == [B, S, H] and out.placements == x.placements
    bwd = _Comms()
    with bwd:
        out.backward(dist.shard_tensor(paddle.ones([B, S, H]), mesh, out.placements))

    col = {"q": H * H, "k": H * H, "v": H * H, "fc1": H * FFN}
    row = {"proj": H * H, "fc2": FFN * H}
    gathered = sorted(4 * n // (FSDP * MP) for n in [*col.values(), *row.values()])  # one rank's shard in
    full_mp = sorted(4 * n // MP for n in [*col.values(), *row.values()])  # the mp piece, whole over fsdp

    def calls(mode, name, axis):
        return sorted(nbytes for n, a, nbytes in mode.calls if n == name and a == axis)

    # forward: each weight all-gathered over fsdp; Megatron's one all-reduce per row-parallel layer over mp
    assert calls(fwd, "all_gather_into_tensor", "fsdp") == gathered
    assert calls(fwd, "all_reduce", "mp") == [ROW_BYTES] * 2
    assert len(fwd.calls) == 8, fwd.calls
    # backward: each weight gradient (partial over dp and fsdp: the batch is split there) is
    # reduce-scattered over fsdp, then its fsdp piece all-reduced over dp (HSDP)
    assert calls(bwd, "reduce_scatter_tensor", "fsdp") == full_mp
    assert calls(bwd, "all_reduce", "dp") == gathered
    # the activation gradients of the two column-parallel inputs are partial sums over mp: DTensor
    # reduce-scatters both, and all-gathers the MLP one where the residual's replicated gradient is
    # added (Megatron all-reduces both: the same bytes); the block input's gradient stays split over mp
    assert calls(bwd, "reduce_scatter_tensor", "mp") == [ROW_BYTES] * 2
    assert calls(bwd, "all_gather_into_tensor", "mp") == [ROW_BYTES // MP]
    assert len(bwd.calls) == 15, bwd.calls
    # the parameters' gradients have the parameters' shapes and layouts
    for p in blk.parameters():
        assert p.grad is not None and p.grad.shape == p.shape, p.name
    assert blk.q.weight.grad.placements == blk.q.weight.placements
    assert x.grad.shape == [B, S, H]
