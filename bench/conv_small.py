"""Small CPU convolutions: torch's oneDNN kernels vs its im2col + GEMM ones, one thread.

    python bench/conv_small.py [--threads N]

paddle.nn.functional's conv1d / conv2d / conv2d_transpose send single-group float32 CPU convolutions below
SMALL_CONV_MACS multiply-adds to thnn_conv2d / slow_conv_transpose2d (paddle_on_torch/nn/functional/conv.py);
this prints, per shape, both kernels' forward and forward + backward times and their ratio, to place that
threshold.  Clock: process CPU time, best of 5 batches (bench/timing.py).
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import best_per_call  # noqa: E402

TF = torch.nn.functional
THNN, SLOW_T = torch._C._nn.thnn_conv2d, torch._C._nn.slow_conv_transpose2d


def conv2d(n, cin, cout, hw, k):
    x, w = torch.randn(n, cin, hw, hw), torch.randn(cout, cin, k, k)
    p = k // 2
    return (x, w, n * cout * cin * k * k * hw * hw, lambda: TF.conv2d(x, w, padding=p),
            lambda: THNN(x, w, [k, k], None, [1, 1], [p, p]))


def conv1d(n, cin, cout, length, k):
    x, w = torch.randn(n, cin, length), torch.randn(cout, cin, k)
    p = k // 2
    return (x, w, n * cout * cin * k * length, lambda: TF.conv1d(x, w, padding=p),
            lambda: THNN(x.unsqueeze(2), w.unsqueeze(2), [1, k], None, [1, 1], [0, p]).squeeze(2))


def conv2d_transpose(n, cin, cout, hw, k, stride=2):
    x, w = torch.randn(n, cin, hw, hw), torch.randn(cin, cout, k, k)
    return (x, w, n * cin * cout * k * k * hw * hw, lambda: TF.conv_transpose2d(x, w, stride=stride),
            lambda: SLOW_T(x, w, [k, k], None, [stride, stride]))


CASES = [  # (kind, shape): conv2d (batch, in, out, height = width, kernel); conv1d (batch, in, out, length, kernel)
    (conv2d, (2, 16, 8, 8, 3)), (conv2d, (2, 40, 16, 16, 1)), (conv2d, (2, 16, 8, 16, 3)), (conv2d, (2, 3, 16, 32, 3)),
    (conv2d, (2, 16, 16, 16, 3)), (conv2d, (2, 32, 16, 16, 3)), (conv2d, (2, 32, 32, 16, 3)),
    (conv2d, (4, 32, 32, 16, 3)), (conv2d, (2, 64, 64, 16, 3)), (conv2d, (1, 64, 64, 56, 3)),
    (conv1d, (2, 16, 16, 32, 3)), (conv1d, (2, 8, 8, 100, 3)), (conv1d, (4, 32, 32, 50, 5)), (conv1d, (8, 64, 64, 100, 5)),
    (conv2d_transpose, (2, 32, 16, 6, 2)), (conv2d_transpose, (2, 16, 8, 12, 2)), (conv2d_transpose, (2, 64, 32, 8, 4)),
]


def best_us(fn):
    return best_per_call(fn, repeats=5, target_s=0.05)[0] * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", type=int, default=1)
    torch.set_num_threads(ap.parse_args().threads)
    print(f"{'case':38s} {'MACs':>8s}  {'fwd onednn':>10s} {'gemm':>8s} {'ratio':>6s}  {'f+b onednn':>10s} {'gemm':>8s} "
          f"{'ratio':>6s}")
    for kind, shape in CASES:
        x, w, macs, onednn, gemm = kind(*shape)
        torch.testing.assert_close(onednn(), gemm(), rtol=1e-4, atol=1e-3)
        x.requires_grad_(), w.requires_grad_()

        def fwd_bwd(f):
            return lambda: torch.autograd.grad(f().sum(), [x, w])
        with torch.no_grad():
            a, b = best_us(onednn), best_us(gemm)
        c, d = best_us(fwd_bwd(onednn)), best_us(fwd_bwd(gemm))
        print(f"{kind.__name__ + str(shape):38s} {macs / 1e6:7.2f}M  {a:10.1f} {b:8.1f} {b / a:6.2f}  {c:10.1f} {d:8.1f} "
              f"{d / c:6.2f}")


if __name__ == "__main__":
    main()
