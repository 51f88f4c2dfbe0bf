"""fleet's named wall-clock timers (paddle.distributed.fleet.utils.timer_helper): Timers, get_timers / set_timers.

A timer synchronises the accelerator at start and stop, so it measures the work queued before; the event
timer (`use_event=True`) times on the GPU with CUDA events.
"""
import time

import torch

__all__ = []

_GLOBAL_TIMERS = None


def is_timer_initialized():
    return _GLOBAL_TIMERS is not None


def get_timers():
    assert _GLOBAL_TIMERS is not None, "timers is not initialized."
    return _GLOBAL_TIMERS


def set_timers():
    global _GLOBAL_TIMERS
    assert _GLOBAL_TIMERS is None, "timers has been already initialized."
    _GLOBAL_TIMERS = Timers()


def _synchronize():
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        torch.cuda.synchronize()


class _Timer:
    def __init__(self, name):
        self.name = name
        self.elapsed_ = 0.0
        self.started_ = False
        self.start_time = time.time()

    def start(self):
        assert not self.started_, "timer has already started"
        _synchronize()
        self.start_time = time.time()
        self.started_ = True

    def stop(self):
        assert self.started_, "timer is not started."
        _synchronize()
        self.elapsed_ += time.time() - self.start_time
        self.started_ = False

    def reset(self):
        self.elapsed_ = 0.0
        self.started_ = False

    def elapsed(self, reset=True):
        """Seconds accumulated so far (a running timer is stopped, read and restarted)."""
        running = self.started_
        if running:
            self.stop()
        value = self.elapsed_
        if reset:
            self.reset()
        if running:
            self.start()
        return value


class _GPUEventTimer:
    """A timer on CUDA events (Paddle's core.GPUEventTimer): start() / stop() record events on the current stream;
    elapsed() returns seconds between each start/stop pair, summed."""

    def __init__(self, name):
        if not torch.cuda.is_available():
            from ..... import _report

            raise _report.unsupported("paddle.distributed.fleet.utils.timer_helper._GPUEventTimer",
                                      " without a CUDA device")
        self.name = name
        self._pairs = []

    def start(self):
        e = torch.cuda.Event(enable_timing=True)
        e.record()
        self._pairs.append([e, None])

    def stop(self):
        e = torch.cuda.Event(enable_timing=True)
        e.record()
        self._pairs[-1][1] = e

    def reset(self):
        self._pairs = []

    def elapsed(self, reset=True):
        torch.cuda.synchronize()
        value = sum(a.elapsed_time(b) for a, b in self._pairs if b is not None) / 1000.0
        if reset:
            self.reset()
        return value


class Timers:
    """Named timers: `timers("fwd").start()`; `timers.log(["fwd", "bwd"])` prints their milliseconds."""

    def __init__(self):
        self.timers = {}

    def __call__(self, name, use_event=False):
        cls = _GPUEventTimer if use_event else _Timer
        timer = self.timers.get(name)
        if timer is None:
            timer = self.timers[name] = cls(name)
        assert type(timer) is cls, f"Invalid timer type: {cls} vs {type(timer)}"
        return timer

    def log(self, names, normalizer=1.0, reset=True):
        assert normalizer > 0.0
        text = "time (ms)" + "".join(
            f" | {n}: {self.timers[n].elapsed(reset=reset) * 1000.0 / normalizer:.2f}" for n in names)
        print(text, flush=True)
