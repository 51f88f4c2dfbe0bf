"""paddle.grad and paddle.autograd.backward: first and higher order, unused inputs, grad_outputs."""
from tests.cases import case


@case
def grad_first_and_second_order(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = (x * x * x).sum()
    (g,) = paddle.grad(y, x, create_graph=True)
    (g2,) = paddle.grad(g.sum(), x)
    return [g, g2]


@case
def grad_with_grad_outputs_and_lists(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    w = paddle.to_tensor([3.0, -1.0], stop_gradient=False)
    y = x * w
    return paddle.grad([y], [x, w], grad_outputs=[paddle.to_tensor([1.0, 0.5])])


@case
def grad_unused_input_fails(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    z = paddle.to_tensor([1.0], stop_gradient=False)
    paddle.grad((x * 2).sum(), [x, z])


@case
def grad_unused_input_allowed(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    z = paddle.to_tensor([1.0], stop_gradient=False)
    return paddle.grad((x * 2).sum(), [x, z], allow_unused=True)


@case
def grad_does_not_touch_dot_grad(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    paddle.grad((x * 2).sum(), x)
    return x.grad


@case
def autograd_backward_many_roots(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    a, b = x * 2, x * x
    paddle.autograd.backward([a, b], [paddle.to_tensor([1.0, 1.0]), None])
    return x.grad


@case
def softmax_method_and_top_level(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])
    return [x.softmax(), x.softmax(0), paddle.softmax(x, 1, "float64"), x.get_device(),
            paddle.concatenate([x, x], axis=1)]


@case
def softmax_torch_style_rejects_axis(paddle):
    paddle.softmax(paddle.ones([2]), axis=0)


@case
def grad_assignment_copies_into_the_slot(paddle):
    """x.grad = t copies t's values into x's gradient slot; the slot's stop_gradient is its own (True when the
    assignment creates it, False for a gradient backward made), whatever t's is."""
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    t = paddle.to_tensor([5.0, 6.0])
    x.grad = t
    t.add_(paddle.to_tensor([1.0, 1.0]))
    created = [x.grad, x.grad.stop_gradient]
    (x * x).sum().backward()
    accumulated = [x.grad, x.grad.stop_gradient, t]
    y = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (y * y).sum().backward()
    held = y.grad
    y.grad = paddle.to_tensor([0.5, 12.0])
    after_backward = [y.grad, y.grad.stop_gradient, held]
    y.grad.stop_gradient = True
    y.grad = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
    z = paddle.to_tensor([1.0], stop_gradient=False)
    z.grad = paddle.to_tensor([7.0], stop_gradient=False)
    return [created, accumulated, after_backward, y.grad.stop_gradient, z.grad.stop_gradient]
