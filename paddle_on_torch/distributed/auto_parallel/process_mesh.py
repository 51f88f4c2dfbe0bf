"""paddle.distributed.ProcessMesh, and the torch DeviceMesh behind it.

A ProcessMesh is plain data (an integer array of process ids and dimension names), as in Paddle:
making one communicates nothing.  The torch `DeviceMesh` (with its process groups) is built on
first use by `device_mesh()`, through `DeviceMesh(device, torch.tensor(mesh))`, which accepts
any rank layout (`init_device_mesh` only builds row-major ones).  Every rank must reach that
first use in the same order -- true of SPMD programs, which is what Paddle asks for too.
"""
import copy

import numpy as np
import torch

__all__ = ["ProcessMesh"]

_current = [None]


class _CoreProcessMesh:
    """What `Tensor.process_mesh` returns (Paddle's `paddle.base.core.ProcessMesh`)."""

    def __init__(self, shape, process_ids, dim_names):
        self._shape = [int(s) for s in shape]
        self._process_ids = [int(p) for p in process_ids]
        self._dim_names = list(dim_names)
        self._mesh = np.array(self._process_ids, dtype=np.int64).reshape(self._shape)

    shape = property(lambda self: list(self._shape))
    process_ids = property(lambda self: list(self._process_ids))
    dim_names = property(lambda self: list(self._dim_names))
    ndim = property(lambda self: len(self._shape))
    size = property(lambda self: len(self._process_ids))

    @property
    def mesh(self):
        return self._mesh

    def contains(self, process_id):
        return int(process_id) in self._process_ids

    def empty(self):
        return len(self._process_ids) == 0

    def get_dim_size(self, dim):
        if dim is None:
            return 1
        if isinstance(dim, str):
            if dim not in self._dim_names:
                raise AssertionError(f"{dim} is not a valid dim name.")
            dim = self._dim_names.index(dim)
        elif not isinstance(dim, int):
            raise ValueError("dim must be a string or an integer.")
        return self._shape[dim]

    def __eq__(self, other):
        if not isinstance(other, _CoreProcessMesh):
            return False
        return self._shape == other._shape and self._process_ids == other._process_ids

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash((tuple(self._shape), tuple(self._process_ids)))

    def __str__(self):
        return (f"{{shape: [{','.join(map(str, self._shape))}], process_ids: [{','.join(map(str, self._process_ids))}], "
                f"dim_names: [{','.join(self._dim_names)}]}}")

    __repr__ = __str__

    def _as_process_mesh(self):
        return self if isinstance(self, ProcessMesh) else ProcessMesh(self._mesh, self._dim_names)


class ProcessMesh(_CoreProcessMesh):
    """The Cartesian topology of processes: `ProcessMesh([[0, 2, 4], [1, 3, 5]], dim_names=['x', 'y'])`."""

    def __init__(self, mesh=None, dim_names=None, shape=None, process_ids=None):
        if mesh is None:
            assert shape is not None
            assert process_ids is not None
            mesh = np.array(process_ids).reshape(shape)
        if not isinstance(mesh, (list, np.ndarray)):
            raise ValueError("The mesh must be an instance of list or np.ndarray.")
        mesh = np.array(mesh)
        if dim_names is not None and not isinstance(dim_names, list):
            raise ValueError("The dim_names must be an instance of list.")
        ids = mesh.flatten().tolist()
        assert all(isinstance(p, int) for p in ids), "All elements of the mesh must be integer"
        assert min(ids) >= 0, "All elements of the mesh must be >= 0."
        assert len(set(ids)) == len(ids), "All elements of the mesh must be unique."
        if dim_names is not None:
            assert len(dim_names) == mesh.ndim, "The length of dims_names must be same as the shape of the mesh."
            names = copy.deepcopy(dim_names)
        else:
            names = ["d" + str(i) for i in range(mesh.ndim)]
        assert len(set(names)) == len(names), f"All dim_names {dim_names} must be unique."
        super().__init__(list(mesh.shape), ids, names)
        self._mesh = mesh

    def __getitem__(self, index):
        if isinstance(index, tuple):
            names = [self._dim_names[i] for i, item in enumerate(index) if isinstance(item, slice)]
            new = self._mesh[index]
            return ProcessMesh(new, names) if new.shape else ProcessMesh([new.item()])
        if isinstance(index, slice):
            return ProcessMesh(self._mesh[index], self._dim_names)
        if isinstance(index, str):
            return self.get_submesh_with_dim(index)
        new = self._mesh[index]
        return ProcessMesh(new, self._dim_names[1:]) if new.shape else ProcessMesh([new.item()])

    def get_rank_by_dim_and_process_id(self, dim, process_id):
        if process_id not in self._process_ids:
            return -1
        if dim is None:
            return 0
        if isinstance(dim, int):
            dim = self._dim_names[dim]
        elif not isinstance(dim, str):
            raise ValueError("dim must be a string or an integer.")
        return int(np.where(self._mesh == process_id)[self._dim_names.index(dim)][0])

    def get_mesh_with_dim(self, dim_name, index=None):
        assert dim_name in self._dim_names, f"{dim_name} is not a valid dim name."
        axis = self._dim_names.index(dim_name)
        order = [axis] + [i for i in range(len(self._dim_names)) if i != axis]
        names = [dim_name] + [d for d in self._dim_names if d != dim_name]
        new = self._mesh.transpose(order)
        if index is not None:
            if len(names) > 1:
                return ProcessMesh(new[index], names[1:])
            return ProcessMesh([new[index]], names)
        return ProcessMesh(new, names)

    def get_submesh_with_dim(self, dim_name):
        from ..parallel import get_rank

        reorder = self.get_mesh_with_dim(dim_name)._mesh.reshape(self.get_dim_size(dim_name), -1)
        rank = get_rank()
        if rank not in self._process_ids:
            return None
        col = int(np.argmax(reorder == rank) % reorder.shape[-1])
        return ProcessMesh(reorder[:, col], [dim_name])

    def get_group(self, dim_name=None):
        """The communication Group of this rank along `dim_name` (a 1-D mesh: the whole mesh)."""
        from .. import communication as comm
        from ..parallel import is_initialized

        assert is_initialized(), ("When you want to get a group from the ProcessMesh. Call "
                                  "paddle.distributed.init_parallel_env first to initialize the distributed environment.")
        if len(self._dim_names) > 1 and dim_name is None:
            raise ValueError("You should specify the dim_name when the ProcessMesh has more than one dimensions.")
        if len(self._dim_names) == 1:
            if dim_name is not None and dim_name not in self._dim_names:
                raise ValueError(f"{dim_name} not in the dimension names {self._dim_names}")
            for g in comm._groups.values():
                if set(g.ranks) == set(self._process_ids):
                    return g
            return comm.new_group(self._process_ids)
        if dim_name not in self._dim_names:
            raise ValueError(f"{dim_name} not in the dimension names {self._dim_names}")
        return self.get_submesh_with_dim(dim_name).get_group(dim_name)

    def __enter__(self):
        _current[0] = self

    def __exit__(self, *exc):
        _current[0] = None

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        new = ProcessMesh(np.array(self._mesh), self._dim_names)
        memo[id(self)] = new
        return new

    def __str__(self):
        return f"shape {self.shape}, process_ids {self.process_ids}, dim_names {self.dim_names}"

    def __repr__(self):
        return f"ProcessMesh({self._mesh.tolist()}, dim_names={self._dim_names})"

    __hash__ = _CoreProcessMesh.__hash__


