"""The global mesh (paddle.distributed.auto_parallel.set_mesh / get_mesh), which parallelize and the
sharding stages read when they are given no mesh."""
__all__ = ["get_mesh", "set_mesh", "create_mesh", "recompute"]

_global_mesh = [None]
# set by DistModel while a dist.to_static program whose Strategy enables recompute runs a training step
_RECOMPUTE_PASS = [False]


def set_mesh(mesh):
    from .process_mesh import _CoreProcessMesh

    if mesh is not None and not isinstance(mesh, _CoreProcessMesh):
        raise TypeError(f"set_mesh expects a paddle.distributed.ProcessMesh, got {type(mesh).__name__}")
    _global_mesh[0] = mesh


def get_mesh():
    return _global_mesh[0]


def create_mesh(mesh_dims):
    """The global mesh from `[(dim_name, degree), ...]`: process ids 0.. in row-major order (fleet.auto.create_mesh)."""
    import numpy as np

    from .process_mesh import ProcessMesh

    names = [d[0] for d in mesh_dims]
    shape = [int(d[1]) for d in mesh_dims]
    _global_mesh[0] = ProcessMesh(np.arange(int(np.prod(shape, dtype=np.int64))).reshape(shape).tolist(), names)
    return _global_mesh[0]


class RecomputeOperator:
    """What `recompute(op)` returns: calling it runs `op`.  Paddle marks the ops of the call as one recompute
    segment of a dist.to_static program, which its recompute pass recomputes in the backward when the Strategy
    enables recompute; eager calls just run `op`.  Here the segment is recomputed by fleet.utils.recompute in a
    to_static training step with Strategy.recompute.enable, and run plainly otherwise (the same values)."""

    def __init__(self, op):
        self._op = op

    def __call__(self, *args, **kwargs):
        import torch

        if _RECOMPUTE_PASS[0] and torch.is_grad_enabled():
            from ..fleet.recompute.recompute import recompute as _segment

            return _segment(self._op, *args, use_reentrant=False, **kwargs)
        return self._op(*args, **kwargs)


def recompute(op):
    """Mark the calls of `op` as a recompute segment (paddle.distributed.auto_parallel.interface.recompute)."""
    return RecomputeOperator(op)
