"""The step timer behind Profiler.step / step_info and the "Perf Summary" table Profiler.stop prints.

Same bookkeeping as Paddle's profiler timer: the first 10 steps are left out of the summary's
max/min/avg; ips is samples/s when step() is given num_samples, else steps/s.  Reader cost (time spent
waiting on a DataLoader) is not measured here: Paddle's DataLoader reports it to the timer, ours does not.
"""
import timeit

_SKIP = 10


class _Averager:
    """Totals since the last step_info() call."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.iters, self.time, self.samples = 0, 0.0, 0

    def record(self, seconds, num_samples=None):
        self.iters += 1
        self.time += seconds
        self.samples += num_samples or 0

    def average(self):
        return self.time / self.iters if self.iters else 0

    def speed(self, per_sample):
        if not self.iters or (per_sample and not self.samples):
            return 0
        return (self.samples if per_sample else self.iters) / self.time


class _Run:
    """One Profiler run (start .. stop): the step records and the running averages."""

    def __init__(self):
        self.window = _Averager()
        self.iters = 0
        self.samples = 0
        self.per_sample = True
        self.unit = "samples/s"
        self.batch = {"max": 0, "min": float("inf"), "total": 0}
        self.speed = {"max": 0, "min": float("inf")}

    @staticmethod
    def _update(value, rec):
        # Paddle's update: a new max, *else* a new min (so the first value only sets the max)
        if value > rec["max"]:
            rec["max"] = value
        elif value < rec["min"]:
            rec["min"] = value
        if "total" in rec:
            rec["total"] += value

    def record(self, seconds, num_samples):
        if num_samples is None:
            self.per_sample, self.unit = False, "steps/s"
        self.window.record(seconds, num_samples)
        self.iters += 1
        if self.iters >= _SKIP:
            self._update(seconds, self.batch)
            if self.per_sample:
                self.samples += num_samples
                self._update(num_samples / seconds, self.speed)
            else:
                self._update(1.0 / seconds, self.speed)

    def summary_lines(self):
        if self.iters <= _SKIP:
            return []
        n = self.iters - _SKIP
        avg = self.batch["total"] / n
        ips = (self.samples if self.per_sample else n) / self.batch["total"]

        def row(*cells):
            return "| " + " | ".join(c.center(15) for c in cells) + " |"

        def stats(name, d, a):
            return row(name, f"{a:.5f}", f"{d['max']:.5f}", f"{d['min']:.5f}")

        return ["Perf Summary".center(100, "="), f"Time Unit: s, IPS Unit: {self.unit}",
                row("", "avg", "max", "min"), stats("batch_cost", self.batch, avg), stats("ips", self.speed, ips)]


class Benchmark:
    def __init__(self):
        self.runs = []
        self.start_time = timeit.default_timer()

    def begin(self):
        self.runs.append(_Run())
        self.start_time = timeit.default_timer()

    def step(self, num_samples=None):
        if self.runs:
            now = timeit.default_timer()
            self.runs[-1].record(now - self.start_time, num_samples)
        self.start_time = timeit.default_timer()

    def step_info(self, unit):
        run = self.runs[-1]
        msg = ""
        batch = run.window.average()
        if batch:
            run.unit = "steps/s" if not run.per_sample else unit + "/s"
            msg += f" batch_cost: {batch:.5f} s"
        speed = run.window.speed(run.per_sample)
        if speed:
            msg += f" ips: {speed:.3f} {run.unit}"
        run.window.reset()
        return msg

    def end(self):
        if self.runs:
            for line in self.runs.pop().summary_lines():
                print(line)
        self.start_time = timeit.default_timer()


_benchmark = Benchmark()


def benchmark():
    return _benchmark
