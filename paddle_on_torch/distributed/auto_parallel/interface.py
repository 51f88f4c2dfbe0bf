"""The global mesh (paddle.distributed.auto_parallel.set_mesh / get_mesh), which parallelize and the
sharding stages read when they are given no mesh."""
__all__ = ["get_mesh", "set_mesh", "create_mesh"]

_global_mesh = [None]


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
