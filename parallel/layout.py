"""Choosing the data / tensor / pipeline / sharding degrees for a stack of identical blocks (issue 22).

`plan()` places tensors on a mesh it is given; `plan_layout()` chooses the mesh.  For every tensor-parallel
degree `tp` it plans ONE block (a decoder layer) with `plan()` on a `[tp]` mesh of a fake process group -- the
block's sharding, compute, communication and saved activations come from DTensor's propagation and the cost
model of docs/planner.md -- and then prices each whole layout analytically on top:

* pipeline `pp` (the `layers` blocks split evenly; 1F1B schedule): `(m + pp - 1)` micro-batch slots of
  `layers / pp` blocks each, `m = global_batch / (dp * micro_batch)`; a point-to-point send of the
  `[micro_batch, seq, hidden]` activation between stages per slot and direction;
* data parallel `dp = ranks / (tp * pp)` with ZeRO-style sharding `stage` 0-3 over it: the gradient
  all-reduce (stage 0), or reduce-scatter + all-gather (1, 2: the same volume), plus for stage 3 an
  all-gather of the parameters in the forward and again in the backward of every micro-batch;
* the embedding and the output projection (vocab-parallel over tp) on the first / last stage;
* the optimizer's update (memory-bound: 16 bytes read and written per local parameter element).

Memory per rank (mixed-precision Adam, the ZeRO paper's accounting): 2 bytes of weights + 2 of gradient +
12 of fp32 master weights and moments per parameter, divided by dp as the stage says (1: the 12, 2: 14,
3: all 16), plus the saved activations of the micro-batches in flight on the first stage (`min(pp, m)` under
1F1B; with `recompute` only each block's input is kept, and one block's activations are live).

Mesh order as PaddleNLP's (pp, dp, tp): tp innermost, so a tp group is inside a node while
`tp <= ranks_per_node`, a dp group while `tp * dp <= ranks_per_node`.  What is not modelled: overlap of
communication with compute, interleaved (virtual) pipeline stages, sequence / context parallelism beyond what
the block's plan chooses, and contention between groups.
"""
import dataclasses
import math

from .cost import Topology, parse_bytes

__all__ = ["Layout", "BlockCost", "plan_block", "plan_blocks", "price_layout", "plan_layout"]

# mixed-precision Adam, bytes per parameter: bf16 weights, bf16 gradients, fp32 master + 2 moments
_W, _G, _OPT = 2.0, 2.0, 12.0


@dataclasses.dataclass
class BlockCost:
    """One block's forward + backward for one micro-batch at tensor-parallel degree tp, from plan()."""
    tp: int
    compute_s: float
    comm_s: float
    params_per_rank: float      # parameter elements each rank holds
    activation_bytes: float     # saved for the backward, per rank, at the capture's dtype
    input_bytes: float          # the block's input activation, whole (what a pipeline stage sends)
    plan: object = None

    @property
    def step_s(self):
        return self.compute_s + self.comm_s


@dataclasses.dataclass
class Layout:
    dp: int
    tp: int
    pp: int
    stage: int
    micro_batches: int
    step_s: float
    compute_s: float
    comm_s: float
    bubble_s: float
    memory_per_rank: float
    feasible: bool
    detail: dict = dataclasses.field(default_factory=dict)

    def row(self):
        return {k: v for k, v in dataclasses.asdict(self).items() if k != "detail"}


def plan_block(block, example_inputs, tp, topology=None, time_budget=20.0, dtype_bytes=4, **kwargs):
    """BlockCost of `block` (usually built under paddle.LazyGuard) on a `[tp]` mesh, inputs replicated;
    keyword arguments go to plan() (memory_limit, starts, ...)."""
    import paddle_on_torch.distributed as dist

    from .planner import plan

    mesh = dist.ProcessMesh(list(range(tp)), dim_names=["mp"])
    marks = {i: [dist.Replicate()] for i in range(len(example_inputs))}
    p = plan(block, example_inputs, mesh, marks=marks, topology=topology, time_budget=time_budget, **kwargs)
    e = p.estimate
    states = 2 + kwargs.get("optimizer_states", 2)
    params = e["param_state_memory_per_rank"] / states / dtype_bytes
    act = e["memory_per_rank"] - e["param_state_memory_per_rank"]
    x = example_inputs[0]
    return BlockCost(tp, e["compute_s"], e["comm_s"], params, act, float(math.prod(x.shape)) * dtype_bytes, p)


def plan_blocks(block, example_inputs, tps=(1, 2, 4, 8), topology=None, time_budget=20.0, slack=1.1, starts=None):
    """{tp: BlockCost}: the block planned alone (tp = 1), then on each `[tp]` mesh under a memory limit of
    `slack / tp` of the whole block's (a tp-way block must hold about 1/tp of it: that is what the degree
    buys); `starts(tp)` may give candidate plans (e.g. Megatron's) for the search to start from."""
    one = plan_block(block, example_inputs, 1, topology, time_budget)
    whole = one.plan.estimate["memory_per_rank"]
    out = {1: one}
    for tp in tps:
        if tp == 1:
            continue
        out[tp] = plan_block(block, example_inputs, tp, topology, time_budget, memory_limit=whole * slack / tp,
                             starts=starts(tp) if starts else ())
    return out


