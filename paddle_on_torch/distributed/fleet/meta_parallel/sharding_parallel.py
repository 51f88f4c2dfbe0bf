"""ShardingParallel: what fleet.distributed_model returns for sharding_degree > 1 alone: every rank
starts from the same parameters (broadcast over the sharding and data-parallel groups)."""
from ..utils.hybrid_parallel_util import broadcast_dp_parameters, broadcast_sharding_parameters
from .meta_parallel_base import MetaParallelBase

__all__ = ["ShardingParallel"]


class ShardingParallel(MetaParallelBase):
    def _prepare_for_model(self):
        broadcast_sharding_parameters(self._layers, self._hcg)
        if self._hcg.get_data_parallel_world_size() > 1:
            broadcast_dp_parameters(self._layers, self._hcg)
