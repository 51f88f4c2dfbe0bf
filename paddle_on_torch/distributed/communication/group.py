"""paddle.distributed.communication.group: communication groups (Paddle's Group over a torch ProcessGroup).

The global group (id 0) exists once init_parallel_env() has run in a world of two or more processes;
`new_group` makes the others, on every rank in the same order (as in Paddle and torch).
"""
import numpy as np
import torch
import torch.distributed as tdist

__all__ = []


class Group:
    """A communication group (Paddle's Group over a torch ProcessGroup)."""

    def __init__(self, rank_in_group, id, ranks, pg=None, name=None):
        self._rank_in_group = rank_in_group
        self._world_size = len(ranks) if rank_in_group >= 0 else -1
        self._id = id
        self._ranks = list(ranks)
        self._pg = pg
        self._name = name

    @property
    def rank(self):
        return self._rank_in_group

    @property
    def ranks(self):
        return self._ranks

    @property
    def nranks(self):
        return len(self._ranks)

    @property
    def name(self):
        return self._name

    @property
    def process_group(self):
        return self._pg

    @property
    def world_size(self):
        return self._world_size

    @property
    def backend(self):
        return tdist.get_backend(self._pg).upper()

    @property
    def id(self):
        return self._id

    def is_member(self):
        return self.rank >= 0 and self.nranks >= 2

    def get_group_rank(self, rank):
        return self.ranks.index(rank) if self.is_member() else -1

    def get_global_rank(self, rank):
        return self.ranks[rank] if self.is_member() else -1

    def __repr__(self):
        s = f"rank: {self.rank}, nranks: {self.nranks}, id: {self.id}, ranks: " + ", ".join(map(str, self.ranks))
        return s + "; name: " + (self.name if self.name else "None")


_groups = {}
_next_id = [1]


def _make_global_group():
    if 0 not in _groups:
        world = tdist.get_world_size()
        _groups[0] = Group(tdist.get_rank(), 0, list(range(world)), tdist.group.WORLD, "_default_pg")
    return _groups[0]


def _group(group):
    if group is None:
        if 0 not in _groups:
            raise RuntimeError("The global group is not initialized.")
        return _groups[0]
    if not isinstance(group, Group):
        raise TypeError(f"group must be a paddle.distributed Group, got {type(group).__name__}")
    return group


def new_group(ranks=None, backend=None, timeout=None, nccl_comm_init_option=0, nccl_config=None):
    """A group of `ranks` (every rank must call it, in the same order, as in Paddle and torch)."""
    g = _group(None) if 0 in _groups else None
    if g is None:
        raise RuntimeError("The global group is not initialized.")
    world = tdist.get_world_size()
    ranks = list(range(world)) if ranks is None else sorted(int(r) for r in np.asarray(ranks).reshape(-1))
    if len(set(ranks)) != len(ranks):
        raise ValueError(f"new_group: ranks must be unique, got {ranks}")
    bad = [r for r in ranks if not 0 <= r < world]
    if bad:
        raise ValueError(f"new_group: ranks {bad} are outside the world of {world} processes")
    kwargs = {} if timeout is None else {"timeout": timeout}
    pg = tdist.new_group(ranks, **kwargs)
    me = tdist.get_rank()
    gid = _next_id[0]
    _next_id[0] += 1
    group = Group(ranks.index(me) if me in ranks else -1, gid, ranks, pg, f"_default_pg{gid}")
    _groups[gid] = group
    return group


def get_group(id=0):
    return _groups.get(id)


def is_initialized():
    """Whether the global group exists (init_parallel_env ran in a world of two or more)."""
    return 0 in _groups


def _get_global_group():
    return _group(None)


def _add_new_group(group):
    if group.id in _groups:
        raise RuntimeError(f"The group with id {group.id} already exists.")
    _groups[group.id] = group


def _is_global_group(group):
    return group.id == 0


def _warn_cur_rank_not_in_group(group):
    """True (with a warning) when this process is not a member of `group`."""
    import warnings

    rank = tdist.get_rank() if tdist.is_initialized() else 0
    if group is not None and not group.is_member():
        warnings.warn(f"Current global rank {rank} is not in group {group.name}")
        return True
    return False


def _get_or_throw_group_rank(global_rank, group):
    group_rank = group.get_group_rank(global_rank)
    if group_rank < 0:
        raise RuntimeError(f"The input rank {global_rank} can not be found inside the group {group.name}")
    return group_rank


def get_backend(group=None):
    return _group(group).backend


def destroy_process_group(group=None):
    """Destroy `group`, or everything (after a barrier, so that gloo shuts down cleanly)."""
    if group is None or group.id == 0:
        g = _group(None)
        tdist.barrier(g.process_group)
        tdist.destroy_process_group()
        _groups.clear()
        from .. import parallel as _parallel

        _parallel._state["paddle_initialized"] = False
        return
    group = _group(group)
    if group.is_member():
        tdist.barrier(group.process_group)
    tdist.destroy_process_group(group.process_group)
    _groups.pop(group.id, None)


def barrier(group=None):
    g = _group(group)
    if g.nranks >= 2 and g.is_member():
        tdist.barrier(g.process_group)


def wait(tensor, group=None, use_calc_stream=True):
    """Wait for the communication on `tensor` (CPU collectives here complete synchronously)."""
    if torch.cuda.is_available() and tensor._t.is_cuda:
        torch.cuda.current_stream().synchronize()
