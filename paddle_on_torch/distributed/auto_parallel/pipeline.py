"""Strategy.pipeline in dist.to_static on torch.distributed.pipelining.

A Paddle auto-parallel model is one program whose stages are the process meshes it moves data
between: `dist.reshard(x, other_mesh, ...)` (written by the user, or by parallelize's pp_config) is
a pipeline transfer.  Paddle's static pass cuts the program there; here the cut is found by running
the program once (the first micro-batch, no gradients, the real transfers) and recording the chain
of meshes the transfers go through, their layouts and this process's piece shapes.

Each stage is then a torch module that runs the whole program with the transfers replaced:
the transfer into its mesh returns the tensor the schedule received, the transfer out of it hands
the piece to the schedule and stops the program; earlier parts run without gradients on
placeholder tensors (on meshes this process is not in, DTensor does nothing there).  The pieces
travel between the processes at the same position of consecutive meshes, as Paddle pairs them.
The schedule (`distributed.pipeline_schedule`, shared with fleet) runs the stages with the static
shapes recorded, each micro-batch loss divided by accumulate_steps; the optimizer then steps once.
A model whose program visits the meshes several times in turn (mesh0, mesh1, mesh0, mesh1) holds
several stages per process: Paddle's VPP with a custom mesh order, run by ScheduleInterleaved1F1B.  A program
that visits each mesh once is first split by `vpp_seg_method` into that form (split_by_segments).
"""
import torch
import torch.distributed as tdist
from torch.distributed.tensor import DTensor

from ..._normalize import wrap
from .api import _MESH_REMAP, _STAGE_TRANSFER, _contiguous_stride, _CrossMesh, _redistribute
from .process_mesh import core_mesh_of, device_mesh

__all__ = []


class _Meta:
    """How to rebuild a (micro-batch) Tensor from this process's local piece."""

    def __init__(self, t, local_shape=None):
        self.dist = isinstance(t, DTensor)
        self._placeholder = None
        self.dtype = t.dtype
        self.shape = tuple(t.shape)
        if self.dist:
            self.dm, self.placements = t.device_mesh, t.placements
            self.member = t.device_mesh.get_coordinate() is not None
            self.local_shape = tuple(t.to_local().shape) if local_shape is None else local_shape
        else:
            self.member, self.local_shape = True, self.shape

    def build(self, local):
        if not self.dist:
            return local
        return DTensor.from_local(local, self.dm, self.placements, run_check=False, shape=self.shape,
                                  stride=_contiguous_stride(self.shape))

    def placeholder(self):
        # made once: a placeholder only feeds the part of the program whose results this stage drops,
        # so its values never matter (and on a mesh this process is not in, its piece is empty)
        if self._placeholder is None:
            self._placeholder = self.build(torch.zeros(self.local_shape if self.member else (0,), dtype=self.dtype))
        return self._placeholder

    def example(self, requires_grad=False):
        # (torch makes its receive buffers require grad as the example does)
        return torch.empty(self.local_shape, dtype=self.dtype, device="meta", requires_grad=requires_grad)


class _Transfer:
    def __init__(self, src, dst, out, local_shape):
        self.src, self.dst = src, dst  # core ProcessMeshes
        self.meta = _Meta(out, local_shape)
        self.hop = None


class _Recorder:
    """The first micro-batch run through the whole program with real transfers, to find the stages."""

    def __init__(self):
        self.transfers, self.agreed = [], []

    def transfer(self, t, mesh, placements):
        mid = _redistribute(t, t.device_mesh, placements)
        out = _CrossMesh.apply(mid, device_mesh(mesh))
        # this process's piece: the one it sends (a sender is not in the target mesh) or receives
        sender = t.device_mesh.get_coordinate() is not None
        self.transfers.append(_Transfer(core_mesh_of(t.device_mesh), mesh, out,
                                        tuple(mid.to_local().shape) if sender else None))
        return out

    def agreed_placements(self, compute):
        self.agreed.append(compute())
        return self.agreed[-1]


class _StageDone(Exception):
    pass


