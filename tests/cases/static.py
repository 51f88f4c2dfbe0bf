"""paddle.static: Programs built in static mode and run by an Executor (Paddle 3.3's default PIR mode); saving
scope tensors, state dicts and Programs with paddle.save; ops that check their input values in Python recorded in a
Program (the checks run when the Executor runs them)."""
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
def mode_switches(paddle):
    before = paddle.in_dynamic_mode()
    paddle.enable_static()
    during = paddle.in_dynamic_mode()
    paddle.disable_static()
    return [before, during, paddle.in_dynamic_mode()]


@case
def data_variable_attributes(paddle):
    with _static(paddle):
        x = paddle.static.data(name="x", shape=[None, 4], dtype="float32")
        y = paddle.static.data(name="y", shape=[2, -1, 3], dtype="int64")
        return [list(x.shape), str(x.dtype), x.stop_gradient, x.name, repr(x), list(y.shape), str(y.dtype),
                repr(y)]


@case
def op_output_shapes_keep_dynamic_dims(paddle):
    with _static(paddle):
        x = paddle.static.data(name="x", shape=[None, 2, 6], dtype="float32")
        a = paddle.reshape(x, [-1, 3, 4])
        b = paddle.transpose(a, [0, 2, 1])
        c = paddle.sum(b, axis=1)
        d = paddle.concat([c, c], axis=1)
        e = paddle.matmul(a, paddle.ones([4, 5]))
        return [list(v.shape) for v in (a, b, c, d, e)] + [c.stop_gradient]


@case
def fc_forward_with_set_weights(paddle):
    with _static(paddle) as (main, startup):
        x = paddle.static.data(name="x", shape=[None, 2, 3], dtype="float32")
        h = paddle.static.nn.fc(x, size=4, activation="tanh")
        y = paddle.static.nn.fc(h, size=2, num_flatten_dims=1)
        shapes = sorted(list(p.shape) for p in main.global_block().all_parameters())
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        _set(paddle, main)
        out = exe.run(main, feed={"x": _x([5, 2, 3])}, fetch_list=[h, y])
        return [shapes, list(h.shape), list(y.shape), out[0], out[1]]


@case
def fetch_returns_numpy(paddle):
    with _static(paddle) as (main, startup):
        x = paddle.static.data(name="x", shape=[3], dtype="float32")
        y = paddle.mean(x * 2.0)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        r = exe.run(main, feed={"x": np.array([1.0, 2.0, 4.0], "float32")}, fetch_list=[y, x])
        return [type(r).__name__, type(r[0]).__name__, r[0].shape, str(r[0].dtype), r[0], r[1]]


@case
def missing_feed_raises(paddle):
    with _static(paddle) as (main, startup):
        x = paddle.static.data(name="x", shape=[None, 3], dtype="float32")
        y = x + 1.0
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(main, feed={}, fetch_list=[y])


@case
def run_without_startup_raises(paddle):
    with _static(paddle) as (main, startup):
        x = paddle.static.data(name="x", shape=[None, 3], dtype="float32")
        y = paddle.static.nn.fc(x, 2)
        exe = paddle.static.Executor(paddle.CPUPlace())
        with paddle.static.scope_guard(paddle.static.Scope()):
            exe.run(main, feed={"x": _x([2, 3])}, fetch_list=[y])


@case
def program_guard_rejects_non_program(paddle):
    paddle.enable_static()
    try:
        with paddle.static.program_guard("main"):
            pass
    finally:
        paddle.disable_static()


@case
def append_backward_gradients(paddle):
    with _static(paddle) as (main, startup):
        x = paddle.static.data(name="x", shape=[None, 3], dtype="float32")
        y = paddle.static.nn.fc(x, size=2)
        loss = paddle.mean(paddle.square(y))
        pg = paddle.static.append_backward(loss)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        _set(paddle, main)
        fetched = exe.run(main, feed={"x": _x([4, 3])}, fetch_list=[loss] + [g for _, g in pg])
        return [len(pg)] + fetched


