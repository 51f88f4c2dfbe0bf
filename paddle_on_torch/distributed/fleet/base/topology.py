"""fleet's CommunicateTopology and HybridCommunicateGroup on a torch DeviceMesh.

Paddle lays the ranks out row-major over the named axes (data, pipe, sharding, sep, context, model;
model innermost by default).  Here that layout is a torch `DeviceMesh` over the same axes; each
axis's process group comes from the mesh (`mesh.get_group(axis)`) and is wrapped in Paddle's
`Group`, so `paddle.distributed` collectives and torch code (DTensor, pipelining) share the groups.
"""
import collections
import itertools
from functools import reduce

import torch
import torch.distributed as tdist

from ... import communication as _comm
from ... import parallel as _parallel

__all__ = ["CommunicateTopology", "HybridCommunicateGroup", "ParallelMode"]

_HYBRID_PARALLEL_GROUP = None


class ParallelMode:
    DATA_PARALLEL = 0
    TENSOR_PARALLEL = 1
    PIPELINE_PARALLEL = 2
    SHARDING_PARALLEL = 3
    SEGMENT_PARALLEL = 4


class CommunicateTopology:
    def __init__(self, hybrid_group_names=("data", "pipe", "sharding", "sep", "context", "model"),
                 dims=(1, 1, 1, 1, 1, 1)):
        self._parallel_names = list(hybrid_group_names)
        self._dims = list(dims)
        self.coordinate = collections.namedtuple("Coordinate", self._parallel_names)
        self._world_size = reduce(lambda x, y: x * y, self._dims, 1)
        coords = [self.coordinate(*x) for x in itertools.product(*[range(d) for d in self._dims])]
        self._coord2rank = dict(zip(coords, range(len(coords))))
        self._rank2coord = {r: c for c, r in self._coord2rank.items()}

    def get_hybrid_group_names(self):
        return self._parallel_names

    def get_dim(self, axis_name):
        return self._dims[self._parallel_names.index(axis_name)]

    get_dim_size = get_dim

    def world_size(self):
        return self._world_size

    def get_rank(self, **args):
        assert len(args) == len(self._dims)
        key = self.coordinate(**args)
        assert key in self._coord2rank
        return self._coord2rank[key]

    def get_coord(self, rank):
        assert rank < self._world_size
        assert rank in self._rank2coord
        return self._rank2coord[rank]

    def get_axis_list(self, axis_name, index):
        axis = self._parallel_names.index(axis_name)
        return sorted(r for c, r in self._coord2rank.items() if c[axis] == index)

    def get_comm_list(self, axis_name):
        """Every group along `axis_name`: lists of ranks that differ only in that coordinate."""
        assert axis_name in self._parallel_names
        axis = self._parallel_names.index(axis_name)
        grid = torch.arange(self._world_size).reshape(self._dims)
        return grid.movedim(axis, -1).reshape(-1, self._dims[axis]).tolist()

    def get_fused_ranks(self, fused_axis):
        others = [n for n in self._parallel_names if n not in fused_axis]
        out = []
        for fixed in itertools.product(*[range(self.get_dim(n)) for n in others]):
            coord = dict(zip(others, fixed))
            ranks = []
            for free in itertools.product(*[range(self.get_dim(n)) for n in fused_axis]):
                coord.update(zip(fused_axis, free))
                ranks.append(self._coord2rank[self.coordinate(**coord)])
            out.append(ranks)
        return out

    def get_rank_from_stage(self, global_rank, **kwargs):
        return self.get_rank(**self.get_coord(global_rank)._replace(**kwargs)._asdict())


def _group_of(pg, ranks):
    me = tdist.get_rank()
    gid = _comm._next_id[0]
    _comm._next_id[0] += 1
    g = _comm.Group(ranks.index(me) if me in ranks else -1, gid, ranks, pg, f"_default_pg{gid}")
    _comm._groups[gid] = g
    return g


