"""What `import paddle` costs on top of `import torch`: medians over fresh processes, sides interleaved.

    python bench/import_time.py                      # this checkout (and real Paddle, when importable)
    python bench/import_time.py --baseline DIR       # also another checkout of paddle_on_torch (before/after)
    python bench/import_time.py --runs 15

Each run is a fresh interpreter that times `import torch`, then the full garbage collection torch's import
leaves due (torch 2.13 ends its import with the collector's counts past their thresholds, so the first ~700
allocations of any program that imports torch run a full pass over torch's objects: timed apart, as "its GC",
so that it is not charged to whichever import comes next), then the import of the package on top of it.  The
byte-code caches are written beforehand (a first import per side writes them; PYTHONDONTWRITEBYTECODE is
cleared for these processes).  Target (issue 21): the shim adds at most 0.15 s to torch's own import.
"""
import argparse
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROBE = """
import gc, sys, time
t0, c0 = time.perf_counter(), time.process_time()
import torch
t1, c1 = time.perf_counter(), time.process_time()
gc.collect()
t2, c2 = time.perf_counter(), time.process_time()
import {module}
t3, c3 = time.perf_counter(), time.process_time()
assert {check}, {module}.__file__
print(t1 - t0, t2 - t1, t3 - t2, c1 - c0, c2 - c1, c3 - c2)
"""


def _run(root, module, check, python=sys.executable):
    env = dict(os.environ, OMP_NUM_THREADS="1", GLOG_minloglevel="3", PYTHONWARNINGS="ignore")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    code = PROBE.format(module=module, check=check)
    p = subprocess.run([python, "-c", code], cwd=root, capture_output=True, text=True, env=env)
    if p.returncode:
        return None
    return tuple(map(float, p.stdout.split()[-6:]))  # wall: torch, its GC, on top; the same in CPU time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", help="another paddle_on_torch checkout, measured interleaved with this one")
    ap.add_argument("--paddle-python", default=sys.executable,
                    help="an interpreter where `import paddle` is real Paddle (default: this one)")
    ap.add_argument("--runs", type=int, default=11)
    a = ap.parse_args()
    sides = {"shim": (HERE, "paddle_on_torch", "'paddle_on_torch' in sys.modules", sys.executable)}
    if a.baseline:
        sides["baseline"] = (os.path.abspath(a.baseline), "paddle_on_torch", "True", sys.executable)
    sides["paddle"] = ("/", "paddle", "'paddle_on_torch' not in paddle.__file__", a.paddle_python)
    for name, side in list(sides.items()):  # the first import writes the byte-code caches
        if _run(*side) is None:
            del sides[name]
    got = {name: [] for name in sides}
    for _ in range(a.runs):
        for name, side in sides.items():
            got[name].append(_run(*side))
    print(f"medians of {a.runs} runs; wall-clock seconds, and process CPU seconds (steadier on a busy machine)")
    print(f"{'package':<10}{'import torch':>14}{'its GC':>8}{'on top':>8}{'ratio':>7}"
          f"{'CPU: torch':>13}{'its GC':>8}{'on top':>8}{'ratio':>7}")
    for name, runs in got.items():
        t, g, x, ct, cg, cx = (statistics.median(r[i] for r in runs) for i in range(6))
        print(f"{name:<10}{t:14.3f}{g:8.3f}{x:8.3f}{x / t:7.2f}{ct:13.3f}{cg:8.3f}{cx:8.3f}{cx / ct:7.2f}")
    if os.cpu_count():
        print(f"load average: {', '.join(f'{v:.1f}' for v in os.getloadavg())} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
