"""paddle_on_torch.parallel: the planner's known optima, solver vs brute force, Plan round trips.

Planning runs on a fake process group (no processes), so every test here is in-process; the
numerics of applied plans are checked on gloo ranks in test_planner_dist.py.
"""
import itertools
import re

import pytest

from paddle_on_torch import parallel
from tests import planner_models
from paddle_on_torch.parallel import solver as _solver


def _mlp(paddle, h=1024, ffn=4096, lazy=True):
    class MLP(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.l1 = paddle.nn.Linear(h, ffn)
            self.l2 = paddle.nn.Linear(ffn, h)

        def forward(self, x):
            return self.l2(paddle.nn.functional.relu(self.l1(x)))

    if lazy:
        with paddle.LazyGuard():
            return MLP()
    return MLP()


def _pl(plan, name):
    return [repr(p) for p in plan.placements(name)]


S0, S1, R = "Shard(dim=0)", "Shard(dim=1)", "Replicate()"


def test_mlp_1d_data_parallel_when_parameters_fit(paddle):
    dist = paddle.distributed
    mesh = dist.ProcessMesh([0, 1, 2, 3], dim_names=["x"])
    layer, x = _mlp(paddle), paddle.zeros([8192, 1024])
    p = parallel.plan(layer, [x], mesh, marks={0: [dist.Shard(0)]})
    assert p.solver["optimal"] and p.solver["method"] == "exact"
    # plain data parallelism: every parameter replicated, only the gradient all-reduce
    dp = parallel.plan(layer, [x], mesh, marks={0: [dist.Shard(0)], **{n: [dist.Replicate()] for n in
                                                                      ("l1.weight", "l1.bias", "l2.weight", "l2.bias")}},
                       activations=False)
    assert {(c["kind"], c["why"]) for c in dp.collectives} == {("all_reduce", "gradient")}
    # the optimum keeps the batch split (no compute replicated) and is no worse; with compute priced (issue 22)
    # a ZeRO-style split of l2.weight (gathered for use, its gradient reduce-scattered, an all_to_all in the
    # backward priced as NCCL's) is modelled 17% cheaper, so the parameters need not all be Replicate
    assert p.estimate["compute_s"] <= dp.estimate["compute_s"] * (1 + 1e-9)
    assert p.estimate["step_s"] <= dp.estimate["step_s"] * (1 + 1e-9)
    assert _pl(p, "l1.weight") == [R]


def test_mlp_1d_tensor_parallel_when_memory_forbids_replication(paddle):
    dist = paddle.distributed
    mesh = dist.ProcessMesh([0, 1, 2, 3], dim_names=["x"])
    layer, x = _mlp(paddle), paddle.zeros([512, 1024])
    full = parallel.plan(layer, [x], mesh, marks={0: [dist.Shard(0)]}, objective="memory")
    dp_mem = 4 * 2 * 1024 * 4096 * 4  # two weights, param + grad + 2 Adam states, fp32
    p = parallel.plan(layer, [x], mesh, marks={0: [dist.Shard(0)]}, memory_limit=dp_mem * 0.6)
    assert p.solver["feasible"] and p.estimate["memory_per_rank"] <= dp_mem * 0.6
    # Megatron: column-parallel first Linear, row-parallel second
    assert _pl(p, "l1.weight") == [S1] and _pl(p, "l1.bias") == [S0] and _pl(p, "l2.weight") == [S0]
    assert full.estimate["memory_per_rank"] <= p.estimate["memory_per_rank"]


def test_mlp_2d_mesh_finds_dp_plus_megatron(paddle):
    dist = paddle.distributed
    mesh = dist.ProcessMesh([[0, 1, 2, 3], [4, 5, 6, 7]], dim_names=["dp", "mp"])
    layer, x, marks = _mlp(paddle), paddle.zeros([8192, 1024]), {0: [dist.Shard(0), dist.Replicate()]}
    p = parallel.plan(layer, [x], mesh, marks=marks)
    assert p.solver["activation_variables"] == 2 and p.solver["method"] == "search"
    # Megatron on mp: l1 column-, l2 row-parallel
    assert [_pl(p, n)[1] for n in ("l1.weight", "l1.bias", "l2.weight")] == [S1, S0, S0]
    # the parameters-only problem is small enough to enumerate: dp + Megatron is its optimum, and the
    # search with the activation variables (which include "follow") is no worse (here a hair better:
    # l1.weight also split on dp, ZeRO-style, its gradient reduce-scattered)
    # (with compute priced, issue 22, the exact optimum may also split l2.weight on dp, ZeRO-style: gathered for
    # use, its gradient reduce-scattered -- a hair cheaper than its all-reduce under the ring model)
    leaves_only = parallel.plan(layer, [x], mesh, marks=marks, activations=False)
    assert leaves_only.solver["optimal"]
    assert _pl(leaves_only, "l1.weight") == [R, S1] and _pl(leaves_only, "l2.weight")[1] == S0
    assert _pl(leaves_only, "l1.bias") == [R, S0]
    assert p.estimate["step_s"] <= leaves_only.estimate["step_s"] * (1 + 1e-9)
    # the data-parallel gradient synchronisation runs on dp only, over the 1/4 weight shards
    grads = [c for c in leaves_only.collectives if c["why"] == "gradient" and c["kind"] == "all_reduce"]
    assert grads and all(c["mesh_dim"] == 0 for c in grads)
    assert all(c["mesh_dim"] == 0 for c in p.collectives if c["why"] == "gradient")
    assert max(c["bytes"] for c in grads) == 1024 * 4096 * 4 / 4


def test_marked_parameters_are_kept(paddle):
    dist = paddle.distributed
    mesh = dist.ProcessMesh([0, 1], dim_names=["x"])
    p = parallel.plan(_mlp(paddle, 64, 128), [paddle.zeros([16, 64])], mesh,
                      marks={0: [dist.Shard(0)], "l2.weight": [dist.Shard(1)]})
    assert _pl(p, "l2.weight") == [S1]
    assert next(lf for lf in p.leaves if lf["name"] == "l2.weight")["why"] == "marked"


@pytest.mark.parametrize("shape,batch,limit", [([4], 512, None), ([4], 512, 60e6),
                                               pytest.param([2, 2], 256, None, marks=pytest.mark.slow),
                                               pytest.param([2, 2], 4096, 40e6, marks=pytest.mark.slow)])
def test_search_matches_brute_force(paddle, shape, batch, limit):
    """The heuristic search reaches the brute-force optimum on small graphs; the exact solver
    (enumeration) agrees with an independent enumeration of the same objective."""
    dist = paddle.distributed
    n = 1
    for s in shape:
        n *= s
    ids = list(range(n)) if len(shape) == 1 else [list(range(i * shape[1], (i + 1) * shape[1]))
                                                  for i in range(shape[0])]
    mesh = dist.ProcessMesh(ids, dim_names=["a", "b"][:len(shape)])
    layer, x = _mlp(paddle, 256, 1024), paddle.zeros([batch, 256])
    marks = {0: [dist.Shard(0)] + [dist.Replicate()] * (len(shape) - 1)}
    exact = parallel.plan(layer, [x], mesh, marks=marks, memory_limit=limit, solver="exact")
    search = parallel.plan(layer, [x], mesh, marks=marks, memory_limit=limit, solver="search")
    assert exact.solver["optimal"] and not search.solver["optimal"]
    assert search.estimate["step_s"] == pytest.approx(exact.estimate["step_s"], rel=1e-9)
    # brute force, independently: every combination of the four parameters' placements
    from paddle_on_torch.parallel.planner import _pl_parse
    best = min(exact.estimate["step_s"], search.estimate["step_s"])
    assert best == pytest.approx(_brute_force(paddle, layer, x, mesh, marks, limit), rel=1e-9)


def _brute_force(paddle, layer, x, mesh, marks, limit, activations=False):
    from paddle_on_torch.parallel.capture import capture
    from paddle_on_torch.parallel.cost import MeshCost, Topology
    from paddle_on_torch.parallel.planner import _marks_to_torch, _planning_mesh
    from paddle_on_torch.parallel.propagate import Evaluator
    from torch.distributed.tensor import Replicate, Shard

    cap = capture(layer, [x], points=activations)
    fixed = _marks_to_torch(marks, mesh, cap.leaves, cap.shapes)
    best = None
    with _planning_mesh(mesh) as (dm, _):
        ev = Evaluator(cap, dm, MeshCost(mesh.mesh, Topology()))
        names = [n for n, k in cap.leaves if k == "param"]
        doms = [_solver.domain(s, list(mesh.shape)) for (n, k), s in zip(cap.leaves, cap.shapes) if k == "param"]
        # activations: per mesh dim follow (None), Replicate or Shard(0) of the [tokens, features] outputs
        pts = [("point", n) for n in dict.fromkeys(cap.points)]
        names += pts
        doms += [list(itertools.product(*[[None, Replicate(), Shard(0)]] * len(mesh.shape)))] * len(pts)
        for combo in itertools.product(*doms):
            e = ev.evaluate({**fixed, **dict(zip(names, combo))})
            if limit is not None and e.memory > limit:
                continue
            best = e.time if best is None else min(best, e.time)
    return best


def test_explain_save_load(paddle, tmp_path, capsys):
    dist = paddle.distributed
    mesh = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["dp", "mp"])
    p = parallel.plan(_mlp(paddle, 64, 256), [paddle.zeros([32, 64])], mesh,
                      marks={0: [dist.Shard(0), dist.Replicate()]})
    text = p.explain()
    assert capsys.readouterr().out.strip() == text.strip()
    for word in ("l1.weight", "[64, 256]", "marked", "estimated step", "peak memory per rank", "collective"):
        assert word in text
    # each collective with its mesh dimension, bytes and estimated time
    assert re.search(r"^(all_reduce|all_gather|reduce_scatter|all_to_all)\s+(dp|mp)\s+[\d.]+ (B|KiB|MiB)\s+[\d.]+ ms",
                     text, re.M), text
    acts = p.explain(print_=False, activations=True)
    assert "mm" in acts and "backward" in acts and "DTensor propagation" in acts
    assert {a["part"] for a in p.activations} == {"forward", "backward"}
    path = tmp_path / "plan.json"
    p.save(str(path))
    q = parallel.load(str(path))
    assert q.parameter_placements == p.parameter_placements
    assert q.mesh == mesh and q.estimate == p.estimate and q.explain(print_=False) == text
    assert q.activations == p.activations


