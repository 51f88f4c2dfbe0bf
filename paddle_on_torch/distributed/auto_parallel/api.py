"""Auto-parallel on torch DTensor: shard_tensor, reshard, dtensor_from_local, shard_layer, ...

A distributed paddle Tensor is a paddle Tensor whose `_t` is a torch DTensor: `x.shape` is the
global shape, `x._local_value()` this rank's piece, `x.placements` / `x.process_mesh` Paddle's
view of the DTensor's placements and DeviceMesh.

Where Paddle and torch disagree on local values, Paddle's are kept: a Replicate -> Partial(sum)
conversion leaves the value on the mesh coordinate 0 and zeros elsewhere (torch divides by the
mesh size); Partial(avg) is reduced as a sum of local/n, since gloo has no AVG.
"""
import copy

import torch
from torch.distributed.tensor import DTensor
from torch.distributed.tensor import Replicate as _tp_Replicate

from ... import _report
from ..._normalize import wrap
from ...tensor.tensor import Tensor
from . import placement_type as _pt
from . import strategy as _st
from .placement_type import Partial, ReduceType, Replicate, Shard
from .process_mesh import _CoreProcessMesh, core_mesh_of, device_mesh

__all__ = ["shard_tensor", "dtensor_from_local", "dtensor_to_local", "dtensor_from_fn", "reshard", "unshard_dtensor",
           "shard_layer", "is_dist_tensor", "split_mesh", "moe_global_mesh_tensor", "moe_sub_mesh_tensors",
           "enable_auto_dp", "Strategy"]


def _is_dt(t):
    return isinstance(t, DTensor)


def _coordinate(dm):
    return dm.get_coordinate()  # None when this rank is not in the mesh


def _no_piece(like, dtype=None, device=None):
    """What a process outside a DTensor's mesh keeps as its local tensor: nothing (one unread element for a 0-D
    tensor: torch's from_local takes an empty `shape` for "none given" and would infer [0] from an empty piece)."""
    dtype, device = dtype or like.dtype, device or like.device
    return torch.empty((), dtype=dtype, device=device) if like.dim() == 0 else torch.empty(0, dtype=dtype,
                                                                                          device=device)


def _local_piece(t, dm, placements):
    """This rank's piece of the global tensor `t` under Paddle's placements (no communication)."""
    coord = _coordinate(dm)
    if coord is None:
        return _no_piece(t)
    local = t
    for mesh_dim, p in enumerate(placements):
        n = dm.size(mesh_dim)
        c = coord[mesh_dim]
        if isinstance(p, Shard):
            d = p.get_dim() % t.dim()
            pieces = list(torch.chunk(local, n, d))
            pieces += [local.narrow(d, 0, 0)] * (n - len(pieces))
            local = pieces[c]
        elif isinstance(p, Partial) and c != 0:
            rt = p.reduce_type()
            if rt == ReduceType.kRedSum:
                local = torch.zeros_like(local)
            elif rt == ReduceType.kRedProd:
                local = torch.ones_like(local)
    return local.contiguous()


def _to_mesh_device(t, dm):
    return t if t.device.type == dm.device_type else t.to(dm.device_type)


def _mesh_and_placements(mesh, placements, ndim):
    if not isinstance(mesh, _CoreProcessMesh):
        raise TypeError(f"mesh must be a paddle.distributed.ProcessMesh, got {type(mesh).__name__}")
    placements = _pt.check_placements(mesh, placements, ndim)
    return device_mesh(mesh), placements


