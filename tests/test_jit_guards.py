"""to_static's fast path: dynamo's guards below Layer objects are skipped while the Layer tree is unchanged.

Every change a compiled forward can depend on (attributes, `training`, sublayers, parameters, buffers,
hooks, stop_gradient, casts) must make the next call follow eager again.  Backend "eager" keeps the
tracing cheap; the guard logic is the same for every backend.
"""
import numpy as np
import pytest
import torch


@pytest.fixture(autouse=True)
def _fresh_dynamo():
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


def _net(paddle):
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc1 = paddle.nn.Linear(4, 8)
            self.fc2 = paddle.nn.Linear(8, 3)
            self.alpha = 2.0

        def forward(self, x):
            h = paddle.tanh(self.fc1(x))
            if self.training:
                h = h * self.alpha
            return self.fc2(h)

    paddle.seed(7)
    return Net()


def _pair(paddle):
    """(eager net, to_static net with the same weights)."""
    eager, static = _net(paddle), _net(paddle)
    static.set_state_dict(eager.state_dict())
    paddle.jit.to_static(static, backend="eager")
    return eager, static


def _same(a, b):
    np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6, atol=1e-6)


def _both(eager, static, change):
    change(eager)
    change(static)


def _check(paddle, eager, static, x, calls=3):
    for _ in range(calls):
        _same(static(x), eager(x))


def test_fast_path_is_taken(paddle):
    from paddle_on_torch.nn.layer import layers

    _, static = _pair(paddle)
    x = paddle.randn([2, 4])
    static(x)
    static(x)
    assert static.forward._compiled.checked_at == layers.MUTATIONS[0]


@pytest.mark.parametrize("what", ["eval", "training_attr", "sublayer_training", "alpha", "replace_sublayer",
                                  "new_parameter", "bias_none", "buffer", "table_write", "set_value"])
def test_changes_between_calls_follow_eager(paddle, what):
    eager, static = _pair(paddle)
    x = paddle.randn([2, 4])
    _check(paddle, eager, static, x)
    paddle.seed(11)
    fc = paddle.nn.Linear(8, 3)
    w = paddle.create_parameter([4, 8], "float32", default_initializer=paddle.nn.initializer.Constant(0.5))
    changes = {
        "eval": lambda m: m.eval(),
        "training_attr": lambda m: setattr(m, "training", False),
        "sublayer_training": lambda m: setattr(m.fc1, "training", False),  # the forward reads m.training
        "alpha": lambda m: setattr(m, "alpha", -3.0),
        "replace_sublayer": lambda m: setattr(m, "fc2", fc),
        "new_parameter": lambda m: setattr(m.fc1, "weight", w),
        "bias_none": lambda m: setattr(m.fc2, "bias", None),
        "buffer": lambda m: (delattr(m.fc2, "bias"), m.fc2.register_buffer("bias", paddle.ones([3]))),
        "table_write": lambda m: m._sub_layers.__setitem__("fc2", fc),
        "set_value": lambda m: m.fc1.weight.set_value(paddle.full([4, 8], 0.25)),
    }
    _both(eager, static, changes[what])
    _check(paddle, eager, static, x)


def test_hooks_follow_eager(paddle):
    eager, static = _pair(paddle)
    x = paddle.randn([2, 4])
    _check(paddle, eager, static, x)
    handles = [m.fc1.register_forward_post_hook(lambda layer, inp, out: out * 0.5) for m in (eager, static)]
    _check(paddle, eager, static, x)
    for h in handles:
        h.remove()
    _check(paddle, eager, static, x)
    pre = [m.fc2.register_forward_pre_hook(lambda layer, inp: (inp[0] + 1.0,)) for m in (eager, static)]
    _check(paddle, eager, static, x)
    assert pre


def test_train_eval_alternation_and_shapes(paddle):
    eager, static = _pair(paddle)
    for i in range(3):
        for mode in ("train", "eval"):
            _both(eager, static, lambda m: getattr(m, mode)())
            for n in (2, 5):
                x = paddle.randn([n, 4])
                _same(static(x), eager(x))


def test_stop_gradient_change_follows(paddle):
    _, static = _pair(paddle)
    x = paddle.randn([2, 4])
    for _ in range(2):
        static(x).sum().backward()
    assert static.fc1.weight.grad is not None
    static.clear_gradients(set_to_zero=False)
    static.fc1.weight.stop_gradient = True
    for _ in range(2):
        out = static(x)
        out.sum().backward()
    assert static.fc1.weight.grad is None and static.fc2.weight.grad is not None


def test_grad_mode_change_follows(paddle):
    _, static = _pair(paddle)
    x = paddle.randn([2, 4])
    with paddle.no_grad():
        for _ in range(2):
            assert static(x).stop_gradient
    for _ in range(2):
        assert not static(x).stop_gradient


def test_layer_list_changes_follow_eager(paddle):
    def build():
        paddle.seed(3)

        class Stack(paddle.nn.Layer):
            def __init__(self):
                super().__init__()
                self.blocks = paddle.nn.LayerList([paddle.nn.Linear(4, 4) for _ in range(3)])

            def forward(self, x):
                for b in self.blocks:
                    x = b(x)
                return x

        return Stack()

    eager, static = build(), build()
    paddle.jit.to_static(static, backend="eager")
    x = paddle.randn([2, 4])
    _check(paddle, eager, static, x)
    paddle.seed(5)
    extra = paddle.nn.Linear(4, 4)
    for m in (eager, static):
        m.blocks.append(extra)
    _check(paddle, eager, static, x)
    for m in (eager, static):
        del m.blocks[0]
    _check(paddle, eager, static, x)