@case
def gradients_wrt_data(paddle):
    with _static(paddle) as (main, startup):
        x = paddle.static.data(name="x", shape=[None, 3], dtype="float32")
        x.stop_gradient = False
        y = paddle.sum(paddle.sin(x) * x)
        (dx,) = paddle.static.gradients([y], [x])
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        xs = _x([2, 3])
        return exe.run(main, feed={"x": xs}, fetch_list=[y, dx]) + [list(dx.shape)]


@case
def sgd_minimize_steps(paddle):
    with _static(paddle) as (main, startup):
        x = paddle.static.data(name="x", shape=[None, 3], dtype="float32")
        t = paddle.static.data(name="t", shape=[None, 1], dtype="float32")
        y = paddle.static.nn.fc(paddle.static.nn.fc(x, 4, activation="relu"), 1)
        loss = paddle.nn.functional.mse_loss(y, t)
        paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        _set(paddle, main)
        xs, ts = _x([8, 3]), _x([8, 1], seed=1)
        losses = [exe.run(main, feed={"x": xs, "t": ts}, fetch_list=[loss])[0] for _ in range(4)]
        first = sorted(main.global_block().all_parameters(), key=lambda p: list(p.shape))[-1]
        w = np.array(paddle.static.global_scope().find_var(first.name).get_tensor())
        return losses + [w]


@case
def adam_minimize_steps(paddle):
    with _static(paddle) as (main, startup):
        x = paddle.static.data(name="x", shape=[None, 3], dtype="float32")
        label = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
        logits = paddle.static.nn.fc(x, 3)
        loss = paddle.mean(paddle.nn.functional.cross_entropy(logits, label))
        paddle.optimizer.Adam(learning_rate=0.05).minimize(loss)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        _set(paddle, main)
        xs = _x([6, 3])
        ls = np.array([[0], [1], [2], [1], [0], [2]], "int64")
        return [exe.run(main, feed={"x": xs, "label": ls}, fetch_list=[loss])[0] for _ in range(5)]


@case
def cond_picks_branch_at_run_time(paddle):
    with _static(paddle) as (main, startup):
        x = paddle.static.data(name="x", shape=[3], dtype="float32")
        out = paddle.static.nn.cond(paddle.sum(x) > 0.0, lambda: x * 2.0, lambda: x - 10.0)
        exe = paddle.static.Executor(paddle.CPUPlace())
        a = exe.run(main, feed={"x": np.array([1.0, 2.0, 3.0], "float32")}, fetch_list=[out])[0]
        b = exe.run(main, feed={"x": np.array([-1.0, -2.0, 0.5], "float32")}, fetch_list=[out])[0]
        return [a, b, list(out.shape)]


@case
def while_loop_counts(paddle):
    with _static(paddle) as (main, startup):
        limit = paddle.static.data(name="limit", shape=[1], dtype="int64")
        i = paddle.full([1], 0, "int64")
        acc = paddle.full([1], 1.0, "float32")
        i, acc = paddle.static.nn.while_loop(lambda i, a: i < limit, lambda i, a: [i + 1, a * 3.0], [i, acc])
        exe = paddle.static.Executor(paddle.CPUPlace())
        return [exe.run(main, feed={"limit": np.array([n], "int64")}, fetch_list=[i, acc]) for n in (0, 1, 4)]


@case
def switch_case_and_case(paddle):
    with _static(paddle) as (main, startup):
        k = paddle.static.data(name="k", shape=[1], dtype="int32")
        x = paddle.static.data(name="x", shape=[2], dtype="float32")
        s = paddle.static.nn.switch_case(k, [(1, lambda: x + 1.0), (3, lambda: x * 3.0)], default=lambda: x * 0.0)
        c = paddle.static.nn.case([(paddle.max(x) > 5.0, lambda: x - 5.0)], default=lambda: x + 5.0)
        exe = paddle.static.Executor(paddle.CPUPlace())
        xs = np.array([1.0, 7.0], "float32")
        return [exe.run(main, feed={"k": np.array([v], "int32"), "x": xs}, fetch_list=[s, c]) for v in (1, 3, 2)]


