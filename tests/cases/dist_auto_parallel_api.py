"""paddle.distributed.auto_parallel internals PaddleNLP / PaddleFormers reach, in one process: api.split_mesh,
the MoE sub-mesh views (api.moe_global_mesh_tensor / moe_sub_mesh_tensors), interface.recompute, and the two
Strategy classes (paddle.distributed.Strategy is not fleet.auto.Strategy).  The multi-process behaviour of the
MoE views is tested under torchrun in tests/test_auto_parallel_moe.py."""
import numpy as np

from tests.cases import case


def _meshes(ms):
    return [[m.shape, m.process_ids, m.dim_names] for m in ms]


@case
def split_mesh_each_axis(paddle):
    from paddle.distributed.auto_parallel.api import split_mesh

    mesh = paddle.distributed.ProcessMesh(np.arange(8).reshape(2, 2, 2).tolist(), dim_names=["a", "b", "c"])
    return [_meshes(split_mesh(mesh, d)) for d in (0, 1, 2, -1, -3)] + \
        [[type(m).__name__ for m in split_mesh(mesh, 1)]]


@case
def split_mesh_uneven_and_2d(paddle):
    from paddle.distributed.auto_parallel.api import split_mesh

    mesh = paddle.distributed.ProcessMesh([[0, 2, 4], [1, 3, 5]], dim_names=["dp", "ep"])
    return [_meshes(split_mesh(mesh, 0)), _meshes(split_mesh(mesh, 1))]


@case
def split_mesh_axis_too_large(paddle):
    from paddle.distributed.auto_parallel.api import split_mesh

    split_mesh(paddle.distributed.ProcessMesh([[0, 1]], dim_names=["x", "y"]), 2)


@case
def split_mesh_axis_too_small(paddle):
    from paddle.distributed.auto_parallel.api import split_mesh

    split_mesh(paddle.distributed.ProcessMesh([[0, 1]], dim_names=["x", "y"]), -3)


def _one_rank_mesh(paddle):
    return paddle.distributed.ProcessMesh([[0]], dim_names=["x", "y"])


@case
def moe_global_mesh_tensor_one_process(paddle):
    import paddle.distributed as dist
    from paddle.distributed.auto_parallel.api import moe_global_mesh_tensor, split_mesh

    mesh = _one_rank_mesh(paddle)
    sub = split_mesh(mesh, 0)[0]
    x = paddle.arange(6, dtype="float32").reshape([2, 3])
    local = dist.shard_tensor(x, sub, [dist.Replicate(), dist.Replicate()])
    local.stop_gradient = False
    g = moe_global_mesh_tensor([local], mesh, [dist.Shard(0), dist.Replicate()], local_mesh_dim=0)
    (g * g).sum().backward()
    return [list(g.shape), str(g.placements), g.process_mesh.shape, g.process_mesh.process_ids, g.stop_gradient,
            list(g._local_value().shape), g.numpy(), local.grad.numpy(), str(local.grad.placements)]


@case
def moe_global_mesh_tensor_reshards_its_inputs(paddle):
    import paddle.distributed as dist
    from paddle.distributed.auto_parallel.api import moe_global_mesh_tensor, split_mesh

    mesh = _one_rank_mesh(paddle)
    sub = split_mesh(mesh, 1)[0]
    local = dist.shard_tensor(paddle.ones([4, 2]), sub, [dist.Shard(0), dist.Replicate()])
    g = moe_global_mesh_tensor([local], mesh, [dist.Replicate(), dist.Shard(1)], local_mesh_dim=-1)
    return [list(g.shape), str(g.placements), g.stop_gradient, g.numpy()]


@case
def moe_sub_mesh_tensors_one_process(paddle):
    import paddle.distributed as dist
    from paddle.distributed.auto_parallel.api import moe_sub_mesh_tensors

    mesh = _one_rank_mesh(paddle)
    w = dist.shard_tensor(paddle.arange(8, dtype="float32").reshape([4, 2]), mesh, [dist.Shard(0), dist.Replicate()])
    w.stop_gradient = False
    outs = moe_sub_mesh_tensors(w, mesh, 0, [dist.Shard(0), dist.Replicate()])
    (outs[0] * 3).sum().backward()
    return [type(outs).__name__, len(outs), [list(o.shape) for o in outs], [str(o.placements) for o in outs],
            [o.process_mesh.shape for o in outs], [o.stop_gradient for o in outs], outs[0].numpy(), w.grad.numpy(),
            str(w.grad.placements)]


