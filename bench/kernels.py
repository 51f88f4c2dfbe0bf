"""Fused-op kernels on CPU, fp32: the C++ custom op vs eager torch vs torch.compile vs real Paddle vs the
memory-bandwidth floor.  One run; ratios are printed against eager and against the floor.  Times are the best of
several runs (see timeit).

    ~/oracle/bin/python -m bench.kernels            # everything (torch.compile takes a few minutes)
    ~/oracle/bin/python -m bench.kernels --no-compile --no-paddle

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
_clock = time.perf_counter  # --cpu-time: time.thread_time (one thread; time spent descheduled is not counted)


def timeit(fn, min_time=0.4, min_runs=7, warmup=2):
    """Best time over the runs: on a shared machine, preemption (4 ms scheduler ticks) and other
    processes' memory traffic only ever add time, so the minimum is the stable statistic."""
    for _ in range(warmup):
        fn()
    ts = []
    t_end = time.perf_counter() + min_time
    while len(ts) < min_runs or time.perf_counter() < t_end:
        t0 = _clock()
        fn()
        ts.append(_clock() - t0)
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
            return fused.norm(x.reshape(-1, n), None, None, w, None if rms else b, EPS, 1.0, rms, 1)[0].reshape(x.shape)

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
            return fused.rotary(x, cos, sin, True)

        numel = x.numel()
        return (x, cos, sin), (0,), eager, fused_op, 2 * numel * f4, 4 * numel * f4
    if op == "swiglu":
        x, y = torch.randn(shape), torch.randn(shape)

        def eager(x, y):
            return torch.nn.functional.silu(x) * y

        numel = x.numel()
        return (x, y), (0, 1), eager, fused.silu_mul, 3 * numel * f4, 8 * numel * f4
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
    with torch.no_grad():  # the incoming gradient comes from upstream: made once, outside the timed step (a fresh
        gy = torch.randn_like(fn(*args))  # 64 MiB ones_like per step cost as much as the whole fused backward)

    def step():
        out = fn(*leaves)
        torch.autograd.grad(out, req, grad_outputs=gy)

    return step


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--no-compile", action="store_true")
    ap.add_argument("--no-paddle", action="store_true")
    ap.add_argument("--paddle-python", default=os.path.expanduser("~/oracle/bin/python"))
    ap.add_argument("--ops", default="rms_norm,layer_norm,rope,swiglu,ce,api")
    ap.add_argument("--shapes", default=None, help="e.g. 4096x4096 (default: all of SHAPES)")
    ap.add_argument("--malloc-reuse", action="store_true", help="keep freed big blocks in the heap (glibc "
                    "mallopt), so a fresh output reuses pages already faulted in, as a caching allocator would")
    ap.add_argument("--threads", type=int, default=None, help="torch.set_num_threads (default: torch's)")
    ap.add_argument("--cpu-time", action="store_true", help="with --threads 1: time the calling thread's CPU "
                    "time, so that time spent descheduled on a shared machine is left out (memory contention is not)")
    ap.add_argument("--ce-peak", nargs=3, metavar=("VARIANT", "M", "V"), help=argparse.SUPPRESS)
    ap.add_argument("--thp", action="store_true", help="THP_MEM_ALLOC_ENABLE=1: huge pages for big CPU tensors "
                    "(fresh 64 MiB allocations otherwise cost ~16k page faults each)")
    args = ap.parse_args()
    if args.ce_peak:
        return ce_peak(*args.ce_peak)
    if args.malloc_reuse:
        malloc_reuse()
    if args.thp:
        os.environ["THP_MEM_ALLOC_ENABLE"] = "1"  # read by c10 lazily, on the first big allocation

    import torch

    from types import SimpleNamespace

    from paddle_on_torch.kernels import dispatch, norm, rope, swiglu

    fused = SimpleNamespace(norm=norm.norm, rotary=rope.rotary, silu_mul=swiglu.silu_mul)  # the ops' entry points

    if args.threads:
        torch.set_num_threads(args.threads)
    if args.cpu_time:
        if torch.get_num_threads() != 1:
            sys.exit("--cpu-time needs --threads 1 (the other threads' time would be left out)")
        global _clock
        _clock = time.thread_time
    dispatch.set_backend("cpp")
    from paddle_on_torch.kernels import cpp as ext

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
    ops = args.ops.split(",")
    shapes = SHAPES if not args.shapes else [tuple(int(v) for v in sh.split("x")) for sh in args.shapes.split(",")]
    for op in ops:
        if op in ("ce", "api"):
            continue
        for shape in shapes:
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
    if "ce" in ops:
        ce_section(torch)
    if set(ops) & {"rms_norm"}:
        seed_layer()
    if "api" in ops:
        api_calls()


