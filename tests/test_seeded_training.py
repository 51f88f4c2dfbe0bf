"""A seeded training script prints real Paddle's losses: examples/seeded_training.py draws its weights (default
and explicit initializers), data, batch order, noise and dropout masks from Paddle's generator after one
paddle.seed; tools/record_seeded_training.py recorded its losses under Paddle 3.3.1 on the CPU."""
import importlib.util
import json
import os

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _example():
    spec = importlib.util.spec_from_file_location("seeded_training", os.path.join(ROOT, "examples",
                                                                                  "seeded_training.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_seeded_training_prints_paddles_losses(paddle):
    from paddle_on_torch._core import random as _rng

    if _rng.ops() is None:
        pytest.skip("the C++ random kernels (ext/random.cpp) are not built here")
    with open(os.path.join(ROOT, "tests", "data", "seeded_training", "losses.json")) as f:
        want = json.load(f)["losses"]
    printed = []
    got = _example().train(steps=len(want), log=printed.append)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-6)
    assert printed[0] == f"step 0 loss {want[0]:.9f}"


def test_a_generator_state_pickled_by_paddle_continues_its_stream(paddle):
    import pickle

    from paddle_on_torch._core import random as _rng

    if _rng.ops() is None:
        pytest.skip("the C++ random kernels (ext/random.cpp) are not built here")
    folder = os.path.join(ROOT, "tests", "data", "seeded_training")
    with open(os.path.join(folder, "losses.json")) as f:
        want = json.load(f)["draws_after_state"]
    with open(os.path.join(folder, "paddle_rng_state.pkl"), "rb") as f:
        state = pickle.load(f)  # paddle.base.libpaddle.GeneratorState objects, as real Paddle wrote them
    paddle.set_rng_state(state)
    assert state[0].current_seed() == 77
    assert paddle.rand([4]).numpy().tolist() == want
