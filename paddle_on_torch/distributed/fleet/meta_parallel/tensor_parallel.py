"""TensorParallel: what fleet.distributed_model returns for mp_degree > 1 without pipelining.

At wrap time replicated parameters are broadcast from the first model-parallel rank and all
parameters from the first data-parallel rank (so every rank starts from the same model); before
each forward the input tensors are broadcast over the model-parallel group (mp_configs
need_broadcast_data), as in Paddle.  Gradients are averaged over data-parallel ranks by the
HybridParallelOptimizer, not here.
"""
from ..utils.hybrid_parallel_util import (broadcast_dp_parameters, broadcast_input_data, broadcast_mp_parameters,
                                          broadcast_sharding_parameters)
from .meta_parallel_base import MetaParallelBase

__all__ = ["TensorParallel"]


class TensorParallel(MetaParallelBase):
    def _prepare_for_model(self):
        broadcast_mp_parameters(self._layers, self._hcg)
        if self._hcg.get_sharding_parallel_world_size() > 1:
            broadcast_sharding_parameters(self._layers, self._hcg)
        if self._hcg.get_data_parallel_world_size() > 1:
            broadcast_dp_parameters(self._layers, self._hcg)

    def _pre_forward(self, *inputs, **kwargs):
        if self._strategy is None or self._strategy.hybrid_configs["mp_configs"].need_broadcast_data:
            return broadcast_input_data(self._hcg, *inputs, **kwargs)
        return inputs, kwargs
