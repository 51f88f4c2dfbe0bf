"""paddle.profiler.RecordEvent (a named range in the trace, on torch.profiler.record_function) and
load_profiler_result (Paddle's protobuf result files: not readable here)."""
import sys
from contextlib import ContextDecorator, contextmanager

import torch
from .._report import unsupported

__all__ = ["RecordEvent", "load_profiler_result"]


class RecordEvent(ContextDecorator):
    """A user-defined range: a context manager, a decorator, or begin()/end()."""

    def __init__(self, name, event_type=None):
        self.name = name
        self.event_type = event_type
        self.event = None

    def __enter__(self):
        self.begin()
        return self

    def __exit__(self, *exc):
        self.end()

    def begin(self):
        # torch only keeps the range while a profiler session records; outside one it costs little
        self.event = torch.autograd.profiler.record_function(self.name)
        self.event.__enter__()

    def end(self):
        if self.event is not None:
            self.event.__exit__(None, None, None)
            self.event = None


def load_profiler_result(filename):
    raise unsupported("paddle.profiler.load_profiler_result", ": Paddle's protobuf profiler results cannot be read "
                                                              "(traces are written as Chrome trace JSON)")


@contextmanager
def job_schedule_profiler_range(iter_id, start, end, exit_after_prof=True):
    """Yields whether step `iter_id` lies in the profiled range [start, end); leaving the range's last step ends
    the program (sys.exit) when exit_after_prof, as Paddle's does.  An empty range yields False."""
    if start >= end:
        yield False
        return
    try:
        yield start <= iter_id < end
    finally:
        if iter_id == end - 1 and exit_after_prof:
            sys.exit()


def switch_job_schedule_profiler(model, iter_id, start, end, exit_after_prof=True):
    """Paddle's job-schedule profiler of the static auto-parallel Engine (model._engine): not provided."""
    raise unsupported("paddle.profiler.utils.switch_job_schedule_profiler",
                      ": it profiles the static auto-parallel Engine's job schedule")


switch_job_schedule_profiler.__paddle_on_torch_unsupported__ = "paddle.profiler.utils.switch_job_schedule_profiler"
