"""paddle.profiler: scheduler states, the Profiler's state machine and trace files, the step timer."""
import glob
import os
import tempfile
import warnings

from tests.cases import case


def _states(sched, n):
    return [sched(i).name for i in range(n)]


@case
def make_scheduler_periods(paddle):
    p = paddle.profiler
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ready=0 warns
        return [_states(p.make_scheduler(closed=1, ready=1, record=3, repeat=2, skip_first=2), 16),
                _states(p.make_scheduler(closed=0, ready=0, record=2), 7),
                _states(p.make_scheduler(closed=2, ready=1, record=1), 9)]


@case
def make_scheduler_bad_arguments(paddle):
    return paddle.profiler.make_scheduler(closed=1, ready=1, record=0)


def _run(paddle, steps, **kw):
    p = paddle.profiler
    d = tempfile.mkdtemp()
    seen = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prof = p.Profiler(targets=[p.ProfilerTarget.CPU], on_trace_ready=p.export_chrome_tracing(d, "w"), **kw)
        seen.append(prof.current_state.name)
        prof.start()
        for _ in range(steps):
            with p.RecordEvent("work"):
                x = paddle.ones([8, 8])
                (x @ x).sum()
            prof.step()
            seen.append(prof.current_state.name)
        prof.stop()
    files = sorted(glob.glob(os.path.join(d, "*.json")))
    return [seen, prof.step_num, len(files), all(os.path.basename(f).startswith("w_time_") for f in files)]


@case
def profiler_batch_range_scheduler(paddle):
    return [_run(paddle, 8, scheduler=(2, 5)), _run(paddle, 6, scheduler=(0, 3))]


@case
def profiler_repeating_scheduler(paddle):
    sched = paddle.profiler.make_scheduler(closed=1, ready=1, record=2, repeat=3)
    return _run(paddle, 14, scheduler=sched)


@case
def profiler_default_records_everything(paddle):
    return _run(paddle, 3)


@case
def profiler_targets_and_enums(paddle):
    p = paddle.profiler
    return [p.ProfilerState.RECORD_AND_RETURN.value, p.ProfilerTarget.CUSTOM_DEVICE.value,
            p.SortedKeys.GPUMin.value, p.SummaryView.UDFView.value, [k.name for k in p.SummaryView]]


@case
def job_schedule_profiler_range_flags(paddle):
    from paddle.profiler.utils import job_schedule_profiler_range

    out = []
    for i in range(5):
        with job_schedule_profiler_range(i, 1, 4, exit_after_prof=False) as on:
            out.append(on)
    with job_schedule_profiler_range(2, 3, 3) as on:  # an empty range
        out.append(on)
    try:
        with job_schedule_profiler_range(3, 1, 4):  # the range's last step ends the program
            pass
        out.append("went on")
    except SystemExit as e:
        out.append(["SystemExit", e.code])
    return out
