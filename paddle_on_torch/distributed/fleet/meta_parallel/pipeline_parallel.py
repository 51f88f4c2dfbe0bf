"""PipelineParallel: train_batch / eval_batch of a PipelineLayer over the pipeline group.

The schedule is torch.distributed.pipelining's, chosen by `distributed.pipeline_schedule` (the
home shared with dist.to_static: Schedule1F1B for Paddle's default "1F1B", ScheduleGPipe for "FThenB") over a torch-module view of this rank's stage that shares its
parameters.  A batch of micro_batch_size * accumulate_steps rows is cut into accumulate_steps
micro-batches; each micro-batch loss is divided by accumulate_steps before its backward (Paddle's
scaling; with pp_configs.delay_scale_loss the gradients are divided instead), so the gradients equal
one process's on the whole batch for a mean loss.  After the schedule, pipeline-shared weights
all-reduce their gradients, then the optimizer steps (averaging over data-parallel ranks), then
lr_scheduler.step().  The returned loss is the mean micro-batch loss, broadcast from the last stage
to every stage, as in Paddle.

torch's pipelining infers the inter-stage tensor shapes on its first step by running one extra
forward/backward of the first micro-batch (without touching parameter gradients); that extra run
draws random numbers, so a model with dropout sees another random stream than Paddle's.
"""
import torch
import torch.distributed as tdist

from ...._normalize import wrap
from ....tensor.tensor import Tensor
from ..recompute.recompute import _to_paddle, _to_torch
from .meta_parallel_base import MetaParallelBase
from .parallel_layers.pp_layers import PipelineLayer
from ...._report import unsupported

__all__ = ["PipelineParallel", "NoPipelineParallel"]


class _StageModule(torch.nn.Module):
    """This rank's stage as a torch module: Paddle in, Paddle out, same nn.Parameter objects."""

    def __init__(self, layers):
        super().__init__()
        self._paddle_layers = [layers]  # a list: not registered as a torch submodule
        self.params = torch.nn.ParameterList([p._t for p in layers.parameters()])

    def forward(self, *args):
        out = self._paddle_layers[0](_to_paddle(args[0] if len(args) == 1 else tuple(args)))
        return _to_torch(out)


def _rows(data):
    return data.shape[0] if isinstance(data, Tensor) else _rows(data[0])


def _check_batch(data, micro_batch_size, acc_steps):
    if data is None:
        return
    rows = _rows(data)
    if rows != micro_batch_size * acc_steps:
        raise AssertionError(f"batch_size needs to be divisible by micro_batch_size. Currently, batch_size = {rows}, "
                         f"micro_batch_size = {micro_batch_size}, accumulate_steps = {acc_steps}.")


