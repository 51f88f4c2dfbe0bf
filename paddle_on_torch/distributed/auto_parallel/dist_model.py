"""shard_dataloader, shard_optimizer, dist.to_static -> DistModel.

DistModel runs the dynamic graph, not a compiled static program: `to_static` here changes how the
step is driven, not how it executes.  It computes what Paddle's static auto-parallel computes for
the layouts it supports:

* a model whose parameters are all dense (pure data parallelism, as in a model fed by a
  `shard_dataloader`): each rank runs the model on its own part of the batch, the outputs are
  joined into DTensors sharded like the inputs, the loss is computed on those DTensors (so a mean
  is the mean over the global batch), and the parameter gradients are summed over the ranks that
  hold different data.  One step equals a single process's step on the whole batch.
* a model with DTensor parameters (from shard_layer / shard_tensor): the model runs on the
  DTensor inputs as they are and torch DTensor does the rest.

The loss returned is a numpy array with the global loss, as Paddle's DistModel returns (with its
default `return_numpy`); predict mode returns the model's output gathered over the data ranks.
"""
import inspect

import torch
import torch.distributed as tdist
from torch.distributed.tensor import DTensor

from ... import _report
from ..._normalize import wrap
from ...tensor.tensor import Tensor
from .api import dtensor_from_local, _redistribute
from .placement_type import Replicate, Shard
from .process_mesh import _CoreProcessMesh, check_fits_world
from .sharding import _ShardOptimizer, shard_optimizer  # noqa: F401 (shard_optimizer lives there)

__all__ = ["ShardDataloader", "shard_dataloader", "shard_optimizer", "DistModel", "to_static"]


def _to_list(x):
    if x is None:
        return None
    return list(x) if isinstance(x, (list, tuple)) else [x]


