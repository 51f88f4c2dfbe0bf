"""paddle.static APIs of Paddle 2.x that Paddle 3.3 runs only on its legacy IR (static.nn.conv2d /
batch_norm / embedding, Program.clone(for_test=True), CompiledProgram).

Record with the legacy IR switched on (the flag must be set before Paddle is imported):

    ~/oracle/bin/python tools/record.py static_legacy   (it sets FLAGS_enable_pir_api=0 in a child process)

paddle_on_torch has one static mode, so the same cases run unchanged here.
"""
import contextlib
import os

import numpy as np

from tests.cases import case


def _check_recording_mode(paddle):
    if not hasattr(paddle, "__shim_version__") and os.environ.get("FLAGS_enable_pir_api") != "0":
        raise SystemExit("record tests/cases/static_legacy.py with FLAGS_enable_pir_api=0")


@contextlib.contextmanager
def _static(paddle):
    _check_recording_mode(paddle)
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
            yield main, startup
    finally:
        paddle.disable_static()


def _set(paddle, program, seed=0, scale=0.3):
    rng = np.random.RandomState(seed)
    scope = paddle.static.global_scope()
    for p in sorted(program.global_block().all_parameters(), key=lambda p: p.name):
        if p.trainable:
            scope.find_var(p.name).get_tensor().set((scale * rng.randn(*p.shape)).astype("float32"),
                                                    paddle.CPUPlace())


def _x(shape, seed=0):
    return np.random.RandomState(seed).randn(*shape).astype("float32")


@case
def conv_batch_norm_train_and_test(paddle):
    with _static(paddle) as (main, startup):
        img = paddle.static.data(name="img", shape=[None, 2, 5, 5], dtype="float32")
        c = paddle.static.nn.conv2d(img, num_filters=3, filter_size=3, padding=1)
        b = paddle.static.nn.batch_norm(c, act="relu")
        t = paddle.static.nn.batch_norm(c, is_test=True)
        names = sorted(p.name for p in main.global_block().all_parameters())
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        _set(paddle, main)
        out = exe.run(main, feed={"img": _x([2, 2, 5, 5])}, fetch_list=[b, t])
        scope = paddle.static.global_scope()
        stats = [np.array(scope.find_var(n).get_tensor()) for n in ("batch_norm_0.w_1", "batch_norm_0.w_2")]
        return [names, list(c.shape)] + out + stats


@case
def clone_for_test_freezes_batch_norm_and_dropout(paddle):
    with _static(paddle) as (main, startup):
        x = paddle.static.data(name="x", shape=[None, 4], dtype="float32")
        h = paddle.static.nn.fc(x, 6)
        h = paddle.static.nn.batch_norm(h, momentum=0.5)
        h = paddle.nn.functional.dropout(h, p=0.5)
        y = paddle.static.nn.fc(h, 1)
        loss = paddle.mean(paddle.square(y))
        test = main.clone(for_test=True)
        paddle.optimizer.SGD(0.1).minimize(loss)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        _set(paddle, main)
        xs = _x([8, 4])
        first = exe.run(test, feed={"x": xs}, fetch_list=[y, loss])
        again = exe.run(test, feed={"x": xs}, fetch_list=[y])[0]
        scope = paddle.static.global_scope()
        mean_before = np.array(scope.find_var("batch_norm_0.w_1").get_tensor())
        exe.run(main, feed={"x": xs}, fetch_list=[loss])
        mean_after = np.array(scope.find_var("batch_norm_0.w_1").get_tensor())
        after = exe.run(test, feed={"x": xs}, fetch_list=[y])[0]  # (the training step's dropout mask is random)
        return first + [bool(np.array_equal(first[0], again)), mean_before, mean_after, after.shape,
                        bool(np.allclose(after, first[0]))]


@case
def embedding_and_layer_norm(paddle):
    with _static(paddle) as (main, startup):
        ids = paddle.static.data(name="ids", shape=[None, 4], dtype="int64")
        e = paddle.static.nn.embedding(ids, size=[10, 6])
        ln = paddle.static.nn.layer_norm(e, begin_norm_axis=2)
        names = sorted(p.name for p in main.global_block().all_parameters())
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        _set(paddle, main)
        out = exe.run(main, feed={"ids": np.array([[1, 2, 3, 9], [0, 0, 5, 5]], "int64")}, fetch_list=[e, ln])
        return [names, list(e.shape), list(ln.shape)] + out


@case
def compiled_program_runs(paddle):
    with _static(paddle) as (main, startup):
        x = paddle.static.data(name="x", shape=[None, 2], dtype="float32")
        y = paddle.static.nn.fc(x, 3, activation="relu")
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        _set(paddle, main)
        compiled = paddle.static.CompiledProgram(main, build_strategy=paddle.static.BuildStrategy())
        return exe.run(compiled, feed={"x": _x([3, 2])}, fetch_list=[y])


@case
def fetch_by_name_and_parameter_names(paddle):
    with _static(paddle) as (main, startup):
        x = paddle.static.data(name="x", shape=[None, 3], dtype="float32")
        y = paddle.static.nn.fc(x, 2, name="head")
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        _set(paddle, main)
        names = sorted(p.name for p in main.global_block().all_parameters())
        return [names] + exe.run(main, feed={"x": _x([2, 3])}, fetch_list=[y, "head.w_0"])
