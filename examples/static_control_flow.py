"""Static-graph control flow: while_loop, cond, case, switch_case and gradients in one program.

    python examples/static_control_flow.py
    python -m paddle_on_torch examples/static_control_flow.py
"""
import numpy as np
import paddle


def build():
    x = paddle.static.data(name="x", shape=[None, 3], dtype="float32")
    n = paddle.static.data(name="n", shape=[1], dtype="int64")
    k = paddle.static.data(name="k", shape=[1], dtype="int32")
    x.stop_gradient = False

    # a damped running sum: s = 0.5 * s + x * i for i < n
    i = paddle.full(shape=[1], fill_value=0, dtype="int64")
    s = paddle.zeros_like(x)
    i, s = paddle.static.nn.while_loop(lambda i, s: paddle.less_than(i, n),
                                       lambda i, s: [i + 1, 0.5 * s + x * paddle.cast(i, "float32")], [i, s])

    total = paddle.sum(s)
    branch = paddle.static.nn.cond(total > 0.0, lambda: paddle.tanh(s) * 2.0, lambda: paddle.exp(s) - 1.0)
    scaled = paddle.static.nn.case([(paddle.mean(x) > 1.0, lambda: x * 10.0),
                                    (paddle.mean(x) > 0.0, lambda: x * 100.0)], default=lambda: -x)
    picked = paddle.static.nn.switch_case(k, {0: lambda: paddle.sum(x, axis=1), 1: lambda: paddle.max(x, axis=1),
                                              2: lambda: paddle.min(x, axis=1)}, default=lambda: paddle.mean(x, axis=1))
    loss = paddle.mean(branch * branch) + paddle.mean(scaled)
    (dx,) = paddle.static.gradients([loss], [x])
    return [i, s, branch, scaled, picked, loss, dx]


def run():
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            fetch = build()
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        rng = np.random.RandomState(0)
        out = {}
        for case_id, (scale, n, k) in enumerate([(1.0, 3, 0), (-1.0, 5, 1), (0.2, 0, 2), (3.0, 2, 7)]):
            x = (scale * (rng.rand(4, 3) + 0.5)).astype("float32")
            res = exe.run(main, feed={"x": x, "n": np.array([n], "int64"), "k": np.array([k], "int32")},
                          fetch_list=fetch)
            for name, v in zip(["i", "s", "branch", "scaled", "picked", "loss", "dx"], res):
                out[f"{case_id}/{name}"] = np.asarray(v)
        return out
    finally:
        paddle.disable_static()


if __name__ == "__main__":
    for key, value in run().items():
        print(key, np.round(value, 5).tolist())
