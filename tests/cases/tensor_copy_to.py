"""Tensor._copy_to and EagerParamBase._copy_to (PaddleNLP's checkpoint loading moves tensors with them)."""
from tests.cases import case


@case
def copy_to_of_a_tensor(paddle):
    t = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    c = t._copy_to(paddle.CPUPlace(), True)
    c[0] = 5.0  # a copy: the source keeps its values
    return [c, t, c.stop_gradient, type(c).__name__, c.name == t.name]


@case
def copy_to_of_a_parameter(paddle):
    w = paddle.nn.Linear(2, 3).weight
    c = w._copy_to(paddle.CPUPlace(), False)
    return [type(c).__name__, c.name == w.name, c.stop_gradient, c.trainable, c.persistable, c is w, c.shape,
            bool((c == w).all())]
