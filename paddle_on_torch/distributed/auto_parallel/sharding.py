"""shard_optimizer and the sharding stages (ShardingStage1/2/3), shard_scaler.

The optimizer runs on DTensor-sharded states, as Paddle's does: for a distributed parameter with
placements P, the states live at the *sharding placements* S -- P with the sharding mesh axis
turned into Shard(d), d the first tensor dim P does not already shard (Paddle's
`get_placement_with_sharding`).  A step reduce-scatters the gradient to S, runs the wrapped
optimizer's own update on this process's piece of the parameter, and all-gathers the updated
pieces back to P.  The stages differ in what stays sharded between steps, exactly as in Paddle:

* stage 1: optimizer states;
* stage 2: also gradients (a hook reduce-scatters a Partial gradient when backward produces it);
* stage 3: also the parameters themselves (placements S from the start; forward gathers what it
  needs through DTensor's redistribution).

Each is numerically one process's optimizer on the whole parameter: the update rules are
element-wise, so updating pieces equals updating the whole.  Dense parameters are updated as they
are (stage 3 with a `mesh` first makes them replicated on it, as Paddle does).
"""
import torch
import torch.distributed as tdist
from torch.distributed.tensor import DTensor

from ... import _report
from ..._normalize import wrap
from . import placement_type as _pt
from .api import _contiguous_stride
from .placement_type import Replicate, Shard

__all__ = ["ShardingStage1", "ShardingStage2", "ShardingStage3", "shard_optimizer", "shard_scaler"]


def _sharding_placements(placements, ndim, axis):
    """Paddle's get_placement_with_sharding: Shard(d) on mesh axis `axis`, d the first free tensor dim."""
    sharded = [p.get_dim() for p in placements if isinstance(p, Shard)]
    if len(sharded) > 1:
        raise ValueError("The parameter can't be shard twice with sharding strategy even in different mesh now.")
    out = list(placements)
    for d in range(ndim):
        if not sharded or d != sharded[0] % ndim:
            out[axis] = Shard(d)
            break
    return out


class _ShardingStageBase:
    def __init__(self, sharding_mesh_dim, mesh=None):
        from .process_mesh import _CoreProcessMesh

        if mesh is not None and not isinstance(mesh, _CoreProcessMesh):
            raise TypeError(f"mesh must be a paddle.distributed.ProcessMesh, got {type(mesh).__name__}")
        if mesh is not None and isinstance(sharding_mesh_dim, str) and sharding_mesh_dim not in mesh.dim_names:
            raise ValueError(f"sharding_mesh_dim {sharding_mesh_dim!r} is not a dimension of the mesh {mesh}")
        self._mesh = mesh
        self._sharding_mesh_dim = sharding_mesh_dim
        self._sharding_axis = 0

    def _set_sharding_axis(self, axis):
        self._sharding_axis = axis

    def _state_placements(self, param):
        """Paddle placements of the optimizer states (and the update) of a distributed parameter."""
        placements = _pt.from_torch_placements(param._t.placements)
        if param.shape[0] == 1:  # Paddle leaves such parameters (e.g. DiT modulation) unsharded
            return placements
        return _sharding_placements(placements, param.ndim, self._sharding_axis)

    def __call__(self, key, param, tensor):
        """Paddle's shard_fn protocol: `tensor` (an accumulator of `param`) placed as this stage keeps it."""
        from .api import reshard, shard_tensor

        if not param.is_dist():
            return tensor
        if "beta" in key:
            placements = [Replicate()] * param.process_mesh.ndim
        else:
            placements = self._state_placements(param)
        if tensor.is_dist():
            return reshard(tensor, param.process_mesh, placements)
        return shard_tensor(tensor, param.process_mesh, placements)


class ShardingStage1(_ShardingStageBase):
    """Shard the optimizer states over the `sharding_mesh_dim` axis of the parameters' mesh."""


class ShardingStage2(_ShardingStageBase):
    """Stage 1, and keep gradients reduce-scattered (sharded) after backward."""

    def _register_hook_for_param_grad(self, param):
        def reshard_grad(g):
            # as Paddle: a Partial gradient is reduce-scattered on the Partial mesh axis
            if not isinstance(g, DTensor):
                return g
            axes = [i for i, p in enumerate(g.placements) if p.is_partial()]
            if not axes:
                return g
            pl = _pt.from_torch_placements(g.placements)
            target = _sharding_placements(pl, g.dim(), axes[-1]) if g.shape[0] != 1 else pl
            target = [Replicate() if isinstance(p, _pt.Partial) else p for p in target]
            return g.redistribute(g.device_mesh, _pt.to_torch_placements(target, g.dim()))

        param._t.register_hook(reshard_grad)


