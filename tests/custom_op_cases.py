"""Cases for Paddle's C++ custom operators (tests/custom_ops/pot_test_ops.cc), run the same way on real Paddle
(tools/record_custom_ops.py: the sources built by Paddle's own cpp_extension.load, answers recorded into
tests/golden/custom_ops.json) and on paddle_on_torch (tests/test_custom_ops.py: built against paddle_on_torch's
headers, compared with the recorded answers).

A case takes the `paddle` module and the module of built ops and returns what it computed (or raises).
Gradients are returned detached: Paddle reports a custom op's input gradient with stop_gradient=True, other
gradients with False, and paddle_on_torch reports every gradient with False (docs/compatibility.md).
"""
import numpy as np

CASES = {}


def case(fn=None, *, rtol=1.3e-6, atol=1e-6):
    def register(f):
        f.case_options = {"random": False, "rtol": rtol, "atol": atol}
        CASES[f.__name__] = f
        return f

    return register(fn) if fn is not None else register


def _data(shape, seed=0, dtype="float32"):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _attrs(x, ops, **over):
    kw = dict(int_attr=2, float_attr=0.5, bool_attr=True, str_attr="double", int_vec_attr=[1, 2, 3], int64_attr=4,
              float_vec_attr=[0.25, 0.5], int64_vec_attr=[5], str_vec_attr=["a", "b", "c"])
    kw.update(over)
    return ops.pot_attrs(x, **kw)


# ---------------------------------------------------------------- relu: forward, grad, double grad
@case
def relu_forward(paddle, ops):
    return ops.pot_relu(paddle.to_tensor(_data([3, 4])))


@case
def relu_float64_and_float16(paddle, ops):
    x = paddle.to_tensor(_data([5], 1, "float64"))
    return [ops.pot_relu(x), ops.pot_relu(x.astype("float16"))]


@case
def relu_stop_gradient(paddle, ops):
    x = paddle.to_tensor(_data([4], 2))
    y = paddle.to_tensor(_data([4], 3), stop_gradient=False)
    return [ops.pot_relu(x).stop_gradient, ops.pot_relu(y).stop_gradient]


@case
def relu_grad(paddle, ops):
    x = paddle.to_tensor(_data([3, 4], 4), stop_gradient=False)
    (ops.pot_relu(x) * paddle.to_tensor(_data([3, 4], 5))).sum().backward()
    return x.grad.detach()


@case
def relu_double_grad(paddle, ops):
    # the double grad op gives the gradient with respect to the grad op's incoming gradient
    x = paddle.to_tensor(_data([6], 6), stop_gradient=False)
    dy = paddle.to_tensor(_data([6], 60), stop_gradient=False)
    y = ops.pot_relu(x)
    (dx,) = paddle.grad(y, x, grad_outputs=dy, create_graph=True)
    (ddy,) = paddle.grad(dx, dy, grad_outputs=paddle.to_tensor(_data([6], 61)))
    return [dx.detach(), ddy.detach()]


@case
def relu_non_contiguous_input(paddle, ops):
    x = paddle.to_tensor(_data([4, 3], 7)).transpose([1, 0])
    return ops.pot_relu(x)


# ---------------------------------------------------------------- attributes
@case
def attrs_all_kinds(paddle, ops):
    return _attrs(paddle.to_tensor(_data([2, 3], 8)), ops)


@case
def attrs_positional(paddle, ops):
    x = paddle.to_tensor(_data([4], 9))
    return ops.pot_attrs(x, -3, 1.5, False, "single", [7], -2, [1.0], [0, 1], [])


@case
def attrs_int_for_float(paddle, ops):
    return _attrs(paddle.to_tensor(_data([3], 10)), ops, float_attr=2)


@case
def attrs_grad(paddle, ops):
    x = paddle.to_tensor(_data([2, 2], 11), stop_gradient=False)
    _attrs(x, ops, float_attr=-1.5).sum().backward()
    return x.grad.detach()


@case
def attrs_float_for_int(paddle, ops):
    return _attrs(paddle.to_tensor(_data([3], 12)), ops, int_attr=1.5)


@case
def attrs_check_fails(paddle, ops):
    return _attrs(paddle.to_tensor(_data([3], 13)), ops, str_attr="triple")


# ---------------------------------------------------------------- several outputs
@case
def stats_outputs(paddle, ops):
    x = paddle.to_tensor(_data([3, 5], 14), stop_gradient=False)
    out, row_sum, arg_max = ops.pot_stats(x)
    return [out, row_sum, arg_max.stop_gradient, arg_max.detach()]


@case
def stats_grad(paddle, ops):
    # Paddle hands a grad kernel no tensor for an output the loss does not use: the loss uses both
    x = paddle.to_tensor(_data([3, 5], 15), stop_gradient=False)
    out, row_sum, _ = ops.pot_stats(x)
    ((out * paddle.to_tensor(_data([3, 5], 16))).sum() + (row_sum * row_sum).sum()).backward()
    return x.grad.detach()


@case
def stats_float64(paddle, ops):
    return ops.pot_stats(paddle.to_tensor(_data([2, 4], 17, "float64")))


@case
def stats_bad_rank(paddle, ops):
    return ops.pot_stats(paddle.to_tensor(_data([2, 2, 2], 18)))


# ---------------------------------------------------------------- in place
@case
def inplace_add(paddle, ops):
    x = paddle.to_tensor(_data([2, 3], 19))
    y = paddle.to_tensor(_data([2, 3], 20))
    out = ops.pot_add_(x, y)
    return [out, x, out.stop_gradient]


