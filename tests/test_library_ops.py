"""paddle.ops reaches operators a library registered with torch (TORCH_LIBRARY; here torch.library from Python),
called on paddle Tensors; paddle.classes reaches torch's custom classes.  (Real Paddle runs its own registry, so
these have no golden: tests/cases/library.py holds what both answer.)"""
import torch

import paddle_on_torch as paddle


@torch.library.custom_op("pot_test_ops::scale_add", mutates_args=())
def _scale_add(x: torch.Tensor, y: torch.Tensor, alpha: float) -> torch.Tensor:
    return x * alpha + y


def test_a_torch_registered_operator_takes_and_gives_paddle_tensors():
    x, y = paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([0.5, 0.5])
    out = paddle.ops.pot_test_ops.scale_add(x, y, 3.0)
    assert isinstance(out, paddle.Tensor)
    assert out.numpy().tolist() == [3.5, 6.5]
    assert paddle.ops.pot_test_ops.scale_add.default(x, y, alpha=1.0).numpy().tolist() == [1.5, 2.5]


def test_a_python_custom_op_comes_before_torch():
    paddle.library.custom_op("pot_test_ops::first", lambda x: x + 10, mutates_args=())
    assert paddle.ops.pot_test_ops.first(paddle.to_tensor([1.0])).numpy().tolist() == [11.0]
