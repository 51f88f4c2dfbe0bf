"""paddle.autograd.jacobian / hessian while gradients are switched off (Paddle gives zeros, it does not raise)."""
import contextlib

from tests.cases import case


@contextlib.contextmanager
def _grad_off(paddle):
    paddle.set_grad_enabled(False)
    try:
        yield
    finally:
        paddle.set_grad_enabled(True)


@case
def hessian_with_grad_disabled(paddle):
    x = paddle.to_tensor([0.5, -1.0, 2.0], stop_gradient=False)
    with _grad_off(paddle):
        y = (x * x * x).sum()
        return [y.stop_gradient, paddle.autograd.hessian(y, x)[:]]


@case
def jacobian_of_a_recorded_graph_with_grad_disabled(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    z = x * 3
    w = (x ** 3).sum()
    with _grad_off(paddle):
        return [paddle.autograd.jacobian(z, x)[:], paddle.autograd.hessian(w, x)[:]]


@case
def hessian_of_two_inputs_under_no_grad(paddle):
    a = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    b = paddle.to_tensor([4.0, 5.0], stop_gradient=False)
    with paddle.no_grad():
        h = paddle.autograd.hessian(a.sum() * b.sum(), (a, b))
        return [h[i][j][:] for i in range(2) for j in range(2)]