class ShardDataloader:
    """A DataLoader whose batches are split over a mesh dimension and come out as distributed Tensors.

    As in Paddle: with several meshes, the i-th input of a batch (or the i-th of `input_keys`) lives
    on meshes[i]; each process loads the data-parallel slice of the mesh it belongs to (along its
    shard dim), and a process in no mesh loads the first mesh's slice 0.
    """

    def __init__(self, dataloader, meshes, input_keys=None, shard_dims=None, is_dataset_splitted=False,
                 dense_tensor_idx=None):
        from ...io import DataLoader, DistributedBatchSampler
        from ..parallel import get_rank

        if is_dataset_splitted is True and shard_dims is None:
            raise ValueError("shard_dims must be set when is_dataset_splitted is True")
        self._meshes = _to_list(meshes)
        if not self._meshes:
            raise ValueError("meshes must be set")
        flat = [m for ms in self._meshes for m in (ms if isinstance(ms, (list, tuple)) else [ms])]
        for m in flat:
            if not isinstance(m, _CoreProcessMesh):
                raise TypeError(f"meshes must be paddle.distributed.ProcessMesh objects, got {type(m).__name__}")
            check_fits_world(m)
        process_id = get_rank()
        if sum(process_id in m.process_ids for m in set(flat)) > 1:
            raise ValueError(f"process_id {process_id} is in more than one mesh, the meshes are {self._meshes}")
        self._all_inputs_in_one_mesh = len(self._meshes) == 1
        self._input_keys = input_keys
        self._shard_dims = self._process_shard_dims(shard_dims)
        for ms, ds in zip(self._meshes, self._shard_dims):
            for m, d in zip(_to_list(ms), ds if isinstance(ms, (list, tuple)) else [ds]):
                if isinstance(d, str) and d not in m.dim_names:
                    raise ValueError(f"shard_dims {d!r} is not a dimension of the mesh {m}")
                if isinstance(d, int) and not 0 <= d < m.ndim:
                    raise ValueError(f"shard_dims {d} is out of range for the mesh {m}")
        mesh, shard_dim = self._get_mesh_and_shard_dim(process_id)
        if mesh is None:
            mesh = _to_list(self._meshes[0])[0]
            shard_dim = _to_list(self._shard_dims[0])[0]
            dp_rank = 0
        else:
            dp_rank = mesh._as_process_mesh().get_rank_by_dim_and_process_id(shard_dim, process_id)
        dp_world_size = mesh.get_dim_size(shard_dim)
        sampler = dataloader.batch_sampler
        if is_dataset_splitted or shard_dims is None:
            self._dataloader = dataloader
            self.batch_size = sampler.batch_size
        elif isinstance(sampler, DistributedBatchSampler):
            self.batch_size = sampler.batch_size
            self.batch_sampler = sampler
            self._dataloader = dataloader
        else:
            self.batch_size = int(sampler.batch_size / dp_world_size)
            self.batch_sampler = DistributedBatchSampler(
                dataset=dataloader.dataset, batch_size=self.batch_size, num_replicas=dp_world_size, rank=dp_rank,
                shuffle=getattr(sampler, "shuffle", False), drop_last=getattr(sampler, "drop_last", False))
            self._dataloader = DataLoader(dataset=dataloader.dataset, batch_sampler=self.batch_sampler,
                                          return_list=dataloader.return_list, collate_fn=dataloader.collate_fn,
                                          num_workers=dataloader.num_workers,
                                          worker_init_fn=dataloader.worker_init_fn)
        self.iter = None
        self.dense_tensor_idx = dense_tensor_idx

    def _process_shard_dims(self, shard_dims):
        if isinstance(shard_dims, (int, str)) or shard_dims is None:
            return [[shard_dims] * len(m) if isinstance(m, (list, tuple)) else shard_dims for m in self._meshes]
        if len(shard_dims) != len(self._meshes):
            raise ValueError(f"shard_dims must be the same length as meshes, but got {len(shard_dims)} != "
                             f"{len(self._meshes)}")
        return list(shard_dims)

    def _get_mesh_and_shard_dim(self, process_id):
        for ms, ds in zip(self._meshes, self._shard_dims):
            if isinstance(ms, (list, tuple)):
                for m, d in zip(ms, ds):
                    if process_id in m.process_ids:
                        return m, d
            elif process_id in ms.process_ids:
                return ms, ds
        return None, None

    @staticmethod
    def _placement_for(mesh, shard_dim):
        # Paddle puts Shard(0) on the first mesh dimension, whatever shard_dims names
        first = Shard(0) if shard_dim is not None else Replicate()
        return [first] + [Replicate()] * (mesh.ndim - 1)

    def _get_mesh_and_placement(self, index):
        i = 0 if self._all_inputs_in_one_mesh else index
        mesh, shard_dim = self._meshes[i], self._shard_dims[i]
        return mesh, self._placement_for(mesh, shard_dim)

    def _placements(self):
        """The first input's mesh and placements."""
        mesh, shard_dim = _to_list(self._meshes[0])[0], _to_list(self._shard_dims[0])[0]
        return mesh, self._placement_for(mesh, shard_dim)

    def _list_meshes_and_placements(self, index, length):
        if self._all_inputs_in_one_mesh:
            meshes, dims = [self._meshes[0]] * length, [self._shard_dims[0]] * length
        else:
            meshes, dims = self._meshes[index], self._shard_dims[index]
            meshes = list(meshes) if isinstance(meshes, (list, tuple)) else [meshes] * length
            dims = list(dims) if isinstance(dims, (list, tuple)) else [dims] * length
            if len(meshes) != length or len(dims) != length:
                raise ValueError(f"input {index} of the batch has {length} tensors but {len(meshes)} meshes")
        return meshes, [self._placement_for(m, d) for m, d in zip(meshes, dims)]

    def _one(self, i, data):
        if isinstance(data, (list, tuple)):
            meshes, placements = self._list_meshes_and_placements(i, len(data))
            dense = None if self.dense_tensor_idx is None else self.dense_tensor_idx[i]
            return [v if (dense is not None and j in dense) or not isinstance(v, Tensor)
                    else dtensor_from_local(v, meshes[j], placements[j]) for j, v in enumerate(data)]
        if isinstance(data, Tensor):
            if self.dense_tensor_idx is not None and self.dense_tensor_idx[i] != []:
                return data
            mesh, placements = self._get_mesh_and_placement(i)
            return dtensor_from_local(data, mesh, placements)
        return None

    def _get_batch(self, batch):
        if isinstance(batch, (list, tuple)):
            if not self._all_inputs_in_one_mesh and len(batch) != len(self._meshes):
                raise ValueError(f"the batch has {len(batch)} inputs but shard_dataloader got "
                                 f"{len(self._meshes)} meshes")
            out = []
            for i, v in enumerate(batch):
                d = self._one(i, v)
                if d is None:
                    raise ValueError(f"Unsupported input_data type {type(v)}")
                out.append(d)
            return out
        if isinstance(batch, dict):
            keys = list(batch.keys() if self._input_keys is None else self._input_keys)
            if not self._all_inputs_in_one_mesh and len(keys) != len(self._meshes):
                raise ValueError(f"the batch has {len(keys)} inputs but shard_dataloader got "
                                 f"{len(self._meshes)} meshes")
            out = dict(batch)
            for i, k in enumerate(keys):
                d = self._one(i, batch[k])
                out[k] = batch[k] if d is None else d
            return out
        if isinstance(batch, Tensor):
            return self._one(0, batch)
        raise ValueError(f"Unsupported batch_data type {type(batch)}")

    def __len__(self):
        return len(self._dataloader)

    def __iter__(self):
        self.iter = None
        return self

    def __next__(self):
        if self.iter is None:
            self.iter = iter(self._dataloader)
        return self._get_batch(next(self.iter))

    def __call__(self):
        self.iter = None
        return self


