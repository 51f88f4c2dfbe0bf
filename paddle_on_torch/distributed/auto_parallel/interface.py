"""The global mesh (paddle.distributed.auto_parallel.set_mesh / get_mesh), which parallelize and the
sharding stages read when they are given no mesh."""
__all__ = ["get_mesh", "set_mesh"]

_global_mesh = [None]


def set_mesh(mesh):
    from .process_mesh import _CoreProcessMesh

    if mesh is not None and not isinstance(mesh, _CoreProcessMesh):
        raise TypeError(f"set_mesh expects a paddle.distributed.ProcessMesh, got {type(mesh).__name__}")
    _global_mesh[0] = mesh


def get_mesh():
    return _global_mesh[0]
