"""paddle.jit.save / load of Layers with Python control flow on Tensors (Paddle's dy2static turns it into
cond / while ops; paddle_on_torch into torch.cond / torch.while_loop).

Each case saves one Layer, loads it back and runs eager and loaded on inputs that take every branch; the
recorded answers are real Paddle's loaded program's outputs.  The Layers are module-level classes: both
converters read their source.
"""
import os
import tempfile

import numpy as np

from tests.cases import case, fill_parameters


def _build(paddle):
    nn = paddle.nn
    F = nn.functional

    class ElifChain(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(3, 3)

        def forward(self, x):
            h = self.fc(x)
            m = h.mean()
            if m > 1:
                y = h * 3
            elif m > 0:
                y = h + 10
            elif m > -1:
                y = h - 10
            else:
                y = -h
            return y

    class EarlyReturn(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(3, 3)

        def forward(self, x):
            h = self.fc(x)
            if h.sum() > 0:
                return h * 2
            y = h - 1
            if y.mean() < -3:
                return y * 0.5
            return y

    class WhileCarry(nn.Layer):
        """A while loop on a Tensor condition carrying two Tensors."""

        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(3, 3)

        def forward(self, x):
            s = self.fc(x)
            n = paddle.zeros([1], "float32")
            while s.sum() < 50:
                s = s * 2 + 1
                n = n + 1
            return s, n

    class ForTensorRange(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(3, 3)

        def forward(self, x, n):
            acc = self.fc(x)
            for k in range(n):
                acc = acc * 0.5 + 1
            return acc

    class BreakContinue(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(3, 3)

        def forward(self, x):
            h = F.relu(self.fc(x)) + 0.1
            s = paddle.zeros_like(h)
            i = paddle.zeros([1], "int64")
            while i < 6:
                i = i + 1
                if i == 2:
                    continue
                s = s + h
                if s.sum() > 8:
                    break
            return s

    class Logic(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(2, 2)

        def forward(self, x, y):
            a, b = self.fc(x), y
            if a.mean() > 0 and b.mean() > 0:
                r = a + b
            elif not (a.mean() > 0) or b.sum() < -100:
                r = a - b
            else:
                r = a * b
            return r

    class Nested(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(2, 2)

        def forward(self, x):
            h = self.fc(x)
            if h.mean() > 0:
                if h.max() > 2:
                    y = h * 2
                else:
                    y = h * 3
                z = y + 1
            else:
                z = h - 1
                while z.sum() < 0:
                    z = z + 1
            return z

    class Gate(nn.Layer):
        def __init__(self):
            super().__init__()
            self.a = nn.Linear(4, 4)
            self.b = nn.Linear(4, 4)

        def forward(self, x):
            h = self.a(x)
            if paddle.mean(h) > 0:
                out = F.relu(h)
            else:
                out = self.b(h)
            return out

    class SublayerBranches(nn.Layer):
        """Control flow in a sublayer's forward, the sublayer called from a Sequential."""

        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Linear(4, 4), Gate(), nn.Tanh())

        def forward(self, x):
            return self.body(x)

    return dict(ElifChain=ElifChain, EarlyReturn=EarlyReturn, WhileCarry=WhileCarry, ForTensorRange=ForTensorRange,
                BreakContinue=BreakContinue, Logic=Logic, Nested=Nested, Gate=Gate,
                SublayerBranches=SublayerBranches)


def _roundtrip(paddle, name, specs, inputs):
    layer = fill_parameters(_build(paddle)[name](), seed=1)
    layer.eval()
    eager = [layer(*[paddle.to_tensor(a) for a in args]) for args in inputs]
    with tempfile.TemporaryDirectory() as d:
        paddle.jit.save(layer, os.path.join(d, "model"), input_spec=specs)
        loaded = paddle.jit.load(os.path.join(d, "model"))
        got = [loaded(*[paddle.to_tensor(a) for a in args]) for args in inputs]
    return {"eager": eager, "loaded": got}


def _spec(paddle, shape, dtype="float32", name=None):
    return paddle.static.InputSpec(shape, dtype, name)


def _full(shape, *values):
    return [[np.full(shape, v, "float32")] for v in values]


@case
def elif_chain(paddle):
    return _roundtrip(paddle, "ElifChain", [_spec(paddle, [None, 3])], _full([2, 3], 3.0, 0.4, -0.3, -4.0))


@case
def early_return(paddle):
    return _roundtrip(paddle, "EarlyReturn", [_spec(paddle, [None, 3])], _full([2, 3], 2.0, -0.5, -9.0))


@case
def while_loop_carrying_tensors(paddle):
    return _roundtrip(paddle, "WhileCarry", [_spec(paddle, [2, 3])], _full([2, 3], 1.0, 40.0, -1.0))


@case
def for_over_tensor_range(paddle):
    inputs = [[np.ones([2, 3], "float32"), np.array(n, "int64")] for n in (0, 1, 4)]
    return _roundtrip(paddle, "ForTensorRange", [_spec(paddle, [2, 3]), _spec(paddle, [], "int64")], inputs)


@case
def break_and_continue(paddle):
    return _roundtrip(paddle, "BreakContinue", [_spec(paddle, [2, 3])], _full([2, 3], 0.5, 3.0, -2.0))


@case
def and_or_not(paddle):
    inputs = [[np.full([2, 2], a, "float32"), np.full([2], b, "float32")]
              for a, b in ((1, 1), (-1, 1), (1, -1), (1, -100))]
    return _roundtrip(paddle, "Logic", [_spec(paddle, [2, 2]), _spec(paddle, [2])], inputs)


@case
def nested_if_and_while(paddle):
    return _roundtrip(paddle, "Nested", [_spec(paddle, [None, 2])], _full([3, 2], 3.0, 0.6, -1.0, -9.0))


@case
def branch_calling_sublayers(paddle):
    return _roundtrip(paddle, "Gate", [_spec(paddle, [None, 4])], _full([2, 4], 1.0, -1.0))


@case
def control_flow_inside_sequential(paddle):
    return _roundtrip(paddle, "SublayerBranches", [_spec(paddle, [None, 4])], _full([2, 4], 1.0, -1.0, 0.0))
