"""Expert-parallel views across sub-meshes (paddle.distributed.auto_parallel.api.moe_global_mesh_tensor /
moe_sub_mesh_tensors, used by PaddleNLP / PaddleFormers' auto-parallel MoE layers).

A global mesh split along `local_mesh_dim` gives one sub-mesh per index (split_mesh: the axis kept, with size
1).  Each process is in exactly one of them, so the same local piece can be read as a piece of a tensor on its
sub-mesh (placement Replicate along that axis) or as a piece of the global tensor: the two functions change the
view and communicate nothing, in the forward and in the backward.
"""
import torch
from torch.distributed.tensor import DTensor
from torch.distributed.tensor import Replicate as _tp_Replicate

from ..._normalize import wrap
from ...tensor.tensor import Tensor
from . import placement_type as _pt
from .api import _contiguous_stride, _coordinate, _is_dt, _no_piece, reshard
from .placement_type import Replicate
from .process_mesh import _CoreProcessMesh, core_mesh_of, device_mesh, split_mesh

__all__ = ["moe_global_mesh_tensor", "moe_sub_mesh_tensors"]


def _sub_meshes(mesh, placements, local_mesh_dim):
    if mesh is None or local_mesh_dim is None or placements is None:
        raise ValueError("the args global_mesh, global_placements and local_mesh_dim should all be set.")
    if not isinstance(mesh, _CoreProcessMesh):
        raise TypeError(f"mesh must be a paddle.distributed.ProcessMesh, got {type(mesh).__name__}")
    subs = split_mesh(mesh, local_mesh_dim)
    local = list(placements)
    axis = local_mesh_dim % len(mesh.shape)
    if axis < len(local):
        local[axis] = Replicate()
    return subs, local, axis


def _index(mesh, axis):
    """The sub-mesh this process is in (0 where it is in none, as Paddle takes)."""
    import numpy as np
    import torch.distributed as tdist

    where = np.argwhere(mesh.mesh == tdist.get_rank())
    return int(where[0][axis]) if len(where) else 0


def _no_partial(placements):
    return tuple(_tp_Replicate() if p.is_partial() else p for p in placements)


def _scaled(shape, mesh_shape, placements, up):
    """Paddle's even-split shapes: a global shape from a local one (`up`) or the reverse."""
    shape = list(shape)
    for i, p in enumerate(placements):
        if isinstance(p, _pt.Shard) and shape[p.get_dim()] != -1:
            d = p.get_dim()
            shape[d] = shape[d] * mesh_shape[i] if up else shape[d] // mesh_shape[i]
    return shape


class _ToGlobal(torch.autograd.Function):
    """This process's piece of its sub-mesh tensor, read as its piece of the global tensor (and back)."""

    @staticmethod
    def forward(ctx, idx, sub_dms, dst_dm, dst, shape, *pieces):
        ctx.idx, ctx.sub_dms, ctx.dst_dm = idx, sub_dms, dst_dm
        ctx.shapes = [(p.shape, p.stride(), p.placements) for p in pieces]
        own = pieces[idx]
        local = own.to_local() if _coordinate(own.device_mesh) is not None else _no_piece(own)
        return DTensor.from_local(local, dst_dm, dst, run_check=False, shape=torch.Size(shape),
                                  stride=_contiguous_stride(shape))

    @staticmethod
    def backward(ctx, grad):
        grads = [None] * len(ctx.shapes)
        if _coordinate(ctx.dst_dm) is None or not _is_dt(grad):
            return (None,) * 5 + tuple(grads)
        want = _no_partial(grad.placements)
        if tuple(grad.placements) != want:
            grad = grad.redistribute(ctx.dst_dm, want)
        shape, stride, placements = ctx.shapes[ctx.idx]
        grads[ctx.idx] = DTensor.from_local(grad.to_local(), ctx.sub_dms[ctx.idx], _no_partial(placements),
                                            run_check=False, shape=shape, stride=stride)
        return (None,) * 5 + tuple(grads)


