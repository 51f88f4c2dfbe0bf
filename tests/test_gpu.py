"""Paddle programs on a CUDA GPU: start-up place, a training loop, AMP, the DataLoader, checkpoints, to_static,
fused ops and a one-rank DataParallel.  Skipped on machines without a GPU (CI has none); run on a lent GPU
machine (docs/testing.md).  The rest of the suite runs on the CPU there too (conftest), since its goldens are
real Paddle's CPU results; here the CPU run of the same code is the reference.
"""
import os
import subprocess
import sys

import numpy as np
import pytest
import torch

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def gpu(paddle):
    paddle.set_device("gpu")
    # fp32 matmuls and convolutions without TF32, so that the GPU matches the CPU to float32 rounding
    old = torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = False
    yield paddle
    torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32 = old
    paddle.set_device("cpu")


def test_startup_place_is_the_gpu():
    """Paddle's GPU build starts on gpu:0 (FLAGS_selected_gpus picks another); so does the shim."""
    code = ("import paddle_on_torch as p; x = p.to_tensor([1.0]); "
            "print(p.get_device(), x.place, x._t.device, p.device.cuda.device_count() > 0)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.split() == ["gpu:0", "Place(gpu:0)", "cuda:0", "True"]


def _train(paddle, steps=5):
    paddle.seed(7)
    rng = np.random.default_rng(0)
    # no conv bias before the BatchNorm: its gradient is ~0, so Adam's steps on it are the sign of rounding noise
    model = paddle.nn.Sequential(paddle.nn.Conv2D(3, 8, 3, padding=1, bias_attr=False), paddle.nn.BatchNorm2D(8), paddle.nn.ReLU(),
                                 paddle.nn.AdaptiveAvgPool2D(1), paddle.nn.Flatten(), paddle.nn.Linear(8, 10))
    state = {k: v.numpy() for k, v in model.state_dict().items()}
    opt = paddle.optimizer.AdamW(learning_rate=1e-2, parameters=model.parameters())
    x = paddle.to_tensor(rng.standard_normal((4, 3, 8, 8)).astype("float32"))
    y = paddle.to_tensor(rng.integers(0, 10, (4,)))
    losses = []
    for _ in range(steps):
        loss = paddle.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return model, state, losses


def test_training_loop_matches_the_cpu(gpu):
    paddle = gpu
    model, state, losses = _train(paddle)
    p = model.parameters()[0]
    assert p.place.is_gpu_place() and p._t.is_cuda and not p.stop_gradient
    paddle.set_device("cpu")
    cpu_model = _train(paddle)[0]
    cpu_model.set_state_dict(state)  # the same initial weights as the GPU model
    opt = paddle.optimizer.AdamW(learning_rate=1e-2, parameters=cpu_model.parameters())
    rng = np.random.default_rng(0)
    x = paddle.to_tensor(rng.standard_normal((4, 3, 8, 8)).astype("float32"))
    y = paddle.to_tensor(rng.integers(0, 10, (4,)))
    cpu_losses = []
    for _ in range(5):
        loss = paddle.nn.functional.cross_entropy(cpu_model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        cpu_losses.append(float(loss))
    np.testing.assert_allclose(losses, cpu_losses, rtol=1e-4, atol=1e-5)
    for (k, a), b in zip(model.state_dict().items(), cpu_model.state_dict().values()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-3, atol=1e-4, err_msg=k)


def test_amp_bfloat16_and_float16_scaler(gpu):
    paddle = gpu
    lin = paddle.nn.Linear(16, 16)
    x = paddle.randn([4, 16])
    with paddle.amp.auto_cast(dtype="bfloat16"):
        y = lin(x)
    assert y.dtype == paddle.bfloat16 and y.place.is_gpu_place()
    scaler = paddle.amp.GradScaler(init_loss_scaling=1024)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=lin.parameters())
    with paddle.amp.auto_cast(dtype="float16"):
        loss = lin(x).mean()
    assert loss.dtype == paddle.float32 or loss.dtype == paddle.float16
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    assert np.isfinite(lin.weight.numpy()).all()


def test_dataloader_batches_on_the_gpu(gpu):
    paddle = gpu

    class Squares(paddle.io.Dataset):
        def __len__(self):
            return 10

        def __getitem__(self, i):
            return np.full([3], i, "float32"), np.int64(i * i)

    for workers in (0, 2):
        batches = list(paddle.io.DataLoader(Squares(), batch_size=4, num_workers=workers))
        x, y = batches[-1]
        assert x.place.is_gpu_place() and y.place.is_gpu_place()
        assert x.shape == [2, 3] and y.numpy().tolist() == [64, 81]


def test_checkpoint_round_trip(gpu, tmp_path):
    paddle = gpu
    model = paddle.nn.Linear(5, 3)
    opt = paddle.optimizer.Adam(parameters=model.parameters())
    model(paddle.randn([2, 5])).sum().backward()
    opt.step()
    paddle.save(model.state_dict(), str(tmp_path / "m.pdparams"))
    paddle.save(opt.state_dict(), str(tmp_path / "m.pdopt"))
    fresh = paddle.nn.Linear(5, 3)
    fresh.set_state_dict(paddle.load(str(tmp_path / "m.pdparams")))
    assert fresh.weight.place.is_gpu_place()
    np.testing.assert_array_equal(fresh.weight.numpy(), model.weight.numpy())
    # a second optimizer would name its accumulators *_moment1_1 and refuse the file, as Paddle's does
    opt.set_state_dict(paddle.load(str(tmp_path / "m.pdopt")))
    model(paddle.randn([2, 5])).sum().backward()
    opt.step()
    assert opt._accumulators["moment1"][model.weight.name]._t.is_cuda


def test_to_static_on_the_gpu(gpu):
    paddle = gpu
    net = paddle.nn.Sequential(paddle.nn.Linear(8, 8), paddle.nn.GELU(), paddle.nn.Linear(8, 2))
    x = paddle.randn([3, 8])
    want = net(x).numpy()
    static = paddle.jit.to_static(net)
    got = static(x)
    assert got.place.is_gpu_place()
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-6)