def shard_tensor(data, mesh, placements, dtype=None, place=None, stop_gradient=None):
    """A distributed Tensor from `data` (the same global value on every rank), placed on `mesh`."""
    from ...nn.layer.layers import EagerParamBase
    from ...tensor.creation import to_tensor

    if stop_gradient is None:
        stop_gradient = getattr(data, "stop_gradient", True)
    if isinstance(data, Tensor) and dtype is None:
        tensor = data
    else:
        tensor = to_tensor(data, dtype=dtype, place=place, stop_gradient=stop_gradient)
    t = tensor._t
    if _is_dt(t):
        raise ValueError("shard_tensor: the input is already a distributed tensor; use paddle.distributed.reshard")
    dm, placements = _mesh_and_placements(_remapped(mesh), placements, t.dim())
    g = t.detach()
    # a parameter made under paddle.LazyGuard stays lazy: its piece is a meta tensor until initialize()
    local = _local_piece(g if g.is_meta else _to_mesh_device(g, dm), dm, placements)
    dt = DTensor.from_local(local, dm, _pt.to_torch_placements(placements, t.dim()), run_check=False,
                            shape=g.shape, stride=g.contiguous().stride())
    if isinstance(data, EagerParamBase):
        out = object.__new__(type(data))
        attrs = {k: v for k, v in data.__dict__.items() if k not in ("_claims_grad",)}
        out._setup(torch.nn.Parameter(dt, requires_grad=t.requires_grad), not data.stop_gradient, name=data.name)
        out.__dict__.update({k: v for k, v in attrs.items() if k not in ("name", "stop_gradient")})
        return out
    out = wrap(dt)
    if not stop_gradient:
        out.stop_gradient = False
    return out


def materialize_lazy(param, initializer, device):
    """Allocate a LazyGuard parameter that dist.shard_tensor placed (its `_t` a DTensor over a meta piece): the
    initializer runs on the whole tensor, as on one process, and this process keeps its piece."""
    meta = param._t
    full = torch.empty(meta.shape, dtype=meta.dtype, device=device)
    param._t = torch.nn.Parameter(full, requires_grad=meta.requires_grad)
    if initializer is not None:
        initializer(param)
    dm = meta.device_mesh
    local = _local_piece(_to_mesh_device(param._t.detach(), dm), dm, _pt.from_torch_placements(meta.placements))
    dt = DTensor.from_local(local, dm, meta.placements, run_check=False, shape=full.shape, stride=full.stride())
    param._t = torch.nn.Parameter(dt, requires_grad=meta.requires_grad)


def dtensor_from_fn(fn, mesh, placements, *args, **kwargs):
    return shard_tensor(fn(*args, **kwargs), mesh, placements)


def dtensor_from_local(local_tensor, mesh, placements):
    """The distributed Tensor whose piece on this rank is `local_tensor` (differentiable)."""
    t = local_tensor._t if isinstance(local_tensor, Tensor) else local_tensor
    if _is_dt(t):
        raise ValueError("The input should be a local tensor.")
    dm, placements = _mesh_and_placements(mesh, placements, t.dim())
    return wrap(DTensor.from_local(_to_mesh_device(t, dm), dm, _pt.to_torch_placements(placements, t.dim()),
                                   run_check=False))


def dtensor_to_local(dist_tensor, mesh, placements):
    t = dist_tensor._t
    if not _is_dt(t):
        raise ValueError("The input should be a distributed tensor.")
    if not holds_piece(t):  # a process outside the mesh: Paddle's uninitialised tensor of the global shape
        return _valueless(t)
    return wrap(t.to_local())


def _valueless(t, out=None):
    """What a process outside DTensor `t`'s mesh gets for its value: a dense Tensor of the global shape without
    a value (a meta tensor, as Paddle's uninitialised one: numpy() empty, float() an AssertionError naming the
    mesh).  `out`: the Tensor to mark (a new one over the meta tensor when None)."""
    if out is None:
        out = wrap(torch.empty(t.shape, dtype=t.dtype, device="meta"))
    out.__dict__["_unheld_mesh"] = core_mesh_of(t.device_mesh)  # (float() and int() name the mesh)
    return out


