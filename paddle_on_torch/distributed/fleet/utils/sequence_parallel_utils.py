"""Sequence parallelism inside the model-parallel group (Paddle's fleet.utils.sequence_parallel_utils).

Activations are [seq, batch, hidden] with the sequence axis (0) split over the model-parallel ranks
between the tensor-parallel matmuls:
  ScatterOp        keep my sequence slice  / all_gather          GatherOp       all_gather     / keep my slice
  AllGatherOp      all_gather              / reduce_scatter      ReduceScatterOp reduce_scatter / all_gather
ColumnSequenceParallelLinear all-gathers its input before the column-parallel matmul;
RowSequenceParallelLinear reduce-scatters its output.  Parameters that see only a sequence slice
(LayerNorm weights, the row layer's bias) are marked `sequence_parallel`; the hooks of
register_sequence_parallel_allreduce_hooks sum their gradients over the group once per
`accumulation_steps` backward passes.  gloo has no reduce_scatter: it is an all_reduce and a slice.
"""
import torch
import torch.distributed as tdist

from ...._normalize import wrap
from ....nn import functional as F
from ....nn.initializer import Constant
from ....nn.layer.layers import Layer
from ..base import topology as tp
from ..layers.mpu.mp_layers import _sharded_init

__all__ = ["ScatterOp", "GatherOp", "AllGatherOp", "ReduceScatterOp", "ColumnSequenceParallelLinear",
           "RowSequenceParallelLinear", "mark_as_sequence_parallel_parameter", "is_sequence_parallel_parameter",
           "register_sequence_parallel_allreduce_hooks", "scatter", "all_gather", "reduce_scatter",
           "SPInnerOverlapLinear"]


def _group():
    return tp._HYBRID_PARALLEL_GROUP.get_model_parallel_group()


def _scatter(t, g):
    n = t.shape[0]
    assert n % g.nranks == 0, f"Input sequence length {n} can't be divided exactly by sequence parallelism {g.nranks}"
    return t.chunk(g.nranks, dim=0)[g.rank].contiguous()


def _all_gather(t, g):
    out = torch.empty((t.shape[0] * g.nranks,) + tuple(t.shape[1:]), dtype=t.dtype, device=t.device)
    tdist.all_gather_into_tensor(out, t.contiguous(), group=g.process_group)
    return out


def _reduce_scatter(t, g):
    summed = t.contiguous().clone()
    tdist.all_reduce(summed, group=g.process_group)
    return _scatter(summed, g)


def _op(name, fwd, bwd):
    def forward(ctx, x):
        ctx.group = _group()
        return fwd(x, ctx.group)

    def backward(ctx, grad):
        return bwd(grad, ctx.group)

    fn = type(name, (torch.autograd.Function,), {"forward": staticmethod(forward), "backward": staticmethod(backward)})

    class PaddleOp:
        @staticmethod
        def apply(x):
            return wrap(fn.apply(x._t))

    PaddleOp.__name__ = PaddleOp.__qualname__ = name
    return PaddleOp


ScatterOp = _op("ScatterOp", _scatter, _all_gather)
GatherOp = _op("GatherOp", _all_gather, _scatter)
AllGatherOp = _op("AllGatherOp", _all_gather, _reduce_scatter)
ReduceScatterOp = _op("ReduceScatterOp", _reduce_scatter, _all_gather)


def scatter(input):
    return wrap(_scatter(input._t, _group()))


def all_gather(input):
    return wrap(_all_gather(input._t, _group()))


def reduce_scatter(input):
    return wrap(_reduce_scatter(input._t, _group()))


def mark_as_sequence_parallel_parameter(parameter):
    parameter.sequence_parallel = True


def is_sequence_parallel_parameter(parameter):
    return getattr(parameter, "sequence_parallel", False)


