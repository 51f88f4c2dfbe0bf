"""to_static's joint program: a full_graph function returning a scalar loss computes the loss and its
gradients in one graph, and `loss.backward()` / `paddle.grad(loss, ...)` hand them to autograd.

Everything is compared with the same code run eagerly.  Backend "aot_eager" traces forward and
backward as inductor would, without generating code.
"""
import numpy as np
import pytest
import torch

from paddle_on_torch.jit._joint import Joint


@pytest.fixture(autouse=True)
def _fresh_dynamo():
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


def _mlp(paddle, seed=4):
    paddle.seed(seed)
    return paddle.nn.Sequential(paddle.nn.Linear(2, 16), paddle.nn.Tanh(), paddle.nn.Linear(16, 1))


def _residual_loss(paddle):
    def loss_fn(model, xy, f):
        u = model(xy)
        (du,) = paddle.grad(u.sum(), xy, create_graph=True)
        (d2,) = paddle.grad(du[:, 0].sum(), xy, create_graph=True)
        r = d2[:, 0:1] + f
        return paddle.mean(r * r) + paddle.mean(u ** 2)

    return loss_fn


def _data(paddle):
    rng = np.random.default_rng(0)
    xy = paddle.to_tensor(rng.uniform(size=(16, 2)).astype("float32"), stop_gradient=False)
    f = paddle.to_tensor(rng.uniform(size=(16, 1)).astype("float32"))
    return xy, f


def _close(a, b, rtol=1e-5, atol=1e-6):
    if a is None or b is None:
        assert a is None and b is None
        return
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=atol)


def _grads(model):
    return [None if p.grad is None else p.grad.numpy().copy() for p in model.parameters()]


def test_training_steps_match_eager(paddle):
    loss_fn = _residual_loss(paddle)
    static_fn = paddle.jit.to_static(loss_fn, backend="aot_eager", full_graph=True)
    runs = {}
    for name, fn in (("eager", loss_fn), ("static", static_fn)):
        model = _mlp(paddle)
        xy, f = _data(paddle)
        opt = paddle.optimizer.Adam(learning_rate=1e-2, parameters=model.parameters())
        losses, grads = [], []
        for _ in range(4):
            loss = fn(model, xy, f)
            loss.backward()
            grads.append(_grads(model))
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
        runs[name] = (losses, grads, xy.grad.numpy().copy(), loss.stop_gradient)
    assert isinstance(static_fn._joint, Joint) and static_fn._joint.pattern == (False, True, False)
    _close(runs["static"][0], runs["eager"][0])
    for gs, ge in zip(runs["static"][1], runs["eager"][1]):
        for a, b in zip(gs, ge):
            _close(a, b)
    _close(runs["static"][2], runs["eager"][2])  # the input's gradient accumulates as in eager
    assert runs["static"][3] is False


@pytest.mark.parametrize("how", ["accumulate", "scaled", "paddle_grad", "create_graph"])
def test_backward_variants_match_eager(paddle, how):
    loss_fn = _residual_loss(paddle)
    static_fn = paddle.jit.to_static(loss_fn, backend="aot_eager", full_graph=True)
    out = {}
    for name, fn in (("eager", loss_fn), ("static", static_fn)):
        model = _mlp(paddle)
        xy, f = _data(paddle)
        fn(model, xy, f).backward()  # the first call learns the leaves; the second runs the joint program
        model.clear_gradients()
        loss = fn(model, xy, f)
        w = model[0].weight
        if how == "accumulate":
            loss.backward()
            got = _grads(model)
        elif how == "scaled":
            (loss * 3.0).backward()
            got = _grads(model)
        elif how == "paddle_grad":
            got = [g.numpy() for g in paddle.grad(loss, [w, xy])]
        else:  # a gradient of the gradient: the joint's precomputed gradients are not enough (an
            # ordinary compiled call cannot do this: AOT-compiled graphs have no double backward)
            (g,) = paddle.grad(loss, w, create_graph=True)
            got = [g.numpy(), paddle.grad((g * g).sum(), w)[0].numpy()]
        out[name] = got
    for a, b in zip(out["static"], out["eager"]):
        _close(a, b, rtol=1e-4, atol=1e-5)


def test_non_scalar_result_has_no_joint(paddle):
    model = _mlp(paddle)
    fn = paddle.jit.to_static(lambda m, x: m(x), backend="aot_eager", full_graph=True)
    x = paddle.randn([3, 2])
    for _ in range(2):
        fn(model, x).sum().backward()
    assert fn._joint is False


def test_freezing_a_parameter_relearns(paddle):
    loss_fn = _residual_loss(paddle)
    static_fn = paddle.jit.to_static(loss_fn, backend="aot_eager", full_graph=True)
    model, eager_model = _mlp(paddle), _mlp(paddle)
    xy, f = _data(paddle)
    for _ in range(2):
        static_fn(model, xy, f).backward()
    for m in (model, eager_model):
        m.clear_gradients(set_to_zero=False)
        m[0].weight.stop_gradient = True
    for _ in range(2):
        static_fn(model, xy, f).backward()
        loss_fn(eager_model, xy, f).backward()
    assert model[0].weight.grad is None
    for a, b in zip(_grads(model), _grads(eager_model)):
        _close(a, b, rtol=1e-4, atol=1e-5)


def test_no_grad_calls_skip_the_joint(paddle):
    static_fn = paddle.jit.to_static(
        lambda m, x, f: paddle.mean(m(x) ** 2), backend="aot_eager", full_graph=True)
    model = _mlp(paddle)
    xy, f = _data(paddle)
    static_fn(model, xy, f).backward()
    with paddle.no_grad():
        v = static_fn(model, xy, f)
    assert v.stop_gradient
    _close(float(v), float(paddle.mean(model(xy) ** 2)))


def test_global_tensor_leaf_keeps_the_plain_program(paddle):
    model = _mlp(paddle)
    scale = paddle.to_tensor([2.0], stop_gradient=False)

    def loss_fn(m, x):
        return paddle.mean(m(x)) * scale.sum()

    static_fn = paddle.jit.to_static(loss_fn, backend="aot_eager", full_graph=True)
    x = paddle.randn([4, 2])
    for _ in range(2):
        static_fn(model, x).backward()
    assert static_fn._joint is False
    want = float(paddle.mean(model(x))) * 2  # d(loss)/d(scale), accumulated over two calls
    _close(scale.grad.numpy(), [want], rtol=1e-5)


def test_default_full_graph_false_uses_the_joint_without_graph_breaks(paddle):
    model, eager_model = _mlp(paddle), _mlp(paddle)
    x = paddle.randn([5, 2])

    def loss_fn(m, x):
        return paddle.mean(paddle.tanh(m(x)) ** 2)

    static_fn = paddle.jit.to_static(loss_fn, backend="aot_eager")
    for _ in range(3):
        static_fn(model, x).backward()
        loss_fn(eager_model, x).backward()
    assert isinstance(static_fn._joint, Joint)
    for a, b in zip(_grads(model), _grads(eager_model)):
        _close(a, b)


def test_graph_break_keeps_the_plain_program(paddle):
    model = _mlp(paddle)
    x = paddle.randn([5, 2])

    def loss_fn(m, x):
        y = m(x)
        float(y.sum())  # a graph break
        return paddle.mean(y ** 2)

    static_fn = paddle.jit.to_static(loss_fn, backend="aot_eager")
    for _ in range(2):
        static_fn(model, x).backward()
    assert static_fn._joint is None or static_fn._joint is False
