"""Paddle's CPU random streams (ext/random.cpp) against torch's CPU kernels and real Paddle.

    python bench/random_streams.py                       # shim and torch
    python bench/random_streams.py --paddle-python ~/oracle/bin/python   # and real Paddle

Each side runs in its own subprocess at one thread (OMP_NUM_THREADS=1, torch.set_num_threads(1)), best of
--repeats timings of: paddle.randn([4096, 4096]) (torch.randn), paddle.rand (torch.rand) and a dropout forward
(p=0.5, training) on a [4096, 4096] float32 tensor (torch.nn.functional.dropout).  The shim's draws are Paddle's
bit for bit (its polar method and per-element uniforms, sequential as Paddle's are); issue 27's target is
shim / torch <= 1.5 on randn and dropout.
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SIDE = r'''
import json, sys, time
import torch
torch.set_num_threads(1)
side, repeats = sys.argv[1], int(sys.argv[2])
if side == "torch":
    x = torch.randn(4096, 4096)
    work = {"randn": lambda: torch.randn(4096, 4096), "rand": lambda: torch.rand(4096, 4096),
            "dropout": lambda: torch.nn.functional.dropout(x, 0.5, training=True)}
else:
    if side == "shim":
        import paddle_on_torch as paddle
        assert paddle._core.random.ops() is not None, "the C++ random kernels are not built"
    else:
        import paddle
        paddle.set_device("cpu")
    paddle.seed(1)
    x = paddle.randn([4096, 4096])
    F = paddle.nn.functional
    work = {"randn": lambda: paddle.randn([4096, 4096]), "rand": lambda: paddle.rand([4096, 4096]),
            "dropout": lambda: F.dropout(x, 0.5, training=True)}
out = {}
for name, fn in work.items():
    fn()
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    out[name] = best * 1e3
print(json.dumps(out))
'''


def run_side(python, side, repeats):
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", GLOG_minloglevel="3")
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([python, "-c", SIDE, side, str(repeats)], env=env, capture_output=True, text=True,
                          cwd=ROOT)
    if proc.returncode:
        print(f"{side}: failed\n{proc.stderr[-2000:]}", file=sys.stderr)
        return None
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=2, help="turns each side takes (best kept)")
    ap.add_argument("--paddle-python", default=None, help="an interpreter with real paddlepaddle")
    args = ap.parse_args()
    sides = [("torch", sys.executable), ("shim", sys.executable)]
    if args.paddle_python:
        sides.append(("paddle", args.paddle_python))
    best = {}
    for _ in range(args.rounds):  # the sides take turns, so a busy spell on the machine hits them alike
        for side, python in sides:
            got = run_side(python, side, args.repeats)
            if got:
                best[side] = {k: min(v, best.get(side, {}).get(k, v)) for k, v in got.items()}
    if "torch" not in best:
        return 1
    print(f"{'ms (best)':12}" + "".join(f"{s:>10}" for s in best) +
          "".join(f"{s + '/torch':>14}" for s in best if s != "torch"))
    for name in best["torch"]:
        row = f"{name:12}" + "".join(f"{best[s][name]:10.1f}" for s in best)
        row += "".join(f"{best[s][name] / best['torch'][name]:14.2f}" for s in best if s != "torch")
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