class _StageRun:
    """The transfers as one stage sees them while it runs the program for one micro-batch."""

    def __init__(self, plan, index, received):
        self.plan, self.index, self.received = plan, index, list(received)
        self.sent, self.n, self.n_agreed = [], 0, 0
        self.grad_mode = None

    def transfer(self, t, mesh, placements):
        rec = self.plan.transfers[self.n]
        self.n += 1
        if rec.hop == self.index - 1:  # into this stage: what the schedule received
            if self.grad_mode is not None:
                torch.set_grad_enabled(self.grad_mode)
                self.grad_mode = None
            return rec.meta.build(self.received[rec.pos])
        if rec.hop == self.index:  # out of this stage: handed to the schedule
            self.sent.append(_redistribute(t, t.device_mesh, placements).to_local())
            if rec.last_of_hop:
                raise _StageDone
        return rec.meta.placeholder()

    def agreed_placements(self, compute):
        self.n_agreed += 1
        return self.plan.agreed[self.n_agreed - 1]


class _StageModule(torch.nn.Module):
    """Stage `index` of the program as a torch module: (received pieces..., model inputs as keywords)
    -> the pieces sent on, or (last stage) the local pieces of the model's outputs."""

    def __init__(self, plan, index, params):
        super().__init__()
        self._plan, self._index = plan, index
        self.params = torch.nn.ParameterList(params)

    def forward(self, *received, **inputs):
        plan = self._plan
        feeds = [wrap(m.build(inputs[f"in{i}"]) if m.member else m.placeholder())
                 for i, m in enumerate(plan.input_metas)]
        run = _StageRun(plan, self._index, received if self._index > 0 else ())
        if self._index > 0:  # the earlier stages' part runs on placeholders, without gradients
            run.grad_mode = torch.is_grad_enabled()
            torch.set_grad_enabled(False)
        prev = _STAGE_TRANSFER[0]
        _STAGE_TRANSFER[0] = run
        try:
            out = plan.layer(*feeds)
        except _StageDone:
            return tuple(run.sent) if len(run.sent) > 1 else run.sent[0]
        finally:
            _STAGE_TRANSFER[0] = prev
            _MESH_REMAP[0] = None  # (a stage may stop inside a moved segment)
            if run.grad_mode is not None:
                torch.set_grad_enabled(run.grad_mode)
        outs = out if isinstance(out, (list, tuple)) else [out]
        locals_ = tuple(o._t.to_local() if isinstance(o._t, DTensor) else o._t for o in outs)
        return locals_ if len(locals_) > 1 else locals_[0]


def split_by_segments(layer, seg_method, vpp_degree):
    """Paddle's VPP by `vpp_seg_method` for a program that visits each stage's mesh once: the sublayers of class
    `seg_method` (in order; each on one stage's mesh) are dealt out as Paddle's pass deals them, each stage's
    layers round-robin over its vpp_degree chunks and chunk c of stage s being segment c * pp + s of the program,
    so that the program runs mesh0, mesh1, ..., mesh0, mesh1, ... (vpp_degree times).  A layer whose segment is on
    another stage moves there: its parameters are sent to that stage's processes (the piece at each mesh position
    to the same position) and, while it runs, its inputs move to that mesh and its own reshard / shard_tensor
    calls to its placed mesh land there (Paddle re-meshes the segment's ops).  Returns False when the program
    already interleaves its meshes (Paddle's custom-mesh VPP), leaving it as it is."""
    segs = [sub for _, sub in layer.named_sublayers() if type(sub).__name__ == seg_method]
    if not segs:
        raise ValueError(f"pipeline.vpp_seg_method {seg_method!r}: the model has no sublayer of that class")
    placed = []
    for sub in segs:
        meshes = {core_mesh_of(p._t.device_mesh) for p in sub.parameters() if isinstance(p._t, DTensor)}
        if len(meshes) != 1:
            from ... import _report

            raise _report.unsupported(f"dist.to_static VPP with a {seg_method} whose parameters are on "
                                      f"{len(meshes)} process meshes (one expected)")
        placed.append(meshes.pop())
    stages = list(dict.fromkeys(placed))
    stage_ids = [stages.index(m) for m in placed]
    pp = len(stages)
    if pp < 2 or stage_ids != sorted(stage_ids):
        return False
    counts = [stage_ids.count(i) for i in range(pp)]
    if any(n < vpp_degree for n in counts):
        raise AssertionError("The number of layers on each pp_stage must not be less than the vpp_degree in the "
                             "pp_stage to ensure that each chunk contains at least one layer.")
    per_segment = [0] * (pp * vpp_degree)
    for stage, n in enumerate(counts):
        for i in range(n):
            per_segment[(i % vpp_degree) * pp + stage] += 1
    runs_on = [stages[seg % pp] for seg, n in enumerate(per_segment) for _ in range(n)]
    remaps = [(src, dst) if src != dst else None for src, dst in zip(placed, runs_on)] + [None]
    for i, (sub, dst) in enumerate(zip(segs, runs_on)):
        if remaps[i] is not None:
            _move_parameters(sub, dst)
        sub.register_forward_pre_hook(_enter_segment(dst, remaps[i]))
        # what the program does between two segments (the model moving the next layer's inputs to its placed
        # mesh) already belongs to the next one: its inputs go to the mesh it runs on, and only the hidden
        # state crosses stages
        sub.register_forward_post_hook(_leave_segment(remaps[i + 1]), always_call=True)
    return True