@case
def save_and_load_roundtrip(paddle):
    with _static(paddle) as (main, startup):
        x = paddle.static.data(name="x", shape=[None, 3], dtype="float32")
        y = paddle.static.nn.fc(x, 2)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        _set(paddle, main)
        xs = _x([2, 3])
        before = exe.run(main, feed={"x": xs}, fetch_list=[y])[0]
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "m", "model")
            paddle.static.save(main, path)
            files = sorted(os.listdir(os.path.join(d, "m")))
            _set(paddle, main, seed=5)
            changed = exe.run(main, feed={"x": xs}, fetch_list=[y])[0]
            paddle.static.load(main, path, exe)
            after = exe.run(main, feed={"x": xs}, fetch_list=[y])[0]
            state = paddle.static.load_program_state(path)
            keys = len(state)
            paddle.static.set_program_state(main, {k: v * 0 for k, v in state.items()})
            zero = exe.run(main, feed={"x": xs}, fetch_list=[y])[0]
        return [files, before, bool(np.allclose(before, changed)), after, keys, zero]


@case
def inference_model_roundtrip(paddle):
    with _static(paddle) as (main, startup):
        x = paddle.static.data(name="x", shape=[None, 3], dtype="float32")
        y = paddle.static.nn.fc(x, 2, activation="sigmoid")
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        _set(paddle, main)
        xs = _x([4, 3])
        want = exe.run(main, feed={"x": xs}, fetch_list=[y])[0]
        with tempfile.TemporaryDirectory() as d:
            prefix = os.path.join(d, "infer")
            paddle.static.save_inference_model(prefix, [x], [y], exe)
            prog, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
            got = exe.run(prog, feed={feeds[0]: xs}, fetch_list=fetches)[0]
        return [feeds, len(fetches), want, got]


@case
def global_scope_lookup(paddle):
    with _static(paddle) as (main, startup):
        x = paddle.static.data(name="x", shape=[None, 3], dtype="float32")
        paddle.static.nn.fc(x, 2)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        scope = paddle.static.global_scope()
        b, w = sorted(main.global_block().all_parameters(), key=lambda p: len(p.shape))
        return [scope.find_var("no_such_var") is None, np.array(scope.find_var(b.name).get_tensor()),
                np.array(scope.find_var(w.name).get_tensor()).shape]


@case
def layers_in_static_mode(paddle):
    with _static(paddle) as (main, startup):
        x = paddle.static.data(name="x", shape=[None, 4], dtype="float32")
        net = paddle.nn.Sequential(paddle.nn.Linear(4, 3), paddle.nn.ReLU(), paddle.nn.Linear(3, 2))
        y = net(x)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        _set(paddle, main)
        return [sorted(list(p.shape) for p in main.global_block().all_parameters()), list(y.shape),
                exe.run(main, feed={"x": _x([3, 4])}, fetch_list=[y])[0]]


@case
def data_outside_static_mode_raises(paddle):
    paddle.static.data(name="x", shape=[None, 3], dtype="float32")


@case
def gradients_of_an_unused_input_is_none(paddle):
    with _static(paddle) as (main, startup):
        x = paddle.static.data(name="x", shape=[None, 3], dtype="float32")
        z = paddle.static.data(name="z", shape=[None, 3], dtype="float32")
        x.stop_gradient = False
        z.stop_gradient = False
        grads = paddle.static.gradients([paddle.sum(x * x)], [x, z])
        exe = paddle.static.Executor(paddle.CPUPlace())
        xs = _x([2, 3])
        return [grads[1] is None, exe.run(main, feed={"x": xs, "z": xs}, fetch_list=[grads[0]])[0]]


@case
def unique_names_across_mode_switches(paddle):
    # Paddle runs dynamic mode inside a unique_name.guard(): static names go on counting across switches,
    # dynamic ones start afresh each time dynamic mode is entered
    gen = paddle.utils.unique_name.generate
    paddle.enable_static()
    paddle.disable_static()
    out = [paddle.nn.Linear(1, 1).weight.name, gen("mode_switch_dyn"), gen("mode_switch_dyn")]
    paddle.enable_static()
    out += [gen("mode_switch_static"), gen("mode_switch_static")]
    paddle.disable_static()
    out += [gen("mode_switch_dyn"), paddle.nn.Linear(1, 1).weight.name]
    paddle.disable_static()  # already dynamic: no new generator
    out.append(gen("mode_switch_dyn"))
    paddle.enable_static()
    out.append(gen("mode_switch_static"))
    paddle.disable_static()
    with paddle.utils.unique_name.guard():
        out.append(gen("mode_switch_dyn"))
    out.append(gen("mode_switch_dyn"))
    return out