@pytest.mark.slow  # (7 s: planning over 1,024 ranks)
def test_1024_rank_mesh_plans_without_processes(paddle):
    import torch.distributed as tdist

    from paddle_on_torch.parallel.cost import MeshCost

    dist = paddle.distributed
    # a mesh description as in the issue: shape and process ids, no processes behind it
    mesh = dist.ProcessMesh(shape=[8, 16, 8], process_ids=list(range(1024)), dim_names=["dp", "fsdp", "mp"])
    topology = parallel.Topology(ranks_per_node=8, intra_bandwidth=300e9, inter_bandwidth=50e9)
    p = parallel.plan(_mlp(paddle, 1024, 4096), [paddle.zeros([1024, 1024])], mesh,
                      marks={0: [dist.Shard(0), dist.Shard(0), dist.Replicate()]}, memory_limit="40MB",
                      topology=topology, time_budget=15)
    assert p.solver["feasible"] and p.estimate["memory_per_rank"] <= 40e6
    assert not tdist.is_initialized()  # the fake process group is gone again
    # the mp dimension (8 consecutive ranks) is one node: its collectives are priced at the intra-node
    # figures, the others at the inter-node ones
    mc = MeshCost(mesh.mesh, topology)
    assert mc.intra == [False, False, True]
    for c in p.collectives:
        assert c["seconds"] == pytest.approx(mc.collective(c["kind"], c["mesh_dim"], c["bytes"]), rel=1e-12)
    assert p.topology == topology