def malloc_reuse():
    """glibc: serve big blocks from the heap and never trim it, so freed 64 MiB outputs are reused
    without new page faults (process-wide; torch's CPU allocator has no cache of its own)."""
    import ctypes

    libc = ctypes.CDLL("libc.so.6")
    M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
    libc.mallopt(M_MMAP_THRESHOLD, 1 << 30)
    libc.mallopt(M_TRIM_THRESHOLD, 1 << 40 if ctypes.sizeof(ctypes.c_long) == 8 else (1 << 31) - 1)


CE_SHAPE = (2048, 32000)  # tokens x vocabulary: 250 MiB of fp32 logits


def _ce_variants(torch):
    import torch.nn.functional as TF

    from paddle_on_torch.kernels.cross_entropy import fused_softmax_cross_entropy

    return {"eager": lambda x, lab: TF.cross_entropy(x, lab, reduction="none"),
            "fused": lambda x, lab: fused_softmax_cross_entropy(x, lab)}


def ce_peak(variant, m, v):
    """Run in a fresh process: peak RSS growth of one forward + backward, and the bytes autograd saves."""
    import torch

    def hwm():  # this process's peak RSS (VmHWM, per address space: ru_maxrss would carry the parent's)
        with open("/proc/self/status") as f:
            return next(int(ln.split()[1]) for ln in f if ln.startswith("VmHWM"))

    m, v = int(m), int(v)
    x = torch.randn(m, v).requires_grad_(True)
    lab = torch.randint(0, v, (m,))
    fn = _ce_variants(torch)[variant]
    fn(torch.randn(2, v, requires_grad=True), lab[:2]).sum().backward()  # load kernels / warm up
    saved = {}

    def pack(t):  # unique storages other than the logits themselves
        st = t.untyped_storage()
        if st.data_ptr() != x.untyped_storage().data_ptr():
            saved[st.data_ptr()] = st.nbytes()
        return t

    before = hwm()
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        loss = fn(x, lab)
    loss.sum().backward()
    peak = hwm()
    print(json.dumps({"saved": sum(saved.values()), "peak_growth": (peak - before) * 1024}))