@case
def moe_sub_mesh_tensors_needs_mesh(paddle):
    import paddle.distributed as dist
    from paddle.distributed.auto_parallel.api import moe_sub_mesh_tensors

    w = dist.shard_tensor(paddle.ones([4, 2]), _one_rank_mesh(paddle), [dist.Shard(0), dist.Replicate()])
    moe_sub_mesh_tensors(w, None, 0, [dist.Shard(0), dist.Replicate()])


@case
def moe_sub_mesh_tensors_needs_axis(paddle):
    import paddle.distributed as dist
    from paddle.distributed.auto_parallel.api import moe_sub_mesh_tensors

    mesh = _one_rank_mesh(paddle)
    w = dist.shard_tensor(paddle.ones([4, 2]), mesh, [dist.Shard(0), dist.Replicate()])
    moe_sub_mesh_tensors(w, mesh, None, [dist.Shard(0), dist.Replicate()])


@case
def moe_sub_mesh_tensors_other_mesh(paddle):
    import paddle.distributed as dist
    from paddle.distributed.auto_parallel.api import moe_sub_mesh_tensors

    w = dist.shard_tensor(paddle.ones([4, 2]), _one_rank_mesh(paddle), [dist.Shard(0), dist.Replicate()])
    moe_sub_mesh_tensors(w, dist.ProcessMesh([0], dim_names=["a"]), 0, [dist.Shard(0)])


@case
def interface_recompute_runs_the_op(paddle):
    from paddle.distributed.auto_parallel.interface import recompute

    lin = paddle.nn.Linear(3, 2)
    lin.weight.set_value(paddle.ones([3, 2]))
    op = recompute(lin)
    x = paddle.to_tensor([[1.0, 2.0, 3.0]])
    y = op(x)
    y.sum().backward()
    f = recompute(lambda a, b=1: a * b)
    return [type(op).__name__, callable(op), y, lin.weight.grad, f(paddle.to_tensor([2.0]), b=3)]


# ---------------------------------------------------------------- the two Strategy classes
@case
def strategy_classes_are_two(paddle):
    import paddle.distributed as dist
    import paddle.distributed.auto_parallel as ap
    from paddle.distributed.auto_parallel import api, strategy
    from paddle.distributed.fleet import auto

    a, b = dist.Strategy(), auto.Strategy()
    return [dist.Strategy is auto.Strategy, dist.Strategy is api.Strategy, auto.Strategy is strategy.Strategy,
            ap.Strategy is auto.Strategy, isinstance(a, auto.Strategy), isinstance(b, dist.Strategy),
            issubclass(dist.Strategy, strategy.BaseConfig), issubclass(auto.Strategy, strategy.BaseConfig),
            dist.Strategy.__name__, auto.Strategy.__name__]


@case
def strategy_attributes(paddle):
    import paddle.distributed as dist
    from paddle.distributed.fleet import auto

    a, b = dist.Strategy(), auto.Strategy()
    public = [n for n in dir(type(a)) if not n.startswith("__")]
    return [sorted(vars(a)), sorted(vars(b)), public, [n for n in dir(type(b)) if not n.startswith("__")],
            hasattr(a, "recompute"), type(a.fused_passes).__name__, type(b.fused_passes).__name__,
            type(a.sharding).__name__, type(b.sharding).__name__, type(b.qat).__name__, type(a._recompute).__name__]


@case
def strategy_groups_to_dict(paddle):
    from paddle.distributed.fleet import auto

    b = auto.Strategy()
    return [b.to_dict(), repr(b.sharding), b.get("seed"), b.get("nothing", 7)]


