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
from .auto_parallel import (Partial, Placement, ProcessMesh, ReduceType, Replicate, Shard,  # noqa: F401
                            dtensor_from_fn, reshard, shard_layer, shard_tensor, unshard_dtensor)
from .auto_parallel.dist_model import (DistModel, ShardDataloader, shard_dataloader,  # noqa: F401
                                       shard_optimizer, to_static)

__getattr__ = _report.module_getattr("paddle.distributed")
