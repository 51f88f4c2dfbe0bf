"""Record paddle.vision.models under real Paddle (run with the oracle interpreter).

    ~/oracle/bin/python tools/record_vision_models.py

Writes to tests/data/vision_models/:
  keys.json            for EVERY constructor in paddle.vision.models (default arguments) and a few argument
                       variants: the state_dict keys in order with their shapes (proves the structures match
                       without storing weights);
  <case>.npz           for one small member of each family: the input and the eval-mode outputs, with every
                       state_dict entry set by `seeded_state` below (deterministic numpy values by key);
  <case>.pdparams      for the cases whose weights are small (< 2.2 MB), the state dict saved with real
                       paddle.save, so the test also loads Paddle's own file format.
tests/test_vision_models.py rebuilds each case under paddle_on_torch and compares.
"""
import json
import os
import sys
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("GLOG_minloglevel", "3")
warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
import paddle  # noqa: E402

assert "paddle_on_torch" not in paddle.__file__, "record_vision_models must run under real Paddle"

from tests.test_vision_models import CASES, KEY_VARIANTS, seeded_state  # noqa: E402

OUT = os.path.join(ROOT, "tests", "data", "vision_models")
STORE_LIMIT = 2.2 * 2 ** 20


def _outputs(out):
    outs = out if isinstance(out, (tuple, list)) else [out]
    return {f"out{i}": o.numpy() for i, o in enumerate(outs)}


def record_case(name, build, shape):
    paddle.seed(2024)
    model = build(paddle.vision.models)
    state = seeded_state(model.state_dict())
    model.set_state_dict(state)
    model.eval()
    x = np.random.default_rng(7).standard_normal(shape).astype("float32")
    result = {"input": x, **_outputs(model(paddle.to_tensor(x)))}
    np.savez_compressed(os.path.join(OUT, f"{name}.npz"), **result)
    nbytes = sum(v.size * 4 for v in state.values())
    path = os.path.join(OUT, f"{name}.pdparams")
    if nbytes < STORE_LIMIT:
        paddle.save(model.state_dict(), path)
    elif os.path.exists(path):
        os.remove(path)
    print(f"{name:24s} {nbytes / 2 ** 20:7.2f} MB weights{' (stored)' if nbytes < STORE_LIMIT else ''}, outputs "
          f"{[list(v.shape) for k, v in result.items() if k.startswith('out')]}")


def record_keys():
    keys = {}
    for label, build in KEY_VARIANTS():
        with paddle.LazyGuard():
            model = build(paddle.vision.models)
        keys[label] = [[k, list(v.shape)] for k, v in model.state_dict().items()]
    with open(os.path.join(OUT, "keys.json"), "w") as f:
        json.dump(keys, f, separators=(",", ":"))
    print(f"keys.json: {len(keys)} constructors")


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, (build, shape) in CASES.items():
        record_case(name, build, shape)
    record_keys()


if __name__ == "__main__":
    main()