class ShardingStage3(_ShardingStageBase):
    """Stage 2, and shard the parameters themselves."""

    def _state_placements(self, param):
        # the parameter already sits at its sharding placements: the states follow it (as Paddle)
        placements = _pt.from_torch_placements(param._t.placements)
        if all(isinstance(p, Replicate) for p in placements):
            return super()._state_placements(param)
        return placements

    def _shard_parameter(self, param):
        from .api import _local_piece
        from .process_mesh import device_mesh

        t = param._t
        if not isinstance(t, DTensor):
            if self._mesh is None:
                return
            dm = device_mesh(self._mesh)
            replicate = [Replicate()] * self._mesh.ndim
            local = _local_piece(t.detach(), dm, replicate)
            t = DTensor.from_local(local, dm, _pt.to_torch_placements(replicate, t.dim()), run_check=False)
            param._t = torch.nn.Parameter(t, requires_grad=param._t.requires_grad)
        target = _pt.to_torch_placements(_ShardingStageBase._state_placements(self, param), t.dim())
        if tuple(t.placements) != target:
            with torch.no_grad():
                new = t.detach().redistribute(t.device_mesh, target)
            param._t = torch.nn.Parameter(new, requires_grad=param._t.requires_grad)


_STAGES = (ShardingStage1, ShardingStage2, ShardingStage3)


def _params_of(opt):
    groups = opt._param_groups or []
    if groups and isinstance(groups[0], dict):
        return [p for g in groups for p in g["params"]]
    return list(groups)


