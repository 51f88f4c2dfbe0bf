"""paddle.distributed.auto_parallel.intermediate.parallelize: dist.parallelize(model, optimizer, mesh, config),
Paddle's intermediate auto-parallel API, with parallelize_model / parallelize_optimizer (AutoTrainer's two-step
form).  The plans live here too; intermediate.tensor_parallel / pipeline_parallel name them as Paddle does.

As in Paddle's dynamic graph, parallelizing marks the model rather than rewriting it:

* pp_config: each sublayer gets a pipeline stage index; the output of a layer at a
  `SplitPoint.END` is resharded to the next stage's mesh (`mesh.get_mesh_with_dim("pp", i)`),
  the cross-mesh point-to-point transfer of `dist.reshard`.
* mp_config: plans shard parameters on the 'mp' mesh axis, in Paddle's [in, out] Linear
  layout (ColWiseParallel: weight Shard(1), bias Shard(0); RowWiseParallel: weight Shard(0)),
  and put forward hooks that reshard activations (sequence parallel splits/gathers the
  sequence dim of [b, s, h] or [s, b, h] activations).
* dp_config: `sharding_level` 0-3 wraps the optimizer in shard_optimizer with that stage.

Every other parameter is replicated on its stage's mesh; DTensor's sharding propagation computes
the rest.  Keys of the plan are layer names or regular expressions that match whole names;
a key ending in `.weight` / `.bias` names a parameter of a layer.
"""
import enum
import re
import warnings

import torch

from ..api import reshard, shard_tensor
from ..interface import get_mesh, set_mesh
from ..placement_type import Replicate, Shard
from ..process_mesh import _CoreProcessMesh

__all__ = ["parallelize", "parallelize_model", "parallelize_optimizer", "ColWiseParallel", "RowWiseParallel", "SequenceParallelBegin", "SequenceParallelEnd",
           "SequenceParallelEnable", "SequenceParallelDisable", "PrepareLayerInput", "PrepareLayerOutput",
           "SplitPoint", "to_distributed"]


def _is_tensor(x):
    from ....tensor.tensor import Tensor

    return isinstance(x, Tensor)


def _first(x):
    return x[0] if isinstance(x, (tuple, list)) else x


def _replace_first(x, v):
    if isinstance(x, (tuple, list)):
        return type(x)([v, *x[1:]])
    return v


def _mesh_axis(mesh, name):
    if name not in mesh.dim_names:
        raise ValueError(f"the process mesh {mesh} has no '{name}' dimension (its dim_names are {mesh.dim_names})")
    return mesh.dim_names.index(name)


def _to_mesh(x, mesh, placements):
    return reshard(x, mesh, placements) if x.is_dist() else shard_tensor(x, mesh, placements)


class _SwapBatchSeq(torch.autograd.Function):
    """[b, s, h] <-> [s, b, h] laid out afresh, its gradient too: a strided view of a DTensor's piece would reach
    the backward's reshapes with a layout its global strides do not describe (torch's redistribute backward
    keeps the incoming gradient's strides), and their local views fail."""

    @staticmethod
    def forward(ctx, x):
        return x.transpose(0, 1).contiguous()

    @staticmethod
    def backward(ctx, grad):
        return grad.transpose(0, 1).contiguous()


def _transposed(t):
    from ...._normalize import wrap

    return wrap(_SwapBatchSeq.apply(t._t))


def _c_split(x, mesh, need_transpose, split_type="sp"):
    """Paddle's c_split: shard a [b, s, h] activation on 'mp' -- the sequence dim ('sp') or hidden ('mp')."""
    mp, dp = _mesh_axis(mesh, "mp"), _mesh_axis(mesh, "dp")
    t = _first(x)
    if not _is_tensor(t) or t.ndim != 3:
        raise ValueError(f"sequence/tensor parallel expects a 3-D [b, s, h] activation, got {getattr(t, 'shape', t)}")
    if need_transpose:
        t = _transposed(t)
    placements = t.placements or [Replicate()] * mesh.ndim
    if split_type == "sp":
        batch = placements[dp]
        placements[mp] = Shard(1) if batch == Shard(0) else Shard(0)
    else:
        placements[mp] = Shard(2)
    return _replace_first(x, _to_mesh(t, mesh, placements))


