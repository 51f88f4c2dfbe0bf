"""paddle.nn.LSTM / GRU / SimpleRNN beyond the model zoo: the C++ RNN kernel vs torch's RNN ops vs real Paddle.

    python bench/rnn.py                 # the default shapes, 2 rounds
    python bench/rnn.py --rounds 3 --quick

Sides, each in its own subprocess with one thread, taking turns per round (best over rounds and repeats,
process CPU time):
  kernel  paddle_on_torch as shipped (the C++ kernel of kernels/rnn.py where it is chosen);
  torch   paddle_on_torch with PADDLE_ON_TORCH_KERNELS=reference: torch's `_VF` RNN ops (oneDNN's LSTM for
          float32 LSTMs);
  paddle  real Paddle 3.3.1 (its fused `rnn` kernel), when installed.
For each shape: eval forward (no_grad) and a training step (forward, sum of the outputs, backward), in ms.
Batch-first float32 input [B, T, I] with I = H unless given; `len` rows pass a sequence_length with
lengths T, T-1, ... (clipped at 1).
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import best_per_call  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# (layer, B, T, H, layers, direction, lengths)
SHAPES = [
    ("LSTM", 3, 7, 24, 2, "forward", False),  # the model zoo's tagger
    ("GRU", 3, 6, 16, 2, "bidirect", False),  # the model zoo's bigru
    ("LSTM", 1, 100, 256, 1, "forward", False),
    ("LSTM", 8, 50, 64, 2, "bidirect", True),
    ("LSTM", 32, 50, 256, 2, "forward", False),
    ("GRU", 16, 50, 128, 1, "forward", True),
    ("GRU", 64, 50, 256, 2, "bidirect", False),
    ("SimpleRNN", 16, 200, 128, 1, "forward", False),
]
QUICK = SHAPES[:4]


def worker(side, shapes):
    os.environ["OMP_NUM_THREADS"] = "1"
    if side == "torch":
        os.environ["PADDLE_ON_TORCH_KERNELS"] = "reference"
    if side in ("kernel", "torch"):
        sys.path.insert(0, ROOT)
        import torch

        torch.set_num_threads(1)
        import paddle_on_torch

        paddle_on_torch.install()
    import numpy as np
    import paddle

    if side == "paddle" and "paddle_on_torch" in paddle.__file__:
        print(json.dumps(None))
        return
    paddle.set_device("cpu")
    out = []
    for cls, B, T, H, layers, direction, with_len in shapes:
        paddle.seed(0)
        net = getattr(paddle.nn, cls)(H, H, num_layers=layers, direction=direction)
        x = paddle.to_tensor(np.random.default_rng(0).standard_normal([B, T, H]).astype("float32"))
        x.stop_gradient = False
        lens = paddle.to_tensor([max(1, T - b) for b in range(B)]) if with_len else None

        def fwd():
            with paddle.no_grad():
                net(x, sequence_length=lens)

        def train():
            y, _ = net(x, sequence_length=lens)
            y.sum().backward()

        net.eval()
        f = best_per_call(fwd, 5, 0.02)[0]
        net.train()
        t = best_per_call(train, 5, 0.02)[0]
        out.append((f, t))
    print(json.dumps(out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="the first four shapes only")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    shapes = QUICK if args.quick else SHAPES
    if args.worker:
        return worker(args.worker, shapes)
    sides = ("kernel", "torch", "paddle")
    best = {s: None for s in sides}
    load0 = os.getloadavg()[0]
    for _ in range(args.rounds):
        for s in sides:
            cmd = [sys.executable, os.path.abspath(__file__), "--worker", s] + (["--quick"] if args.quick else [])
            res = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT,
                                 env={**os.environ, "OMP_NUM_THREADS": "1"})
            lines = [ln for ln in res.stdout.splitlines() if ln.startswith(("[", "null"))]
            got = json.loads(lines[-1]) if lines else None
            if got is None:
                continue
            best[s] = got if best[s] is None else [(min(a[0], b[0]), min(a[1], b[1])) for a, b in zip(best[s], got)]
    print(f"# load average (1 min) at the start {load0:.2f}, at the end {os.getloadavg()[0]:.2f} on "
          f"{os.cpu_count()} CPUs; {args.rounds} rounds; cpu time, one thread; ms")
    print(f"{'shape':42s} {'mode':5s} {'kernel':>8s} {'torch':>8s} {'paddle':>8s} {'k/torch':>8s} {'k/paddle':>8s}")
    for i, (cls, B, T, H, layers, direction, with_len) in enumerate(shapes):
        name = f"{cls} B{B} T{T} H{H} L{layers} {direction[:2]}{' len' if with_len else ''}"
        for j, mode in enumerate(("fwd", "train")):
            k, t = best["kernel"][i][j], best["torch"][i][j]
            p = best["paddle"][i][j] if best["paddle"] else float("nan")
            print(f"{name:42s} {mode:5s} {k:8.3f} {t:8.3f} {p:8.3f} {k / t:7.2f}x {k / p:7.2f}x")


if __name__ == "__main__":
    main()
