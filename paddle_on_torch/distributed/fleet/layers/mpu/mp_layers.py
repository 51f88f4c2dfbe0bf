"""Tensor-parallel layers with Paddle's per-rank parameter shapes and [in, out] Linear weights.

Each rank holds its shard as an ordinary parameter (`is_distributed=True`, `split_axis` set), so
optimizers, state_dict and the grad clip see local tensors as in Paddle; the communication is the
autograd ops of mp_ops on the model-parallel group's torch process group.
  ColumnParallelLinear  weight [in, out/mp], bias [out/mp]   (gather_output: all_gather the result)
  RowParallelLinear     weight [in/mp, out], bias [out]      (input_is_parallel: input already split)
  VocabParallelEmbedding weight [vocab/mp, dim]
  ParallelCrossEntropy  logits split over the vocabulary, loss [..., 1]
Sharded weights are created inside the RNG tracker's model-parallel state (different per rank).
"""
import contextlib

import torch

from ....._normalize import wrap
from .....nn import functional as F
from .....nn.layer.layers import Layer
from .....nn.initializer import Constant
from ...base import topology as tp
from . import mp_ops
from .random import get_rng_state_tracker

__all__ = ["VocabParallelEmbedding", "ColumnParallelLinear", "RowParallelLinear", "ParallelCrossEntropy"]


def _mp(mp_group):
    """(group, world size, rank) of the model-parallel group: the given one or the hybrid group's."""
    if mp_group is not None:
        return mp_group, mp_group.nranks, mp_group.rank
    hcg = tp._HYBRID_PARALLEL_GROUP
    if hcg is None:
        # Paddle fails here with AttributeError ('NoneType' object has no attribute ...)
        raise AttributeError("fleet tensor-parallel layers need fleet.init(is_collective=True, strategy) first "
                             "(or an explicit mp_group)")
    return hcg.get_model_parallel_group(), hcg.get_model_parallel_world_size(), hcg.get_model_parallel_rank()


def _sharded_init(is_mp):
    if is_mp and "model_parallel_rng" in get_rng_state_tracker().states_:
        return get_rng_state_tracker().rng_state()
    return contextlib.nullcontext()


class VocabParallelEmbedding(Layer):
    def __init__(self, num_embeddings, embedding_dim, weight_attr=None, mp_group=None, name=None):
        super().__init__()
        self.model_parallel_group, self.world_size, self.rank = _mp(mp_group)
        self.origin_num_embeddings = num_embeddings
        self.is_mp = self.world_size > 1
        assert num_embeddings % self.world_size == 0, \
            "The length of the vocabulary must be divisible by the parallelism degree of MP"
        per_part_size = num_embeddings // self.world_size
        self.vocab_start_index = self.rank * per_part_size
        self._dtype = None
        self._size = [per_part_size, embedding_dim]
        self._weight_attr = weight_attr
        self._name = name
        self.num_embeddings = num_embeddings
        with _sharded_init(self.is_mp):
            self.weight = self.create_parameter(attr=self._weight_attr, shape=self._size, dtype=self._dtype,
                                                is_bias=False)
        self.weight.is_distributed = self.is_mp
        if self.is_mp:
            self.weight.split_axis = 0

    def forward(self, x):
        if not self.is_mp:
            return F.embedding(x, weight=self.weight, padding_idx=None, sparse=False, name=self._name)
        out = mp_ops._c_lookup_table(self.weight, x, start_index=self.vocab_start_index,
                                     vocab_size=self.num_embeddings, name=self._name)
        return mp_ops._mp_allreduce(out, group=self.model_parallel_group)


