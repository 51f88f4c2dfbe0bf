"""Issue 4's end-to-end examples under paddle_on_torch follow real Paddle's loss curves.

tools/record_examples.py built each example's model under real Paddle 3.3.1, saved its initial
weights (tests/data/examples/<name>.pdparams) and the per-step losses of the example's
train_losses(net, **TEST_SETTINGS) (<name>.npz).  Here the same example code runs under
paddle_on_torch from those weights and must give the same curve to 1e-3 relative.  Each script is
also run end to end with the runner (`python -m paddle_on_torch examples/X.py --quick`).
"""
import contextlib
import importlib.util
import io
import os
import subprocess
import sys

import numpy as np
import pytest
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "examples")
EXAMPLES = ["lenet_mnist_hapi", "resnet_momentum_amp", "gpt_adamw_resume"]
RTOL = 1e-3


def _example(name):
    spec = importlib.util.spec_from_file_location(f"example_{name}", os.path.join(ROOT, "examples", f"{name}.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@contextlib.contextmanager
def _one_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # small ops: extra threads only contend on a busy 2-core CI machine
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def _replay(paddle, name, **overrides):
    mod = _example(name)
    net = mod.build()
    state = paddle.load(os.path.join(DATA, f"{name}.pdparams"))
    assert list(state) == list(net.state_dict()), "state dict keys differ from the Paddle-saved file"
    net.set_state_dict(state)
    with _one_thread(), contextlib.redirect_stdout(io.StringIO()):
        out = mod.train_losses(net, **{**mod.TEST_SETTINGS, **overrides})
    return out if isinstance(out, tuple) else (out, {})


@pytest.mark.parametrize("name", EXAMPLES)
def test_loss_curve_matches_real_paddle(name, paddle):
    recorded = dict(np.load(os.path.join(DATA, f"{name}.npz")))
    losses, extra = _replay(paddle, name)
    want = recorded["losses"]
    assert len(losses) == len(want)
    np.testing.assert_allclose(np.asarray(losses), want, rtol=RTOL, atol=0, err_msg=f"{name} loss curve")
    for k, v in extra.items():
        np.testing.assert_allclose(np.asarray(v, dtype="float64"), recorded[f"eval/{k}"], rtol=RTOL, atol=1e-6,
                                   err_msg=f"{name} eval {k}")
    if name == "lenet_mnist_hapi":  # its eval set has the training set's classes: learning shows (chance: 0.1)
        assert float(np.asarray(extra["acc_top1"])) >= 0.9


def test_gpt_resume_equals_uninterrupted(paddle):
    """Saving and resuming half-way gives the curve of a run that never stopped."""
    resumed, _ = _replay(paddle, "gpt_adamw_resume")
    straight, _ = _replay(paddle, "gpt_adamw_resume", resume_at=_example("gpt_adamw_resume").TEST_SETTINGS["steps"])
    np.testing.assert_allclose(resumed, straight, rtol=1e-5)


@pytest.mark.slow
@pytest.mark.parametrize("name", EXAMPLES)
def test_script_runs_under_the_runner(name, tmp_path):
    env = dict(os.environ, EXAMPLES_QUICK="1", PYTHONPATH=ROOT, OMP_NUM_THREADS="1")
    proc = subprocess.run([sys.executable, "-m", "paddle_on_torch", os.path.join(ROOT, "examples", f"{name}.py")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "loss" in proc.stdout
    assert not any(tmp_path.iterdir()), "the example left files in the working directory"


# ---------------------------------------------------------------- paddle.flops
# Real Paddle 3.3.1's flops() fails under numpy >= 2.3 (int() of its shape-[1] counters, see
# docs/compatibility.md), so there is no golden to record; these counts follow its formulas by hand.


def test_flops_counts_and_table(paddle, capsys):
    nn = paddle.nn
    net = nn.Sequential(nn.Conv2D(2, 4, 3, padding=1), nn.BatchNorm2D(4), nn.LeakyReLU(), nn.AdaptiveAvgPool2D(2),
                        nn.Flatten(), nn.Linear(16, 5), nn.Dropout(0.5), nn.Softmax())
    net.train()
    total = paddle.flops(net, [3, 2, 6, 6], print_detail=True)
    conv = 3 * 4 * 6 * 6 * (2 * 9 + 1)     # output elements * (in_channels/groups * kernel + bias)
    bn = 2 * 3 * 4 * 6 * 6                 # eval mode: 2 per input element
    leaky = 3 * 4 * 6 * 6                  # 1 per input element
    adaptive = (9 + 1) * 3 * 4 * 2 * 2     # (kernel adds + 1 div) per output element
    linear = 16 * 3 * 5                    # in_features per output element
    assert total == conv + bn + leaky + adaptive + linear
    assert net.training, "flops() puts the network back in train mode"
    out = capsys.readouterr().out
    assert "<class 'paddle.nn.layer.conv.Conv2D'>'s flops has been counted" in out
    assert "Cannot find suitable count function for <class 'paddle.nn.layer.activation.Softmax'>." in out
    # BatchNorm2D: weight, bias and (parameters in Paddle too) running mean and variance
    assert f"Total Flops: {total}     Total Params: {2 * 4 * 9 + 4 + 16 + 16 * 5 + 5}" in out
    rows = [ln.split("|")[1:-1] for ln in out.splitlines() if ln.startswith("|")]
    assert [c.strip() for c in rows[0]] == ["Layer Name", "Input Shape", "Output Shape", "Params", "Flops"]
    assert rows[1][0].strip().startswith("conv2d_")  # full_name(): its number depends on what ran before
    assert [c.strip() for c in rows[1][1:]] == ["[3, 2, 6, 6]", "[3, 4, 6, 6]", "76", str(conv)]
    assert not any(k in net[0]._buffers for k in ("total_ops", "total_params", "input_shape", "output_shape"))


def test_flops_custom_op_and_non_layer(paddle, capsys):
    nn = paddle.nn

    def count_relu(m, x, y):
        m.total_ops += int(x[0].numel()) * 3

    net = nn.Sequential(nn.Linear(4, 8), nn.ReLU())
    assert paddle.flops(net, [2, 4], custom_ops={nn.ReLU: count_relu}) == 4 * 2 * 8 + 3 * 2 * 8
    assert "Customize Function has been applied to <class 'paddle.nn.layer.activation.ReLU'>" in capsys.readouterr().out
    with pytest.warns(UserWarning, match="must be an instance of paddle.nn.Layer"):
        assert paddle.flops(lambda x: x, [1]) == -1