def register_sequence_parallel_allreduce_hooks(model, accumulation_steps, fuse_sequence_parallel_allreduce):
    if accumulation_steps <= 0 or not tdist.is_initialized() or tp._HYBRID_PARALLEL_GROUP is None:
        return
    group = _group()
    if group.nranks <= 1:
        return
    params = [p for p in model.parameters() if is_sequence_parallel_parameter(p) and not p.stop_gradient]
    # fused: one all_reduce of every parameter once all have accumulated; else one per parameter
    every = accumulation_steps * (len(params) if fuse_sequence_parallel_allreduce else 1)
    counter = {}

    def hook_for(p):
        key = "all" if fuse_sequence_parallel_allreduce else id(p)

        @torch.no_grad()
        def hook(_t):
            counter[key] = counter.get(key, 0) + 1
            if counter[key] % every == 0:
                for q in (params if fuse_sequence_parallel_allreduce else [p]):
                    tdist.all_reduce(q._t.grad, group=group.process_group)

        return hook

    for p in params:
        p._t.register_post_accumulate_grad_hook(hook_for(p))


class ColumnSequenceParallelLinear(Layer):
    def __init__(self, in_features, out_features, weight_attr=None, has_bias=None, gather_output=True,
                 fuse_matmul_bias=False, mp_group=None, name=None):
        super().__init__()
        self.model_parallel_group = _group() if mp_group is None else mp_group
        self.world_size = self.model_parallel_group.nranks
        assert self.world_size > 1, "tensor parallel degree must be greater than 1 in sequence parallel"
        self._name = name
        self.is_mp = True
        assert gather_output is False, "If sequence_parallel is True, gather_output is False"
        self.gather_output = gather_output
        assert out_features % self.world_size == 0, (
            f"Number of column of the weight for linear ({out_features}) must be divisible by model parallel "
            f"size ({self.world_size})")
        self.output_size_per_partition = out_features // self.world_size
        with _sharded_init(True):
            self.weight = self.create_parameter(shape=[in_features, self.output_size_per_partition],
                                                attr=weight_attr, is_bias=False)
        self.weight.is_distributed, self.weight.split_axis = True, 1
        self.bias = None
        if has_bias:
            self.bias = self.create_parameter(shape=[self.output_size_per_partition], attr=Constant(value=0.0),
                                              is_bias=True)
            self.bias.is_distributed, self.bias.split_axis = True, 0

    def forward(self, x):
        return F.linear(AllGatherOp.apply(x), self.weight, self.bias, name=self._name)


class RowSequenceParallelLinear(Layer):
    def __init__(self, in_features, out_features, weight_attr=None, has_bias=True, input_is_parallel=False,
                 fuse_matmul_bias=False, mp_group=None, name=None):
        super().__init__()
        assert input_is_parallel is True, "If sequence_parallel is True, input_is_parallel should be true."
        self.in_features, self.out_features, self.input_is_parallel = in_features, out_features, input_is_parallel
        self._name = name
        self.model_parallel_group = _group() if mp_group is None else mp_group
        self.world_size = self.model_parallel_group.nranks
        self.rank = self.model_parallel_group.rank
        self.is_mp = self.world_size > 1
        assert in_features % self.world_size == 0, (
            f"Number of row of the weight for linear ({in_features}) must be divisible by model parallel "
            f"size ({self.world_size})")
        self.input_size_per_partition = in_features // self.world_size
        with _sharded_init(self.is_mp):
            self.weight = self.create_parameter(shape=[self.input_size_per_partition, out_features],
                                                attr=weight_attr, is_bias=False)
        self.weight.is_distributed = self.is_mp
        if self.is_mp:
            self.weight.split_axis = 0
        self.bias = None
        if has_bias:
            self.bias = self.create_parameter(shape=[out_features], attr=Constant(value=0.0), is_bias=True)
            if self.is_mp:
                mark_as_sequence_parallel_parameter(self.bias)

    def forward(self, x):
        if not self.is_mp:
            return F.linear(x, self.weight, self.bias, name=self._name)
        out = ReduceScatterOp.apply(F.linear(x, self.weight, name=self._name))
        return out + self.bias if self.bias is not None else out


class SPInnerOverlapLinear:
    """Paddle's PyLayer behind ColumnSequenceParallelLinear(mp_async_allreduce=True): the sequence-parallel input
    all-gathered along axis 0, then x @ weight + bias; the input gradient reduce-scattered back (Paddle overlaps
    it with the weight-gradient matmul; the values are those of AllGatherOp followed by linear)."""

    @staticmethod
    def apply(x, weight, bias, fuse_matmul_bias, recompute_allgather, mp_fused_linear_param_grad_add,
              model_parallel_group):
        return F.linear(AllGatherOp.apply(x), weight, bias)