def test_bad_arguments(paddle):
    dist = paddle.distributed
    mesh = dist.ProcessMesh([0, 1], dim_names=["x"])
    layer, x = _mlp(paddle, 8, 16), paddle.zeros([4, 8])
    with pytest.raises(ValueError, match="marks names"):
        parallel.plan(layer, [x], mesh, marks={"nope": [dist.Shard(0)]})
    with pytest.raises(ValueError, match="objective"):
        parallel.plan(layer, [x], mesh, objective="speed")
    with pytest.raises(ValueError, match="memory_limit"):
        parallel.plan(layer, [x], mesh, memory_limit="lots")
    with pytest.raises(TypeError, match="ProcessMesh"):
        parallel.plan(layer, [x], [0, 1])
    with pytest.raises(ValueError, match="out of range"):
        parallel.plan(layer, [x], mesh, marks={0: [dist.Shard(2)]})


def _seed_hybrid_mlp(paddle):
    """The seed hybrid MLP (shared/seed_examples/hybrid_mlp.py) with its parameter marks removed."""
    class MlpModel(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.w0 = self.create_parameter([1024, 4096])
            self.w1 = self.create_parameter([4096, 1024])

        def forward(self, x):
            return paddle.matmul(paddle.matmul(x, self.w0), self.w1)

    with paddle.LazyGuard():
        return MlpModel()


@pytest.mark.parametrize("objective", ["time", "communication"])
def test_seed_hybrid_mlp_input_mark_only_communicates_no_more_than_hand_marks(paddle, objective):
    """Only the input's mark kept (the batch on 'x', as shard_dataloader places it): the plan's estimated
    communication is at most that of the seed's hand marks (w0 column-, w1 row-sharded on 'y'), on one
    2x2 mesh (the seed's pipeline split across two meshes is outside the planner)."""
    dist = paddle.distributed
    mesh = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["x", "y"])
    model, x = _seed_hybrid_mlp(paddle), paddle.zeros([2, 128, 1024])
    data = [dist.Shard(0), dist.Replicate()]
    hand = parallel.plan(model, [x], mesh, marks={0: data, "w0": [dist.Replicate(), dist.Shard(1)],
                                                  "w1": [dist.Replicate(), dist.Shard(0)]})
    auto = parallel.plan(model, [x], mesh, marks={0: data}, objective=objective)
    assert auto.estimate["comm_s"] <= hand.estimate["comm_s"] * (1 + 1e-9)
    if objective == "time":
        assert auto.estimate["step_s"] <= hand.estimate["step_s"] * (1 + 1e-9)