def _redistribute(dt, dm, dst):
    """DTensor `dt` on its own mesh `dm` with Paddle placements `dst` (differentiable)."""
    src = _pt.from_torch_placements(dt.placements)
    ndim = dt.dim()
    shape, stride = dt.shape, dt.stride()
    # 1. Partial(avg) becomes Partial(sum) of local / n (gloo has no AVG reduction)
    if any(isinstance(p, Partial) and p.reduce_type() == ReduceType.kRedAvg for p in src):
        local = dt.to_local()
        for i, p in enumerate(src):
            if isinstance(p, Partial) and p.reduce_type() == ReduceType.kRedAvg:
                local = local / dm.size(i)
                src[i] = Partial(ReduceType.kRedSum)
        dt = DTensor.from_local(local, dm, _pt.to_torch_placements(src, ndim), run_check=False, shape=shape,
                                stride=stride)
    # 2. torch redistributes to the target, with Replicate where a new Partial is wanted
    mid = [Replicate() if isinstance(d, Partial) and s != d else d for s, d in zip(src, dst)]
    if mid != src:
        dt = dt.redistribute(dm, _pt.to_torch_placements(mid, ndim))
    # 3. Replicate -> Partial the Paddle way (the value stays on mesh coordinate 0)
    if mid != list(dst):
        coord = _coordinate(dm)
        local = dt.to_local()
        for i, (m, d) in enumerate(zip(mid, dst)):
            if m != d and coord is not None and coord[i] != 0:
                if d.reduce_type() == ReduceType.kRedSum:
                    local = local * 0
                elif d.reduce_type() == ReduceType.kRedProd:
                    local = local * 0 + 1
        dt = DTensor.from_local(local, dm, _pt.to_torch_placements(dst, ndim), run_check=False, shape=shape,
                                stride=stride)
    return dt