class PipelineParallel(MetaParallelBase):
    def __init__(self, layers, hcg, strategy):
        if not isinstance(layers, PipelineLayer):
            raise TypeError("The Layer should be a derived class of PipelineLayer.")
        super().__init__(layers, hcg, strategy)
        cfg = strategy.pipeline_configs
        self.micro_batch_size = cfg["micro_batch_size"]
        self.accumulate_steps = cfg["accumulate_steps"]
        self.schedule_mode = cfg["schedule_mode"]
        if self.schedule_mode not in ("1F1B", "FThenB"):
            raise unsupported("paddle.distributed.fleet.meta_parallel.PipelineParallel",
                              f" with schedule_mode {self.schedule_mode!r} (1F1B and FThenB are)")
        self._delay_scale_loss = strategy.hybrid_configs["pp_configs"].delay_scale_loss
        self.num_stages = hcg.get_pipe_parallel_world_size()
        self.stage_id = hcg.get_stage_id()
        self.global_rank = hcg.get_global_rank()
        self.pp_group = hcg.get_pipe_parallel_group()
        self._stage_module = _StageModule(layers)
        self._schedules = {}
        self.total_loss = None
        self.loss_fn_idx = 0

    def is_pipeline_first_stage(self, ignore_virtual=False):
        return self.stage_id == 0

    def is_pipeline_last_stage(self, ignore_virtual=False):
        return self.stage_id == self.num_stages - 1

    def _prepare_for_model(self):
        from ..utils.hybrid_parallel_util import broadcast_dp_parameters, broadcast_mp_parameters

        broadcast_mp_parameters(self._layers, self._hcg)
        if self._hcg.get_data_parallel_world_size() > 1:
            broadcast_dp_parameters(self._layers, self._hcg)

    def _schedule(self, training, loss_fn_idx, compute_loss=True):
        key = (training, loss_fn_idx, compute_loss)
        if key in self._schedules:
            return self._schedules[key]
        from ...pipeline_schedule import make_schedule, make_stage

        stage = make_stage(self._stage_module, self.stage_id, self.num_stages, self.pp_group.process_group)
        loss_fn = self._layers._loss_fn[loss_fn_idx]
        scale = 1.0 if self._delay_scale_loss else 1.0 / self.accumulate_steps

        def torch_loss(out, label):
            loss = loss_fn(_to_paddle(out), wrap(label))._t
            return loss * scale if training and scale != 1.0 else loss

        sched = make_schedule([stage], self.schedule_mode, self.accumulate_steps,
                              torch_loss if compute_loss else None)
        self._schedules[key] = sched
        return sched

    def _run(self, data, training, compute_loss, loss_fn_idx):
        inputs, labels = data if isinstance(data, (list, tuple)) and len(data) == 2 else (data, None)
        first, last = self.stage_id == 0, self.stage_id == self.num_stages - 1
        if first:
            _check_batch(inputs, self.micro_batch_size, self.accumulate_steps)
        if last and compute_loss:
            _check_batch(labels, self.micro_batch_size, self.accumulate_steps)
        sched = self._schedule(training, loss_fn_idx, compute_loss)
        args = ()
        if first:
            args = tuple(_to_torch(inputs)) if isinstance(inputs, (list, tuple)) else (inputs._t,)
        losses = []
        kwargs = {}
        if last and compute_loss:
            kwargs = {"target": labels._t, "losses": losses}
        if training:
            out = sched.step(*args, **kwargs)
        else:
            out = sched.eval(*args, **kwargs)
        return out, losses

    def _broadcast_final_loss(self, losses, training):
        """The last stage's mean loss on every stage (its dtype first, as Paddle sends an is_fp32 flag)."""
        last = self.num_stages - 1
        src = self.pp_group.ranks[last]
        pg = self.pp_group.process_group
        dtypes = [torch.float32, torch.float64, torch.float16, torch.bfloat16]
        if self.stage_id == last:
            total = torch.stack([l.detach() for l in losses]).sum()
            if not training or self._delay_scale_loss:
                total = total / self.accumulate_steps
            code = torch.tensor([dtypes.index(total.dtype)])
        else:
            code = torch.zeros([1], dtype=torch.int64)
        tdist.broadcast(code, src, group=pg)
        if self.stage_id != last:
            total = torch.zeros([], dtype=dtypes[int(code)])
        tdist.broadcast(total, src, group=pg)
        return wrap(total)

    def train_batch(self, data, optimizer, lr_scheduler=None, scaler=None, loss_fn_idx=0,
                    return_micro_batch_loss=False):
        assert self._layers._loss_fn[loss_fn_idx] is not None, f"loss function {loss_fn_idx} should exist"
        if scaler is not None:
            raise unsupported("paddle.distributed.fleet.meta_parallel.PipelineParallel.train_batch", " with scaler=")
        self._layers.train()
        self.optimizer, self.lr_scheduler = optimizer, lr_scheduler
        _, losses = self._run(data, True, True, loss_fn_idx)
        self._layers.allreduce_shared_weight_gradients()
        loss = self._broadcast_final_loss(losses, True)
        _finish_step(self, optimizer, lr_scheduler)
        return loss

    def eval_batch(self, data, compute_loss=False, loss_fn_idx=0, return_host_tensor=False):
        self._layers.eval()
        with torch.no_grad():
            out, losses = self._run(data, False, compute_loss, loss_fn_idx)
        if compute_loss:
            return self._broadcast_final_loss(losses, False)
        if self.stage_id != self.num_stages - 1:
            return None  # Paddle returns its released (empty) output buffers here
        # as Paddle: one output per micro-batch
        return [_to_paddle(o) for o in torch.tensor_split(out, self.accumulate_steps)] \
            if isinstance(out, torch.Tensor) else _to_paddle(out)


def _finish_step(pipeline, optimizer, lr_scheduler):
    """The end of a pipeline train_batch: divide the accumulated gradients by the micro-batch count when
    the loss scaling was delayed (pp_configs.delay_scale_loss), step, clear, advance the schedule."""
    if pipeline._delay_scale_loss:
        with torch.no_grad():
            for p in pipeline._layers.parameters():
                if p._t.grad is not None:
                    p._t.grad.div_(pipeline.accumulate_steps)
    optimizer.step()
    optimizer.clear_grad()
    if lr_scheduler is not None:
        lr_scheduler.step()


class NoPipelineParallel(MetaParallelBase):
    """A PipelineLayer in one stage: train_batch runs the micro-batches one after another."""

    def __init__(self, layers, strategy, hcg=None):
        assert isinstance(layers, PipelineLayer)
        super().__init__(layers, hcg, strategy)
        self.micro_batch_size = strategy.pipeline_configs["micro_batch_size"]
        self.accumulate_steps = strategy.pipeline_configs["accumulate_steps"]
        self._delay_scale_loss = strategy.hybrid_configs["pp_configs"].delay_scale_loss

    def _micro(self, data, i):
        lo, hi = i * self.micro_batch_size, (i + 1) * self.micro_batch_size
        if isinstance(data, (list, tuple)):
            return type(data)(self._micro(d, i) for d in data)
        return None if data is None else data[lo:hi].detach()

    def _losses(self, data, loss_fn_idx, backward):
        inputs, labels = data
        _check_batch(inputs, self.micro_batch_size, self.accumulate_steps)
        loss_fn = self._layers._loss_fn[loss_fn_idx]
        total = None
        for i in range(self.accumulate_steps):
            loss = loss_fn(self._layers(self._micro(inputs, i)), self._micro(labels, i))
            if backward:
                (loss / self.accumulate_steps if not self._delay_scale_loss else loss).backward()
            loss = loss.detach()
            total = loss if total is None else total + loss
        return total / self.accumulate_steps

    def train_batch(self, data, optimizer, lr_scheduler=None, scaler=None, loss_fn_idx=0,
                    return_micro_batch_loss=False):
        self._layers.train()
        loss = self._losses(data, loss_fn_idx, True)
        _finish_step(self, optimizer, lr_scheduler)
        return loss

    def eval_batch(self, data, compute_loss=False, loss_fn_idx=0, return_host_tensor=False):
        # as Paddle's: the loss is computed whatever compute_loss says, and the layer keeps its mode
        with torch.no_grad():
            return self._losses(data, loss_fn_idx, False)