def _c_concat(x, mesh, need_transpose):
    """Paddle's c_concat: gather a [b, s, h] activation over 'mp'."""
    mp = _mesh_axis(mesh, "mp")
    t = _first(x)
    if not _is_tensor(t) or t.ndim != 3:
        raise ValueError(f"sequence/tensor parallel expects a 3-D [b, s, h] activation, got {getattr(t, 'shape', t)}")
    placements = t.placements or [Replicate()] * mesh.ndim
    placements[mp] = Replicate()
    t = _to_mesh(t, mesh, placements)
    if need_transpose:
        t = _transposed(t)
    return _replace_first(x, t)


class PlanBase:
    def apply(self, layer, mesh, shard_param_list):
        raise NotImplementedError("Don't call the PlanBase directly.")


def _shard_params(layer, names, mesh, placement_of):
    for name in names:
        p = getattr(layer, name, None)
        if p is None or not _is_tensor(p) or p.is_dist():
            continue
        setattr(layer, name, shard_tensor(p, mesh, placement_of(p)))


class ColWiseParallel(PlanBase):
    """Split a Linear's (or Embedding's) weight over 'mp' by columns: weight Shard(1), bias Shard(0)."""

    def __init__(self, gather_output=False):
        self.gather_output = gather_output

    def apply(self, layer, mesh, shard_param_list):
        mp = _mesh_axis(mesh, "mp")

        def placement_of(p):
            if p.ndim not in (1, 2):
                raise ValueError(f"ColWiseParallel: {p.name} should have 1 or 2 dims, it has shape {p.shape}")
            pl = [Replicate()] * mesh.ndim
            pl[mp] = Shard(1) if p.ndim == 2 else Shard(0)
            return pl

        _shard_params(layer, shard_param_list or ["weight", "bias"], mesh, placement_of)
        if self.gather_output:
            layer.register_forward_post_hook(lambda _, inputs, out: _c_concat(out, mesh, False))


class RowWiseParallel(PlanBase):
    """Split a Linear's weight over 'mp' by rows (Shard(0)); the bias stays replicated."""

    def __init__(self, is_input_parallel=True):
        self.is_input_parallel = is_input_parallel

    def apply(self, layer, mesh, shard_param_list):
        mp = _mesh_axis(mesh, "mp")

        def placement_of(p):
            if p.ndim != 2:
                raise ValueError(f"RowWiseParallel: {p.name} should have 2 dims, it has shape {p.shape}")
            pl = [Replicate()] * mesh.ndim
            pl[mp] = Shard(0)
            return pl

        _shard_params(layer, [n for n in (shard_param_list or ["weight"]) if n != "bias"], mesh, placement_of)
        if not self.is_input_parallel:
            layer.register_forward_pre_hook(lambda _, inputs: _c_split(inputs, mesh, False, split_type="mp"))


class PrepareLayerInput(PlanBase):
    """`fn(process_mesh)` returns a forward pre-hook `(layer, inputs) -> inputs`."""

    def __init__(self, fn=None):
        if not callable(fn):
            raise TypeError("PrepareLayerInput needs a callable fn(process_mesh) -> hook")
        self.fn = fn

    def apply(self, layer, mesh, shard_param_list):
        layer.register_forward_pre_hook(self.fn(process_mesh=mesh))


class PrepareLayerOutput(PlanBase):
    """`fn(process_mesh)` returns a forward post-hook `(layer, inputs, outputs) -> outputs`."""

    def __init__(self, fn=None):
        if not callable(fn):
            raise TypeError("PrepareLayerOutput needs a callable fn(process_mesh) -> hook")
        self.fn = fn

    def apply(self, layer, mesh, shard_param_list):
        layer.register_forward_post_hook(self.fn(process_mesh=mesh))


class SequenceParallelBegin(PlanBase):
    """The layer's output is split over 'mp' along the sequence dim (from here on, sequence parallel)."""

    def __init__(self, need_transpose=True):
        self.need_transpose = need_transpose

    def apply(self, layer, mesh, shard_param_list):
        layer.register_forward_post_hook(lambda _, inputs, out: _c_split(out, mesh, self.need_transpose))


class SequenceParallelEnd(PlanBase):
    """The layer's input is gathered over 'mp' (sequence parallel ends before it)."""

    def __init__(self, need_transpose=True):
        self.need_transpose = need_transpose

    def apply(self, layer, mesh, shard_param_list):
        layer.register_forward_pre_hook(lambda _, inputs: _c_concat(inputs, mesh, self.need_transpose))