# ---------------------------------------------------------------- paddle.save of scope tensors, state dicts, Programs
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


# ---------------------------------------------------------------- ops that check input values, in a Program
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


@case
def inference_model_unused_feed(paddle):
    """A feed var the fetch vars do not need: Paddle refuses it."""
    with _static(paddle) as (main, startup):
        x = paddle.static.data(name="x", shape=[None, 4], dtype="float32")
        z = paddle.static.data(name="z", shape=[None, 4], dtype="float32")
        y = paddle.static.nn.fc(x, 3)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        with tempfile.TemporaryDirectory() as d:
            paddle.static.save_inference_model(os.path.join(d, "m"), [x, z], [y], exe)


@case
def inference_model_feed_not_listed(paddle):
    """A data var the fetch vars need but feed_vars omit: Paddle saves it as a further feed."""
    with _static(paddle) as (main, startup):
        x = paddle.static.data(name="x", shape=[None, 4], dtype="float32")
        z = paddle.static.data(name="z", shape=[None, 3], dtype="float32")
        y = paddle.static.nn.fc(x, 3) + z
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        _set(paddle, main)
        feed = {"x": _x([2, 4]), "z": _x([2, 3])}
        want = exe.run(main, feed=feed, fetch_list=[y])[0]
        with tempfile.TemporaryDirectory() as d:
            paddle.static.save_inference_model(os.path.join(d, "m"), [x], [y], exe)
            prog, feeds, fetches = paddle.static.load_inference_model(os.path.join(d, "m"), exe)
            got = exe.run(prog, feed=feed, fetch_list=fetches)[0]
        return [feeds, len(fetches), want, got]


@case
def data_dependent_results_recorded(paddle):
    """allclose / isclose / histogram / bincount in a Program: their results depend on the fed values, which the
    Program records as ops (it must not read them while building)."""
    with _static(paddle) as (main, startup):
        x = paddle.static.data("x", [3], "float32")
        y = paddle.static.data("y", [3], "float32")
        h = paddle.static.data("h", [6], "float32")
        i = paddle.static.data("i", [5], "int64")
        outs = [paddle.allclose(x, y), paddle.isclose(x, y), paddle.allclose(x, y + 1.0),
                paddle.histogram(h, bins=3, min=0, max=3), paddle.bincount(i)]
    paddle.enable_static()
    try:
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        feed = {"x": np.array([1, 2, 3], "float32"), "y": np.array([1, 2, 3], "float32") + 1e-9,
                "h": np.array([0.5, 1, 1.5, 2, 2.5, 2.9], "float32"), "i": np.array([0, 1, 1, 3, 3], "int64")}
        return exe.run(main, feed=feed, fetch_list=outs)
    finally:
        paddle.disable_static()


def _build(paddle, fn):
    """What building a Program with fn(x, y) raises (the checks Paddle makes in Python while building)."""
    with _static(paddle):
        x = paddle.static.data("x", [2, 3], "float32")
        y = paddle.static.data("y", [2, 3], "float32")
        return fn(x, y)


@case
def allclose_int_rtol_while_building(paddle):
    return _build(paddle, lambda x, y: paddle.allclose(x, y, rtol=1))


@case
def allclose_int_atol_while_building(paddle):
    return _build(paddle, lambda x, y: paddle.allclose(x, y, atol=0))


@case
def allclose_int_equal_nan_while_building(paddle):
    return _build(paddle, lambda x, y: paddle.allclose(x, y, equal_nan=1))


@case
def allclose_numpy_operand_while_building(paddle):
    return _build(paddle, lambda x, y: paddle.allclose(np.ones([2, 3], "float32"), y))


@case
def allclose_int8_while_building(paddle):
    return _build(paddle, lambda x, y: paddle.allclose(x.astype("int8"), y.astype("int8")))


@case
def randperm_float16_while_building(paddle):
    return _build(paddle, lambda x, y: paddle.randperm(6, dtype="float16"))


