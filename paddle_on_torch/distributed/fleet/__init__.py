"""paddle.distributed.fleet (collective mode) on torch.distributed.

    fleet.init(is_collective=True, strategy=strategy)   # strategy.hybrid_configs: dp/mp/pp degrees
    hcg = fleet.get_hybrid_communicate_group()
    model = fleet.distributed_model(model)               # DataParallel / TensorParallel / PipelineParallel
    opt = fleet.distributed_optimizer(opt)               # HybridParallelOptimizer

The hybrid groups come from a torch DeviceMesh; tensor-parallel layers are in `meta_parallel`;
pipelines run on torch.distributed.pipelining.  Parameter-server mode is not provided.
"""
from ... import _report
from . import meta_parallel, recompute, utils  # noqa: F401  (fleet.recompute is the package, as in Paddle)
from .base.distributed_strategy import DistributedStrategy
from .base.topology import CommunicateTopology, HybridCommunicateGroup, ParallelMode  # noqa: F401
from .fleet import Fleet
from .model import distributed_model  # noqa: F401

__all__ = ["CommunicateTopology", "HybridCommunicateGroup", "DistributedStrategy", "Fleet"]

fleet = Fleet()
init = fleet.init
is_first_worker = fleet.is_first_worker
worker_index = fleet.worker_index
worker_num = fleet.worker_num
node_num = fleet.node_num
rank = fleet.worker_index
nranks = fleet.worker_num
world_size = fleet.worker_num
local_rank = fleet.local_rank
rank_in_node = local_rank
is_worker = fleet.is_worker
is_server = fleet.is_server
worker_endpoints = fleet.worker_endpoints
barrier_worker = fleet.barrier_worker
all_reduce = fleet.all_reduce
get_hybrid_communicate_group = fleet.get_hybrid_communicate_group
distributed_optimizer = fleet.distributed_optimizer


# Paddle's fleet module also binds these (parameter-server, static-graph and inference helpers):
# touching one names it in a NotImplementedError, like the names of its __all__ we lack
_PADDLE_ONLY = {"init_worker", "init_server", "run_server", "stop_worker", "save_inference_model",
                "save_persistables", "save_cache_model", "save_cache_table", "save_one_table", "save_dense_params",
                "load_model", "load_inference_model", "load_one_table", "set_date", "print_table_stat", "minimize",
                "shrink", "distributed_scaler", "server_num", "server_index", "server_endpoints", "is_coordinator",
                "init_coordinator", "make_fl_strategy", "get_fl_client", "local_device_ids", "world_device_ids",
                "collective_perf", "util", "check_save_pre_patch_done", "set_log_level", "get_log_level_code",
                "get_log_level_name", "check_memory_usage"}
_missing = _report.module_getattr("paddle.distributed.fleet")


def __getattr__(name):
    if name == "auto":  # Paddle binds the auto_parallel package here (fleet.auto.create_mesh / get_mesh)
        from .. import auto_parallel

        globals()["auto"] = auto_parallel
        return auto_parallel
    if name in _PADDLE_ONLY:
        raise _report.unsupported(f"paddle.distributed.fleet.{name}")
    return _missing(name)
