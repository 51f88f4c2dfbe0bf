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

# Auto-parallel (torch DTensor) loads on first touch: it costs about 0.5 s of import time, and
# `import paddle` pulls this package in for paddle.DataParallel.
_AUTO_PARALLEL = {
    "Partial": "placement_type", "Placement": "placement_type", "ReduceType": "placement_type",
    "Replicate": "placement_type", "Shard": "placement_type", "ProcessMesh": "process_mesh",
    "dtensor_from_fn": "api", "reshard": "api", "shard_layer": "api", "shard_tensor": "api",
    "unshard_dtensor": "api", "DistModel": "dist_model", "ShardDataloader": "dist_model",
    "shard_dataloader": "dist_model", "shard_optimizer": "dist_model", "to_static": "dist_model",
    "Strategy": "strategy",
}
_unsupported = _report.module_getattr("paddle.distributed")


def __getattr__(name):
    if name in _AUTO_PARALLEL:
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.auto_parallel.{_AUTO_PARALLEL[name]}"), name)
        globals()[name] = value
        return value
    return _unsupported(name)


def __dir__():
    return sorted(set(globals()) | set(_AUTO_PARALLEL))