@torch.no_grad()
def _move_parameters(sub, mesh):
    dm = device_mesh(mesh)
    for p in sub.parameters():
        t = p._t
        moved = _CrossMesh.apply(t.detach(), dm)
        p._t = torch.nn.Parameter(moved, requires_grad=t.requires_grad)


def _enter_segment(dst, remap):
    from . import api
    from .intermediate.parallelize import _agreed_placements
    from ...tensor.tensor import Tensor

    def hook(layer, inputs):
        api._MESH_REMAP[0] = remap
        moved = []
        for x in inputs:
            if isinstance(x, Tensor) and isinstance(x._t, DTensor):
                mesh = core_mesh_of(x._t.device_mesh)
                if mesh != dst and mesh.shape == dst.shape:  # (in the layout the sending processes see)
                    x = api.reshard(x, dst, _agreed_placements(x, dst))
            moved.append(x)
        return tuple(moved)

    return hook


def _leave_segment(remap):
    from . import api

    def hook(layer, inputs, outputs):
        api._MESH_REMAP[0] = remap

    return hook


class PipelinePlan:
    """The stages of one model for one micro-batch layout, and this process's schedule over them."""

    def __init__(self, layer, loss, optimizer_params, inputs, labels, acc, schedule_mode, vpp_degree=1):
        if len(labels) > 1:
            from ... import _report

            raise _report.unsupported("dist.to_static pipeline with more than one label tensor")
        self.layer, self.acc = layer, acc
        self._record(inputs, labels, acc)
        self.stages = self._stage_chain()
        self.pipelined = len(self.stages) > 1  # else one mesh: the caller accumulates micro-batches itself
        if self.pipelined:
            self._build(loss, optimizer_params, schedule_mode, vpp_degree)

    # -- finding the stages
    def _record(self, inputs, labels, acc):
        from .dist_model import _micro_batches

        first = [_micro_batches(x, acc)[0] for x in inputs]
        self.input_metas = [_Meta(x._t) for x in first]
        self.label_metas = [_Meta(_micro_batches(y, acc)[0]._t) for y in labels]
        rec = _Recorder()
        prev = _STAGE_TRANSFER[0]
        _STAGE_TRANSFER[0] = rec
        try:
            with torch.no_grad():
                out = self.layer(*first)
        finally:
            _STAGE_TRANSFER[0] = prev
            _MESH_REMAP[0] = None
        outs = out if isinstance(out, (list, tuple)) else [out]
        self.output_metas = [_Meta(o._t) for o in outs]
        self.transfers, self.agreed = rec.transfers, rec.agreed

    def _stage_chain(self):
        """The meshes the program goes through, in order; each transfer gets its hop (stage i -> i+1)."""
        meshes = []
        for rec in self.transfers:
            if not meshes:
                meshes.append(rec.src)
            if len(meshes) > 1 and (meshes[-2], meshes[-1]) == (rec.src, rec.dst):
                pass  # another tensor of the same hop
            elif rec.src == meshes[-1]:
                meshes.append(rec.dst)
            else:
                from ... import _report

                raise _report.unsupported(
                    "dist.to_static pipeline whose transfers do not form one chain of stages "
                    f"(a transfer from {rec.src} after the program reached {meshes[-1]})")
            rec.hop = len(meshes) - 2
        self.hops = {}
        for rec in self.transfers:
            self.hops.setdefault(rec.hop, []).append(rec)
        for recs in self.hops.values():
            for i, rec in enumerate(recs):
                rec.pos, rec.last_of_hop = i, i == len(recs) - 1
        return meshes

    # -- this process's stages and schedule
    def _build(self, loss, params, schedule_mode, vpp_degree):
        from ..pipeline_schedule import make_schedule, make_stage

        meshes = self.stages
        distinct = []
        for m in meshes:
            if m not in distinct:
                distinct.append(m)
        pp = len(distinct)
        for i, m in enumerate(meshes):
            if m != distinct[i % pp]:
                from ... import _report

                raise _report.unsupported(f"dist.to_static pipeline visiting the process meshes in the order "
                                          f"{[distinct.index(x) for x in meshes]} (stages must cycle through them)")
        per_rank = len(meshes) // pp
        if schedule_mode == "VPP" and vpp_degree != per_rank:
            from ... import _report

            raise _report.unsupported(
                f"dist.to_static VPP with vpp_degree={vpp_degree} on a program that visits each of its {pp} meshes "
                f"{per_rank} time(s) (set pipeline.vpp_seg_method to the layer class to split, or place the "
                "layers on the meshes in turn)")
        rank = tdist.get_rank()
        # one pipeline group per mesh position: the processes Paddle pairs across the stages; every
        # process makes every group, in the same order
        groups = [tdist.new_group([m.process_ids[p] for m in distinct]) for p in range(len(distinct[0].process_ids))]
        mine = [i for i, m in enumerate(meshes) if rank in m.process_ids]
        self.first = 0 in mine
        self.last = len(meshes) - 1 in mine
        self.schedule = None
        if not mine:
            return  # this process is in no stage
        group = groups[meshes[mine[0]].process_ids.index(rank)]
        stage_params = [p._t for p in params if isinstance(p._t, DTensor)
                        and core_mesh_of(p._t.device_mesh).contains(rank)]
        stages = []
        for i in mine:
            ins = [m.example() for m in self.input_metas] if i == 0 else \
                [r.meta.example(r.meta.dtype.is_floating_point) for r in self.hops[i - 1]]
            outs = [m.example(m.dtype.is_floating_point) for m in self.output_metas] if i == len(meshes) - 1 else \
                [r.meta.example(r.meta.dtype.is_floating_point) for r in self.hops[i]]
            stages.append(make_stage(_StageModule(self, i, stage_params), i, len(meshes), group,
                                     input_args=tuple(ins), output_args=tuple(outs)))
        # (every stage gets the loss function: torch runs backward only where a schedule has one)
        self.schedule = make_schedule(stages, schedule_mode, self.acc, self._loss_fn(loss))

    def _loss_fn(self, loss):
        out_metas, label_metas, acc = self.output_metas, self.label_metas, self.acc

        def torch_loss(out, target):
            outs = out if isinstance(out, tuple) else (out,)
            outs = [wrap(m.build(o)) for m, o in zip(out_metas, outs)]
            labels = [] if target is None else [wrap(label_metas[0].build(target))]
            value = loss(*outs, *labels)._t
            # the distributed loss itself is back-propagated (as Tensor.backward does); reducing it
            # first would send the gradient back through torch's Replicate -> Partial split
            return value / acc if acc > 1 else value

        return torch_loss

    # -- one training step
    def step(self, inputs, labels):
        """Run the schedule over the batch; the mean micro-batch loss on the last stage's processes, else None."""
        if self.schedule is None:
            return None
        # an input on a mesh this process is not in travels as acc empty rows (torch splits every
        # keyword tensor into micro-batches); the stage builds its placeholder instead
        kwargs = {f"in{i}": _local(x) if m.member else torch.empty(self.acc, 0)
                  for i, (x, m) in enumerate(zip(inputs, self.input_metas))}
        args = tuple(kwargs.values()) if self.first else ()
        if self.last:
            losses = []
            target = _local(labels[0]) if labels else None
            self.schedule.step(*args, target=target, losses=losses, return_outputs=False, **kwargs)
            return sum(_full(v.detach()) for v in losses)
        self.schedule.step(*args, return_outputs=False, **kwargs)
        return None


def _full(t):
    from .dist_model import _full as full

    return full(t)


def _local(x):
    return x._t.to_local() if isinstance(x._t, DTensor) else x._t

