"""paddle.profiler.Profiler on torch.profiler.

Paddle's scheduler states map onto one torch.profiler.profile session per recorded window: READY
prepares nothing (torch needs no warm-up object), RECORD starts the session, RECORD_AND_RETURN is the
window's last step, after which the session stops and `on_trace_ready(prof)` runs.  `export` writes
torch's Chrome trace (the same JSON format Paddle's `export_chrome_tracing` writes); `summary` prints
torch's operator table (Paddle's multi-view tables are its own; see docs/compatibility.md).
"""
import datetime
import os
import shutil
import socket
from enum import Enum
from warnings import warn

import torch

from .timer import benchmark
from .utils import RecordEvent
from .._report import unsupported

__all__ = ["ProfilerState", "ProfilerTarget", "make_scheduler", "export_chrome_tracing", "export_protobuf",
           "Profiler", "SortedKeys", "SummaryView"]


class SummaryView(Enum):
    DeviceView = 0
    OverView = 1
    ModelView = 2
    DistributedView = 3
    KernelView = 4
    OperatorView = 5
    MemoryView = 6
    MemoryManipulationView = 7
    UDFView = 8


class ProfilerState(Enum):
    CLOSED = 0
    READY = 1
    RECORD = 2
    RECORD_AND_RETURN = 3  # the last step of a RECORD window


class ProfilerTarget(Enum):
    CPU = 0
    GPU = 1
    XPU = 2
    CUSTOM_DEVICE = 3


class SortedKeys(Enum):
    CPUTotal = 0
    CPUAvg = 1
    CPUMax = 2
    CPUMin = 3
    GPUTotal = 4
    GPUAvg = 5
    GPUMax = 6
    GPUMin = 7


# torch's key_averages table sorts by totals and averages only: Max/Min fall back to the total
_TORCH_SORT = {SortedKeys.CPUTotal: "cpu_time_total", SortedKeys.CPUAvg: "cpu_time",
               SortedKeys.CPUMax: "cpu_time_total", SortedKeys.CPUMin: "cpu_time_total",
               SortedKeys.GPUTotal: "device_time_total", SortedKeys.GPUAvg: "device_time",
               SortedKeys.GPUMax: "device_time_total", SortedKeys.GPUMin: "device_time_total"}


def make_scheduler(*, closed, ready, record, repeat=0, skip_first=0):
    """A step -> ProfilerState function: skip_first steps closed, then `repeat` periods (0: forever) of
    `closed` closed, `ready` ready and `record` recording steps, the last of them RECORD_AND_RETURN."""
    assert closed >= 0 and ready >= 0 and record > 0 and repeat >= 0 and skip_first >= 0, \
        "Invalid profiler scheduler arguments"
    if ready == 0:
        warn("Profiler will record data after enabling profiler immediately, some data collected at the beginning "
             "of profiling may be 'noisy' because of overhead.")
    period = closed + ready + record

    def state(step):
        assert step >= 0
        if step < skip_first:
            return ProfilerState.CLOSED
        step -= skip_first
        if repeat > 0 and step // period >= repeat:
            return ProfilerState.CLOSED
        pos = step % period
        if pos < closed:
            return ProfilerState.CLOSED
        if pos < closed + ready:
            return ProfilerState.READY
        return ProfilerState.RECORD if pos < period - 1 else ProfilerState.RECORD_AND_RETURN

    return state


def _trace_handler(dir_name, worker_name, fmt, suffix):
    try:
        os.makedirs(dir_name, exist_ok=True)
    except OSError:
        raise RuntimeError(f"Can not create directory '{dir_name}' for saving profiling results.") from None

    def handle(prof):
        worker = worker_name or f"host_{socket.gethostname()}pid_{os.getpid()}"
        stamp = datetime.datetime.now().strftime("%Y_%m_%d_%H_%M_%S_%f")
        prof.export(os.path.join(dir_name, f"{worker}_time_{stamp}.paddle_trace.{suffix}"), fmt)

    return handle


def export_chrome_tracing(dir_name, worker_name=None):
    """An on_trace_ready callback writing each recorded window as a Chrome trace JSON file into dir_name."""
    return _trace_handler(dir_name, worker_name, "json", "json")


def export_protobuf(dir_name, worker_name=None):
    """Paddle's protobuf trace format has no torch writer: the callback raises when a window is ready."""
    return _trace_handler(dir_name, worker_name, "pb", "pb")


def _targets(targets):
    supported = [ProfilerTarget.CPU, ProfilerTarget.CUSTOM_DEVICE]
    if torch.cuda.is_available():
        supported.insert(1, ProfilerTarget.GPU)
    if not targets:
        return supported
    kept = set(targets)
    for t in targets:
        if t not in supported:
            kept.discard(t)
            warn(f"Profiling {t} is not supported in current context.")
    return kept