class _ShardOptimizer:
    """What shard_optimizer returns: the wrapped optimizer, stepping distributed parameters on their pieces."""

    def __init__(self, optimizer, shard_fn=None, gradient_accumulation_steps=1):
        from ...optimizer.optimizer import Optimizer

        if optimizer is None:
            raise ValueError("The argument `optimizer` cannot be empty.")
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"shard_optimizer expects a paddle.optimizer.Optimizer, got {type(optimizer).__name__}")
        if shard_fn is not None and not isinstance(shard_fn, _STAGES):
            raise TypeError("shard_fn must be an instance of one of: ShardingStage1, ShardingStage2, ShardingStage3")
        if not isinstance(gradient_accumulation_steps, int) or gradient_accumulation_steps < 1:
            raise ValueError(f"gradient_accumulation_steps must be a positive int, got {gradient_accumulation_steps!r}")
        d = self.__dict__
        d["_inner_opt"] = optimizer
        d["_shard_fn"] = shard_fn
        # Paddle's dygraph step does not rescale by it (only its fused-buffer path uses it): kept as data
        d["gradient_accumulation_steps"] = gradient_accumulation_steps
        d["_state_pl"] = {}  # param name -> (DeviceMesh, torch placements of its states)
        d["_reduced"] = {}  # param name -> the gradient placements before _reduce_partial_grads summed them
        d["_flat_grads"] = {}  # bucket key -> the flat buffer its gradients were last summed in
        if shard_fn is not None:
            self._set_sharding_axis()
            if isinstance(shard_fn, ShardingStage3):
                for p in _params_of(optimizer):
                    shard_fn._shard_parameter(p)
            if isinstance(shard_fn, (ShardingStage2, ShardingStage3)):
                for p in _params_of(optimizer):
                    if p.is_dist() and not p.stop_gradient:
                        ShardingStage2._register_hook_for_param_grad(shard_fn, p)

    def _set_sharding_axis(self):
        """Paddle's rule: mesh axis 0, or the (last) Replicate axis of a parameter whose axis 0 is not
        Replicate; the sharding axis must be Replicate for every stage-1/2 parameter."""
        fn = self._shard_fn
        mesh = fn._mesh or _get_global_mesh()
        if mesh is None:
            raise ValueError("The global mesh or shard_fn mesh should be set for the sharding strategy.")
        if isinstance(fn._sharding_mesh_dim, str) and fn._sharding_mesh_dim not in mesh.dim_names:
            raise ValueError(f"sharding_mesh_dim {fn._sharding_mesh_dim!r} is not a dimension of the mesh {mesh}")
        axis = 0
        for p in _params_of(self._inner_opt):
            if not p.is_dist():
                continue
            pl = p.placements
            if not isinstance(pl[axis], Replicate):
                for i, q in enumerate(pl):
                    if isinstance(q, Replicate):
                        axis = i
            if not isinstance(pl[axis], Replicate) and not isinstance(fn, ShardingStage3):
                raise ValueError(f"The placement on sharding_axis should be Replicate (parameter {p.name} has "
                                 f"placements {pl})")
        fn._set_sharding_axis(axis)

    def _params(self):
        return _params_of(self._inner_opt)

    def _target_placements(self, p):
        t = p._t
        if self._shard_fn is None:
            return tuple(t.placements)
        return _pt.to_torch_placements(self._shard_fn._state_placements(p), t.dim())

    @torch.no_grad()
    def step(self):
        """The inner optimizer's step on this process's pieces of the distributed parameters.

        A gradient is brought to the state placements (reduce-scatter of a Partial gradient, the sum
        over data-parallel ranks), the element-wise update runs on the local pieces, and a parameter
        kept at other placements gets its updated pieces all-gathered back.  Processes outside a
        parameter's mesh leave it alone."""
        swapped = []
        inner = self._inner_opt
        clip = inner._grad_clip
        for p in self._params():  # a dense parameter with a distributed gradient becomes a replicated one
            g = p._t.grad
            if isinstance(g, DTensor) and not isinstance(p._t, DTensor):
                from .api import replicate_for_grad

                replicate_for_grad(p)
        try:
            self._reduce_partial_grads()
            if clip is not None and any(isinstance(p._t, DTensor) for p in self._params()):
                self._clip_dist(clip)
                inner._grad_clip = None
            for p in self._params():
                t = p._t
                if not isinstance(t, DTensor):
                    continue
                if any(pl.is_partial() for pl in t.placements):
                    raise _report.unsupported("paddle.distributed.shard_optimizer for a parameter with Partial "
                                              "placements")
                dm, g = t.device_mesh, t.grad
                target = self._target_placements(p)
                self._state_pl[p.name] = (dm, target)
                inside = dm.get_coordinate() is not None
                if g is not None:
                    if not isinstance(g, DTensor):
                        raise RuntimeError(f"the gradient of distributed parameter {p.name} is not distributed")
                    if tuple(g.placements) != target:
                        g = g.redistribute(dm, target)
                    g = g.to_local()
                same = tuple(t.placements) == target
                # a leaf Parameter holding this process's piece at the state placements (the
                # parameter's own storage when they are its placements: updated in place)
                local = t._local_tensor if same else t.detach().redistribute(dm, target).to_local()
                lp = torch.nn.Parameter(local, requires_grad=t.requires_grad)
                lp.grad = g if inside else None
                swapped.append((p, t, target, g is not None and not same))
                p._t = lp
            inner.step()
        finally:
            inner._grad_clip = clip
            for p, t, target, gather in swapped:
                lp, p._t = p._t, t
                if gather:  # all-gather the updated pieces back to the parameter's placements
                    full = DTensor.from_local(lp.detach(), t.device_mesh, target, run_check=False, shape=t.shape,
                                              stride=t.stride()).redistribute(t.device_mesh, t.placements)
                    t._local_tensor.copy_(full.to_local())

    def _reduce_partial_grads(self):
        """Sum the Partial gradients that the step would only all-reduce (their state placements have
        Replicate on every Partial axis) in one flat all-reduce per mesh axis and dtype, as DDP's
        buckets do, instead of one collective per parameter."""
        buckets = {}
        for p in self._params():
            t, g = p._t, p._t.grad
            if not isinstance(t, DTensor) or not isinstance(g, DTensor) or t.device_mesh.get_coordinate() is None:
                continue
            axes = tuple(i for i, q in enumerate(g.placements) if q.is_partial())
            target = self._target_placements(p)
            if not axes or any(getattr(g.placements[i], "reduce_op", "sum") != "sum" or not target[i].is_replicate()
                               for i in axes):
                continue
            buckets.setdefault((id(g.device_mesh), axes, g.dtype), []).append(p)
        for key, ps in buckets.items():
            axes = key[1]
            grads = [p._t.grad for p in ps]
            flat = self._flat_grad(key, grads)
            dm = grads[0].device_mesh
            for i in axes:
                tdist.all_reduce(flat, group=dm.get_group(i))
            offset = 0
            for p, g in zip(ps, grads):
                n = g._local_tensor.numel()
                pl = tuple(_pt._tp.Replicate() if q.is_partial() else q for q in g.placements)
                p._t.grad = DTensor.from_local(flat[offset:offset + n].view_as(g._local_tensor), dm, pl,
                                               run_check=False, shape=g.shape, stride=g.stride())
                self._reduced[p.name] = g.placements
                offset += n

    def _flat_grad(self, key, grads):
        """The gradients' local pieces as one flat buffer: the buffer of the last step when the pieces are
        still its consecutive views (clear_grad zeroes them in place and the backward adds into them), so
        no copy is needed; else a new one (torch.cat)."""
        flat = self._flat_grads.get(key)
        if flat is not None:
            offset, ptr, size = 0, flat.data_ptr(), flat.element_size()
            for g in grads:
                t = g._local_tensor
                if t.data_ptr() != ptr + offset * size or not t.is_contiguous():
                    break
                offset += t.numel()
            else:
                if offset == flat.numel():
                    return flat
        flat = torch.cat([g._local_tensor.reshape(-1) for g in grads])
        self._flat_grads[key] = flat
        return flat

    def _clip_dist(self, clip):
        """ClipGradByGlobalNorm over distributed gradients: the norm of the global gradients (each
        squared sum is reduced over its mesh), the dense ones added once.  With parameters on several
        meshes (pipeline stages) each mesh's sum is counted once, by the process at its first position,
        and the sums are added over the job (one all-reduce), so every process clips by the same norm."""
        from ...nn.clip import ClipGradByGlobalNorm, global_norm_scale, scale_grads_

        if not isinstance(clip, ClipGradByGlobalNorm):
            raise _report.unsupported(f"paddle.distributed.shard_optimizer with grad_clip={type(clip).__name__}",
                                      " (only ClipGradByGlobalNorm)")
        grads = [(p, p._t.grad) for p in self._params()
                 if not p.stop_gradient and p._t.grad is not None and getattr(p, "need_clip", True) is not False]
        dense = torch.zeros((), dtype=torch.float32)
        meshes = {}  # id(DeviceMesh) -> [DeviceMesh, the squared sum of its gradients]
        for p in self._params():  # every process sees the same meshes, gradients or not
            if isinstance(p._t, DTensor) and not p.stop_gradient:
                meshes.setdefault(id(p._t.device_mesh), [p._t.device_mesh, torch.zeros((), dtype=torch.float32)])
        for p, g in grads:
            if isinstance(g, DTensor):
                entry = meshes.setdefault(id(g.device_mesh), [g.device_mesh, torch.zeros((), dtype=torch.float32)])
                if g.device_mesh.get_coordinate() is not None:
                    entry[1] = entry[1] + torch.sum(torch.square(g.float())).full_tensor().cpu()
            else:
                dense = dense + torch.sum(torch.square(g.float())).cpu()
        if len(meshes) > 1:
            first = [total for dm, total in meshes.values()
                     if dm.get_coordinate() is not None and not any(dm.get_coordinate())]
            total = sum(first, torch.zeros((), dtype=torch.float32))
            total = total.to(next(iter(meshes.values()))[0].device_type)
            tdist.all_reduce(total)
            total = total.cpu() + dense
        else:
            total = sum((t for _, t in meshes.values()), dense)
        scale = global_norm_scale(total, clip.clip_norm, clip.auto_skip_clip)
        if scale is not None:
            scale_grads_([g for _, g in grads], scale)

    def clear_grad(self, set_to_zero=True):
        # per gradient, on the local piece: DTensor refuses an in-place zero (and torch._foreach_zero_)
        # of a Partial gradient, whose pieces are zero exactly when the sum is
        for p in self._params():
            g = p._t.grad
            if p.stop_gradient or g is None:
                continue
            if set_to_zero:
                (g._local_tensor if isinstance(g, DTensor) else g).zero_()
                partial = self._reduced.pop(p.name, None) if isinstance(g, DTensor) else None
                if partial is not None:
                    # zeros are a Partial sum too: keep the layout the backward produces, or the next
                    # backward would add its Partial gradient to a Replicate one (an all-reduce per
                    # parameter, inside the backward) instead of leaving it to the flat all-reduce
                    p._t.grad = DTensor.from_local(g._local_tensor, g.device_mesh, partial, run_check=False,
                                                   shape=g.shape, stride=g.stride())
            else:
                p._t.grad = None

    clear_gradients = clear_grad

    def _acc_layouts(self):
        """{accumulator var name: (acc key, param)} for the distributed parameters' states."""
        by_name = {p.name: p for p in self._params()}
        out = {}
        for key, accs in self._inner_opt._accumulators.items():
            for pname, var in accs.items():
                p = by_name.get(pname)
                if p is not None and p.name in self._state_pl:
                    out[var.name] = (key, p)
        return out

    def state_dict(self):
        """Paddle's optimizer state dict, the states of distributed parameters as distributed Tensors
        (sharded like the stage keeps them; beta powers replicated).  Before the first step the states
        are created by a step on zero gradients, as Paddle does, so a checkpoint can be loaded into them."""
        params = [p for p in self._params() if not p.stop_gradient]
        if params and all(p._t.grad is None for p in params) and not self._inner_opt._accumulators:
            for p in params:
                p._t.grad = torch.zeros_like(p._t)
            self.step()
            self._inner_opt.clear_grad(set_to_zero=False)
        state = dict(self._inner_opt.state_dict())
        for name, (key, p) in self._acc_layouts().items():
            var = state.get(name)
            if var is None:
                continue
            dm, target = self._state_pl[p.name]
            if "beta" in key:
                target = tuple(_pt.to_torch_placements([Replicate()] * dm.ndim, var.ndim))
                shape = var._t.shape
            else:
                shape = p._t.shape
            dt = DTensor.from_local(var._t, dm, target, run_check=False, shape=shape,
                                    stride=_contiguous_stride(shape))
            out = wrap(dt)
            out.name = var.name
            state[name] = out
        return state

    def set_state_dict(self, state_dict):
        """Accepts distributed states at any placements (e.g. loaded from a checkpoint of another layout)."""
        state = {}
        for k, v in state_dict.items():
            t = getattr(v, "_t", None)
            if isinstance(t, DTensor):
                layouts = self._acc_layouts()
                if k in layouts:
                    _, p = layouts[k]
                    dm, target = self._state_pl[p.name]
                    if "beta" in layouts[k][0]:
                        target = _pt.to_torch_placements([Replicate()] * dm.ndim, t.dim())
                    if tuple(t.placements) != tuple(target):
                        t = t.redistribute(dm, target)
                    v = wrap(t.to_local())
                else:
                    from .api import global_value

                    v = wrap(global_value(t))
            state[k] = v
        return self._inner_opt.set_state_dict(state)

    load_state_dict = set_state_dict

    def __getattr__(self, item):
        return getattr(self.__dict__["_inner_opt"], item)

    def __setattr__(self, item, value):
        setattr(self._inner_opt, item, value)



