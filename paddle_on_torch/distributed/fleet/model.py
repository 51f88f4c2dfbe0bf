"""fleet.distributed_model: wrap a model for the hybrid-parallel mode of fleet.init's strategy."""
from ..data_parallel import DataParallel
from .base.topology import ParallelMode
from ..._report import unsupported

__all__ = ["distributed_model"]


def distributed_model(model):
    from . import fleet as fleet_env  # the Fleet instance (the package's `fleet` name)
    from ..parallel import get_world_size
    from .meta_parallel import NoPipelineParallel, PipelineLayer, PipelineParallel, ShardingParallel, TensorParallel

    assert model is not None, "model should not be None"
    strategy = fleet_env._user_defined_strategy
    if get_world_size() <= 1:
        # Paddle 3.3: one process takes only a PipelineLayer (anything else fails its assertion)
        assert isinstance(model, PipelineLayer), \
            "fleet.distributed_model in a single process expects a PipelineLayer (as Paddle 3.3 does)"
        return NoPipelineParallel(model, strategy=strategy)
    if strategy.amp:
        raise unsupported("paddle.distributed.fleet.distributed_model",
                          " with strategy.amp=True; use paddle.amp.auto_cast / decorate directly")
    hcg = fleet_env._hcg
    mode = hcg.get_parallel_mode()
    if mode == ParallelMode.PIPELINE_PARALLEL:
        assert isinstance(model, PipelineLayer), "For pipeline parallel, the model should an instance of PipelineLayer"
        return PipelineParallel(model, hcg, strategy=strategy)
    if isinstance(model, PipelineLayer):
        return NoPipelineParallel(model, strategy=strategy, hcg=hcg)
    if mode == ParallelMode.DATA_PARALLEL:
        return DataParallel(model, find_unused_parameters=strategy.find_unused_parameters,
                            group=hcg.get_data_parallel_group())
    if mode == ParallelMode.TENSOR_PARALLEL:
        return TensorParallel(model, hcg, strategy=strategy)
    if mode == ParallelMode.SHARDING_PARALLEL:
        return ShardingParallel(model, hcg, strategy=strategy)
    raise unsupported("paddle.distributed.fleet.distributed_model", f" in parallel mode {mode} (segment parallel)")


def __getattr__(name):
    # Paddle's fleet/model.py imports the hybrid-parallel wrappers; they load on first touch here (an import cycle)
    if name in ("PipelineParallel", "TensorParallel", "ShardingParallel", "SegmentParallel", "NoPipelineParallel"):
        from . import meta_parallel

        return getattr(meta_parallel, name)
    raise AttributeError(f"module 'paddle.distributed.fleet.model' has no attribute '{name}'")