def _ring(kind, n, nbytes, intra, topo):
    if n <= 1 or nbytes <= 0:
        return 0.0
    a = topo.intra_latency if intra else topo.inter_latency
    b = topo.intra_bandwidth if intra else topo.inter_bandwidth
    if kind == "all_reduce":
        return 2 * (n - 1) * a + 2 * (n - 1) / n * nbytes / b
    return (n - 1) * a + (n - 1) / n * nbytes / b  # all_gather / reduce_scatter


def price_layout(block, ranks, dp, tp, pp, stage, *, layers, global_batch, micro_batch=1, hidden, vocab, seq,
                 topology=None, memory_limit=None, recompute=False, dtype_bytes=2, capture_bytes=4):
    """The Layout (step time, memory per rank) of `layers` blocks like `block` (a BlockCost at this tp) on
    `ranks` = dp * tp * pp, ZeRO `stage` over dp, `global_batch` sequences of `seq` tokens per step."""
    topo = topology or Topology()
    if dp * tp * pp != ranks or block.tp != tp or layers % pp:
        raise ValueError(f"layout dp={dp} tp={tp} pp={pp} does not fit {ranks} ranks / {layers} layers / block tp "
                         f"{block.tp}")
    if global_batch % (dp * micro_batch):
        raise ValueError(f"global batch {global_batch} is not a multiple of dp * micro_batch = {dp * micro_batch}")
    m = global_batch // (dp * micro_batch)
    per_stage = layers // pp
    scale = dtype_bytes / capture_bytes  # the block was captured in fp32; training runs in bf16
    intra_tp = tp <= topo.ranks_per_node
    intra_dp = tp * dp <= topo.ranks_per_node
    intra_pp = ranks <= topo.ranks_per_node
    # one micro-batch through one stage (forward + backward), recompute adds one more forward (~1/3)
    blk = block.compute_s * (4 / 3 if recompute else 1) + block.comm_s * scale
    head_flops = 6.0 * micro_batch * seq * hidden * vocab / tp  # output projection (the embedding is a lookup)
    head = head_flops / topo.flops
    x_bytes = micro_batch * seq * hidden * dtype_bytes
    p2p = 0.0 if pp == 1 else (topo.inter_latency + x_bytes / (topo.inter_bandwidth if not intra_pp
                                                                else topo.intra_bandwidth))
    slot = per_stage * blk + 2 * p2p
    pipe = (m + pp - 1) * slot + m * head
    bubble = (pp - 1) * slot
    # parameters per rank (elements): the blocks of one stage, plus the embedding / output matrix (vocab / tp)
    p_local = per_stage * block.params_per_rank + vocab * hidden / tp
    grad_bytes = p_local * _G
    if stage == 0:
        dp_comm = _ring("all_reduce", dp, grad_bytes, intra_dp, topo)
    else:
        dp_comm = _ring("reduce_scatter", dp, grad_bytes, intra_dp, topo) + \
            _ring("all_gather", dp, p_local * _W, intra_dp, topo)
    if stage == 3:  # gathered again for each micro-batch's forward and backward
        dp_comm += 2 * m * _ring("all_gather", dp, p_local * _W, intra_dp, topo)
    opt_elems = p_local / (dp if stage >= 1 else 1)
    update = opt_elems * 32.0 / topo.memory_bandwidth
    step = pipe + dp_comm + update
    shard = {0: (1, 1, 1), 1: (1, 1, dp), 2: (1, dp, dp), 3: (dp, dp, dp)}[stage]
    mem_state = p_local * (_W / shard[0] + _G / shard[1] + _OPT / shard[2])
    in_flight = min(pp, m)
    act_block = block.activation_bytes * scale
    if recompute:
        act = in_flight * per_stage * x_bytes / tp + act_block
    else:
        act = in_flight * per_stage * act_block
    memory = mem_state + act
    limit = parse_bytes(memory_limit)
    comm = per_stage * block.comm_s * scale * m + dp_comm + 2 * p2p * (m + pp - 1)
    return Layout(dp, tp, pp, stage, m, step, step - comm, comm, bubble, memory,
                  limit is None or memory <= limit,
                  {"states_bytes": mem_state, "activation_bytes": act, "dp_comm_s": dp_comm, "update_s": update,
                   "pipeline_s": pipe})


def plan_layout(blocks, ranks, *, layers, global_batch, hidden, vocab, seq, heads, micro_batch=1,
                topology=None, memory_limit=None, stages=(0, 1, 2, 3), recompute=(False, True), max_pp=None):
    """Every layout of `ranks` (tp from `blocks`, a {tp: BlockCost}; pp dividing `layers`), priced, the best
    first: the fitting ones (memory per rank within `memory_limit`) by step time, then the rest by memory."""
    out = []
    for tp, block in sorted(blocks.items()):
        if ranks % tp or heads % tp:
            continue
        for pp in range(1, layers + 1):
            if layers % pp or (ranks // tp) % pp or (max_pp and pp > max_pp):
                continue
            dp = ranks // (tp * pp)
            if global_batch % (dp * micro_batch):
                continue
            for stage in stages:
                if stage and dp == 1:
                    continue
                for rc in recompute:
                    lay = price_layout(block, ranks, dp, tp, pp, stage, layers=layers, global_batch=global_batch,
                                       micro_batch=micro_batch, hidden=hidden, vocab=vocab, seq=seq,
                                       topology=topology, memory_limit=memory_limit, recompute=rc)
                    lay.detail["recompute"] = rc
                    out.append(lay)
    out.sort(key=lambda l: (not l.feasible, l.step_s if l.feasible else l.memory_per_rank))
    return out
