"""Paddle's placements (Shard, Replicate, Partial, ReduceType) and their torch DTensor twins."""
import enum

from torch.distributed.tensor import placement_types as _tp

from ... import _report

__all__ = ["Placement", "Shard", "Replicate", "Partial", "ReduceType", "to_torch_placements",
           "from_torch_placements"]


class ReduceType(enum.IntEnum):
    kRedSum = 0
    kRedMax = 1
    kRedMin = 2
    kRedProd = 3
    kRedAvg = 4
    kRedAny = 5
    kRedAll = 6

    def __repr__(self):
        return f"<ReduceType.{self.name}: {self.value}>"

    def __str__(self):
        return f"ReduceType.{self.name}"


_TORCH_REDUCE = {ReduceType.kRedSum: "sum", ReduceType.kRedMax: "max", ReduceType.kRedMin: "min",
                 ReduceType.kRedProd: "product", ReduceType.kRedAvg: "avg"}
_FROM_TORCH_REDUCE = {v: k for k, v in _TORCH_REDUCE.items()}
_FROM_TORCH_REDUCE["prod"] = ReduceType.kRedProd


class Placement:
    def is_shard(self, dim=None):
        return False

    def is_replicated(self):
        return False

    def is_partial(self):
        return False


class Shard(Placement):
    def __init__(self, dim, *, split_factor=1, shard_order=None):
        if not isinstance(dim, int) or isinstance(dim, bool):
            raise TypeError(f"Shard(dim): dim must be an int, got {type(dim).__name__}")
        if split_factor != 1:
            raise _report.unsupported("paddle.distributed.Shard(split_factor=...)")
        if shard_order is not None:
            raise _report.unsupported("paddle.distributed.Shard(shard_order=...) (co-sharding)")
        self._dim = dim

    def get_dim(self):
        return self._dim

    def get_split_factor(self):
        return 1

    def is_shard(self, dim=None):
        return True if dim is None else dim == self._dim

    def __eq__(self, other):
        return isinstance(other, Shard) and other._dim == self._dim

    def __hash__(self):
        return hash(("Shard", self._dim))

    def __repr__(self):
        return f"Shard(dim={self._dim})"


class Replicate(Placement):
    def is_replicated(self):
        return True

    def __eq__(self, other):
        return isinstance(other, Replicate)

    def __hash__(self):
        return hash("Replicate")

    def __repr__(self):
        return "Replicate()"


class Partial(Placement):
    def __init__(self, reduce_type=ReduceType.kRedSum):
        try:
            self._reduce_type = ReduceType(int(reduce_type))
        except (TypeError, ValueError):
            raise TypeError(f"Partial(reduce_type): expected a paddle.distributed.ReduceType, got {reduce_type!r}") \
                from None

    def reduce_type(self):
        return self._reduce_type

    def is_partial(self):
        return True

    def __eq__(self, other):
        return isinstance(other, Partial) and other._reduce_type == self._reduce_type

    def __hash__(self):
        return hash(("Partial", int(self._reduce_type)))

    def __repr__(self):
        return f"Partial(reduce_type={self._reduce_type.name[4:].upper()})"


def check_placements(mesh, placements, ndim):
    """Paddle's placements for `mesh` and a tensor of rank `ndim`, padded with Replicate; ValueError if unfit."""
    if not isinstance(placements, (list, tuple)):
        raise TypeError(f"placements must be a list of paddle.distributed.Placement, got {type(placements).__name__}")
    placements = list(placements)
    for p in placements:
        if not isinstance(p, Placement):
            raise TypeError(f"placements must hold paddle.distributed.Placement objects, got {type(p).__name__}")
    if len(placements) > mesh.ndim:
        raise ValueError(f"{len(placements)} placements {placements} for a process mesh of {mesh.ndim} dimension(s) "
                         f"{mesh.shape}: give one placement per mesh dimension")
    placements += [Replicate()] * (mesh.ndim - len(placements))
    for p in placements:
        if isinstance(p, Shard) and not -ndim <= p.get_dim() < ndim:
            raise ValueError(f"{p} is out of range for a tensor of {ndim} dimension(s)")
        if isinstance(p, Partial) and p.reduce_type() not in _TORCH_REDUCE:
            raise _report.unsupported(f"paddle.distributed.Partial({p.reduce_type()})")
    return placements


def to_torch_placements(placements, ndim):
    out = []
    for p in placements:
        if isinstance(p, Shard):
            out.append(_tp.Shard(p.get_dim() % ndim if ndim else 0))
        elif isinstance(p, Replicate):
            out.append(_tp.Replicate())
        else:
            out.append(_tp.Partial(_TORCH_REDUCE[p.reduce_type()]))
    return tuple(out)


def from_torch_placements(placements):
    out = []
    for p in placements:
        if p.is_shard():
            out.append(Shard(p.dim))
        elif p.is_partial():
            out.append(Partial(_FROM_TORCH_REDUCE.get(p.reduce_op, ReduceType.kRedSum)))
        else:
            out.append(Replicate())
    return out
