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
    from paddle_on_torch.device import backends

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
