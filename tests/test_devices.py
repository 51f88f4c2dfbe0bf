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
