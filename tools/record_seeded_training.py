"""Record real Paddle's losses for examples/seeded_training.py (run under the oracle, real Paddle 3.3.1, on the CPU).

    GLOG_minloglevel=3 ~/oracle/bin/python tools/record_seeded_training.py

Writes tests/data/seeded_training/losses.json (every step's loss, and the draws after the generator state pickled
in paddle_rng_state.pkl); tests/test_seeded_training.py runs the same
script under paddle_on_torch, from paddle.seed alone (weights, data, batch order, noise and dropout all drawn
from the generator), and compares.
"""
import importlib.util
import json
import os
import pickle
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "seeded_training")

import paddle  # noqa: E402

assert "paddle_on_torch" not in paddle.__file__, "record_seeded_training must run under real Paddle"


def main():
    paddle.set_device("cpu")
    spec = importlib.util.spec_from_file_location("seeded_training", os.path.join(ROOT, "examples",
                                                                                  "seeded_training.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    losses = mod.train()
    os.makedirs(OUT, exist_ok=True)
    # a generator state as Paddle pickles it, and the draws that follow it
    paddle.seed(77)
    paddle.rand([3])
    with open(os.path.join(OUT, "paddle_rng_state.pkl"), "wb") as f:
        pickle.dump(paddle.get_rng_state(), f)
    after = paddle.rand([4]).numpy().tolist()
    with open(os.path.join(OUT, "losses.json"), "w") as f:
        json.dump({"paddle_version": paddle.__version__, "losses": losses, "draws_after_state": after}, f, indent=1)
    print(f"recorded {len(losses)} losses to {OUT}")


if __name__ == "__main__":
    sys.exit(main())
