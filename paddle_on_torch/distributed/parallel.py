"""paddle.distributed's environment on torch.distributed: init_parallel_env, ranks, ParallelEnv, DataParallel.

Under `torchrun` (or Paddle's launcher, which sets PADDLE_TRAINER_ID / PADDLE_TRAINERS_NUM)
the process group is torch's default group: gloo for CPU tensors, plus nccl for CUDA tensors
when GPUs are present (`"cpu:gloo,cuda:nccl"`).  As in Paddle, `init_parallel_env()` in a
single process (world size 1) initialises nothing and returns None.

Auto-parallel (DTensor) needs a torch process group even in one process; `_ensure_pg()` makes
one on demand: torchrun's world, or a private 1-rank gloo group over a HashStore.

At exit a process group we created is torn down with a barrier first (gloo aborts otherwise),
unless the program is dying of an exception: then no barrier, so a failing rank exits at once
and torchrun stops the others instead of a hang.
"""
import atexit
import datetime
import os
import sys

import torch
import torch.distributed as tdist

__all__ = ["init_parallel_env", "get_rank", "get_world_size", "is_initialized", "is_available", "ParallelEnv",
           "DataParallel"]

_state = {"paddle_initialized": False, "owned": False, "failed": False, "hook": False}


def _env_int(*names, default):
    for n in names:
        v = os.environ.get(n)
        if v not in (None, ""):
            return int(v)
    return default


def _env_rank():
    return _env_int("PADDLE_TRAINER_ID", "RANK", default=0)


def _env_world_size():
    return _env_int("PADDLE_TRAINERS_NUM", "WORLD_SIZE", default=1)


def _local_rank():
    return _env_int("PADDLE_LOCAL_RANK", "LOCAL_RANK", default=0)


def _timeout():
    return datetime.timedelta(milliseconds=_env_int("PADDLE_PG_TIMEOUT", default=1800000))


def _backend():
    return "cpu:gloo,cuda:nccl" if torch.cuda.is_available() else "gloo"


def _install_exit_hook():
    if _state["hook"]:
        return
    _state["hook"] = True
    previous = sys.excepthook

    def excepthook(*args):
        _state["failed"] = True
        previous(*args)

    sys.excepthook = excepthook
    atexit.register(_shutdown_at_exit)


def _shutdown_at_exit():
    if not (_state["owned"] and tdist.is_initialized()) or _state["failed"]:
        return
    try:
        if tdist.get_world_size() > 1:
            tdist.barrier()
        tdist.destroy_process_group()
    except Exception:  # noqa: BLE001 -- best effort at interpreter exit
        pass


def _ensure_pg():
    """A torch default process group: torchrun's world, or a private single-rank one."""
    if tdist.is_initialized():
        return
    world = _env_world_size()
    if world > 1 or "MASTER_ADDR" in os.environ:
        if torch.cuda.is_available():
            torch.cuda.set_device(_local_rank() % max(torch.cuda.device_count(), 1))
        if "MASTER_ADDR" not in os.environ:  # Paddle's launcher: derive torch's rendezvous from its endpoints
            eps = os.environ.get("PADDLE_TRAINER_ENDPOINTS", "").split(",")
            if not eps or not eps[0]:
                raise RuntimeError("init_parallel_env: world size > 1 but no MASTER_ADDR or PADDLE_TRAINER_ENDPOINTS "
                                   "in the environment; launch with torchrun")
            host, port = eps[0].rsplit(":", 1)
            os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"] = host, port
        tdist.init_process_group(_backend(), rank=_env_rank(), world_size=world, timeout=_timeout())
    else:
        tdist.init_process_group(_backend(), store=tdist.HashStore(), rank=0, world_size=1, timeout=_timeout())
    _state["owned"] = True
    _install_exit_hook()


def init_parallel_env(nccl_config=None):
    """Initialise the default process group from the launcher's environment; returns the global Group.

    With world size 1 (a plain `python script.py`) Paddle initialises nothing and returns None.
    """
    from .communication import _make_global_group

    if _env_world_size() < 2:
        return None
    _ensure_pg()
    _state["paddle_initialized"] = True
    return _make_global_group()


def is_initialized():
    return _state["paddle_initialized"]


def is_available():
    return tdist.is_available()


def get_rank(group=None):
    if group is not None:
        return group.rank
    if tdist.is_initialized():
        return tdist.get_rank()
    return _env_rank()


def get_world_size(group=None):
    if group is not None:
        return group.world_size
    if tdist.is_initialized():
        return tdist.get_world_size()
    return _env_world_size()


class ParallelEnv:
    """The launcher's environment (PADDLE_* variables, or torchrun's RANK / WORLD_SIZE / LOCAL_RANK)."""

    def __init__(self):
        self._rank = _env_rank()
        self._world_size = _env_world_size()
        self._device_type = "gpu" if torch.cuda.is_available() else "cpu"
        if "FLAGS_selected_gpus" in os.environ:
            self._device_id = int(os.environ["FLAGS_selected_gpus"].split(",")[0])
        else:
            self._device_id = _local_rank() if torch.cuda.is_available() else 0
        self._current_endpoint = os.getenv("PADDLE_CURRENT_ENDPOINT", "")
        eps = os.getenv("PADDLE_TRAINER_ENDPOINTS", "")
        self._trainer_endpoints = eps.split(",") if eps else []
        self._nrings = int(os.getenv("FLAGS_nccl_nrings", "1"))
        self._pg_timeout = int(os.getenv("PADDLE_PG_TIMEOUT", "1800000"))

    @property
    def rank(self):
        return self._rank

    @property
    def world_size(self):
        return self._world_size

    @property
    def device_id(self):
        return self._device_id

    @property
    def device_type(self):
        return self._device_type

    @property
    def current_endpoint(self):
        return self._current_endpoint

    @property
    def trainer_endpoints(self):
        return self._trainer_endpoints

    @property
    def nrings(self):
        return self._nrings

    @property
    def pg_timeout(self):
        return self._pg_timeout

    # Paddle's older names
    local_rank = rank
    nranks = world_size
    dev_id = device_id


from .data_parallel import DataParallel  # noqa: E402


def sync_params_buffers(model, comm_group=None, src_rank=0, is_model_parallel=False, fuse_params=True,
                        is_moe_sharding_parallel=False):
    """Broadcast `model`'s parameters and buffers from global rank `src_rank` over `comm_group` (default: all),
    in place.  Skipped as in Paddle: tensor-parallel shards (`is_distributed`) when is_model_parallel, and
    parameters marked `no_sync` (except experts in MoE sharding parallel).  `fuse_params` (Paddle's 128 MB
    coalescing) changes only how many messages are sent, so each tensor goes on its own here."""
    from ..tensor.tensor import Tensor
    from .communication import broadcast

    tensors = [p for p in model.parameters()] + [b for _, b in model.named_buffers()]
    for t in tensors:
        if not isinstance(t, Tensor):
            raise TypeError(f"The data type of '{getattr(t, 'name', t)}' must be core.eager.Tensor")
        if is_model_parallel and getattr(t, "is_distributed", False):
            continue
        if getattr(t, "no_sync", False) and not (is_moe_sharding_parallel and getattr(t, "expert", False)):
            continue
        broadcast(t, src=src_rank, group=comm_group, sync_op=True)
from . import parallel_helper  # noqa: E402,F401  (paddle.distributed.parallel.parallel_helper, as Paddle imports it)
