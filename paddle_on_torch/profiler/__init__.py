"""paddle.profiler on torch.profiler (see profiler.py for how Paddle's states map onto torch sessions)."""
from .. import _report
from .profiler import (Profiler, ProfilerState, ProfilerTarget, SortedKeys, SummaryView, export_chrome_tracing,
                       export_protobuf, make_scheduler)
from .utils import RecordEvent, load_profiler_result

__all__ = ["ProfilerState", "ProfilerTarget", "make_scheduler", "export_chrome_tracing", "export_protobuf",
           "Profiler", "RecordEvent", "load_profiler_result", "SortedKeys", "SummaryView"]

__getattr__ = _report.module_getattr("paddle.profiler")
