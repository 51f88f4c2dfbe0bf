"""Record real Paddle's loss curve for examples/pinn_poisson.py (run under the oracle, real Paddle).

    GLOG_minloglevel=3 ~/oracle/bin/python tools/record_pinn.py

Writes tests/data/pinn/init.pdparams (the initial weights, paddle.save) and tests/data/pinn/losses.npz
(every step's loss); tests/test_pinn.py trains from the same weights under paddle_on_torch and
compares the curves.
"""
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import paddle  # noqa: E402

assert "paddle_on_torch" not in paddle.__file__, "record_pinn must run under real Paddle"

import importlib.util  # noqa: E402

_spec = importlib.util.spec_from_file_location("pinn_poisson", os.path.join(ROOT, "examples", "pinn_poisson.py"))
pinn_poisson = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pinn_poisson)

STEPS = 50
OUT = os.path.join(ROOT, "tests", "data", "pinn")


def main():
    os.makedirs(OUT, exist_ok=True)
    paddle.seed(2024)
    model = pinn_poisson.build_model()
    paddle.save(model.state_dict(), os.path.join(OUT, "init.pdparams"))
    losses = pinn_poisson.train(model, STEPS)
    np.savez(os.path.join(OUT, "losses.npz"), losses=np.asarray(losses, dtype="float64"),
             paddle_version=np.asarray(paddle.__version__))
    print(f"recorded {len(losses)} losses to {OUT}")


if __name__ == "__main__":
    main()