class SequenceParallelEnable(PlanBase):
    """The layer runs sequence parallel: its input is split, its output gathered."""

    def apply(self, layer, mesh, shard_param_list):
        layer.register_forward_pre_hook(lambda _, inputs: _c_split(inputs, mesh, True))
        layer.register_forward_post_hook(lambda _, inputs, out: _c_concat(out, mesh, True))


class SequenceParallelDisable(PlanBase):
    """Inside a sequence-parallel region, the layer runs on the whole sequence (gather in, split out)."""

    def __init__(self, need_transpose=True):
        self.need_transpose = need_transpose

    def apply(self, layer, mesh, shard_param_list):
        layer.register_forward_pre_hook(lambda _, inputs: _c_concat(inputs, mesh, self.need_transpose))
        layer.register_forward_post_hook(lambda _, inputs, out: _c_split(out, mesh, self.need_transpose))


class SplitPoint(enum.Enum):
    BEGINNING = 0
    END = 1


def _stage_mesh(mesh, idx):
    return mesh.get_mesh_with_dim("pp", idx) if "pp" in mesh.dim_names else mesh


# ---------------------------------------------------------------- pipeline
def _split_spec(model, mesh, split_spec):
    """({layer name: SplitPoint.END}, the pipeline layers or None): a dict as given, or a prefix whose numbered
    sublayers (the pipeline layers) are split evenly."""
    names = [n for n, _ in model.named_sublayers()]
    if isinstance(split_spec, dict):
        for k, v in split_spec.items():
            if k not in names:
                raise ValueError(f"wrong split layer {k!r}, expected one of {names}")
            if v is not SplitPoint.END:
                raise NotImplementedError("SplitPoint.BEGINNING is not supported currently")  # Paddle's own
        return dict(split_spec), None
    prefixes = [split_spec] if isinstance(split_spec, str) else list(split_spec)
    matched = [n for n in names if any(re.match(rf"{re.escape(p)}\.\d+$", n) or n == p for p in prefixes)]
    matched = [n for n in matched if not any(m.startswith(n + ".") for m in matched)]
    pp = mesh.get_dim_size("pp")
    if not matched:
        raise ValueError("No layer match the split_spec, please check its correctness")
    if len(matched) < pp:
        raise ValueError(f"The number of layers ({len(matched)}) must not be less than the pp size ({pp})")
    base, extra = divmod(len(matched), pp)
    ends, at = [], -1
    for i in range(pp - 1):  # Paddle's divide_list_indices: the first `extra` stages get one more
        at += base + (1 if i < extra else 0)
        ends.append(matched[at])
    return {n: SplitPoint.END for n in ends}, matched


def _agreed_placements(t, dst):
    """The layout a stage output travels in, the same on both sides of the transfer.

    torch infers a DTensor's placements on processes outside its mesh without seeing any pieces,
    and may infer other ones than the mesh's own processes (e.g. Replicate for a Partial sum), so
    each sending process tells its paired receiver the layout (a few ints, point to point).  A
    Partial output is reduced before it leaves its stage."""
    import torch
    import torch.distributed as tdist

    from ..api import _STAGE_TRANSFER

    if _STAGE_TRANSFER[0] is not None:  # a to_static pipeline stage: agreed once, when the stages were found
        return _STAGE_TRANSFER[0].agreed_placements(lambda: _agreed_placements_p2p(t, dst))
    return _agreed_placements_p2p(t, dst)


def _agreed_placements_p2p(t, dst):
    import torch
    import torch.distributed as tdist

    src_ids, dst_ids = t.process_mesh.process_ids, dst.process_ids
    rank = tdist.get_rank() if tdist.is_initialized() else 0
    placements = [Replicate() if p.is_partial() else p for p in t.placements]
    code = torch.tensor([p.get_dim() if isinstance(p, Shard) else -1 for p in placements], dtype=torch.int64)
    ops = []
    if rank in src_ids and dst_ids[src_ids.index(rank)] != rank:
        ops.append(tdist.P2POp(tdist.isend, code, dst_ids[src_ids.index(rank)]))
    if rank in dst_ids and src_ids[dst_ids.index(rank)] != rank:
        code = torch.empty_like(code)
        ops.append(tdist.P2POp(tdist.irecv, code, src_ids[dst_ids.index(rank)]))
    for work in tdist.batch_isend_irecv(ops) if ops else []:
        work.wait()
    return [Shard(int(c)) if c >= 0 else Replicate() for c in code.tolist()]


