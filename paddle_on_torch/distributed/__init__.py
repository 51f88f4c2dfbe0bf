"""paddle.distributed on torch.distributed: collectives, the parallel environment, DataParallel and
auto-parallel (ProcessMesh / placements / shard_tensor on torch DeviceMesh and DTensor).

Launch multi-process jobs with `torchrun --nproc-per-node=N -m paddle_on_torch script.py`; a plain
`python -m paddle_on_torch script.py` is a world of one process, as in Paddle.
"""
from .. import _report
from .parallel import (DataParallel, ParallelEnv, get_rank, get_world_size, init_parallel_env,  # noqa: F401
                       is_available, is_initialized)
from .communication import (Group, ReduceOp, all_gather, all_gather_object, all_reduce, alltoall,  # noqa: F401
                            alltoall_single, barrier, broadcast, broadcast_object_list, destroy_process_group,
                            gather, get_backend, get_group, irecv, isend, new_group, recv, recv_object_list, reduce,
                            reduce_scatter, scatter, scatter_object_list, send, send_object_list, wait)
from .communication import P2POp, batch_isend_irecv, stream  # noqa: F401
from .launch import launch  # noqa: F401  (a function, as in Paddle; `-m paddle.distributed.launch` runs the package)


def in_auto_parallel_align_mode():
    """Whether FLAGS_enable_auto_parallel_align_mode is set (paddle.set_flags)."""
    from ..framework.flags import get_flags

    return bool(get_flags("FLAGS_enable_auto_parallel_align_mode")["FLAGS_enable_auto_parallel_align_mode"])


# Auto-parallel (torch DTensor) loads on first touch: it costs about 0.5 s of import time, and
# `import paddle` pulls this package in for paddle.DataParallel.
_AUTO_PARALLEL = {
    "Partial": "placement_type", "Placement": "placement_type", "ReduceType": "placement_type",
    "Replicate": "placement_type", "Shard": "placement_type", "ProcessMesh": "process_mesh",
    "dtensor_from_fn": "api", "reshard": "api", "shard_layer": "api", "shard_tensor": "api",
    "unshard_dtensor": "api", "DistModel": "dist_model", "ShardDataloader": "dist_model",
    "shard_dataloader": "dist_model", "shard_optimizer": "sharding", "to_static": "dist_model",
    "Strategy": "api", "ShardingStage1": "sharding", "ShardingStage2": "sharding",
    "ShardingStage3": "sharding", "shard_scaler": "sharding", "get_mesh": "interface", "set_mesh": "interface",
    "parallelize": "intermediate.parallelize", "ColWiseParallel": "intermediate.tensor_parallel",
    "RowWiseParallel": "intermediate.tensor_parallel", "SequenceParallelBegin": "intermediate.tensor_parallel",
    "SequenceParallelEnd": "intermediate.tensor_parallel", "SequenceParallelEnable": "intermediate.tensor_parallel",
    "SequenceParallelDisable": "intermediate.tensor_parallel", "PrepareLayerInput": "intermediate.tensor_parallel",
    "PrepareLayerOutput": "intermediate.tensor_parallel", "SplitPoint": "intermediate.pipeline_parallel",
    "to_distributed": "intermediate.parallelize", "enable_auto_dp": "api",
}
# (not named _unsupported: the submodule distributed/_unsupported.py, once imported, is bound to that name)
_missing = _report.module_getattr("paddle.distributed")


def __getattr__(name):
    if name in ("save_state_dict", "load_state_dict", "load_merged_state_dict"):  # (torch DCP) on first touch
        from . import checkpoint

        globals()[name] = value = getattr(checkpoint, name)
        return value
    if name in ("fleet", "spawn", "collective", "flex_checkpoint"):  # fleet (and collective) load on first touch
        import importlib

        value = importlib.import_module(f"{__name__}.{'_spawn' if name == 'spawn' else name}")
        value = value.spawn if name == "spawn" else value
        globals()[name] = value
        return value
    if name in _AUTO_PARALLEL:
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.auto_parallel.{_AUTO_PARALLEL[name]}"), name)
        globals()[name] = value
        return value
    return _missing(name)


def __dir__():
    return sorted(set(globals()) | set(_AUTO_PARALLEL) | {"fleet", "spawn", "collective", "flex_checkpoint"})
