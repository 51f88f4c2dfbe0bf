"""Per-op overhead: paddle_on_torch vs plain torch vs real Paddle, measured in one run.

    python bench/overhead.py            # real Paddle in its own process; shim and torch interleaved in another

Two workloads, written once in Paddle and once as their torch twin:
- small: an Adam-like update over 16 tiny parameters, repeated (thousands of ops on tensors of
  8 elements, as in optimizer and control code) -> microseconds per op;
- chain: a 12-op elementwise chain on a [512, 1024] float32 tensor -> milliseconds per chain.
Real Paddle is measured when `import paddle` finds it (without the shim); otherwise its column
says n/a.  Targets (issue 2): shim <= 1.3x torch per op, and faster than real Paddle.
"""
import json
import os
import subprocess
import sys
import time

SMALL_PARAMS, SMALL_STEPS, OPS_PER_PARAM = 16, 200, 12
CHAIN_REPEAT = 30


def paddle_small(paddle):
    ps = [paddle.ones([8]) for _ in range(SMALL_PARAMS)]
    gs = [paddle.full([8], 0.1) for _ in range(SMALL_PARAMS)]
    ms = [paddle.zeros([8]) for _ in range(SMALL_PARAMS)]
    vs = [paddle.zeros([8]) for _ in range(SMALL_PARAMS)]

    def step():
        for i in range(SMALL_PARAMS):
            g = gs[i]
            m = ms[i] * 0.9 + g * 0.1
            v = vs[i] * 0.999 + g * g * 0.001
            upd = m / (paddle.sqrt(v) + 1e-8)
            ps[i] = ps[i] - upd * 0.001
            ms[i], vs[i] = m, v
    return step


def torch_small(torch):
    ps = [torch.ones(8) for _ in range(SMALL_PARAMS)]
    gs = [torch.full((8,), 0.1) for _ in range(SMALL_PARAMS)]
    ms = [torch.zeros(8) for _ in range(SMALL_PARAMS)]
    vs = [torch.zeros(8) for _ in range(SMALL_PARAMS)]

    def step():
        for i in range(SMALL_PARAMS):
            g = gs[i]
            m = ms[i] * 0.9 + g * 0.1
            v = vs[i] * 0.999 + g * g * 0.001
            upd = m / (torch.sqrt(v) + 1e-8)
            ps[i] = ps[i] - upd * 0.001
            ms[i], vs[i] = m, v
    return step


def paddle_chain(paddle):
    x = paddle.rand([512, 1024])

    def step():
        y = paddle.exp(x * 0.5 + 1.0)
        y = paddle.sqrt(y) - x
        y = paddle.tanh(y) * y
        y = paddle.maximum(y, x) / (x + 2.0)
        return y.sum()
    return step


def torch_chain(torch):
    x = torch.rand(512, 1024)

    def step():
        y = torch.exp(x * 0.5 + 1.0)
        y = torch.sqrt(y) - x
        y = torch.tanh(y) * y
        y = torch.maximum(y, x) / (x + 2.0)
        return y.sum()
    return step


def _time(fn, repeat):
    fn()
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(repeat):
            fn()
        best = min(best, (time.perf_counter() - t) / repeat)
    return best


def _figures(small, chain):
    per_op_us = _time(small, SMALL_STEPS // 20) / (SMALL_PARAMS * OPS_PER_PARAM) * 1e6
    chain_ms = _time(chain, CHAIN_REPEAT // 5) * 1e3
    return {"small_op_us": per_op_us, "chain_ms": chain_ms}


def measure(impl):
    """The figures of one side.  The shim's process also times the torch twin, interleaved with the
    shim: memory-bound steps depend on where a process's large allocations happen to land (page
    faults, huge pages), which differs between processes by more than the wrapper costs."""
    import torch

    torch.set_num_threads(1)
    if impl == "real":
        import paddle

        if "paddle_on_torch" in paddle.__file__:
            raise ImportError("real Paddle is not installed")
        return {"paddle": _figures(paddle_small(paddle), paddle_chain(paddle))}
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import paddle_on_torch

    paddle_on_torch.install()
    import paddle

    sides = {"shim": (paddle_small(paddle), paddle_chain(paddle)), "torch": (torch_small(torch), torch_chain(torch))}
    best = {}
    for _ in range(3):  # interleave the two sides, keep each one's best
        for name, (small, chain) in sides.items():
            f = _figures(small, chain)
            best[name] = {k: min(v, best.get(name, f)[k]) for k, v in f.items()}
    return best


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--impl":
        print(json.dumps(measure(sys.argv[2])))
        return
    env = dict(os.environ, OMP_NUM_THREADS="1", GLOG_minloglevel="3", PYTHONWARNINGS="ignore")
    results = {"paddle": None}
    for impl in ("shim", "real"):
        p = subprocess.run([sys.executable, __file__, "--impl", impl], capture_output=True, text=True, env=env)
        if p.returncode == 0:
            results.update(json.loads(p.stdout.strip().splitlines()[-1]))
    t, s, r = results["torch"], results["shim"], results["paddle"]
    print(f"{'workload':<26}{'torch':>10}{'shim':>10}{'paddle':>10}{'shim/torch':>12}{'shim/paddle':>13}")
    for key, label in (("small_op_us", "tiny ops (us/op)"), ("chain_ms", "[512,1024] chain (ms)")):
        rv = f"{r[key]:10.2f}" if r else f"{'n/a':>10}"
        rr = f"{s[key] / r[key]:13.2f}" if r else f"{'n/a':>13}"
        print(f"{label:<26}{t[key]:10.2f}{s[key]:10.2f}{rv}{s[key] / t[key]:12.2f}{rr}")


if __name__ == "__main__":
    main()
