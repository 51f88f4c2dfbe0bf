"""Fused-op kernels on CPU, fp32: the C++ custom op vs eager torch vs torch.compile vs real Paddle vs the
memory-bandwidth floor.  One run; ratios are printed against eager and against the floor.  Times are the best of
several runs (see timeit).

    ~/oracle/bin/python bench/kernels.py            # everything (torch.compile takes a few minutes)
    ~/oracle/bin/python bench/kernels.py --no-compile --no-paddle

Shapes: [8, 512, 768] and [4096, 4096].  rope reads them as [B, S, H, D] = [8, 512, 12, 64] and
[1, 4096, 32, 128]; swiglu takes x and y of that shape.  The floor is (bytes the op must read and
write) / (copy bandwidth measured here with a preallocated destination); every contender allocates
its outputs, as a Paddle call does.  Real Paddle runs in a subprocess (its CPU build has forward
kernels for fused_rms_norm / fused_layer_norm and both directions for swiglu; no rotary kernel).
"""
import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SHAPES = [(8, 512, 768), (4096, 4096)]
EPS = 1e-6


def timeit(fn, min_time=0.4, min_runs=7, warmup=2):
    """Best time over the runs: on a shared machine, preemption (4 ms scheduler ticks) and other
    processes' memory traffic only ever add time, so the minimum is the stable statistic."""
    for _ in range(warmup):
        fn()
    ts = []
    t_end = time.perf_counter() + min_time
    while len(ts) < min_runs or time.perf_counter() < t_end:
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
        if len(ts) >= 200:
            break
    return min(ts)


def rope_shape(shape):
    return [8, 512, 12, 64] if len(shape) == 3 else [1, 4096, 32, 128]


# ---------------------------------------------------------------- real Paddle (subprocess)

PADDLE_SCRIPT = r"""
import json, os, sys, time
import numpy as np
import paddle
import paddle.incubate.nn.functional as F
sys.path.insert(0, sys.argv[1])
from bench.kernels import timeit, SHAPES, EPS
res = {}
for shape in SHAPES:
    n = shape[-1]
    x = paddle.randn(shape); w = paddle.ones([n]); b = paddle.zeros([n]); y = paddle.randn(shape)
    key = "x".join(map(str, shape))
    ax = len(shape) - 1
    res["rms_norm", key, "fwd"] = timeit(lambda: F.fused_rms_norm(x, w, None, EPS, ax))
    res["layer_norm", key, "fwd"] = timeit(lambda: F.fused_layer_norm(x, w, b, EPS, begin_norm_axis=ax))
    res["swiglu", key, "fwd"] = timeit(lambda: paddle.nn.functional.swiglu(x, y))
    xg = x.detach(); xg.stop_gradient = False
    def sw_fb():
        xg.clear_gradient() if xg.grad is not None else None
        paddle.nn.functional.swiglu(xg, y).sum().backward()
    res["swiglu", key, "fwd+bwd"] = timeit(sw_fb)
print(json.dumps([[list(k), v] for k, v in res.items()]))
"""


def paddle_times(python):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        out = subprocess.run([python, "-c", PADDLE_SCRIPT, root], capture_output=True, text=True, timeout=900)
        line = [ln for ln in out.stdout.splitlines() if ln.startswith("[")][-1]
        return {tuple(k): v for k, v in json.loads(line)}
    except Exception as e:  # paddle not installed, ...
        print(f"(real Paddle not measured: {type(e).__name__})", file=sys.stderr)
        return {}


# ---------------------------------------------------------------- contenders


def build(op, shape, torch, fused):
    """Returns (inputs, grad-needing leaves, {name: fn(inputs) -> output}, bytes_fwd, bytes_fwdbwd)."""
    n = shape[-1]
    f4 = 4
    if op in ("rms_norm", "layer_norm"):
        x = torch.randn(shape)
        w = torch.ones(n)
        b = torch.zeros(n)
        rms = op == "rms_norm"

        def eager(x, w, b):
            if rms:
                return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + EPS) * w
            mu = x.mean(-1, keepdim=True)
            var = (x - mu).pow(2).mean(-1, keepdim=True)
            return (x - mu) * torch.rsqrt(var + EPS) * w + b

        def fused_op(x, w, b):
            return fused.fused_norm(x.reshape(-1, n), None, None, w, None if rms else b, EPS, 1.0, rms)[0].reshape(x.shape)

        numel = x.numel()
        return (x, w, b), (0, 1, 2) if not rms else (0, 1), eager, fused_op, 2 * numel * f4, 5 * numel * f4
    if op == "rope":
        rs = rope_shape(shape)
        x = torch.randn(rs)
        d = rs[-1]
        theta = torch.randn(1, rs[1], d)
        cos, sin = torch.cos(theta), torch.sin(theta)

        def eager(x, cos, sin):  # the usual adjacent-pair composition
            c, s = cos[:, :, None], sin[:, :, None]
            rot = torch.stack((-x[..., 1::2], x[..., 0::2]), -1).flatten(-2)
            return x * c + rot * s

        def fused_op(x, cos, sin):
            return fused.fused_rope(x, cos, sin, True)

        numel = x.numel()
        return (x, cos, sin), (0,), eager, fused_op, 2 * numel * f4, 4 * numel * f4
    if op == "swiglu":
        x, y = torch.randn(shape), torch.randn(shape)

        def eager(x, y):
            return torch.nn.functional.silu(x) * y

        numel = x.numel()
        return (x, y), (0, 1), eager, fused.fused_swiglu, 3 * numel * f4, 8 * numel * f4
    raise ValueError(op)


