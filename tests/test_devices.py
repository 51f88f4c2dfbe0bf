"""Device backends that need optional packages or hardware: they run where available, else skip."""
import pytest


def test_xla_training_step_or_clean_skip(paddle):
    """torch-xla is an optional extra: where it is installed, 'xla' runs a training step."""
    pytest.importorskip("torch_xla")
    paddle.set_device("xla")
    try:
        net = paddle.nn.Linear(3, 2)
        opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())
        loss = net(paddle.ones([4, 3])).sum()
        loss.backward()
        opt.step()
        assert "xla" in str(net.weight.place).lower()
    finally:
        paddle.set_device("cpu")


def test_registry_cpu_and_aliases(paddle):
    from paddle_on_torch._core import backends

    names = [b.name for b in backends.backends()]
    assert names[0] == "cpu" and {"gpu", "xpu", "mps", "xla"} <= set(names)
    cpu = backends.get("cpu")
    assert cpu.is_available() and str(cpu.torch_device(0)).startswith("cpu")
    assert backends.get("cuda") is backends.get("gpu") and backends.get("nonsense") is None
    paddle.set_device("cpu")
    assert paddle.get_device() == "cpu" and paddle.ones([2]).place.is_cpu_place()


def test_meta_device_builds_without_memory(paddle):
    """LazyGuard builds on torch's meta device: parameters have shapes but no storage until loaded."""
    with paddle.LazyGuard():
        net = paddle.nn.Linear(4096, 4096)
    assert net.weight._t.device.type == "meta" and net.weight.shape == [4096, 4096]
    small = paddle.nn.Linear(3, 2)
    with paddle.LazyGuard():
        lazy = paddle.nn.Linear(3, 2)
    lazy.set_state_dict(small.state_dict())
    x = paddle.ones([1, 3])
    assert lazy.weight._t.device.type == "cpu"
    assert (lazy(x) - small(x)).abs().max().item() == 0


@pytest.mark.skipif(not __import__("torch").cuda.is_available(), reason="no CUDA device here")
def test_cuda_device_step(paddle):
    """Runs where torch sees a GPU: placement, memory statistics, streams and a training step on 'gpu'."""
    paddle.set_device("gpu:0")
    try:
        net = paddle.nn.Linear(8, 4)
        x = paddle.randn([16, 8])
        assert "gpu" in str(x.place).lower() or "cuda" in str(x.place).lower()
        loss = net(x).mean()
        loss.backward()
        paddle.optimizer.SGD(0.1, parameters=net.parameters()).step()
        paddle.device.cuda.synchronize()
        assert paddle.device.cuda.memory_allocated() > 0 and paddle.device.cuda.device_count() >= 1
        with paddle.device.cuda.stream_guard(paddle.device.cuda.Stream()):
            y = x * 2
        paddle.device.cuda.synchronize()
        assert float((y - 2 * x).abs().max()) == 0
    finally:
        paddle.set_device("cpu")


def test_every_factory_follows_the_current_place(paddle):
    """Each API that makes a tensor from nothing puts it on the current place (on a GPU machine a factory that
    forgot it made CPU tensors that then met CUDA ones).  Checked without a GPU by making torch's meta device
    the current place: a factory that ignores the place returns a CPU tensor."""
    import numpy as np
    import torch

    from paddle_on_torch.amp import grad_scaler
    from paddle_on_torch.framework import place

    makers = {
        "to_tensor list": lambda: paddle.to_tensor([1.0, 2.0]), "to_tensor ndarray": lambda: paddle.to_tensor(np.ones(3)),
        "to_tensor scalar": lambda: paddle.to_tensor(3), "zeros": lambda: paddle.zeros([2]),
        "ones": lambda: paddle.ones([2]), "full": lambda: paddle.full([2], 3.0), "empty": lambda: paddle.empty([2]),
        "eye": lambda: paddle.eye(3), "arange": lambda: paddle.arange(5), "linspace": lambda: paddle.linspace(0, 1, 5),
        "logspace": lambda: paddle.logspace(0, 1, 5), "rand": lambda: paddle.rand([2]),
        "randn": lambda: paddle.randn([2]), "randint": lambda: paddle.randint(0, 5, [3]),
        "randperm": lambda: paddle.randperm(5), "normal": lambda: paddle.normal(shape=[2]),
        "uniform": lambda: paddle.uniform([2]), "standard_normal": lambda: paddle.standard_normal([2]),
        "tril_indices": lambda: paddle.tril_indices(3, 3), "triu_indices": lambda: paddle.triu_indices(3, 3),
        "assign ndarray": lambda: paddle.assign(np.ones(2, "float32")), "assign list": lambda: paddle.assign([1.0]),
        "create_parameter": lambda: paddle.create_parameter([2, 2], "float32"),
        "Linear": lambda: paddle.nn.Linear(2, 3).weight, "BatchNorm buffer": lambda: paddle.nn.BatchNorm2D(3)._mean,
        "Embedding": lambda: paddle.nn.Embedding(4, 2).weight, "LSTM": lambda: paddle.nn.LSTM(2, 3).parameters()[0],
        "GradScaler state": lambda: grad_scaler._to_tensor(np.ones(1, "float32")),  # (a scaler is off off the GPU)
    }
    saved = place._current[0]
    place._current[0] = torch.device("meta")
    try:
        wrong = {name: str(t._t.device) for name, t in ((n, make()) for n, make in makers.items())
                 if t is not None and t._t.device.type != "meta"}
    finally:
        place._current[0] = saved
    assert not wrong, wrong