def _pipeline(model, mesh, config):
    split = config.get("split_spec")
    if split is None:
        warnings.warn("No split_spec, pipeline parallel won't do anything.")
        return
    _mesh_axis(mesh, "pp")
    global_spec = config.get("global_spec")
    if global_spec and not isinstance(global_spec, (str, list, tuple)):
        raise TypeError(f"global_spec can only be list or list(str), but got:{type(global_spec)}")
    spec, pipeline_layers = _split_spec(model, mesh, split)
    if len(spec) != mesh.get_dim_size("pp") - 1:
        raise ValueError(f"split_spec gives {len(spec) + 1} stages but the mesh has pp={mesh.get_dim_size('pp')}")
    names = [n for n, _ in model.named_sublayers()]
    # Paddle's marking: a new stage starts at the first layer after a split layer that is not inside it
    starts = set()
    for k in spec:
        i = names.index(k)
        nxt = next((j for j in range(i + 1, len(names)) if not names[j].startswith(k)), None)
        if nxt is None:
            raise ValueError(f"the last layer {k!r} must not be SplitPoint.END, please check the split_spec")
        starts.add(nxt)
    marks, stage = {}, 0
    for i, n in enumerate(names):
        stage += i in starts
        marks[n] = stage
    model.pipeline_stage_index = 0
    for n, layer in model.named_sublayers():
        layer.pipeline_stage_index = marks[n]

    # made once: the hook runs at every forward (every micro-batch of a pipeline schedule)
    stage_meshes = [_stage_mesh(mesh, i) for i in range(mesh.get_dim_size("pp"))]

    def to_next(layer, inputs, out):
        nxt = stage_meshes[layer.pipeline_stage_index + 1]

        def move(t):
            if not _is_tensor(t):
                raise ValueError(f"output between pp stages should be tensors, got {type(t)}")
            if not t.is_dist():
                return shard_tensor(t, nxt, [Replicate()] * nxt.ndim)
            return reshard(t, nxt, _agreed_placements(t, nxt))

        if isinstance(out, dict):
            return type(out)((k, move(v)) for k, v in out.items())
        if isinstance(out, (list, tuple)):
            return type(out)(move(v) for v in out)
        return move(out)

    layers = dict(model.named_sublayers())
    for n in spec:
        layers[n].register_forward_post_hook(to_next)
    if global_spec:
        _global_layers(model, mesh, [global_spec] if isinstance(global_spec, str) else list(global_spec),
                       stage_meshes, pipeline_layers)


def _global_layers(model, mesh, global_spec, stage_meshes, pipeline_layers):
    """pp_config's global_spec: the outputs of these layers (position ids, attention masks: what every stage
    reads) are replicated on the whole mesh, and each pipeline layer (every layer when split_spec was a dict)
    takes a distributed argument that lives on another mesh than its stage's, replicated on its stage's mesh --
    a local step, since each stage's processes hold the whole value."""
    whole = mesh.get_mesh_with_dim("pp")
    layers = dict(model.named_sublayers())
    for n in global_spec:
        if n not in layers:
            raise ValueError(f"layer name:{n} not in the model, please check the split_spec")

    def to_whole(t):
        if not _is_tensor(t):
            return t
        return _to_mesh(t, whole, [Replicate()] * whole.ndim)

    def global_out(layer, inputs, out):
        if isinstance(out, (list, tuple)):
            return type(out)(to_whole(t) for t in out)
        if _is_tensor(out):
            return to_whole(out)
        raise TypeError("layer output can only be tensor or list/tuple of tensor")

    def to_stage(layer, args, kwargs):
        m = stage_meshes[getattr(layer, "pipeline_stage_index", 0)]

        def move(a):
            if _is_tensor(a) and a.is_dist() and a.process_mesh != m:
                return reshard(a, m, [Replicate()] * m.ndim)
            return a

        return tuple(move(a) for a in args), {k: move(v) for k, v in kwargs.items()}

    for n in global_spec:
        layers[n].register_forward_post_hook(global_out)
    for n in (pipeline_layers if pipeline_layers is not None else list(layers)):
        layers[n].register_forward_pre_hook(to_stage, with_kwargs=True)