def shard_dataloader(dataloader, meshes, input_keys=None, shard_dims=None, is_dataset_splitted=False,
                     dense_tensor_idx=None):
    return ShardDataloader(dataloader, meshes, input_keys, shard_dims, is_dataset_splitted, dense_tensor_idx)


def _inner_optimizer(opt):
    return opt._inner_opt if isinstance(opt, _ShardOptimizer) else opt


def _global(t, like):
    """A torch tensor computed locally from this rank's data, as a DTensor laid out like `like`."""
    return DTensor.from_local(t, like.device_mesh, like.placements, run_check=False)


def _full(t):
    if isinstance(t, DTensor):
        return _redistribute(t, t.device_mesh, [Replicate()] * t.device_mesh.ndim).to_local()
    return t


class DistModel:
    """What dist.to_static returns: call it with a batch; train() / eval() / predict() set the mode."""

    def __init__(self, layer, loader, loss=None, optimizer=None, strategy=None, metrics=None, input_spec=None):
        from ...nn.layer.layers import Layer

        if not isinstance(layer, Layer):
            raise TypeError(f"to_static: layer must be a paddle.nn.Layer, got {type(layer).__name__}")
        self._strategy = _check_strategy(strategy)
        pipe = self._strategy.pipeline if self._strategy is not None else None
        merge = self._strategy.gradient_merge if self._strategy is not None else None
        self._acc_steps = int(pipe.accumulate_steps) if pipe is not None and pipe.enable else 1
        # gradient merge (without a pipeline): the batch cut into k_steps micro-batches, their gradients
        # summed (avg: averaged), one optimizer step; Paddle returns the first micro-batch's loss
        self._merge = merge is not None and merge.enable and not (pipe is not None and pipe.enable)
        self._merge_avg = True
        if self._merge:
            self._acc_steps, self._merge_avg = int(merge.k_steps), bool(merge.avg)
        self._schedule = pipe.schedule_mode if pipe is not None and pipe.enable else None
        self._vpp_degree = int(pipe.vpp_degree) if pipe is not None else 1
        self._layer, self._loader, self._loss = layer, loader, loss
        self._optimizer = optimizer
        self._mode = None
        self.outs = None
        self._data_group = None
        self._plans = {}
        self._segmented = False  # VPP's split by vpp_seg_method done (auto_parallel/pipeline.py)
        self._dense = not any(isinstance(p._t, DTensor) for p in layer.parameters())
        mesh = loader._meshes[0] if isinstance(loader, ShardDataloader) else None
        if self._dense and mesh is not None:
            from .process_mesh import device_mesh

            dm = device_mesh(mesh)
            _, placements = loader._placements()
            data_dims = [i for i, p in enumerate(placements) if p.is_shard()]
            if data_dims and dm.size(data_dims[0]) > 1 and dm.get_coordinate() is not None:
                self._data_group = dm.get_group(data_dims[0])
                self._sync_params()
        if optimizer is not None:
            self.train()
        elif loss is not None:
            self.eval()
        else:
            self.predict()

    @torch.no_grad()
    def _sync_params(self):
        """All data-parallel ranks start from the parameters of the group's first rank."""
        src = tdist.get_process_group_ranks(self._data_group)[0]
        for p in list(self._layer.parameters()) + list(self._layer.buffers()):
            tdist.broadcast(p._t.detach(), src, group=self._data_group)

    def train(self):
        self._mode = "train"
        self._layer.train()

    def eval(self):
        self._mode = "eval"
        self._layer.eval()

    def predict(self):
        self._mode = "predict"
        self._layer.eval()

    def _split_feeds(self, feeds):
        if self._mode == "predict":
            sig = inspect.signature(self._layer.forward)
            n = sum(1 for p in sig.parameters.values()
                    if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))
            has_var = any(p.kind == p.VAR_POSITIONAL for p in sig.parameters.values())
            return feeds if has_var else feeds[:n], []
        return feeds[:-1], feeds[-1:]

    def __call__(self, *args):
        if self._mode is None:
            raise ValueError("Please call train()/eval()/predict() first.")
        if self._mode == "train" and (self._optimizer is None or self._loss is None):
            raise ValueError("Please set optimizer and loss function before training.")
        if self._mode == "eval" and self._loss is None:
            raise ValueError("Please set loss function before evaluation.")
        feeds = []
        for item in args:
            if isinstance(item, (list, tuple)):
                feeds += list(item)
            elif isinstance(item, Tensor):
                feeds.append(item)
            else:
                raise TypeError(f"The inputs of DistModel should be list or tensor, but got {type(item)}")
        inputs, labels = self._split_feeds(feeds)
        if self._mode == "train":
            from .interface import _RECOMPUTE_PASS

            rc = self._strategy is not None and bool(self._strategy._recompute.enable)
            _RECOMPUTE_PASS[0] = rc  # interface.recompute's segments are recomputed in this step's backward
            try:
                with torch.enable_grad():
                    out = self._step(inputs, labels)
            finally:
                _RECOMPUTE_PASS[0] = False
        else:
            with torch.no_grad():
                out = self._step(inputs, labels)
        self.outs = {"loss": out} if self._mode != "predict" else {"outputs": out}
        return out

    def _step(self, inputs, labels):
        if not self._dense and self._mode == "train":
            return self._train_step_dist(inputs, labels)
        if self._dense and self._mode == "train" and self._acc_steps > 1:
            return self._dense_train_merged(inputs, labels)
        if self._dense:
            local_inputs = [x._local_value() if x.is_dist() else x for x in inputs]
            outputs = self._layer(*local_inputs)
            like = next((x._t for x in inputs if x.is_dist()), None)

            def to_global(o):
                if like is None or not isinstance(o, Tensor) or o.is_dist() or o.ndim == 0:
                    return o
                return wrap(_global(o._t, like))

            outputs = [to_global(o) for o in outputs] if isinstance(outputs, (list, tuple)) else to_global(outputs)
        else:
            outputs = self._layer(*inputs)
        if self._mode == "predict":
            if isinstance(outputs, (list, tuple)):
                return [_full(o._t).detach().cpu().numpy() for o in outputs]
            return _full(outputs._t).detach().cpu().numpy()
        loss = self._loss(*(outputs if isinstance(outputs, (list, tuple)) else [outputs]), *labels)
        value = _full(loss._t)
        if self._mode == "train":
            opt = _inner_optimizer(self._optimizer)
            value.backward()
            if self._data_group is not None:
                self._sum_grads()
            opt.step()
            opt.clear_grad()
        return value.detach().cpu().numpy()

    def _dense_train_merged(self, inputs, labels):
        """Gradient merge over a dense (data-parallel) model: each process runs its rows in k_steps micro-batches."""
        acc = self._acc_steps
        feeds = [_micro_batches(x, acc) for x in inputs]
        targets = [_micro_batches(y, acc) for y in labels]
        first = None
        for k in range(acc):
            local_inputs = [x._local_value() if x.is_dist() else x for x in (f[k] for f in feeds)]
            outputs = self._layer(*local_inputs)
            like = next((f[k]._t for f in feeds if f[k].is_dist()), None)

            def to_global(o):
                if like is None or not isinstance(o, Tensor) or o.is_dist() or o.ndim == 0:
                    return o
                return wrap(_global(o._t, like))

            outputs = [to_global(o) for o in outputs] if isinstance(outputs, (list, tuple)) else to_global(outputs)
            loss = self._loss(*(outputs if isinstance(outputs, (list, tuple)) else [outputs]),
                              *[t[k] for t in targets])
            value = _full(loss._t)
            (value / acc if self._merge_avg else value).backward()
            if first is None:
                first = value.detach()
        if self._data_group is not None:
            self._sum_grads()
        opt = _inner_optimizer(self._optimizer)
        opt.step()
        opt.clear_grad()
        return first.cpu().numpy()

    def _train_step_dist(self, inputs, labels):
        """A training step of a model with distributed parameters (one mesh, or pipeline stages on several).

        With Strategy.pipeline, a program that moves data between meshes is a pipeline: its stages
        run on torch.distributed.pipelining with Paddle's schedule (see auto_parallel/pipeline.py).
        Otherwise (one mesh) the batch is cut into `accumulate_steps` micro-batches (each process
        cuts its own rows, so no data moves), each micro-batch's loss is divided by their number
        and back-propagated.  Either way the optimizer steps once: Paddle's pipeline semantics, the
        mean loss over micro-batches."""
        acc = self._acc_steps
        opt = self._optimizer if isinstance(self._optimizer, _ShardOptimizer) else _ShardOptimizer(self._optimizer)
        if self._schedule is not None:
            plan = self._pipeline_plan(inputs, labels)
            if plan.pipelined:
                value = plan.step(inputs, labels)
                opt.step()
                opt.clear_grad()
                return None if value is None else value.cpu().numpy()
        feeds = [_micro_batches(x, acc) for x in inputs]
        targets = [_micro_batches(y, acc) for y in labels]
        losses = []
        for k in range(acc):
            outputs = self._layer(*[f[k] for f in feeds])
            outs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
            loss = self._loss(*outs, *[t[k] for t in targets])
            # backward from the (distributed) loss itself, as Tensor.backward does: on processes that
            # hold no piece of it, this still reaches the stage transfers that send gradients back
            scaled = loss._t / acc if acc > 1 and self._merge_avg else loss._t
            torch.autograd.backward(scaled, torch.ones_like(scaled))
            holds = _holds(loss._t)
            with torch.no_grad():
                losses.append((_full(loss._t.detach()) if holds else None, holds))
        opt.step()
        opt.clear_grad()
        if not losses[0][1]:
            return None  # this process holds no piece of the loss (an earlier pipeline stage)
        if self._merge:
            return losses[0][0].cpu().numpy()
        return (sum(v for v, _ in losses) / acc).cpu().numpy()

    def _pipeline_plan(self, inputs, labels):
        """The stages for this batch layout (found once per layout: a run of the first micro-batch)."""
        from .pipeline import PipelinePlan

        key = tuple((tuple(x.shape), str(x._t.dtype)) for x in [*inputs, *labels])
        seg_method = self._strategy.pipeline.vpp_seg_method
        if self._schedule == "VPP" and self._vpp_degree > 1 and seg_method and not self._segmented:
            from .pipeline import split_by_segments

            split_by_segments(self._layer, seg_method, self._vpp_degree)
            self._segmented = True
        if key not in self._plans:
            self._plans[key] = PipelinePlan(self._layer, self._loss, self._layer.parameters(), inputs, labels,
                                            self._acc_steps, self._schedule, self._vpp_degree)
        return self._plans[key]

    @torch.no_grad()
    def _sum_grads(self):
        params = [p for p in self._layer.parameters() if not p.stop_gradient]
        by_dtype = {}
        for p in params:
            by_dtype.setdefault(p._t.dtype, []).append(p)
        for ps in by_dtype.values():
            flat = torch.cat([(p._t.grad if p._t.grad is not None else torch.zeros_like(p._t)).reshape(-1)
                              for p in ps])
            tdist.all_reduce(flat, group=self._data_group)
            offset = 0
            for p in ps:
                n = p._t.numel()
                p._t.grad = flat[offset:offset + n].view_as(p._t).clone()
                offset += n

    def state_dict(self, mode="all"):
        if mode not in ("all", "param", "opt"):
            raise ValueError("mode can only be 'all', 'param' or 'opt'.")
        out = {}
        if mode in ("all", "param"):
            out.update(self._layer.state_dict())
        if mode in ("all", "opt") and self._optimizer is not None:
            out.update(_inner_optimizer(self._optimizer).state_dict())
        return out

    def set_state_dict(self, state_dict):
        params = self._layer.state_dict()
        self._layer.set_state_dict({k: v for k, v in state_dict.items() if k in params})
        if self._optimizer is not None:
            rest = {k: v for k, v in state_dict.items() if k not in params}
            if rest:
                _inner_optimizer(self._optimizer).set_state_dict(rest)