def _get_global_mesh():
    from .interface import get_mesh

    return get_mesh()


def shard_optimizer(optimizer, shard_fn=None, gradient_accumulation_steps=1):
    """The global-view optimizer made distributed: `shard_fn` a ShardingStage1/2/3 or None."""
    return _ShardOptimizer(optimizer, shard_fn, gradient_accumulation_steps)


def shard_scaler(scaler):
    """A GradScaler whose unscale reads distributed gradients: the inf/nan check runs on each
    process's pieces and is combined over all processes (an all-reduce of the flag)."""
    from ...amp.grad_scaler import AmpScaler, OptimizerState, _params, _to_tensor

    if not isinstance(scaler, AmpScaler):
        raise TypeError(f"shard_scaler expects a paddle.amp.GradScaler, got {type(scaler).__name__}")

    def _unscale(optimizer):
        if not scaler._enable:
            return
        state = scaler._optimizer_states[id(optimizer)]
        if state["state"] is OptimizerState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        if state["state"] is OptimizerState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        inv = 1.0 / float(scaler._scale._t.to(torch.float32))
        found = torch.zeros((), dtype=torch.float32)
        with torch.no_grad():
            for p in _params(optimizer):
                g = p._t.grad
                if g is None:
                    continue
                local = g._local_tensor if isinstance(g, DTensor) else g
                found = torch.maximum(found, (~torch.isfinite(local)).any().float().cpu())
                local.mul_(inv)
        if tdist.is_available() and tdist.is_initialized():
            tdist.all_reduce(found, op=tdist.ReduceOp.MAX)
        scaler._found_inf = _to_tensor(found.bool().reshape([1]))
        state["state"] = OptimizerState.UNSCALED

    scaler._unscale = _unscale
    return scaler