# ---------------------------------------------------------------- tensor parallel
def _match(plan, layer, name):
    out = []
    for key, plans in plan.items():
        attr, params = key.split(".")[-1], []
        if key.endswith(f".{attr}") and _is_tensor(getattr(layer, attr, None)):
            key, params = key[:-len(attr) - 1], [attr]
        m = re.match(key, name)
        if key == name or (m is not None and m.end() - m.start() == len(name)):
            out.append((plans if isinstance(plans, list) else [plans], params))
    return out


def _tensor_parallel(model, mesh, config):
    plan = config.get("parallelize_plan")
    if plan is None:
        warnings.warn("No parallelize plan, tensor parallel won't do anything.")
        return
    _mesh_axis(mesh, "mp")
    for key, plans in plan.items():
        if not isinstance(key, str):
            raise TypeError("The key of the parallelize plan should be a string.")
        for p in plans if isinstance(plans, list) else [plans]:
            if not isinstance(p, PlanBase):
                raise TypeError("The value the the parallelize plan should be a instance of PlanBase or a list of "
                                "PlanBase.")
    for name, layer in model.named_sublayers():
        for plans, params in _match(plan, layer, name):
            for p in plans:
                p.apply(layer, _stage_mesh(mesh, getattr(layer, "pipeline_stage_index", 0)), params)


def _shard_all_params(model, mesh):
    """Replicate every parameter that no plan placed on its stage's mesh (a shared one once)."""
    done = {}
    for _, layer in model.named_sublayers(include_self=True):
        stage = getattr(layer, "pipeline_stage_index", 0)
        for key, p in list(layer._parameters.items()):
            if p is None:
                continue
            if p.name in done:
                if done[p.name][1] != stage:
                    from .... import _report

                    raise _report.unsupported("paddle.distributed.parallelize with a parameter shared between "
                                              "pipeline stages")
                if not p.is_dist():
                    setattr(layer, key, done[p.name][0])
                continue
            if not p.is_dist():
                m = _stage_mesh(mesh, stage)
                p = shard_tensor(p, m, [Replicate()] * m.ndim)
                setattr(layer, key, p)
            done[p.name] = (p, stage)


def _rebind_optimizer(opt, model):
    """Point the optimizer at the model's (now distributed) parameters, matched by name."""
    by_name = {p.name: p for p in model.parameters()}
    if opt._param_groups and isinstance(opt._param_groups[0], dict):
        for g in opt._param_groups:
            g["params"] = [by_name.get(p.name, p) for p in g["params"]]
        opt._parameter_list = [dict(g) for g in opt._param_groups] if isinstance(opt._parameter_list[0], dict) \
            else [p for g in opt._param_groups for p in g["params"]]
    else:
        opt._parameter_list = [by_name.get(p.name, p) for p in (opt._parameter_list or [])]
        opt._param_groups = opt._parameter_list


def parallelize(model, optimizer=None, mesh=None, config=None):
    """Parallelize a single-card model (and optimizer) by `config`'s dp_config / mp_config / pp_config."""
    from ....nn.layer.layers import Layer
    from ..sharding import ShardingStage1, ShardingStage2, ShardingStage3, shard_optimizer

    if config is None:
        warnings.warn("The `parallelize will do nothing since the config is `None`.")
        return model, optimizer
    if not isinstance(config, dict):
        raise TypeError(f"config must be a dict, got {type(config).__name__}")
    if not isinstance(model, Layer):
        raise TypeError(f"parallelize: model must be a paddle.nn.Layer, got {type(model).__name__}")
    if mesh is not None:
        if not isinstance(mesh, _CoreProcessMesh):
            raise TypeError("The mesh must be an instance of paddle.distributed.ProcessMesh.")
        set_mesh(mesh)
    mesh = get_mesh()
    unknown = set(config) - {"dp_config", "mp_config", "pp_config", "auto_plan"}
    if unknown:
        from .... import _report

        raise _report.unsupported(f"paddle.distributed.parallelize config {sorted(unknown)}")
    if not any(k in config for k in ("dp_config", "mp_config", "pp_config", "auto_plan")):
        return model, optimizer
    if mesh is None:
        raise ValueError("global mesh must not be None, please call dist.auto_parallel.set_mesh(global_mesh) "
                         "or pass mesh to parallelize")
    from ..process_mesh import check_fits_world

    check_fits_world(mesh)  # before any communication
    if config.get("auto_plan") is not None:  # paddle_on_torch extension: the planner places the parameters
        from ....parallel.hooks import plan_for_parallelize

        plan_for_parallelize(model, mesh, config)
    if config.get("pp_config") is not None:
        _pipeline(model, mesh, config["pp_config"])
    if config.get("mp_config") is not None:
        _tensor_parallel(model, mesh, config["mp_config"])
    dp = config.get("dp_config")
    if dp is not None:
        _mesh_axis(mesh, dp.get("sharding_mesh_dim", "dp"))
    _shard_all_params(model, mesh)
    if optimizer is None:
        return model, None
    _rebind_optimizer(optimizer, model)
    level = None if dp is None else dp.get("sharding_level")
    level = None if level is None else str(level)
    if level not in (None, "0", "1", "2", "3"):
        raise ValueError(f"dp_config sharding_level must be 0, 1, 2 or 3, got {dp.get('sharding_level')!r}")
    stage = {"1": ShardingStage1, "2": ShardingStage2, "3": ShardingStage3}.get(level)
    fn = None if stage is None else stage(dp.get("sharding_mesh_dim", "dp"), mesh)
    return model, shard_optimizer(optimizer, fn)