@case
def randperm_bool_dtype_while_building(paddle):
    return _build(paddle, lambda x, y: paddle.randperm(6, dtype="bool"))


@case
def close_tolerances_in_a_program(paddle):
    """A float64 Tensor rtol in a Program; isclose's int rtol is converted there (eager it is refused)."""
    with _static(paddle) as (main, startup):
        x = paddle.static.data("x", [3], "float32")
        y = paddle.static.data("y", [3], "float32")
        outs = [paddle.allclose(x, y, rtol=paddle.full([], 0.1, "float64")), paddle.isclose(x, y, rtol=1),
                paddle.isclose(x, y, atol=0.5), paddle.randperm(4).shape]
    paddle.enable_static()
    try:
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        feed = {"x": np.array([1, 2, 3], "float32"), "y": np.array([1, 2.5, -3], "float32")}
        return exe.run(main, feed=feed, fetch_list=outs[:3]) + [outs[3]]
    finally:
        paddle.disable_static()


@case
def histogram_over_the_data_range_in_a_program(paddle):
    """histogram without min / max bins over the fed data's range (read when the Program runs); bincount of a fed
    length; reshapes with 0 / -1 over a fed batch."""
    with _static(paddle) as (main, startup):
        h = paddle.static.data("h", [2, 3], "float32")
        i = paddle.static.data("i", [-1], "int64")
        x = paddle.static.data("x", [-1, 6], "float32")
        outs = [paddle.histogram(h, bins=4), paddle.histogram(h, bins=2, weight=h, density=True),
                paddle.bincount(i, minlength=3), paddle.reshape(x, [0, 3, -1]), paddle.reshape(x, [-1, 2, 3])]
    paddle.enable_static()
    try:
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        feed = {"h": np.array([[0.5, 1, 1.5], [2, 2.5, 2.9]], "float32"), "i": np.array([0, 1, 1, 3, 3, 4, 4, 4]),
                "x": np.arange(24, dtype="float32").reshape(4, 6)}
        return exe.run(main, feed=feed, fetch_list=outs)
    finally:
        paddle.disable_static()


@case
def histogram_bin_edges_while_building(paddle):
    return _build(paddle, lambda x, y: paddle.histogram_bin_edges(x, bins=3))


@case
def put_along_axis_tensor_values_in_a_program(paddle):
    """put_along_axis / take_along_axis in a Program, values a fed Tensor (broadcast or not, reduced or assigned),
    a number, or a Tensor made in the Program; the index of lower rank is Paddle's error while building."""
    with _static(paddle) as (main, startup):
        x = paddle.static.data("x", [2, 3], "float32")
        i = paddle.static.data("i", [2, 1], "int64")
        j = paddle.static.data("j", [2, 2], "int64")
        v = paddle.static.data("v", [2, 1], "float32")
        w = paddle.static.data("w", [2, 2], "float32")
        outs = [paddle.put_along_axis(x, i, v, 1, reduce="add"), paddle.put_along_axis(x, j, w, 1, broadcast=False),
                paddle.put_along_axis(x, i, 9.0, 1), paddle.put_along_axis(x, i, v * 2 + 1, 1, reduce="multiply"),
                paddle.take_along_axis(x, j, 1)]
    paddle.enable_static()
    try:
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        feed = {"x": np.arange(6, dtype="float32").reshape(2, 3), "i": np.array([[0], [2]]),
                "j": np.array([[0, 1], [2, 2]]), "v": np.array([[1.0], [2.0]], "float32"),
                "w": np.array([[5.0, 6.0], [7.0, 8.0]], "float32")}
        return exe.run(main, feed=feed, fetch_list=outs)
    finally:
        paddle.disable_static()


@case
def put_along_axis_index_rank_while_building(paddle):
    def build(x, y):
        return paddle.put_along_axis(x, paddle.static.data("k", [2], "int64"), 9.0, 1)
    return _build(paddle, build)


