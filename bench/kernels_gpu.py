"""The Triton kernels on a GPU: paddle_on_torch (through the Paddle API) vs eager torch vs torch.compile vs
Liger-Kernel vs the memory-bandwidth floor, in one run; and the peak memory of each forward + backward.

    python bench/kernels_gpu.py                          # every op, bfloat16 (torch.compile: a minute or two)
    python bench/kernels_gpu.py --ops rms_norm,ce --no-compile --json out.json
    TRITON_INTERPRET=1 python bench/kernels_gpu.py --smoke    # a dry run of the script on CPU tensors

Shapes are a Llama-style layer at batch 8 x sequence 2048: norms over x [16384, 4096]; rotary on q and k
[8, 2048, 32, 128] (Paddle's [b, s, h, d]; the rotate-half style, Paddle's use_neox_rotary_style=False, which is
Liger's); swiglu on x, y [16384, 11008]; cross entropy over logits [4096, 128256] (Llama 3's vocabulary).
Contenders:
  ours     the Paddle API (paddle.incubate.nn.functional / paddle.nn.functional) on paddle Tensors over the
           same storage (interop.from_torch): the custom op with its Triton kernel, wrapper costs included;
  eager    the plain torch composition a torch user writes (F.layer_norm / F.rms_norm where torch has one);
  compile  torch.compile of that composition (skipped with --no-compile);
  liger    Liger-Kernel's autograd Functions, when `import liger_kernel` works (it writes rotary and cross-
           entropy results into its inputs; timing is unaffected).
Real Paddle's GPU build is not installed on the lent machines, so there is no Paddle column here (the CPU
comparison with Paddle is bench/kernels.py).  Times are the median of triton.testing.do_bench (CUDA events,
L2 cleared between calls); the floor is (bytes the op must read and write) / (device-to-device copy bandwidth
measured in the same run).  "kernels": the GPU time of the kernels of one call (torch.profiler); a call
whose time is well above it waits on the CPU (Python, launches).  Peak memory: max_memory_allocated during one forward + backward, above what the
inputs already hold.
"""
import argparse
import json
import os
import sys
import time

import torch
import torch.nn.functional as TF

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import paddle_on_torch as paddle  # noqa: E402
from paddle_on_torch.interop import from_torch, to_torch  # noqa: E402

EPS = 1e-6
FULL = dict(rows=16384, hidden=4096, rope=(8, 2048, 32, 128), ffn=11008, ce=(4096, 128256))
SMOKE = dict(rows=6, hidden=40, rope=(1, 3, 2, 8), ffn=24, ce=(5, 50))


# ---------------------------------------------------------------- timing


def _time_ms(fn):
    if torch.cuda.is_available():
        from triton.testing import do_bench

        return do_bench(fn, warmup=25, rep=100, return_mode="median")
    fn()
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1e3


def _peak_mib(fn):
    if not torch.cuda.is_available():
        return None
    torch.cuda.synchronize()
    base = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    fn()
    torch.cuda.synchronize()
    return (torch.cuda.max_memory_allocated() - base) / 2 ** 20


def _kernel_ms(fn, calls=5):
    """GPU time of the kernels one call launches (torch.profiler, CUDA activity), without the CPU time between
    them: where it is well below the call's time, the call is bound by its Python / launch overhead."""
    if not torch.cuda.is_available():
        return None
    from torch.profiler import ProfilerActivity, profile

    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
    total_us = sum(getattr(e, "self_device_time_total", 0) or getattr(e, "self_cuda_time_total", 0)
                   for e in prof.key_averages())
    return total_us / calls / 1e3


def copy_bandwidth(dev):
    """Bytes read + written per second by a device-to-device copy of 1 GiB."""
    src = torch.empty(2 ** 28, dtype=torch.float32, device=dev)
    dst = torch.empty_like(src)
    ms = _time_ms(lambda: dst.copy_(src))
    return 2 * src.numel() * 4 / (ms / 1e3)


# ---------------------------------------------------------------- the ops: inputs, contenders, bytes moved


def _leaf(shape, dtype, dev, scale=1.0):
    return (torch.randn(shape, device=dev) * scale).to(dtype).requires_grad_()


def rms_norm_case(cfg, dtype, dev):
    x, w = _leaf((cfg["rows"], cfg["hidden"]), dtype, dev), _leaf(cfg["hidden"], dtype, dev)
    F = paddle.incubate.nn.functional

    def ours():
        return to_torch(F.fused_rms_norm(from_torch(x), from_torch(w), None, EPS, 1)[0])

    def eager():
        xf = x.float()
        return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + EPS)).to(dtype) * w

    def liger():
        from liger_kernel.ops.rms_norm import LigerRMSNormFunction

        return LigerRMSNormFunction.apply(x, w, EPS, 0.0, "llama", False)

    contenders = dict(ours=ours, eager=eager, torch_rms_norm=lambda: TF.rms_norm(x, (cfg["hidden"],), w, EPS),
                      liger=liger)
    return dict(leaves=[x, w], contenders=contenders, compile=eager, elems=x.numel(), fwd_bytes=4, bwd_bytes=6)


