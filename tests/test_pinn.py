"""examples/pinn_poisson.py under paddle_on_torch follows real Paddle's loss curve.

tools/record_pinn.py ran the example under real Paddle 3.3.1 from the weights in
tests/data/pinn/init.pdparams and stored every step's loss; here the same weights are loaded
(paddle.load of Paddle's own file) and trained for the same 50 Adam steps, second derivatives from
paddle.grad(create_graph=True) included.
"""
import importlib.util
import os

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "pinn")


def _example():
    spec = importlib.util.spec_from_file_location("pinn_poisson", os.path.join(ROOT, "examples", "pinn_poisson.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_pinn_loss_curve_matches_real_paddle(paddle, capsys):
    pinn = _example()
    want = np.load(os.path.join(DATA, "losses.npz"))["losses"]
    model = pinn.build_model()
    model.set_state_dict(paddle.load(os.path.join(DATA, "init.pdparams")))
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny matmuls: extra threads only contend on a busy machine (20x slower)
    try:
        got = np.asarray(pinn.train(model, len(want)))
    finally:
        torch.set_num_threads(threads)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=0)
    printed = capsys.readouterr().out.splitlines()
    assert [ln.split()[1] for ln in printed] == ["0", "10", "20", "30", "40", "49"]