class HybridCommunicateGroup:
    def __init__(self, topology, hybrid_configs=None):
        _parallel._ensure_pg()
        if 0 not in _comm._groups:
            _comm._make_global_group()
        self.nranks = tdist.get_world_size()
        self.global_rank = tdist.get_rank()
        self._topo = topology
        self._dp_degree = topology.get_dim("data")
        self._mp_degree = topology.get_dim("model")
        self._pp_degree = topology.get_dim("pipe")
        self._sharding_degree = topology.get_dim("sharding")
        self._sep_degree = topology.get_dim("sep")
        if not self._check_valid_topo():
            raise AssertionError(
                f"nranks: {self.nranks}, mp_num: {self._mp_degree}, sharding_num: {self._sharding_degree}, "
                f"pp_num: {self._pp_degree}, dp_num: {self._dp_degree}, sep_num: {self._sep_degree}")
        coord = topology.get_coord(self.global_rank)
        self._data_parallel_id = coord.data
        self._model_parallel_id = coord.model
        self._sharding_parallel_id = coord.sharding
        self._sep_parallel_id = coord.sep
        self.stage_id = coord.pipe

        names = topology.get_hybrid_group_names()
        mesh = torch.arange(self.nranks).reshape(topology._dims)
        from torch.distributed.device_mesh import DeviceMesh

        # every rank builds the same mesh; the mesh makes one process group per axis for this rank
        self._device_mesh = DeviceMesh("cuda" if torch.cuda.is_available() else "cpu", mesh,
                                       mesh_dim_names=tuple(names))
        groups = {}
        for name in names:
            ranks = next(r for r in topology.get_comm_list(name) if self.global_rank in r)
            groups[name] = (ranks, _group_of(self._device_mesh.get_group(name), ranks))
        self._pp_group, self._pp_comm_group = groups["pipe"]
        self._dp_group, self._dp_comm_group = groups["data"]
        self._mp_group, self._mp_comm_group = groups["model"]
        self._sharding_group, self._sharding_comm_group = groups["sharding"]
        self._sep_group, self._sep_comm_group = groups["sep"] if self._sep_degree > 1 else (None, None)
        # the "check" group (grad-clip norms): every rank with this rank's data coordinate
        check = self._fused_group([n for n in names if n != "data"])
        self._check_group, self._check_comm_group = check
        self.is_first_stage = self.stage_id == 0
        self.is_last_stage = self.stage_id == self._pp_degree - 1
        if self._pp_degree > 1:
            pipe = self._pp_group
            i = pipe.index(self.global_rank)
            self.next_rank, self.prev_rank = pipe[(i + 1) % len(pipe)], pipe[(i - 1) % len(pipe)]
        global _HYBRID_PARALLEL_GROUP
        _HYBRID_PARALLEL_GROUP = self

    def _fused_group(self, axes):
        """A group over the named axes together (fused ranks), made on every rank in the same order."""
        mine = None
        for ranks in sorted(self._topo.get_fused_ranks(axes)):
            pg = tdist.new_group(ranks) if len(ranks) < self.nranks else tdist.group.WORLD
            if self.global_rank in ranks:
                mine = (ranks, _group_of(pg, ranks))
        return mine

    def _check_valid_topo(self):
        return self._topo.world_size() == self.nranks

    def get_parallel_mode(self):
        pp, mp, sep, sh, dp = (self._pp_degree, self._mp_degree, self._sep_degree, self._sharding_degree,
                               self._dp_degree)
        if pp == 1 and mp == 1 and sep == 1 and sh == 1 and dp > 1:
            return ParallelMode.DATA_PARALLEL
        if pp == 1 and mp == 1 and sep == 1 and sh > 1:
            return ParallelMode.SHARDING_PARALLEL
        if pp == 1 and mp == 1 and sep > 1:
            return ParallelMode.SEGMENT_PARALLEL
        if pp == 1 and mp > 1:
            return ParallelMode.TENSOR_PARALLEL
        if pp > 1:
            return ParallelMode.PIPELINE_PARALLEL
        return None  # a world of one: Paddle returns None too

    def topology(self):
        return self._topo

    def get_device_mesh(self):
        """The torch DeviceMesh behind the groups (not in Paddle: for torch code that wants a mesh)."""
        return self._device_mesh

    def get_global_rank(self):
        return self.global_rank

    def get_data_parallel_rank(self):
        return self._data_parallel_id

    def get_data_parallel_world_size(self):
        return self._dp_degree

    def get_data_parallel_group(self):
        return self._dp_comm_group

    def get_data_parallel_group_src_rank(self):
        return self._dp_comm_group.ranks[0]

    def get_model_parallel_rank(self):
        return self._model_parallel_id

    def get_model_parallel_world_size(self):
        return self._mp_degree

    def get_model_parallel_group(self):
        return self._mp_comm_group

    def get_model_parallel_group_src_rank(self):
        return self._mp_comm_group.ranks[0]

    def get_stage_id(self):
        return self.stage_id

    def get_pipe_parallel_world_size(self):
        return self._pp_degree

    def get_pipe_parallel_group(self):
        return self._pp_comm_group

    def get_sep_parallel_rank(self):
        return self._sep_parallel_id

    def get_sep_parallel_world_size(self):
        return self._sep_degree

    def get_sep_parallel_group(self):
        assert self._sep_degree > 1, "sep not exist"
        return self._sep_comm_group

    def get_sep_parallel_group_src_rank(self):
        assert self._sep_degree > 1, "sep not exist"
        return self._sep_comm_group.ranks[0]

    def get_sharding_parallel_rank(self):
        return self._sharding_parallel_id

    def get_sharding_parallel_world_size(self):
        return self._sharding_degree

    def get_sharding_parallel_group(self):
        return self._sharding_comm_group

    def get_sharding_parallel_group_src_rank(self):
        return self._sharding_comm_group.ranks[0]

    def get_check_parallel_group(self, sharding=False):
        return self._check_comm_group

    def get_rank_from_stage(self, stage_id, **kwargs):
        return self._topo.get_rank_from_stage(self.global_rank, pipe=stage_id, **kwargs)

    def _get_p2p_next_rank(self):
        assert hasattr(self, "next_rank"), "next_rank has not been inited"
        return self.next_rank

    def _get_p2p_prev_rank(self):
        assert hasattr(self, "prev_rank"), "prev_rank has not been inited"
        return self.prev_rank

    def get_moe_sharding_parallel_world_size(self):
        return 0


class EPHybridCommunicateGroup(HybridCommunicateGroup):
    """Paddle's communicate group with expert-parallel axes (moe_sharding / ep): not provided."""

    __paddle_on_torch_unsupported__ = "paddle.distributed.fleet.base.topology.EPHybridCommunicateGroup"

    def __init__(self, *args, **kwargs):
        from .... import _report

        raise _report.unsupported("paddle.distributed.fleet.base.topology.EPHybridCommunicateGroup",
                                  ": expert-parallel (ep / moe_sharding) topologies")