def to_distributed(model, optimizer, dataloader, device_num, node_num=1, config=None):
    from .... import _report

    raise _report.unsupported("paddle.distributed.to_distributed",
                              " (its automatic pattern matching of model structure is not implemented; "
                              "use dist.parallelize with an explicit plan)")


# whether parallelize_model has run (PaddleNLP's AutoTrainer reads it)
has_parallelized_model = False


def _use_mesh(mesh, what):
    if mesh is None:
        return
    if not isinstance(mesh, _CoreProcessMesh):
        raise AssertionError("The mesh must be an instance of paddle.distributed.ProcessMesh.")
    if get_mesh() is not None and get_mesh() != mesh:
        warnings.warn(f"The mesh set by `fleet.auto.set_mesh` is different with the mesh pass to `{what}`. Will "
                      f"overwrite the previous mesh")
    set_mesh(mesh)


def parallelize_model(model, mesh=None, config=None):
    """The model half of parallelize: `parallelize(model, None, mesh, config)[0]`."""
    global has_parallelized_model
    if config is None:
        warnings.warn("The `parallelize_model will do nothing since the config is `None`.")
        return model
    if not isinstance(config, dict):
        raise AssertionError(f"config must be a dict, got {type(config).__name__}")
    _use_mesh(mesh, "parallelize_model")
    has_parallelized_model = True
    return parallelize(model, None, mesh, config)[0]


def parallelize_optimizer(optimizer, mesh=None, config=None):
    """The optimizer half: an optimizer built on the parallelized model's parameters, sharded by dp_config's
    sharding_level (none: plain data parallel)."""
    from ..sharding import ShardingStage1, ShardingStage2, ShardingStage3, shard_optimizer

    if config is None:
        warnings.warn("The `parallelize_optimizer will do nothing since the config is `None`.")
        return optimizer
    if not isinstance(config, dict):
        raise AssertionError(f"config must be a dict, got {type(config).__name__}")
    _use_mesh(mesh, "parallelize_optimizer")
    if not has_parallelized_model:
        raise AssertionError("Please parallelize the model before parallelize optimizer.")
    params = optimizer._parameter_list or []
    flat = [p for g in params for p in g["params"]] if params and isinstance(params[0], dict) else params
    if not all(p.is_dist() for p in flat):
        raise AssertionError("Please use model after parallelize to create optimizer.")
    dp = config.get("dp_config")
    level = None if dp is None else dp.get("sharding_level")
    if dp is not None and "sharding_level" not in dp:
        warnings.warn("The dp_config doesn't contain sharding_level, will run under dp.")
    level = None if level is None else str(level)
    if level not in (None, "0", "1", "2", "3"):
        raise ValueError(f"dp_config sharding_level must be 0, 1, 2 or 3, got {dp.get('sharding_level')!r}")
    stage = {"1": ShardingStage1, "2": ShardingStage2, "3": ShardingStage3}.get(level)
    fn = None if stage is None else stage(dp.get("sharding_mesh_dim", "dp"), get_mesh())
    return shard_optimizer(optimizer, fn)
