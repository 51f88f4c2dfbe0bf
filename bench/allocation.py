"""Does transparent-huge-page allocation pay off on this CPU?  (issue 2's allocation question)

    python bench/allocation.py

On these machines a fresh large tensor is faulted in page by page, which can dominate eager CPU
time.  torch can back large allocations with transparent huge pages when THP_MEM_ALLOC_ENABLE=1
is set before it allocates.  This runs the same eager workloads in two subprocesses, with and
without it, and prints the ratio.  paddle_on_torch turns it on at import unless the user set the
variable (see README, "CPU allocation").
"""
import json
import os
import subprocess
import sys
import time


def workloads():
    import torch

    torch.set_num_threads(int(os.environ.get("BENCH_THREADS", "1")))
    x = torch.randn(4096, 4096)
    w = torch.randn(4096)
    h = torch.randn(8, 512, 768)

    def rmsnorm():
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w

    def mlp_chain():
        y = torch.nn.functional.gelu(h * 1.5 + 0.5)
        return (y * y).sum(-1)

    def small():
        a = torch.ones(64)
        for _ in range(100):
            a = a * 1.0001 + 0.1
        return a

    out = {}
    for name, fn in (("rmsnorm_4096x4096", rmsnorm), ("gelu_chain_8x512x768", mlp_chain), ("tiny_ops", small)):
        fn()
        best = float("inf")
        for _ in range(7):
            t = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - t)
        out[name] = best * 1e3
    return out


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        print(json.dumps(workloads()))
        return
    res = {}
    for thp in ("0", "1"):
        env = dict(os.environ, THP_MEM_ALLOC_ENABLE=thp)
        p = subprocess.run([sys.executable, __file__, "--child"], env=env, capture_output=True, text=True, check=True)
        res[thp] = json.loads(p.stdout.strip().splitlines()[-1])
    print(f"{'workload (ms, best of 7)':<28}{'THP off':>10}{'THP on':>10}{'speed-up':>10}")
    for k in res["0"]:
        print(f"{k:<28}{res['0'][k]:10.2f}{res['1'][k]:10.2f}{res['0'][k] / res['1'][k]:10.2f}")


if __name__ == "__main__":
    main()
