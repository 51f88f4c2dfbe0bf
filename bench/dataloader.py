"""DataLoader throughput: paddle_on_torch vs plain torch.utils.data vs real Paddle, measured in one run.

    python bench/dataloader.py          # each side in its own subprocess, then a table of ratios

The workload: a map-style dataset of 8192 small images (32x32x3 uint8 in memory; a sample is the
image as normalised float32 CHW plus an int label), batches of 64, one epoch per measurement, with
num_workers 0 and 2.  Workers are persistent and the first epoch is a warm-up, so the figures are
steady-state samples per second (best of 3 epochs).  Real Paddle is measured when `import paddle`
finds it (without the shim); otherwise its column says n/a.
"""
import json
import os
import subprocess
import sys
import time

N, BATCH, EPOCHS = 8192, 64, 3


def make_images():
    import numpy as np

    rng = np.random.default_rng(0)
    return rng.integers(0, 256, size=(N, 32, 32, 3), dtype=np.uint8), rng.integers(0, 10, size=N)


def sample(images, labels, i):
    return (images[i].astype("float32") / 255.0).transpose(2, 0, 1), int(labels[i])


def paddle_loader(paddle, workers):
    images, labels = make_images()

    class Images(paddle.io.Dataset):
        def __len__(self):
            return N

        def __getitem__(self, i):
            return sample(images, labels, i)

    return paddle.io.DataLoader(Images(), batch_size=BATCH, shuffle=True, num_workers=workers,
                                persistent_workers=workers > 0)


def torch_loader(torch, workers):
    images, labels = make_images()

    class Images(torch.utils.data.Dataset):
        def __len__(self):
            return N

        def __getitem__(self, i):
            return sample(images, labels, i)

    return torch.utils.data.DataLoader(Images(), batch_size=BATCH, shuffle=True, num_workers=workers,
                                       persistent_workers=workers > 0)


def epoch_rate(loader):
    best = 0.0
    for epoch in range(EPOCHS + 1):
        t, n = time.perf_counter(), 0
        for x, y in loader:
            n += x.shape[0]
        rate = n / (time.perf_counter() - t)
        if epoch:  # the first epoch starts the workers
            best = max(best, rate)
    return best


def measure(impl):
    import torch

    torch.set_num_threads(1)
    if impl == "torch":
        make = lambda w: torch_loader(torch, w)  # noqa: E731
    else:
        if impl == "shim":
            sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
            import paddle_on_torch

            paddle_on_torch.install()
        import paddle

        if impl == "real" and "paddle_on_torch" in paddle.__file__:
            raise ImportError("real Paddle is not installed")
        make = lambda w: paddle_loader(paddle, w)  # noqa: E731
    return {f"w{w}": epoch_rate(make(w)) for w in (0, 2)}


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--impl":
        print(json.dumps(measure(sys.argv[2])))
        return
    env = dict(os.environ, OMP_NUM_THREADS="1", GLOG_minloglevel="3", PYTHONWARNINGS="ignore")
    results = {}
    for impl in ("torch", "shim", "real"):
        p = subprocess.run([sys.executable, __file__, "--impl", impl], capture_output=True, text=True, env=env)
        results[impl] = json.loads(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 else None
        if p.returncode and impl != "real":
            sys.stderr.write(p.stderr)
    t, s, r = results["torch"], results["shim"], results["real"]
    print(f"DataLoader throughput, samples/s ({N} samples of 3x32x32 float32 + label, batch {BATCH}, best epoch)")
    print(f"{'num_workers':<14}{'torch':>10}{'shim':>10}{'paddle':>10}{'shim/torch':>12}{'shim/paddle':>13}")
    for key, label in (("w0", "0"), ("w2", "2")):
        rv = f"{r[key]:10.0f}" if r else f"{'n/a':>10}"
        rr = f"{s[key] / r[key]:13.2f}" if r else f"{'n/a':>13}"
        print(f"{label:<14}{t[key]:10.0f}{s[key]:10.0f}{rv}{s[key] / t[key]:12.2f}{rr}")


if __name__ == "__main__":
    main()