def run_fwd(fn, args):
    import torch

    with torch.no_grad():
        return lambda: fn(*args)


def fwd_bwd(fn, args, grad_idx):
    import torch

    leaves = list(args)
    for i in grad_idx:
        leaves[i] = args[i].detach().requires_grad_(True)
    req = [leaves[i] for i in grad_idx]

    def step():
        out = fn(*leaves)
        torch.autograd.grad(out, req, grad_outputs=torch.ones_like(out))

    return step


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--no-compile", action="store_true")
    ap.add_argument("--no-paddle", action="store_true")
    ap.add_argument("--paddle-python", default=os.path.expanduser("~/oracle/bin/python"))
    ap.add_argument("--ops", default="rms_norm,layer_norm,rope,swiglu")
    ap.add_argument("--thp", action="store_true", help="THP_MEM_ALLOC_ENABLE=1: huge pages for big CPU tensors "
                    "(fresh 64 MiB allocations otherwise cost ~16k page faults each)")
    args = ap.parse_args()
    if args.thp:
        os.environ["THP_MEM_ALLOC_ENABLE"] = "1"  # read by c10 lazily, on the first big allocation

    import torch

    from paddle_on_torch.ops import fused

    fused.set_backend("cpp")
    from paddle_on_torch import ext

    if ext.load() is None:
        sys.exit("C++ kernels could not be built; nothing to benchmark")
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, CPU capability "
          f"{torch.backends.cpu.get_cpu_capability()}, C++ kernels built for {ext.load().capability()}, "
          f"THP_MEM_ALLOC_ENABLE={os.environ.get('THP_MEM_ALLOC_ENABLE', 'unset')}")

    # copy bandwidth: read + write of a 64 MiB buffer into a preallocated destination
    src = torch.randn(16 * 1024 * 1024)
    dst = torch.empty_like(src)
    t = timeit(lambda: dst.copy_(src))
    bw = 2 * src.numel() * 4 / t
    print(f"copy bandwidth: {bw / 1e9:.1f} GB/s (64 MiB copy {t * 1e3:.2f} ms)")

    ptimes = {} if args.no_paddle else paddle_times(args.paddle_python)
    rows = []
    for op in args.ops.split(","):
        for shape in SHAPES:
            inputs, grad_idx, eager, fused_op, b_fwd, b_fb = build(op, shape, torch, fused)
            key = "x".join(map(str, shape))
            compiled = None if args.no_compile else torch.compile(eager, dynamic=False)
            for mode, nbytes in (("fwd", b_fwd), ("fwd+bwd", b_fb)):
                mk = (lambda f: run_fwd(f, inputs)) if mode == "fwd" else (lambda f: fwd_bwd(f, inputs, grad_idx))
                t_cpp = timeit(mk(fused_op))
                t_eager = timeit(mk(eager))
                t_comp = timeit(mk(compiled)) if compiled is not None else None
                t_pd = ptimes.get((op, key, mode))
                rows.append((op, key, mode, t_cpp, t_eager, t_comp, t_pd, nbytes / bw))
                print(_fmt(rows[-1]), flush=True)
    print()
    print(HEADER)
    for r in rows:
        print(_fmt(r))
    seed_layer()


HEADER = (f"{'op':<11}{'shape':<12}{'mode':<8}{'C++ ms':>8}{'eager':>8}{'compile':>8}{'paddle':>8}{'floor':>8}"
          f"{'eager/C++':>10}{'comp/C++':>9}{'pd/C++':>8}{'C++/floor':>10}")


def _fmt(r):
    op, key, mode, c, e, k, p, fl = r
    ms = lambda v: f"{v * 1e3:8.2f}" if v is not None else f"{'n/a':>8}"  # noqa
    ratio = lambda a, b, w: f"{a / b:{w}.2f}x" if a is not None else f"{'n/a':>{w + 1}}"  # noqa
    return (f"{op:<11}{key:<12}{mode:<8}{ms(c)}{ms(e)}{ms(k)}{ms(p)}{ms(fl)}"
            f"{ratio(e, c, 9)}{ratio(k, c, 8)}{ratio(p, c, 7)}{ratio(c, fl, 9)}")


def seed_layer():
    """../shared/seed_examples/rmsnorm.py's layer (eager ops through paddle_on_torch) vs the fused op."""
    import paddle_on_torch as paddle

    F = paddle.incubate.nn.functional

    class RMSNorm(paddle.nn.Layer):
        def __init__(self, n, fused_op):
            super().__init__()
            self.variance_epsilon = 1e-6
            self.fused_op = fused_op
            self.weight = paddle.create_parameter(shape=[n], dtype="float32")

        def forward(self, x):
            if self.fused_op:
                return F.fused_rms_norm(x, self.weight, None, self.variance_epsilon, x.ndim - 1)[0]
            variance = x.pow(2).mean(-1, keepdim=True)
            x = paddle.rsqrt(variance + self.variance_epsilon) * x
            return x * self.weight

    print("\nseed example rmsnorm.py layer, fwd+bwd through paddle_on_torch:")
    for shape in ([2, 16, 768], [8, 512, 768]):
        x = paddle.randn(shape)
        res = {}
        for fused_op in (False, True):
            layer = RMSNorm(shape[-1], fused_op)

            def step():
                layer.weight.clear_gradient()
                layer(x).sum().backward()

            res[fused_op] = timeit(step)
        print(f"  {str(shape):<14} eager {res[False] * 1e3:7.3f} ms   fused {res[True] * 1e3:7.3f} ms   "
              f"speed-up {res[False] / res[True]:.2f}x")


if __name__ == "__main__":
    main()