# ---------------------------------------------------------------- torch DeviceMesh
_device_meshes = {}  # (shape, process_ids, dim_names) -> DeviceMesh
_by_device_mesh = {}  # id(DeviceMesh) -> (DeviceMesh, dim_names, core ProcessMesh)


def _mesh_device_type():
    return "cuda" if torch.cuda.is_available() else "cpu"


def check_fits_world(mesh):
    """ValueError (before any communication) when the mesh names a process that does not exist."""
    from ..parallel import get_world_size

    world = get_world_size()
    bad = [p for p in mesh.process_ids if p >= world]
    if bad:
        raise ValueError(f"The process mesh {mesh} names processes {bad}, but the job has {world} process(es) "
                         f"(launch with torchrun --nproc-per-node={max(mesh.process_ids) + 1} or more)")


def device_mesh(mesh):
    """The torch DeviceMesh for a ProcessMesh (built once, collectively, on first use)."""
    from ..parallel import _ensure_pg

    if not isinstance(mesh, _CoreProcessMesh):
        raise TypeError(f"mesh must be a paddle.distributed.ProcessMesh, got {type(mesh).__name__}")
    # dim names are part of the key: a tensor's process_mesh is read back from its DeviceMesh
    key = (tuple(mesh.shape), tuple(mesh.process_ids), tuple(mesh.dim_names))
    dm = _device_meshes.get(key)
    if dm is None:
        check_fits_world(mesh)
        _ensure_pg()
        from torch.distributed.device_mesh import DeviceMesh

        dm = DeviceMesh(_mesh_device_type(), torch.tensor(mesh.mesh, dtype=torch.int64))
        _allow_dense_inputs()
        _device_meshes[key] = dm
        _by_device_mesh[id(dm)] = (dm, list(mesh.dim_names),
                                   _CoreProcessMesh(mesh.shape, mesh.process_ids, mesh.dim_names))
    return dm


def _allow_dense_inputs():
    """A dense Tensor meeting a distributed one in an op is replicated on its mesh, as Paddle's dygraph
    auto-parallel converts it (DTensor's implicit replication; torch refuses the mix by default)."""
    from torch.distributed.tensor import DTensor

    from . import op_rules

    DTensor._op_dispatcher._allow_implicit_replication = True
    op_rules.register()  # and the shim's custom ops get DTensor sharding rules


def core_mesh_of(dm):
    """The Paddle mesh (core.ProcessMesh) of a torch DeviceMesh."""
    entry = _by_device_mesh.get(id(dm))
    if entry is not None:  # built here: kept (reading dm.mesh back costs torch ops on every call)
        return entry[2]
    names = list(dm.mesh_dim_names or [f"d{i}" for i in range(dm.ndim)])
    m = dm.mesh
    return _CoreProcessMesh(list(m.shape), m.flatten().tolist(), names)


def split_mesh(global_mesh, sub_mesh_dim):
    """The sub-meshes of `global_mesh`, one per index along `sub_mesh_dim` (that axis kept, with size 1; the
    same dim_names): paddle.distributed.auto_parallel.api.split_mesh."""
    shape = list(global_mesh.shape)
    n = len(shape)
    if not isinstance(sub_mesh_dim, int) or not -n <= sub_mesh_dim < n:
        raise ValueError(f"The sub_mesh_dim should between (-{n}, {n}]")
    axis = sub_mesh_dim % n
    ids = np.array(global_mesh.process_ids).reshape(shape)
    return [ProcessMesh(np.take(ids, [i], axis=axis), global_mesh.dim_names) for i in range(shape[axis])]