def _local_shape(shape, dm, placements):
    """The shape of this rank's piece of a global `shape` laid out by torch `placements` on `dm`."""
    coord = _coordinate(dm)
    if coord is None:
        return (0,)
    shape = list(shape)
    for mesh_dim, p in enumerate(placements):
        if p.is_shard():
            d, n, c = p.dim, dm.size(mesh_dim), coord[mesh_dim]
            step = -(-shape[d] // n) if shape[d] else 0  # torch.chunk's piece size
            shape[d] = max(0, min(step, shape[d] - step * c)) if step else 0
    return tuple(shape)


def _move_pieces(local, src_dm, dst_dm, dst_shape, dtype, device):
    """Send this rank's piece on `src_dm` to the rank at the same mesh position in `dst_dm`, and receive
    the piece for this rank's position in `dst_dm` (shape `dst_shape`, or None when not in `dst_dm`)."""
    import torch.distributed as tdist

    rank = tdist.get_rank()
    src_ids = src_dm.mesh.flatten().tolist()
    dst_ids = dst_dm.mesh.flatten().tolist()
    ops, out = [], None
    if rank in dst_ids:
        peer = src_ids[dst_ids.index(rank)]
        if peer == rank:
            out = local.clone()
        else:
            out = torch.empty(dst_shape, dtype=dtype, device=device)
            ops.append(tdist.P2POp(tdist.irecv, out, peer))
    if rank in src_ids:
        peer = dst_ids[src_ids.index(rank)]
        if peer != rank:
            ops.append(tdist.P2POp(tdist.isend, local.contiguous(), peer))
    if ops:
        for work in tdist.batch_isend_irecv(ops):
            work.wait()
    return out


class _CrossMesh(torch.autograd.Function):
    """The same layout moved to another mesh of the same shape: the piece at each mesh position goes
    to the process at that position of the target mesh (Paddle pairs process ids by position).  The
    backward sends the gradient's pieces back the same way.  (torch 2.13's `redistribute` to another
    mesh returns the tensor still on its own mesh, so this is done with point-to-point sends.)"""

    @staticmethod
    def forward(ctx, dt, dst_dm):
        ctx.src_dm, ctx.dst_dm = dt.device_mesh, dst_dm
        placements = ctx.placements = dt.placements
        ctx.shape = dt.shape
        local = dt.to_local() if _coordinate(dt.device_mesh) is not None else None
        got = _move_pieces(local, dt.device_mesh, dst_dm, _local_shape(dt.shape, dst_dm, placements), dt.dtype,
                           _device_of(dst_dm))
        if got is None:
            got = _no_piece(dt, dt.dtype, _device_of(dst_dm))
        return DTensor.from_local(got, dst_dm, placements, run_check=False, shape=dt.shape, stride=dt.stride())

    @staticmethod
    def backward(ctx, grad):
        if not _is_dt(grad):
            raise RuntimeError("reshard across meshes: the gradient reaching it is not a distributed tensor")
        # The gradient's placements are only reliable on the ranks of the target mesh (torch computes
        # them differently where a rank holds no piece), so fix them: the forward's, with Replicate for
        # Partial (the gradient of a partial sum is the same on every piece).
        placements = tuple(_tp_Replicate() if p.is_partial() else p for p in ctx.placements)
        if _coordinate(ctx.dst_dm) is not None and tuple(grad.placements) != placements:
            grad = grad.redistribute(ctx.dst_dm, placements)
        local = grad.to_local() if _coordinate(ctx.dst_dm) is not None else None
        # (the gradient's shape too is only right on the target mesh's processes)
        got = _move_pieces(local, ctx.dst_dm, ctx.src_dm, _local_shape(ctx.shape, ctx.src_dm, placements),
                           grad.dtype, _device_of(ctx.src_dm))
        if got is None:
            got = _no_piece(grad, grad.dtype, _device_of(ctx.src_dm))
        return DTensor.from_local(got, ctx.src_dm, placements, run_check=False, shape=ctx.shape,
                                  stride=_contiguous_stride(ctx.shape)), None


def _contiguous_stride(shape):
    stride, acc = [], 1
    for n in reversed(list(shape)):
        stride.append(acc)
        acc *= max(int(n), 1)
    return tuple(reversed(stride))


def _device_of(dm):
    return torch.device(dm.device_type, torch.cuda.current_device()) if dm.device_type == "cuda" \
        else torch.device(dm.device_type)


def reshard(dist_tensor, mesh, placements):
    """`dist_tensor` with new placements, on its mesh or on another mesh of the same shape.

    Across meshes (a pipeline transfer) the tensor is first resharded to `placements` on its own
    mesh, then each process sends its piece to the process at the same position of `mesh`, as
    Paddle's same-status reshard does; differentiable (the backward sends the gradients back)."""
    t = dist_tensor._t
    if not _is_dt(t):
        raise ValueError("reshard: the input should be a distributed tensor (use paddle.distributed.shard_tensor)")
    if not isinstance(mesh, _CoreProcessMesh):
        raise TypeError(f"mesh must be a paddle.distributed.ProcessMesh, got {type(mesh).__name__}")
    mesh = _remapped(mesh)
    placements = _pt.check_placements(mesh, placements, t.dim())
    src_mesh = core_mesh_of(t.device_mesh)
    if src_mesh == mesh:
        return wrap(_redistribute(t, t.device_mesh, placements))
    if src_mesh.shape != mesh.shape:
        sub = _sub_mesh_index(src_mesh, mesh)
        if sub is not None:  # the global mesh to one of its slices (a pipeline stage's mesh)
            return wrap(_global_to_sub(t, sub[0], mesh, placements))
        sup = _sub_mesh_index(mesh, src_mesh)
        if sup is not None:  # a slice to the global mesh
            return wrap(_sub_to_global(t, sup, mesh, placements))
        raise _report.unsupported(f"paddle.distributed.reshard between process meshes of different shapes "
                                  f"({src_mesh.shape} -> {mesh.shape})")
    if _STAGE_TRANSFER[0] is not None:  # inside a to_static pipeline stage: the schedule moves the data
        return wrap(_STAGE_TRANSFER[0].transfer(t, mesh, placements))
    return wrap(_cross_mesh(t, mesh, placements))


def _sub_mesh_index(big, small):
    """(axis, index) where `small` is the slice `index` of `big` along `axis` (process ids in the same order, as
    ProcessMesh.get_mesh_with_dim(name, index) makes it), or None."""
    import numpy as np

    if len(big.shape) != len(small.shape) + 1:
        return None
    for axis, n in enumerate(big.shape):
        for i in range(n):
            if np.array_equal(np.take(big.mesh, i, axis=axis), small.mesh):
                return axis, i
    return None


def _without(placements, axis):
    return tuple(p for i, p in enumerate(placements) if i != axis)


class _GlobalToSub(torch.autograd.Function):
    """A DTensor replicated along mesh `axis` kept by the processes of one slice of that axis (no communication):
    Paddle's global-to-sub-mesh reshard.  The backward hands the gradient back as a partial sum over `axis` (the
    slice holds it, the other slices zeros): the same logical tensor, again without communication."""

    @staticmethod
    def forward(ctx, dt, axis, dst_dm):
        ctx.src_dm, ctx.dst_dm, ctx.axis, ctx.shape = dt.device_mesh, dst_dm, axis, dt.shape
        ctx.placements = dt.placements
        member = _coordinate(dst_dm) is not None
        local = dt.to_local() if member else _no_piece(dt)
        return DTensor.from_local(local, dst_dm, _without(dt.placements, axis), run_check=False, shape=dt.shape,
                                  stride=dt.stride())

    @staticmethod
    def backward(ctx, grad):
        from torch.distributed.tensor import Partial as _tp_Partial

        placements = tuple(_tp_Replicate() if p.is_partial() else p for p in _without(ctx.placements, ctx.axis))
        out = list(ctx.placements)
        out[ctx.axis] = _tp_Partial()
        if _coordinate(ctx.dst_dm) is not None:
            if _is_dt(grad) and tuple(grad.placements) != placements:
                grad = grad.redistribute(ctx.dst_dm, placements)
            local = grad.to_local() if _is_dt(grad) else grad
        else:
            local = torch.zeros(_local_shape(ctx.shape, ctx.src_dm, out), dtype=grad.dtype,
                                device=_device_of(ctx.src_dm))
        return DTensor.from_local(local.contiguous(), ctx.src_dm, tuple(out), run_check=False, shape=ctx.shape,
                                  stride=_contiguous_stride(ctx.shape)), None, None


def _global_to_sub(t, axis, mesh, placements):
    src = _pt.from_torch_placements(t.placements)
    src[axis] = Replicate()
    mid = _redistribute(t, t.device_mesh, src)
    dm = device_mesh(mesh)
    return _redistribute(_GlobalToSub.apply(mid, axis, dm), dm, placements)


class _SubToGlobal(torch.autograd.Function):
    """A DTensor on slice `index` of the global mesh's `axis`, replicated to every slice: each process of the
    slice sends its piece to the processes at the same position of the other slices.  The backward is the
    gradient summed over `axis`, kept by the slice."""

    @staticmethod
    def forward(ctx, dt, axis, index, dst_dm):
        import torch.distributed as tdist

        ctx.src_dm, ctx.dst_dm, ctx.axis, ctx.shape = dt.device_mesh, dst_dm, axis, dt.shape
        ctx.placements = dt.placements
        out = list(dt.placements)
        out.insert(axis, _tp_Replicate())
        ctx.out = tuple(out)
        grid = dst_dm.mesh.cpu().numpy()
        coord = _coordinate(dst_dm)
        ops, got = [], None
        if coord is not None:
            if coord[axis] == index:
                got = dt.to_local().contiguous()
                for j in range(grid.shape[axis]):
                    if j != index:
                        peer = int(grid[tuple(coord[:axis]) + (j,) + tuple(coord[axis + 1:])])
                        ops.append(tdist.P2POp(tdist.isend, got, peer))
            else:
                peer = int(grid[tuple(coord[:axis]) + (index,) + tuple(coord[axis + 1:])])
                got = torch.empty(_local_shape(dt.shape, dst_dm, ctx.out), dtype=dt.dtype, device=_device_of(dst_dm))
                ops.append(tdist.P2POp(tdist.irecv, got, peer))
        if ops:
            for work in tdist.batch_isend_irecv(ops):
                work.wait()
        if got is None:
            got = _no_piece(dt, dt.dtype, _device_of(dst_dm))
        return DTensor.from_local(got, dst_dm, ctx.out, run_check=False, shape=dt.shape, stride=dt.stride())

    @staticmethod
    def backward(ctx, grad):
        placements = tuple(_tp_Replicate() if p.is_partial() else p for p in ctx.out)
        if _coordinate(ctx.dst_dm) is not None and tuple(grad.placements) != placements:
            grad = grad.redistribute(ctx.dst_dm, placements)
        src = tuple(_tp_Replicate() if p.is_partial() else p for p in ctx.placements)
        if _coordinate(ctx.src_dm) is not None:
            local = grad.to_local()
        else:
            local = _no_piece(grad, grad.dtype, _device_of(ctx.src_dm))
        return DTensor.from_local(local, ctx.src_dm, src, run_check=False, shape=ctx.shape,
                                  stride=_contiguous_stride(ctx.shape)), None, None, None


def _sub_to_global(t, where, mesh, placements):
    axis, index = where
    src = [Replicate() if isinstance(p, Partial) else p for p in _pt.from_torch_placements(t.placements)]
    mid = _redistribute(t, t.device_mesh, src)
    dm = device_mesh(mesh)
    return _redistribute(_SubToGlobal.apply(mid, axis, index, dm), dm, placements)


# set by auto_parallel.pipeline while a pipeline stage of dist.to_static runs its part of the program
_STAGE_TRANSFER = [None]
# set by auto_parallel.pipeline while the program runs (or prepares the inputs of) a layer that VPP's segment
# split moved to another stage: (placed mesh, running mesh), so its reshard / shard_tensor calls land on the
# stage it now runs on, as Paddle's pass re-meshes every op of the segment
_MESH_REMAP = [None]


def _remapped(mesh):
    remap = _MESH_REMAP[0]
    return remap[1] if remap is not None and mesh == remap[0] else mesh


def _cross_mesh(t, mesh, placements):
    """DTensor `t` laid out as `placements` on its mesh, then moved to `mesh` by point-to-point sends."""
    return _CrossMesh.apply(_redistribute(t, t.device_mesh, placements), device_mesh(mesh))


def unshard_dtensor(dist_tensor):
    """The dense global value of a distributed Tensor on every process of its mesh (a new Tensor that stops
    gradients, as Paddle's); a process outside the mesh gets a dense Tensor without a value, as in Paddle."""
    from ...nn.layer.layers import EagerParamBase

    t = dist_tensor._t
    if not _is_dt(t):
        raise ValueError("The input should be a distributed tensor.")
    held = holds_piece(t)
    if held:
        full = _redistribute(t, t.device_mesh, [Replicate()] * t.device_mesh.ndim).to_local()
    else:  # a process outside the mesh: nothing to gather, and no value (Paddle's uninitialised tensor)
        full = torch.empty(t.shape, dtype=t.dtype, device="meta")
    if isinstance(dist_tensor, EagerParamBase):
        out = object.__new__(type(dist_tensor))
        out._setup(full.detach(), not dist_tensor.stop_gradient, name=dist_tensor.name)
    else:
        out = wrap(full.detach())  # Paddle's is a new Tensor over the gathered value: it stops gradients
    return out if held else _valueless(t, out)


def is_dist_tensor(tensor):
    return isinstance(tensor, Tensor) and _is_dt(tensor._t)


def shard_layer(layer, process_mesh, shard_fn=None, input_fn=None, output_fn=None):
    """Make every parameter and buffer of `layer` a distributed tensor on `process_mesh`.

    `shard_fn(name, sublayer, mesh)` places what it wants; the rest is replicated.  input_fn /
    output_fn become forward pre / post hooks, as in Paddle.
    """
    from ...nn.layer.layers import Layer

    if process_mesh is None:
        raise ValueError("The argument `process_mesh` cannot be empty.")
    if not isinstance(process_mesh, _CoreProcessMesh):
        raise ValueError("The argument `process_mesh` is not `dist.ProcessMesh` type.")
    if not isinstance(layer, Layer):
        raise TypeError(f"shard_layer: layer must be a paddle.nn.Layer, got {type(layer).__name__}")
    replicate = [Replicate()] * process_mesh.ndim
    for name, sub in layer.named_sublayers(include_self=True):
        if shard_fn is not None:
            shard_fn(name, sub, process_mesh)
        for key, param in list(sub._parameters.items()):
            if param is not None and not _is_dt(param._t):
                setattr(sub, key, shard_tensor(param, process_mesh, replicate))
        for key, buf in list(sub._buffers.items()):
            if buf is not None and not _is_dt(buf._t):
                sub._buffers[key] = shard_tensor(buf, process_mesh, replicate)
    if input_fn is not None:
        layer.register_forward_pre_hook(lambda _, inputs: input_fn(inputs, process_mesh))
    if output_fn is not None:
        layer.register_forward_post_hook(lambda _, inputs, outputs: output_fn(outputs, process_mesh))
    return layer


# ---------------------------------------------------------------- Tensor attributes
def placements_of(x):
    """Tensor.placements: Paddle placements of a distributed Tensor (None for a dense one)."""
    t = x._t
    return _pt.from_torch_placements(t.placements) if _is_dt(t) else None


def process_mesh_of(x):
    """Tensor.process_mesh: the ProcessMesh of a distributed Tensor (None for a dense one)."""
    t = x._t
    return core_mesh_of(t.device_mesh) if _is_dt(t) else None


def replicate_for_grad(param):
    """A dense parameter whose gradient is distributed (dense weights meeting distributed inputs) is made a
    replicated distributed parameter on the gradient's mesh before the optimizer updates it, as Paddle's
    optimizer leaves it."""
    t, g = param._t, param._t.grad
    dm = g.device_mesh
    local = _to_mesh_device(t.detach(), dm) if _coordinate(dm) is not None else _no_piece(t)
    new = torch.nn.Parameter(DTensor.from_local(local, dm, (_tp_Replicate(),) * dm.ndim, run_check=False,
                                                shape=t.shape, stride=t.stride()), requires_grad=t.requires_grad)
    new.grad = g
    param._t = new


def holds_piece(t):
    """Whether this process is in the mesh of DTensor `t` (else it holds no part of it)."""
    return _coordinate(t.device_mesh) is not None


def global_value(t):
    """The dense global value of a DTensor on every rank of its mesh (what item(), numpy() and tolist() read);
    None on a process outside the mesh, which holds no part of it.  (There Paddle's tensor is uninitialised:
    numpy() gives an empty array, item() None, float() an AssertionError; torch's DTensor ops give a local
    0.0, which must not be read as the value.)"""
    if not holds_piece(t):
        return None
    return _redistribute(t, t.device_mesh, [Replicate()] * t.device_mesh.ndim).to_local()


def not_held_error(x, what):
    """Paddle's error for reading a number from a distributed Tensor this process holds no part of (or from the
    valueless dense Tensor unshard_dtensor gives such a process)."""
    import torch.distributed as tdist

    rank = tdist.get_rank() if tdist.is_initialized() else 0
    mesh = process_mesh_of(x)
    if mesh is not None:
        return AssertionError(f"variable's tensor is not initialized: {what}() of a distributed Tensor that lives on "
                              f"the process mesh {mesh}, which process {rank} is not in (it holds no part of it; read "
                              "it on the mesh's processes)")
    mesh = x.__dict__.get("_unheld_mesh")
    if mesh is not None:
        return AssertionError(f"variable's tensor is not initialized: {what}() of the dense value of a distributed "
                              f"Tensor on the process mesh {mesh}, which process {rank} is not in (unshard_dtensor "
                              "gives it no value there; read it on the mesh's processes)")
    return AssertionError(f"variable's tensor is not initialized: {what}() of a Tensor without a value")


# ---------------------------------------------------------------- paddle.distributed.Strategy
class FusePasses:
    """Strategy.fused_passes of paddle.distributed.Strategy: enable, gemm_epilogue, dropout_add."""

    def __init__(self, config_dict=None):
        self.enable = False
        self.gemm_epilogue = False
        self.dropout_add = False
        for key, value in (config_dict or {}).items():
            if not hasattr(self, key):
                raise ValueError(f"Unknown fuse pass {key}")
            setattr(self, key, value)


def _strategy_groups():
    return {"sharding": _st.ShardingConfig, "gradient_merge": _st.GradientMergeConfig,
            "pipeline": _st.PipelineConfig, "amp": _st.AMPConfig, "fused_passes": FusePasses,
            "recompute": _st.RecomputeConfig, "mp_optimization": _st.MPOptimizationConfig,
            "dp_optimization": _st.DPOptimizationConfig, "sp_optimization": _st.SPOptimizationConfig}


class Strategy(_st.BaseConfig):
    """paddle.distributed.Strategy: the settings dist.to_static reads (sharding, fused_passes, gradient_merge,
    pipeline, amp as properties; recompute and the mp / dp / sp optimisation groups kept privately, as in
    Paddle).  Another class than fleet.auto.Strategy, which dist.to_static accepts too."""

    def __init__(self, config=None):
        if config is not None and not isinstance(config, dict):
            raise ValueError(f"Expected a dictionary. But received: {config}")
        self._config_dict = copy.deepcopy(config) if config is not None else {}
        super().__init__(_st.BASE, self._config_dict)
        for name, cls in _strategy_groups().items():
            setattr(self, "_" + name, cls(self._config_dict.get(name, None)))
        self._full_graph = self._config_dict.get("full_graph", True)

    def _from_legacy_strategy(self, legacy_strategy):
        """Take the settings of a fleet.auto.Strategy."""
        for key in _st._DEFAULTS[_st.BASE]:
            setattr(self, key, getattr(legacy_strategy, key))
        passes = legacy_strategy.fused_passes
        self._fused_passes.enable = passes.enable
        self._fused_passes.gemm_epilogue = self._fused_passes.gemm_epilogue or \
            "fused_gemm_epilogue_pass" in passes.fused_passes_list
        self._fused_passes.dropout_add = self._fused_passes.dropout_add or \
            "fused_dropout_add_pass" in passes.fused_passes_list
        for name in ("amp", "sharding", "gradient_merge", "pipeline", "recompute", "mp_optimization",
                     "dp_optimization", "sp_optimization"):
            setattr(self, "_" + name, copy.deepcopy(getattr(legacy_strategy, name)))

    full_graph = property(lambda self: self._full_graph, doc="Whether to use AST mode.")
    sharding = property(lambda self: self._sharding, doc="Sharding of the optimizer states: enable, stage, degree.")
    gradient_merge = property(lambda self: self._gradient_merge, doc="Gradient merge: enable, k_steps, avg.")
    fused_passes = property(lambda self: self._fused_passes, doc="Fused passes: enable, gemm_epilogue, dropout_add.")
    pipeline = property(lambda self: self._pipeline, doc="Pipeline parallelism: enable, schedule_mode, ...")
    amp = property(lambda self: self._amp, doc="Automatic mixed precision: enable, dtype, level, ...")


def as_dist_strategy(strategy):
    """The paddle.distributed.Strategy that dist.to_static reads for `strategy`, which may also be a
    fleet.auto.Strategy: its base settings, fused passes, amp, sharding, gradient merge and pipeline groups (Paddle
    reads no recompute or mp / dp / sp groups from it: those stay at their defaults, as there)."""
    if not isinstance(strategy, _st.Strategy):
        return strategy
    out = Strategy()
    out._from_legacy_strategy(strategy)
    for name, cls in _strategy_groups().items():
        if name in ("recompute", "mp_optimization", "dp_optimization", "sp_optimization"):
            setattr(out, "_" + name, cls())
    out._config_dict = strategy._config_dict
    return out


def enable_auto_dp():
    """paddle.distributed.enable_auto_dp: Paddle's automatic data parallel (each rank's batch taken as its own,
    the gradients made partial sums in the optimizer) is not built here."""
    raise _report.unsupported("paddle.distributed.enable_auto_dp",
                              ": shard the batch with paddle.distributed.shard_dataloader(shard_dims='dp') instead")


from .process_mesh import split_mesh  # noqa: E402,F401  (Paddle's api module exports it)
from .moe_mesh import moe_global_mesh_tensor, moe_sub_mesh_tensors  # noqa: E402,F401
