"""paddle.distributed.parallel_helper (also reached as paddle.distributed.parallel.parallel_helper): whether the
parallel environment is set up.  Paddle records a context when init_parallel_env builds the global group; here
that is paddle.distributed.is_initialized()."""
import os

from .. import _report


def _is_parallel_ctx_initialized():
    from .parallel import is_initialized

    return is_initialized()


def _is_data_parallel_mode():
    return _is_parallel_ctx_initialized() and int(os.getenv("PADDLE_TRAINERS_NUM", "1")) > 1


def _broadcast_parameters(parameters):
    """Broadcast each trainable, non-distributed parameter from rank 0 (as Paddle's DataParallel does)."""
    from ..framework import Parameter
    from .communication import broadcast

    for param in parameters:
        if getattr(param, "is_distributed", False):
            continue
        if isinstance(param, Parameter) and param.trainable:
            broadcast(param, 0, sync_op=True)


_set_parallel_ctx = _report.unsupported_function(
    "paddle.distributed.parallel_helper._set_parallel_ctx", ": init_parallel_env sets up the parallel environment")
_init_parallel_ctx = _report.unsupported_function(
    "paddle.distributed.parallel_helper._init_parallel_ctx", ": init_parallel_env sets up the parallel environment")