@case
def inplace_add_grad(paddle, ops):
    a = paddle.to_tensor(_data([4], 21), stop_gradient=False)
    y = paddle.to_tensor(_data([4], 22), stop_gradient=False)
    x = a * 2.0
    out = ops.pot_add_(x, y)
    (out * out).sum().backward()
    return [out.detach(), a.grad.detach(), y.grad.detach()]


@case
def inplace_add_shape_mismatch(paddle, ops):
    return ops.pot_add_(paddle.to_tensor(_data([3], 23)), paddle.to_tensor(_data([4], 24)))


# ---------------------------------------------------------------- an optional input
@case
def optional_given_and_none(paddle, ops):
    x = paddle.to_tensor(_data([3], 25))
    y = paddle.to_tensor(_data([3], 26))
    return [ops.pot_optional(x, y), ops.pot_optional(x, None), ops.pot_optional(x=x, y=None)]


@case
def optional_grads(paddle, ops):
    x = paddle.to_tensor(_data([3], 27), stop_gradient=False)
    y = paddle.to_tensor(_data([3], 28), stop_gradient=False)
    (ops.pot_optional(x, y) ** 2).sum().backward()
    gx, gy = x.grad.detach().clone(), y.grad.detach()
    x.clear_gradient()
    (ops.pot_optional(x, None) ** 2).sum().backward()
    return [gx, gy, x.grad.detach()]


# ---------------------------------------------------------------- a list input
@case
def weighted_sum(paddle, ops):
    xs = [paddle.to_tensor(_data([2, 2], 29 + i)) for i in range(3)]
    return ops.pot_weighted_sum(xs, [0.5, -1.0, 2.0])


@case
def weighted_sum_grads(paddle, ops):
    xs = [paddle.to_tensor(_data([3], 32 + i), stop_gradient=False) for i in range(2)]
    (ops.pot_weighted_sum(xs, [1.5, -0.5]) ** 2).sum().backward()
    return [xs[0].grad.detach(), xs[1].grad.detach()]


@case
def weighted_sum_weight_count(paddle, ops):
    return ops.pot_weighted_sum([paddle.to_tensor(_data([2], 34))], [1.0, 2.0])


# ---------------------------------------------------------------- the Tensor API inside a kernel; no grad op
@case
def tensor_api(paddle, ops):
    x = paddle.to_tensor(_data([3, 4], 35), stop_gradient=False)
    y = paddle.to_tensor(_data([3, 4], 36))
    out, first = ops.pot_tensor_api(x, y)
    return [out, first, out.stop_gradient, first.stop_gradient]


@case
def tensor_api_float64(paddle, ops):
    x = paddle.to_tensor(_data([2, 3], 37, "float64"))
    return ops.pot_tensor_api(x, x * 0.5)


# ---------------------------------------------------------------- integer dispatch
@case
def int_dispatch(paddle, ops):
    return [ops.pot_int_twice(paddle.to_tensor([1, -2, 3])), ops.pot_int_twice(paddle.to_tensor([4, 5], "int32")),
            ops.pot_int_twice(paddle.to_tensor([6], "uint8"))]


@case
def int_dispatch_refuses_float(paddle, ops):
    return ops.pot_int_twice(paddle.to_tensor([1.0]))


# ---------------------------------------------------------------- bad calls
@case
def not_a_tensor(paddle, ops):
    return ops.pot_relu([1.0, 2.0])


@case
def missing_argument(paddle, ops):
    return ops.pot_optional(paddle.to_tensor([1.0]))


# ---------------------------------------------------------------- a small model trained with custom ops
def _model(paddle, ops):
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc1 = paddle.nn.Linear(4, 8)
            self.fc2 = paddle.nn.Linear(8, 3)

        def forward(self, x):
            h = ops.pot_relu(self.fc1(x))
            h = _attrs(h, ops, int_attr=0, float_attr=1.0, bool_attr=True, str_attr="single", int_vec_attr=[],
                       int64_attr=0, float_vec_attr=[], int64_vec_attr=[], str_vec_attr=[])
            out, row_sum, _ = ops.pot_stats(self.fc2(h))
            return out + row_sum.unsqueeze(-1) * 0.1

    net = Net()
    rng = np.random.default_rng(40)
    for _, p in sorted(net.named_parameters(), key=lambda kv: kv[0]):
        p.set_value((rng.standard_normal(list(p.shape)) * 0.5).astype("float32"))
    return net


@case(rtol=1e-5, atol=1e-6)  # 8 optimizer steps of float32 accumulate rounding differently
def training_loop(paddle, ops):
    net = _model(paddle, ops)
    opt = paddle.optimizer.SGD(learning_rate=0.05, parameters=net.parameters())
    x = paddle.to_tensor(_data([6, 4], 41))
    target = paddle.to_tensor(_data([6, 3], 42))
    losses = []
    for _ in range(8):
        loss = ((net(x) - target) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return [losses, net.fc1.weight.detach()]


@case(rtol=1e-5, atol=1e-6)
def to_static_forward_and_backward(paddle, ops):
    net = _model(paddle, ops)
    static = paddle.jit.to_static(net)
    x = paddle.to_tensor(_data([5, 4], 43))
    out = static(x)
    out.sum().backward()
    return [out.detach(), net.fc1.weight.grad.detach()]


@case(rtol=1e-5, atol=1e-6)
def to_static_dynamic_batch(paddle, ops):
    net = _model(paddle, ops)
    spec = [paddle.static.InputSpec(shape=[None, 4], dtype="float32")]
    static = paddle.jit.to_static(net, input_spec=spec)
    return [static(paddle.to_tensor(_data([n, 4], 44 + n))) for n in (2, 5, 3)]