def moe_global_mesh_tensor(local_tensor_list, mesh, placements, local_mesh_dim=-1):
    """One distributed Tensor on `mesh` with `placements` from one Tensor per sub-mesh of `mesh` along
    `local_mesh_dim` (each laid out on its sub-mesh as `placements` with Replicate on that axis; others are
    resharded so first).  Every process keeps its own piece; the global shape is the local one times the mesh
    size along each sharded axis (Paddle assumes even pieces)."""
    subs, local_pl, axis = _sub_meshes(mesh, placements, local_mesh_dim)
    if len(local_tensor_list) != len(subs):
        raise ValueError(f"moe_global_mesh_tensor: {len(local_tensor_list)} tensors for {len(subs)} sub-meshes")
    pieces = []
    for i, t in enumerate(local_tensor_list):
        if not isinstance(t, Tensor) or not _is_dt(t._t):
            raise ValueError("moe_global_mesh_tensor: every tensor of local_tensor_list must be a distributed tensor "
                             "on its sub-mesh (paddle.distributed.shard_tensor)")
        if core_mesh_of(t._t.device_mesh) != subs[i] or _pt.from_torch_placements(t._t.placements) != \
                _pt.check_placements(subs[i], local_pl, t.ndim):
            t = reshard(t, subs[i], local_pl)
        pieces.append(t._t)
    idx = _index(mesh, axis)
    own = pieces[idx]
    held = _coordinate(own.device_mesh) is not None
    if held:
        local_shape = list(own.to_local().shape)
    else:
        local_shape = _scaled(own.shape, subs[0].shape, _pt.check_placements(subs[0], local_pl, own.dim()), False)
    dst = _pt.check_placements(mesh, list(placements), own.dim())
    shape = _scaled(local_shape, mesh.shape, dst, True)
    out = wrap(_ToGlobal.apply(idx, [p.device_mesh for p in pieces], device_mesh(mesh),
                               _pt.to_torch_placements(dst, own.dim()), shape, *pieces))
    out.stop_gradient = local_tensor_list[0].stop_gradient
    return out


class _ToSubs(torch.autograd.Function):
    """The global tensor's piece on this process, read as a piece of a tensor on each sub-mesh (and back)."""

    @staticmethod
    def forward(ctx, dt, idx, sub_dms, local, shape):
        ctx.dm, ctx.idx, ctx.shape, ctx.stride = dt.device_mesh, idx, dt.shape, dt.stride()
        ctx.placements = dt.placements
        held = _coordinate(dt.device_mesh) is not None
        piece = dt.to_local() if held else _no_piece(dt)
        outs = []
        for dm in sub_dms:
            mine = held and _coordinate(dm) is not None
            outs.append(DTensor.from_local(piece if mine else _no_piece(dt), dm, local, run_check=False,
                                           shape=torch.Size(shape), stride=_contiguous_stride(shape)))
        return tuple(outs)

    @staticmethod
    def backward(ctx, *grads):
        grad = grads[ctx.idx]
        if grad is None or _coordinate(ctx.dm) is None:
            return None, None, None, None, None
        if _is_dt(grad):
            want = _no_partial(grad.placements)
            if tuple(grad.placements) != want:
                grad = grad.redistribute(grad.device_mesh, want)
            grad = grad.to_local()
        return DTensor.from_local(grad, ctx.dm, _no_partial(ctx.placements), run_check=False, shape=ctx.shape,
                                  stride=ctx.stride), None, None, None, None


def moe_sub_mesh_tensors(dist_tensor, global_mesh=None, local_mesh_dim=None, global_placements=None):
    """The list of Tensors, one per sub-mesh of `global_mesh` along `local_mesh_dim`, that
    moe_global_mesh_tensor would put together into `dist_tensor` (no communication)."""
    subs, local_pl, axis = _sub_meshes(global_mesh, global_placements, local_mesh_dim)
    t = dist_tensor._t
    if not _is_dt(t):
        raise ValueError("moe_sub_mesh_tensors: the input should be a distributed tensor")
    if core_mesh_of(t.device_mesh) != global_mesh:
        raise ValueError("the global_mesh should be the same as dist_tensor's process_mesh.")
    glob = _pt.check_placements(global_mesh, list(global_placements), t.dim())
    if glob != _pt.from_torch_placements(t.placements):
        raise AssertionError(f"the global_placements ({list(global_placements)}) is not equal to dist_tensor's "
                             f"placements ({_pt.from_torch_placements(t.placements)}).")
    local_pl = _pt.check_placements(subs[0], local_pl, t.dim())
    shape = _scaled(_scaled(t.shape, global_mesh.shape, glob, False), subs[0].shape, local_pl, True)
    outs = _ToSubs.apply(t, _index(global_mesh, axis), [device_mesh(m) for m in subs],
                         _pt.to_torch_placements(local_pl, t.dim()), shape)
    result = [wrap(o) for o in outs]
    for r in result:
        r.stop_gradient = dist_tensor.stop_gradient
    return result
