"""Small static-mode programs saved with paddle.static.save_inference_model in Paddle's PIR format (issue 19
item 3): built under paddle_on_torch by tools/record_static_pir.py and tests/test_static_pir_export.py.

`build(paddle, name)` -> (main program, feed vars, fetch vars) with the startup program run and every persistable
set to seeded values (so the written .pdiparams is the same on every run); `INPUTS[name]` -> feed sets (a second
set with another batch size where the program's batch dim is -1).
"""
import numpy as np


def _mlp(paddle):
    x = paddle.static.data("x", [4, 16], "float32")
    h = paddle.static.nn.fc(x, 32, activation="relu")
    y = paddle.static.nn.fc(h, 10)
    return [x], [paddle.nn.functional.softmax(y)]


def _cnn(paddle):
    x = paddle.static.data("image", [2, 3, 8, 8], "float32")
    h = paddle.static.nn.conv2d(x, 4, 3, padding=1)
    h = paddle.static.nn.batch_norm(h, act="relu")
    h = paddle.nn.functional.max_pool2d(h, 2)
    h = paddle.static.nn.conv2d(h, 6, 3, stride=1, padding=1, act="relu")
    h = paddle.nn.functional.avg_pool2d(h, 2)
    h = paddle.flatten(h, 1)
    return [x], [paddle.static.nn.fc(h, 5)]


def _dynamic_batch(paddle):
    x = paddle.static.data("x", [-1, 12], "float32")
    w = paddle.static.data("w", [-1, 8], "float32")
    h = paddle.static.nn.fc(x, 8, activation="tanh")
    s = paddle.sum(h * w, axis=1, keepdim=True)
    return [x, w], [h, paddle.nn.functional.sigmoid(s * 0.5 + 1.0)]


def _cond(paddle):  # static.nn.cond -> pd_op.if; the inputs take each branch
    x = paddle.static.data("x", [-1, 6], "float32")
    h = paddle.static.nn.fc(x, 6)
    m = paddle.mean(x)
    y = paddle.static.nn.cond(m > 0, lambda: paddle.nn.functional.relu(h) * 2.0, lambda: h - 1.0)
    return [x], [y, m]  # m: which branch ran


def _while_loop(paddle):  # static.nn.while_loop -> pd_op.while, carrying a counter and a tensor
    x = paddle.static.data("x", [-1, 4], "float32")
    h = paddle.static.nn.fc(x, 4, activation="tanh")
    i = paddle.full([1], 0, "int64")
    _, acc = paddle.static.nn.while_loop(lambda i, acc: i < 3, lambda i, acc: [i + 1, acc * 0.5 + h], [i, h])
    return [x], [acc]


def _embedding(paddle):  # int64 ids with a -1 batch, layer_norm, dropout (inference: scaled identity)
    ids = paddle.static.data("ids", [-1, 5], "int64")
    h = paddle.static.nn.embedding(ids, size=[30, 8])
    h = paddle.static.nn.layer_norm(h, begin_norm_axis=2)
    h = paddle.nn.functional.dropout(h, 0.3)
    return [ids], [paddle.static.nn.fc(paddle.mean(h, axis=1), 4, activation="softmax")]


PROGRAMS = {"mlp": _mlp, "embedding": _embedding, "cnn": _cnn, "dynamic_batch": _dynamic_batch, "cond": _cond, "while_loop": _while_loop}


def _rand(shape, seed):
    return np.random.RandomState(seed).uniform(-1, 1, shape).astype("float32")


INPUTS = {
    "mlp": [{"x": _rand([4, 16], 1)}],
    "cnn": [{"image": _rand([2, 3, 8, 8], 2)}],
    "dynamic_batch": [{"x": _rand([5, 12], 3), "w": _rand([5, 8], 4)},
                      {"x": _rand([2, 12], 5), "w": _rand([2, 8], 6)}],
    "cond": [{"x": np.abs(_rand([3, 6], 7)) * 3.0}, {"x": -np.abs(_rand([3, 6], 8)) * 3.0}],
    "while_loop": [{"x": _rand([3, 4], 9)}],
    "embedding": [{"ids": np.random.RandomState(10).randint(0, 30, [3, 5]).astype("int64")},
                  {"ids": np.random.RandomState(11).randint(0, 30, [1, 5]).astype("int64")}],
}


def build(paddle, name):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        feeds, fetches = PROGRAMS[name](paddle)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    state = main.state_dict("all")
    values = {}
    for i, key in enumerate(sorted(state)):
        shape = list(np.array(state[key]).shape)
        v = _rand(shape, 100 + i) * 0.5
        if "w_2" in key and "batch_norm" in key:  # a running variance stays positive
            v = np.abs(v) + 0.5
        values[key] = v
    main.set_state_dict(values)
    return main, feeds, fetches, exe