_SCHEDULES = ("FThenB", "1F1B", "Eager1F1B", "VPP", "ZBH1")


def _check_strategy(strategy):
    from .api import Strategy, as_dist_strategy
    from .strategy import Strategy as _Legacy

    if strategy is None:
        return None
    if not isinstance(strategy, (Strategy, _Legacy)):
        raise TypeError(f"strategy must be a paddle.distributed.Strategy, got {type(strategy).__name__}")
    strategy = as_dist_strategy(strategy)  # a fleet.auto.Strategy is read as Paddle's DistModel reads it
    pipe = strategy.pipeline
    if pipe.enable:
        if pipe.schedule_mode not in _SCHEDULES:
            raise ValueError(f"pipeline.schedule_mode {pipe.schedule_mode!r} is not one of {list(_SCHEDULES)}")
        if int(pipe.accumulate_steps) < 1 or int(pipe.micro_batch_size) < 1 or int(pipe.vpp_degree) < 1:
            raise ValueError("pipeline.accumulate_steps, micro_batch_size and vpp_degree must be >= 1")
    if strategy.amp.enable:
        raise _report.unsupported("paddle.distributed.Strategy.amp.enable in to_static", " (amp)")
    merge = strategy.gradient_merge
    if merge.enable and (not isinstance(merge.k_steps, int) or merge.k_steps < 1):
        raise ValueError(f"gradient_merge.k_steps must be a positive int, got {merge.k_steps!r}")
    rc = strategy._recompute
    if rc.enable and (rc.sr or rc.refined_ops_patterns or rc.no_recompute_segments or rc.checkpoints):
        raise _report.unsupported("paddle.distributed.Strategy.recompute with sr / refined_ops_patterns / "
                                  "no_recompute_segments / checkpoints in to_static",
                                  " (the model's own recompute calls are honoured: fleet.utils.recompute)")
    # Strategy.recompute: as in Paddle's PIR programs, what is recomputed is what the model wraps in
    # fleet.utils.recompute (PaddleNLP's enable_recompute / recompute_granularity); the eager graph run here
    # recomputes those segments in its backward.  Strategy.sharding: Paddle 3's to_static shards what
    # shard_optimizer's stage says (AutoTrainer passes both); the Strategy's own fields tune its communication
    # (tensor fusion, overlap, buffer sizes) and change no value.  fused_passes (gemm_epilogue, dropout_add)
    # fuse kernels of a compiled program.  All three are accepted and compute what Paddle computes.
    return strategy