def ce_section(torch):
    """Fused softmax cross entropy vs log_softmax + nll (torch's eager cross_entropy): time of forward +
    backward, bytes saved for the backward beyond the logits, and peak RSS growth (fresh process each)."""
    m, v = CE_SHAPE
    x = torch.randn(m, v)
    lab = torch.randint(0, v, (m,))
    variants = _ce_variants(torch)
    times = {}
    for name, fn in variants.items():
        xl = x.detach().requires_grad_(True)

        def step():
            xl.grad = None
            fn(xl, lab).sum().backward()

        times[name] = timeit(step, min_time=0.2, min_runs=3, warmup=1)
        with torch.no_grad():
            times[name + "_fwd"] = timeit(lambda: fn(x, lab), min_time=0.2, min_runs=3, warmup=1)
    mem = {}
    for name in variants:
        # as a module from the repository root: run as a script, bench/ would come first on sys.path and its
        # modules could shadow the standard library's
        out = subprocess.run([sys.executable, "-m", "bench.kernels", "--ce-peak", name, str(m), str(v)],
                             capture_output=True, text=True, timeout=600,
                             cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        mem[name] = json.loads(out.stdout.strip().splitlines()[-1])
    mib = lambda b: b / 2 ** 20  # noqa: E731
    print(f"\nsoftmax cross entropy, logits [{m}, {v}] fp32 ({mib(m * v * 4):.0f} MiB), hard labels:")
    for name in variants:
        print(f"  {name:<6} fwd {times[name + '_fwd'] * 1e3:8.2f} ms   fwd+bwd {times[name] * 1e3:8.2f} ms   "
              f"saved for backward {mib(mem[name]['saved']):8.1f} MiB   peak RSS growth "
              f"{mib(mem[name]['peak_growth']):8.1f} MiB")
    print(f"  fused / eager: fwd+bwd time {times['fused'] / times['eager']:.2f}x, peak memory "
          f"{mem['fused']['peak_growth'] / max(mem['eager']['peak_growth'], 1):.2f}x")


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

    print("\nseed example rmsnorm.py layer, fwd+bwd through paddle_on_torch (eager and fused timed in turns, best of 5):")
    for shape, x_grad in (([2, 16, 768], False), ([2, 16, 768], True), ([8, 512, 768], False)):
        x = paddle.randn(shape)
        x.stop_gradient = not x_grad  # the seed's x needs no gradient: eager's backward is one multiply and a sum
        steps = {}
        for fused_op in (False, True):
            layer = RMSNorm(shape[-1], fused_op)

            def step(layer=layer):
                layer.weight.clear_gradient()
                layer(x).sum().backward()

            steps[fused_op] = step
        res = {False: [], True: []}
        for _ in range(5):  # in turns, so that a change of load hits both
            for fused_op, step in steps.items():
                res[fused_op].append(timeit(step, min_time=0.1))
        e, f = min(res[False]), min(res[True])
        label = str(shape) + (" x grad" if x_grad else "")
        print(f"  {label:<21} eager {e * 1e3:7.3f} ms   fused {f * 1e3:7.3f} ms   speed-up {e / f:.2f}x")

def api_calls():
    """The Paddle APIs as a program calls them (paddle Tensors, the argument mapping, the op call and its autograd
    node), fwd without gradients and fwd+bwd with x and the weights needing them: the per-call cost at a small
    shape, the kernels' at a larger one."""
    import paddle_on_torch as paddle

    F, IF = paddle.nn.functional, paddle.incubate.nn.functional
    print("\nPaddle API calls (us a call, best of 5 rounds):")
    for shape in ([2, 16, 768], [8, 512, 768]):
        n = shape[-1]
        x, y = paddle.randn(shape), paddle.randn(shape)
        w, b = paddle.ones([n]), paddle.zeros([n])
        q = paddle.randn(shape[:2] + [12, 64])
        calls = {
            "F.rms_norm": lambda x, w, b: F.rms_norm(x, [n], w, 1e-6)[0],
            "F.layer_norm": lambda x, w, b: F.layer_norm(x, [n], w, b, 1e-5),
            "fused_rms_norm": lambda x, w, b: IF.fused_rms_norm(x, w, None, 1e-6, 2)[0],
            "fused_layer_norm": lambda x, w, b: IF.fused_layer_norm(x, w, b, 1e-5, begin_norm_axis=2)[0],
            "swiglu": lambda x, w, b: IF.swiglu(x, y),
            "fused_rope": lambda x, w, b: IF.fused_rotary_position_embedding(q)[0],
        }
        for name, fn in calls.items():
            xg, wg, bg = x.detach(), w.detach(), b.detach()
            for t in (xg, wg, bg):
                t.stop_gradient = False
            if name == "fused_rope":
                qg = q.detach()
                qg.stop_gradient = False
                fb = lambda: IF.fused_rotary_position_embedding(qg)[0].sum().backward()  # noqa: E731
            else:
                fb = lambda fn=fn: fn(xg, wg, bg).sum().backward()  # noqa: E731
            with paddle.no_grad():
                t_f = min(timeit(lambda fn=fn: fn(x, w, b), min_time=0.1) for _ in range(5))
            t_fb = min(timeit(fb, min_time=0.1) for _ in range(5))
            print(f"  {name:<17}{str(shape):<15} fwd {t_f * 1e6:9.1f}   fwd+bwd {t_fb * 1e6:9.1f}", flush=True)


if __name__ == "__main__":
    main()
