"""paddle.distributed.collective: the group registry's private helpers and the model-parallel ops that
Paddle's libraries import from here (PaddleNLP's `parallel_matmul` calls `collective._c_identity` and
`collective._c_concat`).  The ops are fleet's mp_ops; the groups those of paddle.distributed.communication.
"""
from .. import _report
from .communication.group import (Group, _add_new_group, _get_global_group, _groups, get_group,  # noqa: F401
                                  is_initialized, new_group)
from .fleet.layers.mpu.mp_ops import (_c_concat, _c_identity, _c_lookup_table,  # noqa: F401
                                      _c_softmax_with_cross_entropy, _c_split, _mp_allreduce)
from .parallel import ParallelEnv, is_available  # noqa: F401

__all__ = []


def _get_global_env():
    return ParallelEnv()


def _get_default_group():
    if 0 not in _groups:
        raise RuntimeError("Call paddle.distributed.init_parallel_env first to initialize the distributed "
                           "environment.")
    return _groups[0]


def _get_group_map():
    """{group id: Group} of the groups made so far (the global one is id 0)."""
    return _groups


def _new_ring_id():
    from .communication import group as _group_mod

    return _group_mod._next_id[0]


# model-parallel building blocks Paddle makes through static-graph layers; none has a meaning here yet
_UNSUPPORTED = {"split", "_linear", "_parallel_linear", "_parallel_embedding", "_set_var_distributed",
                "_c_softmax_with_multi_label_cross_entropy", "_Linear"}


def __getattr__(name):
    if name in _UNSUPPORTED:
        raise _report.unsupported(f"paddle.distributed.collective.{name}")
    raise AttributeError(f"module 'paddle.distributed.collective' has no attribute '{name}'")
