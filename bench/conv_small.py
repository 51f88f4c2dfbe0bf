"""Small CPU convolutions: torch's oneDNN conv2d vs its im2col + GEMM kernel (thnn_conv2d), one thread.

    python bench/conv_small.py [--threads N]

paddle.nn.functional.conv2d sends single-group float32 CPU convolutions below SMALL_CONV_MACS multiply-adds
to thnn_conv2d (paddle_on_torch/nn/functional/conv.py); this prints, per shape, the two kernels' forward and
forward + backward times and their ratio, to place that threshold.  Clock: process CPU time, best of 5 batches (bench/timing.py).
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import best_per_call  # noqa: E402


def best_us(fn):
    return best_per_call(fn, repeats=5, target_s=0.05)[0] * 1e3


SHAPES = [  # (batch, in channels, out channels, height = width, kernel)
    (2, 16, 8, 8, 3), (2, 40, 16, 16, 1), (2, 16, 8, 16, 3), (2, 3, 16, 32, 3), (2, 16, 16, 16, 3),
    (2, 32, 16, 16, 3), (2, 32, 32, 16, 3), (4, 32, 32, 16, 3), (2, 64, 64, 16, 3), (1, 64, 64, 56, 3),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", type=int, default=1)
    torch.set_num_threads(ap.parse_args().threads)
    thnn = torch._C._nn.thnn_conv2d
    print(f"{'shape':32s} {'MACs':>8s}  {'fwd onednn':>10s} {'thnn':>8s} {'ratio':>6s}  {'f+b onednn':>10s} {'thnn':>8s} {'ratio':>6s}")
    for n, cin, cout, hw, k in SHAPES:
        x = torch.randn(n, cin, hw, hw, requires_grad=True)
        w = torch.randn(cout, cin, k, k, requires_grad=True)
        p = k // 2
        onednn = lambda: torch.nn.functional.conv2d(x, w, padding=p)  # noqa: E731
        gemm = lambda: thnn(x, w, [k, k], None, [1, 1], [p, p])  # noqa: E731

        def fwd_bwd(f):
            return lambda: torch.autograd.grad(f().sum(), [x, w])
        with torch.no_grad():
            a, b = best_us(onednn), best_us(gemm)
        c, d = best_us(fwd_bwd(onednn)), best_us(fwd_bwd(gemm))
        macs = n * cout * cin * k * k * hw * hw
        print(f"{str((n, cin, cout, hw, k)):32s} {macs / 1e6:7.2f}M  {a:10.1f} {b:8.1f} {b / a:6.2f}  {c:10.1f} {d:8.1f} "
              f"{d / c:6.2f}")


if __name__ == "__main__":
    main()