class ColumnParallelLinear(Layer):
    def __init__(self, in_features, out_features, weight_attr=None, has_bias=None, gather_output=True,
                 fuse_matmul_bias=False, mp_group=None, name=None):
        super().__init__()
        self.model_parallel_group, self.world_size, _ = _mp(mp_group)
        self._name = name
        self.is_mp = self.world_size > 1
        self.gather_output = gather_output
        assert out_features % self.world_size == 0, (
            f"Number of column of the weight for linear ({out_features}) must be divisible by model parallel "
            f"size ({self.world_size})")
        self.output_size_per_partition = out_features // self.world_size
        self._weight_attr = weight_attr
        self._dtype = None
        with _sharded_init(self.is_mp):
            self.weight = self.create_parameter(shape=[in_features, self.output_size_per_partition],
                                                attr=self._weight_attr, dtype=self._dtype, is_bias=False)
        self.weight.is_distributed = self.is_mp
        if self.is_mp:
            self.weight.split_axis = 1
        if has_bias:
            self.bias = self.create_parameter(shape=[self.output_size_per_partition], attr=Constant(value=0.0),
                                              dtype=self._dtype, is_bias=True)
            self.bias.is_distributed = self.is_mp
            if self.is_mp:
                self.bias.split_axis = 0
        else:
            self.bias = None
        self.fuse_matmul_bias = fuse_matmul_bias

    def forward(self, x):
        x = mp_ops._c_identity(x, group=self.model_parallel_group) if self.is_mp else x
        out = F.linear(x, self.weight, self.bias, name=self._name)
        if self.gather_output and self.is_mp:
            out = mp_ops._c_concat(out, group=self.model_parallel_group)
        return out


class RowParallelLinear(Layer):
    def __init__(self, in_features, out_features, weight_attr=None, has_bias=True, input_is_parallel=False,
                 fuse_matmul_bias=False, mp_group=None, name=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.input_is_parallel = input_is_parallel
        self._weight_attr = weight_attr
        self._dtype = None
        self._name = name
        self.model_parallel_group, self.world_size, self.rank = _mp(mp_group)
        self.is_mp = self.world_size > 1
        assert in_features % self.world_size == 0, (
            f"Number of row of the weight for linear ({in_features}) must be divisible by model parallel "
            f"size ({self.world_size})")
        self.input_size_per_partition = in_features // self.world_size
        with _sharded_init(self.is_mp):
            self.weight = self.create_parameter(shape=[self.input_size_per_partition, self.out_features],
                                                attr=self._weight_attr, dtype=self._dtype, is_bias=False)
        self.weight.is_distributed = self.is_mp
        if self.is_mp:
            self.weight.split_axis = 0
        if has_bias:
            self.bias = self.create_parameter(shape=[self.out_features], attr=Constant(value=0.0),
                                              dtype=self._dtype, is_bias=True)
        else:
            self.bias = None
        self.fuse_matmul_bias = fuse_matmul_bias

    def forward(self, x):
        if not self.is_mp:
            return F.linear(x, self.weight, self.bias, name=self._name)
        x = x if self.input_is_parallel else mp_ops._c_split(x, group=self.model_parallel_group)
        out = mp_ops._mp_allreduce(F.linear(x, self.weight, name=self._name), group=self.model_parallel_group)
        return out + self.bias if self.bias is not None else out


class ParallelCrossEntropy(Layer):
    def __init__(self, mp_group=None, name=None, ignore_index=-100):
        super().__init__()
        self.name = name
        self.model_parallel_group, self.world_size, self.rank = _mp(mp_group)
        self.ignore_index = ignore_index

    def forward(self, input, label):
        return mp_ops._c_softmax_with_cross_entropy(input, label, group=self.model_parallel_group,
                                                    ignore_index=self.ignore_index)


class _Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, factor):
        return x * factor

    @staticmethod
    def backward(ctx, g):
        return g, None


class MPScale:
    """Paddle's PyLayer for a bias shared by the model-parallel ranks: x / mp_degree forward (the ranks' outputs
    are summed later), the gradient passed through unchanged."""

    @staticmethod
    def apply(x, mp_degree):
        return wrap(_Scale.apply(x._t, 1.0 / mp_degree))


class InnerOverlapLinear:
    """Paddle's PyLayer behind ColumnParallelLinear(mp_async_allreduce=True): x @ weight + bias, with the input
    gradient all-reduced over the model-parallel group (Paddle overlaps that all-reduce with the weight-gradient
    matmul; the values are those of _c_identity followed by linear).  The fused matmul-bias and fused
    gradient-add flags choose kernels only."""

    @staticmethod
    def apply(x, weight, bias, fuse_matmul_bias, mp_async_allreduce, mp_skip_c_identity,
              mp_fused_linear_param_grad_add, model_parallel_group):
        return F.linear(mp_ops._c_identity(x, group=model_parallel_group), weight, bias)