def layer_norm_case(cfg, dtype, dev):
    n = cfg["hidden"]
    x, w, b = _leaf((cfg["rows"], n), dtype, dev), _leaf(n, dtype, dev), _leaf(n, dtype, dev)
    F = paddle.incubate.nn.functional

    def ours():
        return to_torch(F.fused_layer_norm(from_torch(x), from_torch(w), from_torch(b), EPS, begin_norm_axis=1)[0])

    def eager():
        return TF.layer_norm(x, (n,), w, b, EPS)

    def liger():
        from liger_kernel.ops.layer_norm import LigerLayerNormFunction

        return LigerLayerNormFunction.apply(x, w, b, EPS)

    return dict(leaves=[x, w, b], contenders=dict(ours=ours, eager=eager, liger=liger), compile=eager,
                elems=x.numel(), fwd_bytes=4, bwd_bytes=6)


def rope_case(cfg, dtype, dev):
    bsz, s, h, d = cfg["rope"]
    q, k = _leaf((bsz, s, h, d), dtype, dev), _leaf((bsz, s, h, d), dtype, dev)
    ang = torch.randn(s, d // 2, device=dev).repeat(1, 2)  # rotate-half layout: the two halves share angles
    cos4, sin4 = ang.cos().to(dtype)[None, :, None], ang.sin().to(dtype)[None, :, None]  # Paddle's [1, s, 1, d]
    F = paddle.incubate.nn.functional
    sin_p, cos_p = from_torch(sin4), from_torch(cos4)

    def ours():
        oq, ok, _ = F.fused_rotary_position_embedding(from_torch(q), from_torch(k), sin=sin_p, cos=cos_p,
                                                      use_neox_rotary_style=False)
        return to_torch(oq), to_torch(ok)

    def rotate_half(t):
        t1, t2 = t.chunk(2, -1)
        return torch.cat((-t2, t1), -1)

    def eager():
        return q * cos4 + rotate_half(q) * sin4, k * cos4 + rotate_half(k) * sin4

    def liger():
        from liger_kernel.ops.rope import LigerRopeFunction

        # Liger takes [b, h, s, d]: the transposed view of our contiguous [b, s, h, d] is its physical layout
        return LigerRopeFunction.apply(q.transpose(1, 2), k.transpose(1, 2), cos4[:, :, 0], sin4[:, :, 0])

    return dict(leaves=[q, k], contenders=dict(ours=ours, eager=eager, liger=liger), compile=eager,
                elems=2 * q.numel(), fwd_bytes=4, bwd_bytes=4)


def swiglu_case(cfg, dtype, dev):
    x, y = _leaf((cfg["rows"], cfg["ffn"]), dtype, dev), _leaf((cfg["rows"], cfg["ffn"]), dtype, dev)
    F = paddle.incubate.nn.functional

    def ours():
        return to_torch(F.swiglu(from_torch(x), from_torch(y)))

    def eager():
        return TF.silu(x) * y

    def liger():
        from liger_kernel.ops.swiglu import LigerSiLUMulFunction

        return LigerSiLUMulFunction.apply(x, y)

    return dict(leaves=[x, y], contenders=dict(ours=ours, eager=eager, liger=liger), compile=eager,
                elems=x.numel(), fwd_bytes=6, bwd_bytes=10)


def ce_case(cfg, dtype, dev):
    m, v = cfg["ce"]
    logits = _leaf((m, v), dtype, dev, scale=2.0)
    labels = torch.randint(0, v, (m,), device=dev)
    PF = paddle.nn.functional
    labels_p = from_torch(labels)

    def ours():
        return to_torch(PF.cross_entropy(from_torch(logits), labels_p))

    def eager():
        return TF.cross_entropy(logits, labels)

    def liger():
        from liger_kernel.ops.cross_entropy import LigerCrossEntropyFunction

        return LigerCrossEntropyFunction.apply(logits, labels, None, -100)[0]

    # fused: the forward reads the logits once, the backward reads them again and writes the gradient
    return dict(leaves=[logits], contenders=dict(ours=ours, eager=eager, liger=liger), compile=eager,
                elems=logits.numel(), fwd_bytes=2, bwd_bytes=4, scalar=True)


CASES = dict(rms_norm=rms_norm_case, layer_norm=layer_norm_case, rope=rope_case, swiglu=swiglu_case, ce=ce_case)


# ---------------------------------------------------------------- running


def _as_tuple(out):
    return out if isinstance(out, (tuple, list)) else (out,)


def _fwd_bwd(fn, leaves):
    grads = [None]

    def run():
        outs = _as_tuple(fn())
        if grads[0] is None:
            grads[0] = [torch.ones_like(o) if o.dim() == 0 else torch.randn_like(o) for o in outs]
        torch.autograd.grad(outs, leaves, grads[0], allow_unused=True)
    return run


def _liger_available():
    try:
        import liger_kernel.ops  # noqa: F401
    except Exception:  # noqa: BLE001 -- any import failure means: no Liger column
        return False
    return True


def run(ops, dtype, compile_, smoke, profile=True):
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    cfg = SMOKE if smoke else FULL
    bw = copy_bandwidth(dev) if dev == "cuda" else None
    liger = _liger_available() and dev == "cuda"
    rows = []
    for op in ops:
        case = CASES[op](cfg, dtype, dev)
        contenders = dict(case["contenders"])
        if not liger:
            contenders.pop("liger")
        if compile_:
            contenders["compile"] = torch.compile(case["compile"])
        for mode in ("fwd", "fwd+bwd"):
            nbytes = case["elems"] * (case["fwd_bytes"] + (case["bwd_bytes"] if mode == "fwd+bwd" else 0))
            floor_ms = nbytes / bw * 1e3 if bw else None
            for name, fn in contenders.items():
                call = _no_grad(fn) if mode == "fwd" else _fwd_bwd(fn, case["leaves"])
                try:
                    ms = _time_ms(call)
                    peak = _peak_mib(call)
                    kernel_ms = _kernel_ms(call) if profile else None
                except Exception as e:  # noqa: BLE001 -- a contender that fails is reported, not fatal
                    rows.append(dict(op=op, mode=mode, who=name, error=f"{type(e).__name__}: {e}"[:200]))
                    print(f"{op:10s} {mode:8s} {name:15s} FAILED {type(e).__name__}: {str(e)[:120]}", flush=True)
                    continue
                rows.append(dict(op=op, mode=mode, who=name, ms=ms, kernel_ms=kernel_ms, peak_mib=peak,
                                 floor_ms=floor_ms))
                _print_row(rows[-1])
        del case, contenders
        if dev == "cuda":
            torch.cuda.empty_cache()
    return dict(device=torch.cuda.get_device_name() if dev == "cuda" else "cpu", torch=torch.__version__,
                dtype=str(dtype), copy_bandwidth_gbs=bw / 1e9 if bw else None, liger=liger, rows=rows)


def _no_grad(fn):
    def call():
        with torch.no_grad():
            fn()
    return call


def _print_row(r):
    floor = f"{r['ms'] / r['floor_ms']:6.2f}x floor" if r.get("floor_ms") else ""
    peak = f"{r['peak_mib']:9.1f} MiB" if r.get("peak_mib") is not None else ""
    kernels = f"kernels {r['kernel_ms']:7.3f} ms" if r.get("kernel_ms") is not None else ""
    print(f"{r['op']:10s} {r['mode']:8s} {r['who']:15s} {r['ms']:9.3f} ms  {floor}  {kernels}  {peak}", flush=True)


def summary(res):
    """ours / each other contender, per (op, mode)."""
    by = {}
    for r in res["rows"]:
        if "ms" in r:
            by.setdefault((r["op"], r["mode"]), {})[r["who"]] = r
    lines = []
    for (op, mode), d in by.items():
        if "ours" not in d:
            continue
        parts = [f"{who} {d['ours']['ms'] / r['ms']:.2f}" for who, r in d.items() if who != "ours"]
        if d["ours"].get("floor_ms"):
            parts.append(f"floor {d['ours']['ms'] / d['ours']['floor_ms']:.2f}")
        lines.append(f"{op:10s} {mode:8s} ours / " + ", ".join(parts))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ops", default=",".join(CASES))
    ap.add_argument("--dtype", default="bfloat16", choices=["bfloat16", "float16", "float32"])
    ap.add_argument("--no-compile", action="store_true")
    ap.add_argument("--smoke", action="store_true", help="tiny shapes; runs on CPU tensors under TRITON_INTERPRET=1")
    ap.add_argument("--no-profile", action="store_true", help="skip the per-call kernel time (torch.profiler)")
    ap.add_argument("--json", help="write the results here")
    args = ap.parse_args()
    torch.manual_seed(0)
    res = run(args.ops.split(","), getattr(torch, args.dtype), not args.no_compile, args.smoke, not args.no_profile)
    print(f"\n{res['device']}, torch {res['torch']}, {res['dtype']}, copy bandwidth "
          f"{res['copy_bandwidth_gbs'] or 0:.0f} GB/s, Liger-Kernel {'yes' if res['liger'] else 'not installed'}")
    print(summary(res))
    if args.json:
        with open(args.json + ".tmp", "w") as f:
            json.dump(res, f, indent=1)
        os.replace(args.json + ".tmp", args.json)


if __name__ == "__main__":
    main()