def _holds(t):
    return not isinstance(t, DTensor) or t.device_mesh.get_coordinate() is not None


def _micro_batches(x, n):
    """`x` cut into n micro-batches along dim 0; a DTensor is cut on each process's own rows."""
    if n == 1:
        return [x]
    t = x._t
    if t.dim() == 0 or t.shape[0] % n:
        raise ValueError(f"pipeline.accumulate_steps={n} does not divide the batch of {t.shape[0] if t.dim() else 0} "
                         f"rows")
    if not isinstance(t, DTensor):
        return [wrap(p) for p in torch.chunk(t, n, 0)]
    shape = (t.shape[0] // n, *t.shape[1:])
    stride = tuple(int(v) for v in torch.empty(shape, device="meta").stride())
    if t.device_mesh.get_coordinate() is None:  # not on this process: empty pieces
        pieces = [t.to_local().new_empty(0)] * n
    else:
        local = t.to_local()
        if local.shape[0] % n:
            raise ValueError(f"pipeline.accumulate_steps={n} does not divide the {local.shape[0]} rows of the batch "
                             f"held by process {tdist.get_rank()}")
        pieces = torch.chunk(local, n, 0)
    return [wrap(DTensor.from_local(p, t.device_mesh, t.placements, run_check=False, shape=shape, stride=stride))
            for p in pieces]


def to_static(layer, loader=None, loss=None, optimizer=None, strategy=None, input_spec=None):
    """A DistModel driving `layer` with `loss` and `optimizer` (the dynamic graph runs underneath, uncompiled)."""
    if strategy is not None and getattr(strategy, "_config_dict", {}).get("auto_plan"):
        from ...parallel.hooks import plan_for_to_static  # the planner places the unmarked parameters

        plan_for_to_static(layer, loader, loss, strategy._config_dict["auto_plan"])
    return DistModel(layer, loader, loss, optimizer, strategy, input_spec=input_spec)


