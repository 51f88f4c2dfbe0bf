"""Record the model zoo under real Paddle (run with the oracle interpreter).

    ~/oracle/bin/python tools/record_model_zoo.py            # every model in tests/model_zoo
    ~/oracle/bin/python tools/record_model_zoo.py resnet gpt  # just these

For each model in tests/model_zoo: build it with paddle.seed(2024), perturb every parameter with
seeded numpy noise (so zero biases and unit norm scales are not trivial), run two train-mode
forwards to move BatchNorm statistics where the model says WARMUP, then save its state dict with
real paddle.save to tests/data/model_zoo/<name>.pdparams and store, in <name>.npz, the seeded inputs,
the eval-mode outputs and (for models with a loss) one train-mode forward+backward: loss, outputs,
chosen gradients and updated norm statistics.  As a check it reloads the file into a fresh model
with paddle.load + set_state_dict and requires identical outputs.
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

assert "paddle_on_torch" not in paddle.__file__, "record_model_zoo must run under real Paddle"

from tests.model_zoo import MODELS, harness  # noqa: E402

OUT = os.path.join(ROOT, "tests", "data", "model_zoo")
SEED = 2024


def record(name):
    mod = importlib.import_module(f"tests.model_zoo.{name}")
    paddle.seed(SEED)
    rng = np.random.default_rng(SEED)
    with paddle.utils.unique_name.guard():  # parameter names independent of which models ran before
        model = mod.build()
    for pname, p in sorted(model.named_parameters(), key=lambda kv: kv[0]):
        p.set_value(p.numpy() + rng.normal(0, 0.05, p.shape).astype(p.numpy().dtype))
    if getattr(mod, "WARMUP", False):
        model.train()
        with paddle.no_grad():
            for _ in range(2):
                model(*harness.to_tensors(mod.inputs(rng)))
    model.eval()
    path = os.path.join(OUT, f"{name}.pdparams")
    paddle.save(model.state_dict(), path)
    arrays = mod.inputs(rng)
    result = {f"input{i}": a for i, a in enumerate(arrays)}
    result.update(harness.eval_forward(model, arrays))
    # check: a fresh model loaded from the file gives the same outputs
    paddle.seed(SEED + 1)
    fresh = mod.build()
    fresh.set_state_dict(paddle.load(path))
    again = harness.eval_forward(fresh, arrays)
    for k, v in again.items():
        assert np.array_equal(v, result[k]), f"{name}: reloaded model differs in {k}"
    if hasattr(mod, "loss"):
        result.update(harness.train_step(model, mod, arrays))
    np.savez_compressed(os.path.join(OUT, f"{name}.npz"), **result)
    size = os.path.getsize(path) + os.path.getsize(os.path.join(OUT, f"{name}.npz"))
    nparams = sum(int(np.prod(p.shape)) for p in model.parameters())
    print(f"{name:12s} {nparams:7d} parameters, {size / 1024:7.1f} KiB, outputs "
          f"{[list(v.shape) for k, v in result.items() if k.startswith('eval/')]}")


def main(argv):
    os.makedirs(OUT, exist_ok=True)
    for name in argv or MODELS:
        record(name)


if __name__ == "__main__":
    main(sys.argv[1:])