@case
def dist_strategy_repr_and_config(paddle):
    import paddle.distributed as dist

    c = dist.Strategy({"sharding": {"enable": True, "stage": 2, "unknown": 1}, "recompute": {"enable": True},
                       "full_graph": False, "seed": 3, "fused_passes": {"enable": True, "gemm_epilogue": True}})
    return [repr(dist.Strategy()), c.sharding.stage, c.sharding.get("unknown"), c._recompute.enable, c.full_graph,
            c.seed, c.fused_passes.enable, c.fused_passes.gemm_epilogue, c.fused_passes.dropout_add]


@case
def dist_strategy_unknown_fused_pass(paddle):
    paddle.distributed.Strategy({"fused_passes": {"no_such_pass": True}})


@case
def legacy_strategy_config(paddle):
    from paddle.distributed.fleet import auto

    d = auto.Strategy({"sharding": {"enable": True, "stage": 2}, "recompute": {"enable": True}, "seed": 3,
                       "fused_passes": {"enable": True, "fused_passes_list": ["fused_gemm_epilogue_pass"]}})
    return [d.sharding.stage, d.recompute.enable, d.seed, d.fused_passes.fused_passes_list, repr(d)]


@case
def legacy_strategy_not_a_dict(paddle):
    paddle.distributed.fleet.auto.Strategy("x")


@case
def dist_strategy_from_legacy(paddle):
    import paddle.distributed as dist
    from paddle.distributed.fleet import auto

    d = auto.Strategy({"sharding": {"enable": True, "stage": 2}, "recompute": {"enable": True}, "seed": 3,
                       "fused_passes": {"enable": True, "fused_passes_list": ["fused_dropout_add_pass"]}})
    e = dist.Strategy()
    e._from_legacy_strategy(d)
    return [e.sharding.stage, e._recompute.enable, e.seed, e.fused_passes.enable, e.fused_passes.gemm_epilogue,
            e.fused_passes.dropout_add, e.sharding is d.sharding, type(e.sharding).__name__]


# ---------------------------------------------------------------- what PaddleNLP's AutoTrainer reads
@case
def lazy_parameter_init_func(paddle):
    with paddle.LazyGuard():
        lazy = paddle.nn.Linear(2, 3)
    eager = paddle.nn.Linear(2, 3)
    before = [callable(lazy.weight._init_func), lazy.weight._is_initialized(), eager.weight._init_func]
    lazy.bias._init_func(lazy.bias, None)  # the hook itself initialises the parameter
    lazy.weight.initialize()
    return before + [lazy.bias._is_initialized(), lazy.weight._is_initialized(), lazy.weight._init_func,
                     list(lazy.weight.shape)]


@case
def local_shape_of_dense_and_dist(paddle):
    import paddle.distributed as dist

    mesh = dist.ProcessMesh([0], dim_names=["x"])
    w = dist.shard_tensor(paddle.ones([4, 2]), mesh, [dist.Shard(0)])
    return [paddle.ones([2])._local_shape, w._local_shape, type(w._local_shape).__name__]


@case
def dense_parameter_with_distributed_gradient(paddle):
    """Dense weights meeting a distributed input (AutoTrainer without the intermediate API): the gradient is a
    partial sum, and AdamW leaves the parameter a replicated distributed one."""
    import paddle.distributed as dist

    mesh = dist.ProcessMesh([0], dim_names=["dp"])
    lin = paddle.nn.Linear(3, 2)
    lin.weight.set_value(paddle.arange(6, dtype="float32").reshape([3, 2]) / 10)
    lin.bias.set_value(paddle.to_tensor([0.5, -0.5]))
    opt = paddle.optimizer.AdamW(learning_rate=0.1, parameters=lin.parameters())
    x = dist.shard_tensor(paddle.arange(12, dtype="float32").reshape([4, 3]) / 10, mesh, [dist.Shard(0)])
    out = []
    for _ in range(2):
        (lin(x) ** 2).sum().backward()
        out += [lin.weight.grad.is_dist(), str(lin.weight.grad.placements)]
        opt.step()
        opt.clear_grad()
        out += [lin.weight.is_dist(), str(lin.weight.placements), lin.weight.numpy(), lin.bias.numpy()]
    return out