class Profiler:
    """Paddle's Profiler: a context manager (or start/step/stop) driven by a scheduler."""

    def __init__(self, *, targets=None, scheduler=None, on_trace_ready=None, record_shapes=False,
                 profile_memory=False, timer_only=False, emit_nvtx=False, custom_device_types=(), with_flops=False):
        self.targets = _targets(targets)
        if callable(scheduler):
            self.scheduler = scheduler
        elif isinstance(scheduler, (tuple, list)):
            assert len(scheduler) == 2 and scheduler[1] > scheduler[0]
            start, end = max(scheduler[0], 0), scheduler[1]
            self.scheduler = (make_scheduler(closed=start - 1, ready=1, record=end - start, repeat=1) if start >= 1
                              else make_scheduler(closed=0, ready=0, record=end - start, repeat=1))
        else:
            self.scheduler = lambda step: ProfilerState.RECORD
        self.on_trace_ready = on_trace_ready if on_trace_ready is not None else export_chrome_tracing("./profiler_log/")
        self.step_num = 0
        self.previous_state = ProfilerState.CLOSED
        self.current_state = self.scheduler(self.step_num)
        self.record_event = None
        self.profiler_result = None  # the last finished torch.profiler.profile
        self._session = None
        self._saved_trace = None  # torch writes a session's trace once; later exports copy that file
        self.timer_only, self.record_shapes, self.profile_memory = timer_only, record_shapes, profile_memory
        self.with_flops, self.emit_nvtx = with_flops, emit_nvtx

    # ---------------------------------------------------------------- the torch session
    def _begin_session(self):
        activities = [torch.profiler.ProfilerActivity.CPU]
        if ProfilerTarget.GPU in self.targets:
            activities.append(torch.profiler.ProfilerActivity.CUDA)
        self._session = torch.profiler.profile(activities=activities, record_shapes=self.record_shapes,
                                               profile_memory=self.profile_memory, with_flops=self.with_flops)
        self._session.__enter__()

    def _end_session(self, keep=True):
        if self._session is not None:
            self._session.__exit__(None, None, None)
            if keep:
                self.profiler_result, self._saved_trace = self._session, None
            self._session = None

    def _recording(self, state):
        return state in (ProfilerState.RECORD, ProfilerState.RECORD_AND_RETURN)

    def _open_step_event(self):
        self.record_event = RecordEvent(f"ProfileStep#{self.step_num}")
        self.record_event.begin()

    def _close_step_event(self):
        if self.record_event is not None:
            self.record_event.end()
            self.record_event = None

    # ---------------------------------------------------------------- Paddle's API
    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def start(self):
        benchmark().begin()
        if self.timer_only:
            return
        if self._recording(self.current_state):
            self._begin_session()
        self._open_step_event()

    def stop(self):
        benchmark().end()
        if self.timer_only:
            return
        self._close_step_event()
        if self.current_state == ProfilerState.READY:
            warn("Improper Profiler state transform: READY->CLOSED, profiler will start and stop without saving data")
        if self._recording(self.current_state):
            self._end_session()
            if self.on_trace_ready:
                self.on_trace_ready(self)

    def step(self, num_samples=None):
        benchmark().step(num_samples)
        if self.timer_only:
            return
        self._close_step_event()
        self.previous_state, self.step_num = self.current_state, self.step_num + 1
        self.current_state = self.scheduler(self.step_num)
        self._transition(self.previous_state, self.current_state)
        self._open_step_event()

    def _transition(self, prev, cur):
        if prev == ProfilerState.RECORD_AND_RETURN:  # a window ended: hand it over, maybe start the next
            self._end_session()
            if self._recording(cur):
                self._begin_session()
            if self.on_trace_ready:
                self.on_trace_ready(self)
            return
        if prev == ProfilerState.RECORD and not self._recording(cur):
            warn("Improper schedule: RECORD->CLOSED, profiler will not saving data" if cur == ProfilerState.CLOSED
                 else "Improper schedule: RECORD->READY, profiler will stop and re-prepare")
            self._end_session(keep=False)
        elif prev == ProfilerState.READY and cur == ProfilerState.CLOSED:
            warn("Improper schedule: READY->CLOSED, profiler will start and stop without saving data")
        elif prev != ProfilerState.RECORD and self._recording(cur):
            self._begin_session()

    def step_info(self, unit=None):
        """' batch_cost: ... s ips: ... <unit>/s' averaged over the steps since the last call."""
        return benchmark().step_info(unit or "samples")

    def export(self, path="", format="json"):
        if self.profiler_result is None:
            return
        if format != "json":
            raise unsupported("paddle.profiler.Profiler.export", " as protobuf (format='pb'); use format='json' "
                                                                 "(a Chrome trace)")
        if self._saved_trace is not None and os.path.exists(self._saved_trace):
            shutil.copyfile(self._saved_trace, path)
        else:
            self.profiler_result.export_chrome_trace(path)
            self._saved_trace = os.path.abspath(path)

    def summary(self, sorted_by=SortedKeys.CPUTotal, op_detail=True, thread_sep=False, time_unit="ms", views=None):
        """torch's per-operator table of the last recorded window (Paddle's views are not reproduced)."""
        if self.profiler_result is not None:
            print(self.profiler_result.key_averages().table(sort_by=_TORCH_SORT.get(sorted_by, "cpu_time_total")))
