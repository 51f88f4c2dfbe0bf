"""paddle.static: saving scope tensors, state dicts and Programs with paddle.save; ops that check their
input values in Python recorded in a Program (the checks run when the Executor runs them)."""
import contextlib
import os
import pickle
import re
import tempfile

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


def _fill(paddle, program, seed=0):
    rng = np.random.RandomState(seed)
    scope = paddle.static.global_scope()
    for name in sorted(program.state_dict("param")):
        t = scope.find_var(name).get_tensor()
        t.set((0.3 * rng.randn(*np.array(t).shape)).astype("float32"), paddle.CPUPlace())


def _names(names):
    """Sorted, with the layer counter left out: Paddle's PIR mode keeps counting across unique_name.guard."""
    return sorted(re.sub(r"^fc_\d+", "fc", n) for n in names)


def _fc_program(paddle):
    x = paddle.static.data(name="x", shape=[None, 3], dtype="float32")
    return x, paddle.static.nn.fc(x, 2)


@case
def save_scope_tensor_is_a_plain_array(paddle):
    with tempfile.TemporaryDirectory() as d, _static(paddle) as (main, startup):
        _fc_program(paddle)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        _fill(paddle, main)
        w = next(n for n in main.state_dict("param") if n.endswith(".w_0"))
        tensor = paddle.static.global_scope().find_var(w).get_tensor()
        path = os.path.join(d, "w.pdtensor")
        paddle.save(tensor, path)
        with open(path, "rb") as f:
            raw = pickle.load(f)
        paddle.disable_static()
        loaded = paddle.load(path)
        return [type(raw).__name__, raw, loaded, loaded.stop_gradient]


@case
def save_program_state_dict(paddle):
    with tempfile.TemporaryDirectory() as d, _static(paddle) as (main, startup):
        _fc_program(paddle)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        _fill(paddle, main)
        sd = main.state_dict("param")
        path = os.path.join(d, "p.pdparams")
        paddle.save(sd, path)
        with open(path, "rb") as f:
            raw = pickle.load(f)
        paddle.disable_static()
        loaded = paddle.load(path)
        return [_names(sd), [np.array(sd[k]) for k in sorted(sd)], _names(raw),
                [type(v).__name__ for v in raw.values()], _names(loaded), [loaded[k] for k in sorted(loaded)]]


@case
def state_dict_modes(paddle):
    with _static(paddle) as (main, startup):
        x, y = _fc_program(paddle)
        bn = paddle.nn.BatchNorm1D(2)
        loss = paddle.mean(bn(y))
        paddle.optimizer.Adam(0.1).minimize(loss)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        _fill(paddle, main)
        exe.run(main, feed={"x": np.ones([4, 3], "float32")}, fetch_list=[loss])
        opt = main.state_dict("opt")
        moments = sorted(k for k in opt if "moment" in k)
        return [_names(main.state_dict("param")), _names(moments), [np.array(opt[k]) for k in moments],
                sorted(set(main.state_dict("all")) - {"learning_rate_0"}) == sorted(
                    set(main.state_dict("param")) | set(opt) - {"learning_rate_0"})]


@case
def state_dict_bad_mode(paddle):
    with _static(paddle) as (main, startup):
        _fc_program(paddle)
        paddle.static.Executor(paddle.CPUPlace()).run(startup)
        main.state_dict("weights")


@case
def state_dict_bad_scope(paddle):
    with _static(paddle) as (main, startup):
        _fc_program(paddle)
        paddle.static.Executor(paddle.CPUPlace()).run(startup)
        main.state_dict("param", scope=3)


@case
def save_and_load_program(paddle):
    with tempfile.TemporaryDirectory() as d, _static(paddle) as (main, startup):
        x, y = _fc_program(paddle)
        paddle.nn.functional.relu(y) + paddle.to_tensor([1.0, 2.0])
        path = os.path.join(d, "main.pdmodel")
        paddle.save(main, path)
        return isinstance(paddle.load(path), paddle.static.Program)


@case
def parameter_variables_have_is_parameter(paddle):
    eager = hasattr(paddle.nn.Linear(2, 3).weight, "is_parameter")
    with _static(paddle):
        p = paddle.static.create_parameter(name="P", shape=[3, 2], dtype="float32")
        layer = paddle.nn.Linear(2, 3)
        return [eager, p.is_parameter, layer.weight.is_parameter]


@case
def cpu_and_cuda_copies_record(paddle):
    with _static(paddle):
        x = paddle.static.data(name="x", shape=[2, -1], dtype="float32")
        z = x.cpu().cuda()
        return [list(z.shape), str(z.dtype)]


def _run_loss(paddle, build, label):
    with _static(paddle) as (main, startup):
        x = paddle.static.data(name="x", shape=[None, 4], dtype="float32")
        lab = paddle.static.data(name="lab", shape=list(label.shape[:-1]) and [None, 1] or [None], dtype="int64")
        out = build(paddle, x, lab)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        feed = {"x": np.random.RandomState(1).rand(3, 4).astype("float32"), "lab": label}
        return [list(out.shape), exe.run(main, feed=feed, fetch_list=[out])[0]]


def _nll(paddle, x, lab):
    return paddle.nn.functional.nll_loss(paddle.log(x), lab)


@case
def nll_loss_in_a_program(paddle):
    return _run_loss(paddle, _nll, np.array([0, 3, 1]))


@case
def nll_loss_in_a_program_checks_labels_when_run(paddle):
    return _run_loss(paddle, _nll, np.array([0, 4, 1]))


@case
def cross_entropy_probabilities_in_a_program(paddle):
    def build(paddle, x, lab):
        return paddle.nn.functional.cross_entropy(paddle.nn.functional.softmax(x), lab, use_softmax=False,
                                                 reduction="none")
    return _run_loss(paddle, build, np.array([[2], [0], [3]]))


@case
def binary_cross_entropy_in_a_program(paddle):
    def build(paddle, x, lab):
        return paddle.nn.functional.binary_cross_entropy(x, paddle.full_like(x, 0.25))
    return _run_loss(paddle, build, np.array([0, 0, 0]))


@case
def bincount_in_a_program(paddle):
    with _static(paddle) as (main, startup):
        i = paddle.static.data(name="i", shape=[None], dtype="int64")
        out = paddle.bincount(i)
        exe = paddle.static.Executor(paddle.CPUPlace())
        return [list(out.shape), exe.run(main, feed={"i": np.array([1, 4, 1, 0])}, fetch_list=[out])[0]]