def test_fused_ops_run_triton(gpu):
    paddle = gpu
    from paddle_on_torch.kernels import dispatch

    F = paddle.incubate.nn.functional
    x = paddle.randn([6, 64]).astype("bfloat16")
    x.stop_gradient = False
    w = paddle.ones([64])
    assert dispatch.backend_for(x._t) == "triton"
    out = F.fused_rms_norm(x, w, None, 1e-6, 1)[0]
    xf = x.astype("float32").numpy()
    want = xf / np.sqrt((xf ** 2).mean(-1, keepdims=True) + 1e-6)
    np.testing.assert_allclose(out.astype("float32").numpy(), want, rtol=2e-2, atol=2e-2)
    out.sum().backward()
    assert x.grad.shape == [6, 64] and x.grad.place.is_gpu_place()
    logits = paddle.randn([8, 1000])
    labels = paddle.randint(0, 1000, [8])
    loss = paddle.nn.functional.cross_entropy(logits, labels)
    ref = torch.nn.functional.cross_entropy(logits._t, labels._t)
    np.testing.assert_allclose(float(loss), float(ref), rtol=1e-5)


def test_one_rank_data_parallel(gpu):
    paddle = gpu
    import paddle.distributed as dist

    dist.init_parallel_env()  # one process: no group, as in Paddle (two ranks on one GPU: NCCL refuses)
    model = paddle.DataParallel(paddle.nn.Linear(4, 2))
    model(paddle.randn([3, 4])).sum().backward()
    assert model._layers.weight.grad.place.is_gpu_place()


def test_memory_queries_and_streams(gpu):
    paddle = gpu
    x = paddle.zeros([1024, 1024])
    assert paddle.device.cuda.memory_allocated() >= x.numel() * 4
    assert paddle.device.cuda.max_memory_allocated() >= paddle.device.cuda.memory_allocated()
    s = paddle.device.Stream()
    e = paddle.device.Event()
    with paddle.device.stream_guard(s):
        y = x + 1
    e.record(s)
    e.synchronize()
    paddle.device.synchronize()
    assert float(y.sum()) == 1024 * 1024


@pytest.mark.parametrize("name", __import__("tests.model_zoo", fromlist=["MODELS"]).MODELS)
def test_model_zoo_on_the_gpu(gpu, name):
    """Every model-zoo architecture on the GPU against real Paddle's recorded CPU results: eval outputs and the
    train step's loss tightly, gradient norms to 1e-3 (cuDNN's summation order; unet sits on a ReLU kink,
    see tests/test_model_zoo.py)."""
    from tests.test_model_zoo import _load

    paddle = gpu
    mod, harness, model, arrays, recorded = _load(paddle, name)
    assert model.parameters()[0].place.is_gpu_place()
    got = harness.eval_forward(model, arrays)
    for k, v in got.items():
        np.testing.assert_allclose(v, recorded[k], rtol=1e-4, atol=1e-5 * max(1.0, np.abs(recorded[k]).max()),
                                   err_msg=f"{name} {k}")
    if hasattr(mod, "loss"):
        got = harness.train_step(model, mod, arrays)
        np.testing.assert_allclose(got["train/loss"], recorded["train/loss"], rtol=1e-4, err_msg=name)
        for k in got:
            if "/grad/" in k:
                np.testing.assert_allclose(np.linalg.norm(got[k]), np.linalg.norm(recorded[k]), rtol=1e-3,
                                           err_msg=f"{name} {k}")
