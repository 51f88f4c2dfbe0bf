"""Static mode: what a recorded Program holds and gives back when an op returns several values or takes a tuple
(issue 19: `fetch_list=[paddle.linalg.eigh(x)]` raised "'tuple' object has no attribute 'detach'")."""
import contextlib

import numpy as np

from tests.cases import case


@contextlib.contextmanager
def _static(paddle):
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
            yield main, startup
    finally:
        paddle.disable_static()


_SYM = np.array([[2, 1, 0], [1, 3, 1], [0, 1, 4]], "float32")


def _run(paddle, build, feed):
    with _static(paddle) as (main, startup):
        fetch = build()
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        return exe.run(main, feed=feed, fetch_list=fetch)


@case(rtol=1e-5)  # eigenvectors through LAPACK on both sides
def fetch_a_tuple_result_as_one_entry(paddle):
    def build():
        x = paddle.static.data("x", [3, 3], "float32")
        return [paddle.linalg.eigh(x)]
    w, v = _run(paddle, build, {"x": _SYM})
    return [w, np.abs(v)]


@case
def fetch_list_nesting_results_and_names(paddle):
    def build():
        x = paddle.static.data("x", [3, 3], "float32")
        return [[paddle.linalg.multi_dot((x, x, x)), (x.sum(), paddle.linalg.eigh(x)[0])]]
    return _run(paddle, build, {"x": _SYM})


@case
def op_taking_a_tuple_of_variables_and_a_constant(paddle):
    def build():
        a = paddle.static.data("a", [2, 3], "float32")
        b = paddle.static.data("b", [3, 4], "float32")
        eye = paddle.to_tensor(np.eye(4, dtype="float32"))
        return [paddle.linalg.multi_dot((a, b, eye)), paddle.concat((a, a), axis=0)]
    return _run(paddle, build, {"a": np.ones([2, 3], "float32"), "b": np.arange(12, dtype="float32").reshape(3, 4)})
