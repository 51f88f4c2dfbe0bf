"""In-place ops on 1M float32 elements: paddle_on_torch vs plain torch (one process, interleaved), and real
Paddle when an interpreter with it is given.

    python bench/inplace.py                                      # shim and torch
    python bench/inplace.py --paddle-python /path/to/python      # + real Paddle in its own process

Each row: median microseconds per call over --reps rounds of --calls calls, one thread.  Target (issue 21):
`x.add_(y)` at torch's speed (it was 1.06 ms against torch's 0.27 ms when in-place ops ran out-of-place plus
a copy).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

N = 1 << 20
ROWS = {  # name -> (paddle form, torch form); x, y: 1M float32
    "x.add_(y)": ("x.add_(y)", "x.add_(y)"),
    "x.multiply_(y)": ("x.multiply_(y)", "x.mul_(y)"),
    "x.exp_()": ("x.exp_()", "x.exp_()"),
    "x.add_(row) (broadcast)": ("x.add_(r)", "x.add_(r)"),
}


def _timer(stmt, ns, calls):
    code = compile(f"for _ in range({calls}):\n    {stmt}\n", "<bench>", "exec")

    def run():
        t = time.perf_counter()
        exec(code, ns)
        return (time.perf_counter() - t) / calls * 1e6
    return run


def _data(mod):
    x = mod.zeros([N // 1024, 1024]) + 0.5
    y = mod.zeros([N // 1024, 1024])
    r = mod.zeros([1024])
    return {"x": x, "y": y, "r": r}


def measure(sides, reps, calls):
    """sides: name -> (namespace, {row: stmt}); interleaved rounds, median per row and side."""
    timers = {s: {row: _timer(stmt, ns, calls) for row, stmt in stmts.items()} for s, (ns, stmts) in sides.items()}
    for s in timers:  # warm-up (the first call of an op generates its wrapper)
        for t in timers[s].values():
            t()
    got = {s: {row: [] for row in timers[s]} for s in timers}
    for _ in range(reps):
        for s in timers:
            for row, t in timers[s].items():
                got[s][row].append(t())
    return {s: {row: statistics.median(v) for row, v in rows.items()} for s, rows in got.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--paddle-python", help="an interpreter where `import paddle` is real Paddle")
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--calls", type=int, default=50)
    ap.add_argument("--only-paddle", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    import torch

    torch.set_num_threads(1)
    if a.only_paddle:
        import paddle

        paddle.set_device("cpu")
        res = measure({"paddle": (_data(paddle), {r: p for r, (p, _) in ROWS.items()})}, a.reps, a.calls)
        print(json.dumps(res["paddle"]))
        return
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import paddle_on_torch as paddle

    res = measure({"shim": (_data(paddle), {r: p for r, (p, _) in ROWS.items()}),
                   "torch": (_data(torch), {r: t for r, (_, t) in ROWS.items()})}, a.reps, a.calls)
    if a.paddle_python:
        env = dict(os.environ, GLOG_minloglevel="3", PYTHONWARNINGS="ignore", OMP_NUM_THREADS="1")
        p = subprocess.run([a.paddle_python, os.path.abspath(__file__), "--only-paddle", "--reps", str(a.reps),
                            "--calls", str(a.calls)], capture_output=True, text=True, env=env, cwd="/")
        res["paddle"] = json.loads(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 else {}
    print(f"in-place ops on {N} float32, median microseconds per call, 1 thread")
    print(f"{'op':<26}{'shim':>9}{'torch':>9}{'shim/torch':>12}" + (f"{'paddle':>9}" if "paddle" in res else ""))
    for row in ROWS:
        s, t = res["shim"][row], res["torch"][row]
        line = f"{row:<26}{s:9.1f}{t:9.1f}{s / t:12.2f}"
        if "paddle" in res:
            line += f"{res['paddle'].get(row, float('nan')):9.1f}"
        print(line)
    print(f"load average: {', '.join(f'{v:.1f}' for v in os.getloadavg())} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
