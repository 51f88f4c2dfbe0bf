"""paddle.Tensor(...) built directly (PaddleNLP's tensor-parallel conversion does so with zero_copy=True)."""
import numpy as np

from tests.cases import case


@case
def tensor_zero_copy_shares_the_array(paddle):
    a = np.arange(6, dtype="float32").reshape(2, 3)
    t = paddle.Tensor(a, zero_copy=True)
    a[0, 0] = 100.0  # the Tensor sees the array's memory
    return [t, t.stop_gradient, t.persistable]


@case
def tensor_from_array_copies(paddle):
    a = np.arange(4, dtype="int64")
    t = paddle.Tensor(a)
    a[0] = 7
    return t


@case
def tensor_persistable_keyword(paddle):
    t = paddle.Tensor(np.ones([2], "float32"), persistable=True, zero_copy=True)
    return [t.persistable, t]