@case
def clip_by_fed_bounds(paddle):
    with _static(paddle) as (main, startup):
        x = paddle.static.data("x", [3], "float32")
        lo = paddle.static.data("lo", [1], "float32")
        hi = paddle.static.data("hi", [], "float32")
        outs = [paddle.clip(x, lo, 1.0), paddle.clip(x, -0.5, hi), paddle.clip(x, lo, hi)]
    paddle.enable_static()
    try:
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        feed = {"x": np.array([-1.0, 0.5, 2.0], "float32"), "lo": np.array([-0.5], "float32"),
                "hi": np.array(0.8, "float32")}
        return exe.run(main, feed=feed, fetch_list=outs)
    finally:
        paddle.disable_static()


@case
def setitem_in_a_program(paddle):
    """`y[index] = value` in a Program writes y (Paddle's set_value): a number, a fed 0-D Tensor, a row, negative
    and boolean-mask indices, a fed Variable written directly; later ops read the written value."""
    with _static(paddle) as (main, startup):
        x = paddle.static.data("x", [2, 3], "float32")
        s = paddle.static.data("s", [], "float32")
        y = x * 1
        y[0, 1] = s
        z = y * 2
        r = x * 1
        r[1] = s * 3
        n = x * 1
        n[:, -1] = 0.0
        n[0] = n[1] * 2
        m = x * 1
        m[m > 2] = s
        c = x + 0
        c[0, 1] = 7.0
        x[1, 2] = s
        outs = [y, z, r, r + 1, n, m, c, x]
    paddle.enable_static()
    try:
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        feed = {"x": np.arange(6, dtype="float32").reshape(2, 3), "s": np.array(2.0, "float32")}
        return exe.run(main, feed=feed, fetch_list=outs)
    finally:
        paddle.disable_static()


@case
def inplace_ops_in_a_program(paddle):
    """In a Program an in-place op (Tensor.add_, clip_, F.relu_, scale_) returns a new Variable holding the
    result; the one it was called on keeps naming the old value, as in Paddle 3.3's PIR programs."""
    with _static(paddle) as (main, startup):
        x = paddle.static.data("x", [2, 3], "float32")
        s = paddle.static.data("s", [], "float32")
        y = x * 1
        r = y.add_(s)
        c = x - 2
        rc = c.clip_(0, 1)
        v = x - 2
        rv = paddle.nn.functional.relu_(v)
        w = x * 1
        rw = w.scale_(2.0)
        outs = [r, y, y * 2, rc, c, rv, v, rw, w]
        same = [r is y, rc is c, rv is v, rw is w]
    paddle.enable_static()
    try:
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        feed = {"x": np.arange(6, dtype="float32").reshape(2, 3), "s": np.array(2.0, "float32")}
        return exe.run(main, feed=feed, fetch_list=outs) + same
    finally:
        paddle.disable_static()


@case
def reshape_to_a_fed_shape(paddle):
    """A reshape whose shape is fed (a Tensor, or a list holding a Tensor element) takes the fed values at each
    run; the Variable's shape shows -1 where the value is unknown while building."""
    with _static(paddle) as (main, startup):
        x = paddle.static.data("x", [2, 6], "float32")
        s = paddle.static.data("s", [2], "int32")
        y = paddle.reshape(x, s)
        z = paddle.reshape(x, [s[1], -1]) * 2
        shapes = [list(y.shape), list(z.shape)]
    paddle.enable_static()
    try:
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        x_ = np.arange(12, dtype="float32").reshape([2, 6])
        runs = [exe.run(main, feed={"x": x_, "s": np.array(v, "int32")}, fetch_list=[y, z]) for v in ([3, 4], [4, 3])]
        return [shapes, runs]
    finally:
        paddle.disable_static()


@case(rtol=1e-5)
def static_nn_activation_strings(paddle):
    # act= / activation= strings append the _C_ops op of that name (hard_swish is hardswish, softmax's last axis)
    with _static(paddle) as (main, startup):
        x = paddle.static.data("x", [2, 3], "float32")
        outs = [paddle.static.nn.fc(x, 4, activation=a, weight_attr=paddle.nn.initializer.Constant(0.3),
                                    bias_attr=False)
                for a in ("hard_swish", "relu", "sigmoid", "tanh", "softmax", "swish", "relu6", "gelu")]
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        return exe.run(main, feed={"x": np.array([[1.0, -2.0, 3.0], [0.5, 0.1, -4.0]], "float32")}, fetch_list=outs)
