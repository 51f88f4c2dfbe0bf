"""The timer the benchmarks share."""
import time


def best_per_call(fn, repeats, target_s):
    """Best per-call (cpu_ms, wall_ms) of `fn` over `repeats` batches of calls, after warm-up.

    Process CPU time counts only this process's threads, so time spent descheduled by other
    processes' load does not count; each batch runs `fn` enough times to last about `target_s`."""
    for _ in range(3):
        fn()
    t = time.perf_counter()
    fn()
    once = max(time.perf_counter() - t, 1e-6)
    n = max(1, int(target_s / once))
    cpu = wall = float("inf")
    for _ in range(repeats):
        c, t = time.process_time(), time.perf_counter()
        for _ in range(n):
            fn()
        wall = min(wall, (time.perf_counter() - t) / n)
        cpu = min(cpu, (time.process_time() - c) / n)
    return cpu * 1e3, wall * 1e3