def test_layer_argument_changes_follow_eager(paddle):
    """A to_static function taking the Layer as an argument (the PINN's loss_fn pattern)."""
    eager_net, net = _pair(paddle)
    net.forward.rollback()  # the plain Layer, called inside the compiled function

    def loss(model, x):
        return (model(x) ** 2).mean()

    static_loss = paddle.jit.to_static(loss, backend="eager", full_graph=True)
    x = paddle.randn([3, 4])
    for _ in range(2):
        _same(static_loss(net, x), loss(eager_net, x))
    for m in (net, eager_net):
        m.eval()
        m.alpha = 5.0
    for _ in range(2):
        _same(static_loss(net, x), loss(eager_net, x))
    other = _net(paddle)
    for _ in range(2):
        _same(static_loss(other, x), loss(other, x))


def test_graph_break_disables_fast_path(paddle):
    class Breaks(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(3, 3)
            self.k = 1.0

        def forward(self, x):
            y = self.fc(x)
            float(y.sum())  # a graph break under full_graph=False
            return y * self.k

    m = Breaks()
    paddle.jit.to_static(m, backend="eager")
    x = paddle.randn([2, 3])
    for _ in range(2):
        m(x)
    assert m.forward._compiled.fast_ok is False and m.forward._compiled.checked_at is None
    want = m.forward.dygraph_function(x) * 3.0
    m.k = 3.0
    _same(m(x), want)


def test_forward_that_assigns_attributes_is_never_fast(paddle):
    class Counts(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(3, 3)

        def forward(self, x):
            self.last = x.shape[0]
            return self.fc(x)

    m = Counts()
    paddle.jit.to_static(m, backend="eager")
    for n in (2, 2, 4):
        m(paddle.randn([n, 3]))
        assert m.last == n
        assert m.forward._compiled.checked_at is None


@pytest.mark.parametrize("how", ["rebind_other_shape", "static_optimizer_node", "assign_output"])
def test_rebinding_a_parameter_tensor_follows_eager(paddle, how):
    """Sharding, the planner and static mode's optimizer node rebind `p._t` behind the Layer; the next
    call must check the guards in full (a graph traced for the old tensor would be wrong, or raise)."""
    from torch._dynamo.eval_frame import _debug_get_cache_entry_list

    from paddle_on_torch.nn.layer import layers
    from paddle_on_torch.static.backward import _OptimizerStep

    eager, static = _pair(paddle)
    x = paddle.randn([2, 4])
    _check(paddle, eager, static, x)
    assert static.forward._compiled.checked_at == layers.MUTATIONS[0]  # fast before the change
    code = static.forward._compiled.code
    graphs = len(_debug_get_cache_entry_list(code))

    def change(m):
        w, b = m.fc2.weight, m.fc2.bias
        if how == "rebind_other_shape":  # what sharding.py / planner.py do, with other metadata
            w._t = torch.nn.Parameter(torch.full([8, 5], 0.5))
            b._t = torch.nn.Parameter(torch.zeros([5]))
        elif how == "static_optimizer_node":  # the scope's tensors (no requires_grad) take their place
            opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=[w, b])
            _OptimizerStep(opt, [w, b])([w._t.detach().clone(), b._t.detach().clone()],
                                        [torch.ones_like(w._t), torch.ones_like(b._t)])
        else:  # paddle.assign into a parameter (it requires grad) rebinds its tensor
            paddle.assign(paddle.full([8, 3], -0.25), output=w)

    _both(eager, static, change)
    _check(paddle, eager, static, x)
    assert len(_debug_get_cache_entry_list(code)) > graphs  # the old graph failed the full check
    assert static.forward._compiled.checked_at == layers.MUTATIONS[0]  # and the fast path is back


def test_recompile_of_the_same_function_prunes_its_new_entry(paddle):
    """A recompile adds a cache entry whose guards over new sources (here the list's third item) must
    stay in the pruned tree: a later fast call with another value there recompiles, not reuses."""
    def scale(x, ks):
        return x * sum(ks)

    static = paddle.jit.to_static(scale, backend="eager")
    x = paddle.ones([2])
    for ks in ([1, 2], [1, 2], [1, 2, 3], [1, 2, 3], [1, 2, 5], [1, 2, 5], [1, 2]):
        _same(static(x, ks), scale(x, ks))


@pytest.mark.parametrize("how", ["assign_output", "inplace_reshape", "out_argument"])
def test_rebinding_a_buffer_tensor_follows_eager(paddle, how):
    """paddle.assign(output=), shape-changing in-place ops and `out=` give a buffer another torch tensor
    (_normalize.rebind): the compiled forward was traced for the old one."""
    class Buffered(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.register_buffer("b", paddle.ones([3]))

        def forward(self, x):
            return x.sum() + (self.b * self.b).sum()

    m = Buffered()
    static = paddle.jit.to_static(m, backend="eager")
    x = paddle.ones([2])
    for _ in range(2):
        _same(static(x), m.forward(x))
    if how == "assign_output":
        paddle.assign(paddle.full([5], 2.0), output=m.b)
    elif how == "inplace_reshape":
        m.b.reshape_([3, 1])
    else:
        paddle.where(paddle.to_tensor([True, False]), paddle.full([2], 3.0), paddle.zeros([2]), out=m.b)
    for _ in range(2):
        _same(static(x), m.forward(x))
