"""Record issue 4's end-to-end examples under real Paddle (run with the oracle interpreter).

    ~/oracle/bin/python tools/record_examples.py                    # all examples
    ~/oracle/bin/python tools/record_examples.py gpt_adamw_resume   # just this one

For each example in EXAMPLES: build its model under real Paddle 3.3.1 (the example's own build()),
save the initial weights with real paddle.save to tests/data/examples/<name>.pdparams, run the
example's train_losses(net, **TEST_SETTINGS) and store the per-step losses (and, where the example
returns one, its evaluation result) in <name>.npz.  tests/test_examples.py loads those weights into
the same model under paddle_on_torch, runs the same steps and compares the curves.
"""
import importlib
import os
import sys
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("GLOG_minloglevel", "3")
warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
import paddle  # noqa: E402

assert "paddle_on_torch" not in paddle.__file__, "record_examples must run under real Paddle"

EXAMPLES = ["lenet_mnist_hapi", "resnet_momentum_amp", "gpt_adamw_resume"]
OUT = os.path.join(ROOT, "tests", "data", "examples")


def _atomic_savez(path, **arrays):
    tmp = path + ".tmp.npz"
    np.savez_compressed(tmp, **arrays)
    os.replace(tmp, path)


def record(name):
    mod = importlib.import_module(f"examples.{name}")
    net = mod.build()
    weights = os.path.join(OUT, f"{name}.pdparams")
    tmp = weights + ".tmp"
    paddle.save(net.state_dict(), tmp)
    os.replace(tmp, weights)
    out = mod.train_losses(net, **mod.TEST_SETTINGS)
    losses, extra = (out if isinstance(out, tuple) else (out, {}))
    arrays = {"losses": np.asarray(losses, dtype="float64")}
    for k, v in extra.items():
        arrays[f"eval/{k}"] = np.asarray(v, dtype="float64")
    _atomic_savez(os.path.join(OUT, f"{name}.npz"), **arrays)
    size = os.path.getsize(weights) + os.path.getsize(os.path.join(OUT, f"{name}.npz"))
    print(f"{name:22s} {len(losses):3d} steps, loss {losses[0]:.4f} -> {losses[-1]:.4f}, {size / 1024:.0f} KiB")


def main(argv):
    os.makedirs(OUT, exist_ok=True)
    for name in argv or EXAMPLES:
        record(name)


if __name__ == "__main__":
    main(sys.argv[1:])
