"""One home for running Paddle's pipeline schedules on torch.distributed.pipelining.

Used by fleet's `PipelineParallel.train_batch` and by `dist.to_static` with `Strategy.pipeline`.
Paddle's schedule names map onto torch's schedules:

  FThenB           -> ScheduleGPipe (every forward, then every backward)
  1F1B, Eager1F1B  -> Schedule1F1B (Eager1F1B differs from 1F1B only in when sends are issued);
                      with fewer micro-batches than stages, GPipe: Paddle's 1F1B then runs every
                      forward before any backward too, and torch's Schedule1F1B refuses that case
  VPP              -> ScheduleInterleaved1F1B when this rank holds several stages (virtual stages);
                      with one stage per rank it is 1F1B
"""
import torch
from .._report import unsupported

__all__ = ["stage_device", "make_stage", "make_schedule"]


def stage_device():
    return torch.device("cuda", torch.cuda.current_device()) if torch.cuda.is_available() else torch.device("cpu")


def make_stage(module, stage_index, num_stages, group, input_args=None, output_args=None):
    """A PipelineStage over `module`; with input_args and output_args (meta tensors) the shapes are
    static and torch skips its metadata-inference run (an extra forward/backward of a micro-batch)."""
    from torch.distributed.pipelining import PipelineStage

    return PipelineStage(module, stage_index, num_stages, stage_device(), input_args=input_args,
                         output_args=output_args, group=group)


def make_schedule(stages, schedule_mode, n_microbatches, loss_fn):
    """The torch schedule for Paddle's `schedule_mode` over this rank's `stages` (a list of PipelineStage).

    Losses are not rescaled by torch (scale_grads=False): the callers scale each micro-batch loss
    the way Paddle does."""
    from torch.distributed.pipelining import Schedule1F1B, ScheduleGPipe, ScheduleInterleaved1F1B

    if len(stages) > 1:
        if schedule_mode != "VPP":
            raise ValueError(f"this process holds {len(stages)} pipeline stages (virtual stages): "
                             f"schedule_mode must be 'VPP', got {schedule_mode!r}")
        pp = stages[0].group_size
        if n_microbatches % pp:
            raise ValueError(f"the VPP schedule needs accumulate_steps ({n_microbatches}) to be a multiple of the "
                             f"pipeline degree ({pp})")
        return ScheduleInterleaved1F1B(stages, n_microbatches=n_microbatches, loss_fn=loss_fn, scale_grads=False)
    stage = stages[0]
    if schedule_mode not in ("FThenB", "1F1B", "Eager1F1B", "VPP"):
        raise unsupported("paddle.distributed.Strategy.pipeline.schedule_mode",
                          f" {schedule_mode!r} (FThenB, 1F1B, Eager1F1B and VPP are)")
    one_f_one_b = schedule_mode != "FThenB" and n_microbatches >= stage.num_stages
    cls = Schedule1F1B if one_f_one_b else ScheduleGPipe
    return cls(stage, n_microbatches=n_microbatches, loss_fn=loss_fn, scale_grads=False)
