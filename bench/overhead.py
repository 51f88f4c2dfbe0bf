"""Per-op overhead: paddle_on_torch vs plain torch vs real Paddle, measured in one run.

    python bench/overhead.py            # real Paddle in its own process; shim and torch interleaved in another
    python bench/overhead.py --ops      # each op form of the tiny GPT's forward (tests/model_zoo/gpt.py): shim
                                        # vs its torch twin's form, microseconds per call and the difference

The default run also prints the basic op forms (issue 29: `a + b`, `tanh`, `x * y + z`, a small matmul, indexing,
reshape, ...) in microseconds per call, shim and torch side by side, measured in the shim's process in turns, with
the load average; PADDLE_ON_TORCH_FASTPATH=0 gives the same table without the C++ fast path (ext/fastpath.cpp).

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

if sys.path and os.path.abspath(sys.path[0] or ".") == os.path.dirname(os.path.abspath(__file__)):
    sys.path.pop(0)  # bench/ holds modules named like the standard library's (random.py)

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


# ------------------------------------------------------------------ the basic op forms (issue 29)
def basic_ops(paddle, torch):
    """{label: (shim call, torch call)} on tensors of 8 elements and a [4, 4] matrix."""
    a, b, z = paddle.ones([8]), paddle.full([8], 0.1), paddle.zeros([8])
    m = paddle.ones([4, 4])
    ta, tb, tz, tm = a._t, b._t, z._t, m._t
    F = paddle.nn.functional
    return {
        "a + b": (lambda: a + b, lambda: ta + tb),
        "a * 0.9": (lambda: a * 0.9, lambda: ta * 0.9),
        "2.0 - a": (lambda: 2.0 - a, lambda: 2.0 - ta),
        "x * y + z": (lambda: a * b + z, lambda: ta * tb + tz),
        "paddle.add(a, b)": (lambda: paddle.add(a, b), lambda: torch.add(ta, tb)),
        "tanh": (lambda: paddle.tanh(a), lambda: torch.tanh(ta)),
        "x.exp()": (lambda: a.exp(), lambda: ta.exp()),
        "F.relu": (lambda: F.relu(a), lambda: torch.relu(ta)),
        "matmul [4,4]": (lambda: paddle.matmul(m, m), lambda: torch.matmul(tm, tm)),
        "m @ m": (lambda: m @ m, lambda: tm @ tm),
        "m[1]": (lambda: m[1], lambda: tm[1]),
        "m[1:3]": (lambda: m[1:3], lambda: tm[1:3]),
        "reshape": (lambda: m.reshape([16]), lambda: tm.reshape(16)),
        "maximum": (lambda: paddle.maximum(a, b), lambda: torch.maximum(ta, tb)),
        "sum": (lambda: a.sum(), lambda: ta.sum()),
    }


def basic_main():
    """The basic op forms, shim vs torch in this process (run by main in its own process)."""
    import torch

    torch.set_num_threads(1)
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import paddle_on_torch

    paddle_on_torch.install()
    import paddle
    from paddle_on_torch._normalize import fastpath

    print(f"basic op forms, process CPU us per call, best of turns; C++ fast path "
          f"{'on' if fastpath.installed() else 'off'}; load average {os.getloadavg()[0]:.1f}")
    print(f"{'op':<20}{'torch us':>10}{'shim us':>10}{'shim-torch':>12}{'ratio':>8}")
    for label, (shim, twin) in basic_ops(paddle, torch).items():
        s, t = [], []
        for _ in range(3):  # in turns
            s.append(_cpu_us(shim, calls=5000, repeats=5))
            t.append(_cpu_us(twin, calls=5000, repeats=5))
        s, t = min(s), min(t)
        print(f"{label:<20}{t:10.2f}{s:10.2f}{s - t:+12.2f}{s / t:8.2f}")


# ------------------------------------------------------------------ the tiny GPT's op forms
def gpt_ops(paddle, torch):
    """{label: (shim call, torch call)}: each op form tests/model_zoo/gpt.py's forward uses (its shapes: batch
    2, seq 10, dim 32, 4 heads), next to the form bench/twins/gpt.py uses for it."""
    import math

    nn, F = paddle.nn, paddle.nn.functional
    tF = torch.nn.functional
    x, att = paddle.randn([2, 10, 32]), paddle.randn([2, 4, 10, 10])
    qkv, z = paddle.randn([2, 10, 96]), paddle.randn([2, 10, 4, 8])
    q, k = paddle.randn([2, 4, 10, 8]), paddle.randn([2, 4, 8, 10])
    ids = paddle.to_tensor([list(range(10))] * 2)
    mask = paddle.tril(paddle.ones([10, 10], dtype="bool"))
    lin, ln, emb, gelu = nn.Linear(32, 96), nn.LayerNorm(32), nn.Embedding(50, 32), nn.GELU(approximate=True)
    tlin, tln, temb = torch.nn.Linear(32, 96), torch.nn.LayerNorm(32), torch.nn.Embedding(50, 32)
    tgelu = torch.nn.GELU(approximate="tanh")
    xt, attt, qkvt, zt, qt, kt, idst, maskt = (v._t for v in (x, att, qkv, z, q, k, ids, mask))
    s = math.sqrt(8)
    return {
        "ones([t, t], bool)": (lambda: paddle.ones([10, 10], dtype="bool"),
                               lambda: torch.ones(10, 10, dtype=torch.bool)),
        "tril": (lambda: paddle.tril(mask), lambda: torch.tril(maskt)),
        "full_like(-inf)": (lambda: paddle.full_like(att, float("-inf")),
                            lambda: torch.full_like(attt, float("-inf"))),
        "where": (lambda: paddle.where(mask, att, att), lambda: torch.where(maskt, attt, attt)),
        "split(3)": (lambda: paddle.split(qkv, 3, axis=-1), lambda: torch.split(qkvt, 32, dim=-1)),
        "reshape": (lambda: x.reshape([2, 10, 4, 8]), lambda: xt.reshape(2, 10, 4, 8)),
        "transpose": (lambda: z.transpose([0, 2, 1, 3]), lambda: zt.permute(0, 2, 1, 3)),
        "matmul": (lambda: paddle.matmul(q, k), lambda: torch.matmul(qt, kt)),
        "matmul(transpose_y)": (lambda: paddle.matmul(x, emb.weight, transpose_y=True),
                                lambda: torch.matmul(xt, temb.weight.t())),
        "divide by float": (lambda: att / s, lambda: attt / s),
        "add": (lambda: x + x, lambda: xt + xt),
        "softmax": (lambda: F.softmax(att, axis=-1), lambda: tF.softmax(attt, dim=-1)),
        "Linear": (lambda: lin(x), lambda: tlin(xt)),
        "LayerNorm": (lambda: ln(x), lambda: tln(xt)),
        "Embedding": (lambda: emb(ids), lambda: temb(idst)),
        "GELU(tanh)": (lambda: gelu(x), lambda: tgelu(xt)),
        "arange(0, n, int64)": (lambda: paddle.arange(0, 10, dtype="int64"),
                                lambda: torch.arange(0, 10, dtype=torch.int64)),
    }


def _cpu_us(fn, calls=2000, repeats=9):
    """Best process-CPU microseconds per call over `repeats` batches (CPU time leaves out descheduling)."""
    for _ in range(50):
        fn()
    best = float("inf")
    for _ in range(repeats):
        t = time.process_time()
        for _ in range(calls):
            fn()
        best = min(best, (time.process_time() - t) / calls)
    return best * 1e6


def ops_main():
    import torch

    torch.set_num_threads(1)
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import paddle_on_torch

    paddle_on_torch.install()
    import paddle

    print(f"{'op (tiny GPT forward)':<24}{'torch us':>10}{'shim us':>10}{'shim-torch':>12}")
    with torch.no_grad():
        for label, (shim, twin) in gpt_ops(paddle, torch).items():
            s, t = min(_cpu_us(shim), _cpu_us(shim)), min(_cpu_us(twin), _cpu_us(twin))
            print(f"{label:<24}{t:10.2f}{s:10.2f}{s - t:+12.2f}")


def main():
    if sys.argv[1:] == ["--ops"]:
        ops_main()
        return
    if sys.argv[1:] == ["--basic"]:
        basic_main()
        return
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
    print()
    subprocess.run([sys.executable, __file__, "--basic"], env=env)


if __name__ == "__main__":
    main()
