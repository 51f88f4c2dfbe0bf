"""Zero-copy exchange between paddle Tensors and torch tensors (paddle_on_torch's own API)."""
import numpy as np
import pytest
import torch

from paddle_on_torch.interop import from_torch, to_torch


def test_to_torch_shares_storage_and_autograd(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    t = to_torch(x)
    assert t.data_ptr() == x.data_ptr()
    (t * t).sum().backward()  # a loss computed in torch reaches the paddle tensor's grad
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0, 6.0])


def test_from_torch_shares_storage_and_autograd(paddle):
    t = torch.tensor([1.0, 2.0], requires_grad=True)
    x = from_torch(t)
    assert x.stop_gradient is False and x.dtype == paddle.float32
    (x * 3).sum().backward()
    np.testing.assert_array_equal(t.grad.numpy(), [3.0, 3.0])
    with torch.no_grad():
        t[0] = 5.0
    assert x[0].item() == 5.0


def test_dlpack_both_ways_share_memory(paddle):
    t = torch.arange(4.0)
    x = paddle.from_dlpack(t)
    x[0] = 10.0
    assert t[0].item() == 10.0
    back = torch.from_dlpack(x)
    back[1] = 20.0
    assert x[1].item() == 20.0


def test_to_tensor_copies(paddle):
    t = torch.ones(2)
    x = paddle.to_tensor(t)
    t[0] = 7.0
    assert x[0].item() == 1.0


def test_type_errors():
    with pytest.raises(TypeError):
        to_torch(torch.ones(1))
    with pytest.raises(TypeError):
        from_torch([1.0])