def _gpt_block(paddle, h=512, heads=8):
    F = paddle.nn.functional

    class Block(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.ln1, self.ln2 = paddle.nn.LayerNorm(h), paddle.nn.LayerNorm(h)
            self.q, self.k, self.v = (paddle.nn.Linear(h, h) for _ in range(3))
            self.proj = paddle.nn.Linear(h, h)
            self.fc1, self.fc2 = paddle.nn.Linear(h, 4 * h), paddle.nn.Linear(4 * h, h)

        def forward(self, x):
            b, s, _ = x.shape
            y = self.ln1(x)
            q, k, v = (t.reshape([b, s, heads, h // heads]).transpose([0, 2, 1, 3])
                       for t in (self.q(y), self.k(y), self.v(y)))
            att = F.softmax(paddle.matmul(q, k, transpose_y=True) * (h // heads) ** -0.5, axis=-1)
            x = x + self.proj(paddle.matmul(att, v).transpose([0, 2, 1, 3]).reshape([b, s, h]))
            return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))

    with paddle.LazyGuard():
        return Block()


def test_gpt_block_1d_dp_then_sharded_under_memory_limit(paddle):
    dist = paddle.distributed
    mesh = dist.ProcessMesh([0, 1, 2, 3], dim_names=["x"])
    blk = _gpt_block(paddle)
    dp = parallel.plan(blk, [paddle.zeros([64, 256, 512])], mesh, marks={0: [dist.Shard(0)]})
    assert all(v == [dist.Replicate()] for v in dp.parameter_placements.values())
    x = paddle.zeros([8, 256, 512])
    full = parallel.plan(blk, [x], mesh, marks={0: [dist.Shard(0)]})
    assert full.estimate["memory_per_rank"] > 45e6  # replicated parameters + Adam states do not fit
    p = parallel.plan(blk, [x], mesh, marks={0: [dist.Shard(0)]}, memory_limit=45e6)
    assert p.solver["feasible"] and p.estimate["memory_per_rank"] <= 45e6
    pl = p.parameter_placements
    # every weight matrix is split over the 4 ranks; the MLP is Megatron column/row
    for name in ("q", "k", "v", "proj", "fc1", "fc2"):
        assert pl[f"{name}.weight"][0] != dist.Replicate(), (name, pl)
    assert pl["fc1.weight"] == [dist.Shard(1)] and pl["fc2.weight"] == [dist.Shard(0)]


@pytest.mark.parametrize("batch", [512, 8192])
def test_per_dim_search_reports_dtensor_figures(paddle, batch):
    """The per-mesh-dimension propagation (the default from 3-D meshes, for speed) only steers the
    search: the plan's estimate is DTensor's whole-mesh figure for the placements chosen, the same as
    planning with those placements marked under DTensor's propagation."""
    dist = paddle.distributed
    mesh = dist.ProcessMesh([[0, 1, 2, 3], [4, 5, 6, 7]], dim_names=["dp", "mp"])
    layer, x = _mlp(paddle, 256, 1024), paddle.zeros([batch, 256])
    marks = {0: [dist.Shard(0), dist.Replicate()]}
    b = parallel.plan(layer, [x], mesh, marks=marks, propagation="per_dim")
    assert b.solver["propagation"] == "per_dim"
    fixed = parallel.plan(layer, [x], mesh, marks={**marks, **b.parameter_placements}, propagation="dtensor")
    assert b.estimate == fixed.estimate
    a = parallel.plan(layer, [x], mesh, marks=marks, propagation="dtensor")
    assert a.estimate["step_s"] <= b.estimate["step_s"] * (1 + 1e-9)  # the faithful search is never worse


@pytest.mark.slow
def test_gpt_block_2d_mesh_finds_dp_plus_megatron(paddle):
    """dp x mp, the batch marked on dp, a memory limit that replication on mp exceeds: every Linear is
    Megatron on mp (q, k, v, fc1 column; proj, fc2 row), replicated on dp, and the estimate equals the
    hand-written Megatron + DP plan's."""
    import os
    import sys

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench"))
    from planner import hand_marks

    dist = paddle.distributed
    mesh = dist.ProcessMesh([[0, 1, 2, 3], [4, 5, 6, 7]], dim_names=["dp", "mp"])
    blk, x = _gpt_block(paddle), paddle.zeros([8, 256, 512])
    data = {0: [dist.Shard(0), dist.Replicate()]}
    # replication on mp (plain data parallelism) exceeds the limit
    rep = {n: [dist.Replicate(), dist.Replicate()] for n, _ in blk.named_parameters()}
    dp = parallel.plan(blk, [x], mesh, marks={**data, **rep}, activations=False)
    assert dp.estimate["memory_per_rank"] > 50e6
    p = parallel.plan(blk, [x], mesh, marks=data, memory_limit=50e6)
    hand = parallel.plan(blk, [x], mesh, marks={**data, **hand_marks(blk, mesh)})
    pl = p.parameter_placements
    for name in ("q", "k", "v", "fc1"):
        assert pl[f"{name}.weight"] == [dist.Replicate(), dist.Shard(1)], (name, pl)
    for name in ("proj", "fc2"):
        assert pl[f"{name}.weight"] == [dist.Replicate(), dist.Shard(0)], (name, pl)
    assert p.estimate["step_s"] <= hand.estimate["step_s"] * (1 + 1e-9)
    assert p.estimate["comm_s"] <= hand.estimate["comm_s"] * (1 + 1e-9)


@pytest.mark.parametrize("limit", [None, 60e6])
def test_activation_variables_brute_force(paddle, limit):
    """With the activation variables (the outputs of l1 and l2: follow, Replicate or Shard(0)) the exact
    solver and the search both reach the optimum of an independent enumeration of every parameter
    and activation choice."""
    dist = paddle.distributed
    mesh = dist.ProcessMesh([0, 1, 2, 3], dim_names=["x"])
    layer, x = _mlp(paddle, 256, 1024), paddle.zeros([512, 256])
    marks = {0: [dist.Replicate()]}
    exact = parallel.plan(layer, [x], mesh, marks=marks, memory_limit=limit, solver="exact")
    search = parallel.plan(layer, [x], mesh, marks=marks, memory_limit=limit, solver="search")
    assert exact.solver["activation_variables"] == 2 and exact.solver["optimal"]
    assert search.estimate["step_s"] == pytest.approx(exact.estimate["step_s"], rel=1e-9)
    assert exact.estimate["step_s"] == pytest.approx(
        _brute_force(paddle, layer, x, mesh, marks, limit, activations=True), rel=1e-9)


def test_activation_reshard_is_chosen_and_priced(paddle):
    """Two residual MLPs with a LayerNorm between, a replicated input, tensor parallel under a memory
    limit: the plan reduce-scatters l2's output to Shard(0) (sequence-parallel style) instead of
    following DTensor, and that is cheaper than the best plan without activation variables."""
    dist = paddle.distributed
    F = paddle.nn.functional

    class Net(paddle.nn.Layer):
        def __init__(self, h=64):
            super().__init__()
            self.l1, self.l2 = paddle.nn.Linear(h, 4 * h), paddle.nn.Linear(4 * h, h)
            self.ln = paddle.nn.LayerNorm(h)
            self.l3, self.l4 = paddle.nn.Linear(h, 4 * h), paddle.nn.Linear(4 * h, h)

        def forward(self, x):
            x = x + self.l2(F.gelu(self.l1(x)))
            return x + self.l4(F.gelu(self.l3(self.ln(x))))

    net = Net()
    mesh = dist.ProcessMesh([0, 1, 2, 3], dim_names=["x"])
    limit = 0.5 * 4 * sum(int(p.numel()) * 4 for p in net.parameters())
    x, marks = paddle.zeros([256, 64]), {0: [dist.Replicate()]}
    p = parallel.plan(net, [x], mesh, marks=marks, memory_limit=limit)
    q = parallel.plan(net, [x], mesh, marks=marks, memory_limit=limit, activations=False)
    assert {r["name"]: r["placements"] for r in p.reshards}["l2"] == "[S(0)]"
    assert p.estimate["step_s"] < q.estimate["step_s"]
    # the forward reshard and its backward twin are listed among the collectives
    assert any(c["why"] == "activation l2" for c in p.collectives)
    assert any(c["why"] == "activation gradient" for c in p.collectives)
    assert "activation (out)" in p.explain(print_=False)


@pytest.mark.slow
def test_segment_memo_matches_full_walk(paddle):
    """An evaluation copies the segments between reshard points it has seen (the repeated blocks); on
    random tied assignments of a 3-block GPT its figures equal a walk of every op."""
    import os
    import random
    import sys

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench"))
    from planner import GPT

    from paddle_on_torch.parallel.capture import capture
    from paddle_on_torch.parallel.cost import MeshCost, Topology
    from paddle_on_torch.parallel.planner import _marks_to_torch, _planning_mesh
    from paddle_on_torch.parallel.points import POINT
    from paddle_on_torch.parallel.propagate import Evaluator

    dist = paddle.distributed
    with paddle.LazyGuard():
        model = GPT(3, 64, 4)
    mesh = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["a", "b"])
    cap = capture(model, [paddle.zeros([4, 16, 64])])
    fixed = _marks_to_torch({0: [dist.Shard(0), dist.Replicate()]}, mesh, cap.leaves, cap.shapes)
    shapes = {cap.points[n.args[1]]: tuple(n.meta["val"].shape) for n in cap.graph.nodes
              if n.op == "call_function" and n.target is POINT}
    rng = random.Random(0)
    with _planning_mesh(mesh) as (dm, _):
        ev = Evaluator(cap, dm, MeshCost(mesh.mesh, Topology()))
        assert len(ev._struct_ids) < sum(u[0] == "seg" for u in ev._units)  # blocks share structures
        for _ in range(25):
            a, tied = dict(fixed), {}
            for (n, k), s in zip(cap.leaves, cap.shapes):
                if k == "param":
                    a[n] = tied.setdefault(_solver.group_key(n, s, True), rng.choice(_solver.domain(s, [2, 2])))
            for p, s in shapes.items():
                a[("point", p)] = tied.setdefault(_solver.group_key(p + ".out", s, True),
                                                  rng.choice(_solver.point_domain(s, [2, 2])))
            fast, full = ev.evaluate(a), ev.evaluate(a, detail=True)
            assert fast.compute == pytest.approx(full.compute, rel=1e-12, abs=1e-15)
            assert fast.comm == pytest.approx(full.comm, rel=1e-12, abs=1e-15)
            assert fast.memory == full.memory
        assert ev._seg_memo  # the memo was used


@pytest.mark.slow
def test_gpt_block_2d_megatron_with_activation_reshards_beats_hand_plan(paddle):
    """dp x mp, batch on dp, no memory limit, a compute-heavy batch: the plan is dp + Megatron on mp
    (the same weights as the hand plan) and its activation reshards make it much cheaper than the
    hand plan as written, whose activations follow DTensor's choices."""
    import os
    import sys

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench"))
    from planner import hand_marks

    dist = paddle.distributed
    mesh = dist.ProcessMesh([[0, 1, 2, 3], [4, 5, 6, 7]], dim_names=["dp", "mp"])
    blk, x = _gpt_block(paddle), paddle.zeros([16, 512, 512])
    data = {0: [dist.Shard(0), dist.Replicate()]}
    p = parallel.plan(blk, [x], mesh, marks=data)
    hand = parallel.plan(blk, [x], mesh, marks={**data, **hand_marks(blk, mesh)}, activations=False)
    pl, R = p.parameter_placements, dist.Replicate()
    for name in ("q", "k", "v", "fc1"):
        assert pl[f"{name}.weight"] == [R, dist.Shard(1)], (name, pl)
    for name in ("proj", "fc2"):
        assert pl[f"{name}.weight"] == [R, dist.Shard(0)], (name, pl)
    assert any(r["placements"] != "[*, *]" for r in p.reshards)
    assert p.estimate["step_s"] < 0.5 * hand.estimate["step_s"]


def _cnn(paddle):
    with paddle.LazyGuard():  # BatchNorm's statistics are frozen (meta) parameters here
        return planner_models.cnn(paddle)


def test_batchnorm_statistics_are_placed_where_their_update_runs(paddle):
    """BatchNorm's running statistics (frozen parameters) are planned like parameters: under DTensor the
    op updates them in place, so a plan that makes DTensor redistribute them would lose the update;
    the plan places them where the op runs, and a plan forced to keep them Replicate says so."""
    dist = paddle.distributed
    mesh = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["dp", "mp"])
    model, x, data = _cnn(paddle), paddle.zeros([8, 3, 8, 8]), [dist.Shard(0), dist.Replicate()]
    p = parallel.plan(model, [x], mesh, marks={0: data})
    kinds = {lf["name"]: lf["kind"] for lf in p.leaves}
    assert kinds["bn._mean"] == kinds["bn._variance"] == "state" and kinds["bn.weight"] == "param"
    assert p.solver["lost_writes"] == [] and "WARNING" not in p.explain(print_=False)
    assert p.placements("bn._mean") == p.placements("bn._variance")
    # DTensor splits BatchNorm over channels on mp (a free Replicate -> Shard): replicated statistics
    # would be redistributed, and their update lost
    R = [dist.Replicate(), dist.Replicate()]
    forced = parallel.plan(model, [x], mesh, marks={0: data, "bn._mean": R, "bn._variance": R})
    assert forced.solver["lost_writes"] == ["native_batch_norm"]
    assert "update is lost" in forced.explain(print_=False)


def test_planning_leaves_no_mesh_in_dtensors_cache(paddle):
    """Planning asks DTensor's (cached) propagator about group-less meshes that compare equal to a
    job's mesh of the same ranks; the cache is emptied afterwards so a job never reuses them."""
    from torch.distributed.tensor import DTensor

    dist = paddle.distributed
    mesh = dist.ProcessMesh([0, 1], dim_names=["x"])
    parallel.plan(_mlp(paddle, 8, 16), [paddle.zeros([4, 8])], mesh, marks={0: [dist.Shard(0)]})
    assert DTensor._op_dispatcher.sharding_propagator.propagate_op_sharding.cache_info().currsize == 0
