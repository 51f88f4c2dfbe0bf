"""paddle.Model (hapi), paddle.summary, paddle.callbacks: loops, printed logs (timings masked), checkpoints."""
import contextlib
import io
import os
import re
import tempfile
import warnings

import numpy as np

from tests.cases import case, fill_parameters


def _mask(text):
    """Timings differ between runs: mask '12ms/step', 'ETA: 3s' and the backspaces of verbose=1 redraws."""
    text = re.sub(r"\d+(s|ms|us)/step", "T/step", text)
    text = re.sub(r"ETA: [\d:]+s?", "ETA: T", text)
    return text


def _run(fn):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = fn()
    return result, _mask(buf.getvalue())


def _dataset(paddle, n, seed, features=6, classes=3):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, features)).astype("float32")
    y = rng.integers(0, classes, (n, 1)).astype("int64")

    class DS(paddle.io.Dataset):
        def __getitem__(self, i):
            return x[i], y[i]

        def __len__(self):
            return n

    return DS()


def _model(paddle, lr=0.05, metrics=True, opt="adam", seed=0):
    net = paddle.nn.Sequential(paddle.nn.Linear(6, 12), paddle.nn.Tanh(), paddle.nn.Linear(12, 3))
    fill_parameters(net, seed=seed, scale=0.4)
    model = paddle.Model(net)
    if opt == "adam":
        optim = paddle.optimizer.Adam(learning_rate=lr, parameters=model.parameters())
    else:
        optim = paddle.optimizer.SGD(learning_rate=lr, parameters=model.parameters())
    model.prepare(optim, paddle.nn.CrossEntropyLoss(),
                  paddle.metric.Accuracy(topk=(1, 2)) if metrics else None)
    return model


@case(rtol=1e-5)
def fit_verbose2_log_and_eval(paddle):
    model = _model(paddle)
    _, log = _run(lambda: model.fit(_dataset(paddle, 30, 1), _dataset(paddle, 14, 2), batch_size=4, epochs=2,
                                    log_freq=3, verbose=2, shuffle=False))
    res, log2 = _run(lambda: model.evaluate(_dataset(paddle, 14, 2), batch_size=5, verbose=2, log_freq=1))
    return log, log2, res


@case(rtol=1e-5)
def fit_verbose1_progress_bar(paddle):
    model = _model(paddle, metrics=False, opt="sgd")
    _, log = _run(lambda: model.fit(_dataset(paddle, 12, 3), batch_size=[4, 6], epochs=1, log_freq=1, verbose=1,
                                    shuffle=False))
    # how many backspaces and padding spaces a redraw writes depends on the width of the timings
    log = re.sub("\b+", "<BS>", log).replace("\r", "<CR>")
    return re.sub(" +(\n|<BS>)", r"\1", log)  # (padding spaces over a longer previous line: timing widths too)


@case
def fit_verbose0_prints_nothing(paddle):
    model = _model(paddle)
    _, log = _run(lambda: model.fit(_dataset(paddle, 8, 1), batch_size=4, epochs=1, verbose=0, shuffle=False))
    return log


@case(rtol=1e-5)
def fit_with_dataloader_and_drop_last(paddle):
    model = _model(paddle, opt="sgd")
    loader = paddle.io.DataLoader(_dataset(paddle, 10, 4), batch_size=4, shuffle=False, drop_last=True)
    _, log = _run(lambda: model.fit(loader, epochs=2, verbose=2, log_freq=1))
    return log, [p.numpy() for p in model.parameters()]


@case(rtol=1e-5)
def train_eval_predict_batch(paddle):
    model = _model(paddle)
    x = np.random.default_rng(5).standard_normal((4, 6)).astype("float32")
    y = np.array([[0], [1], [2], [1]], dtype="int64")
    out = []
    out.append(model.train_batch([x], [y]))
    out.append(model.train_batch([paddle.to_tensor(x)], [paddle.to_tensor(y)], update=False))
    out.append(model.eval_batch([x], [y]))
    out.append(model.predict_batch([x]))
    out.append([repr(s) for s in model._inputs])
    return out


@case(rtol=1e-5)
def train_batch_without_metrics_and_eval_without_loss(paddle):
    model = _model(paddle, metrics=False)
    x = np.random.default_rng(6).standard_normal((3, 6)).astype("float32")
    y = np.array([[2], [0], [1]], dtype="int64")
    a = model.train_batch(x, y)
    bare = paddle.Model(model.network)
    bare.prepare(metrics=paddle.metric.Accuracy())
    return a, bare.eval_batch([x], [y])


@case(rtol=1e-5)
def predict_stacked_and_unstacked(paddle):
    model = _model(paddle)

    class X(paddle.io.Dataset):
        def __getitem__(self, i):
            return np.full([6], i / 10, dtype="float32")

        def __len__(self):
            return 7

    (a, log) = _run(lambda: model.predict(X(), batch_size=3, stack_outputs=False, verbose=2))
    (b, _) = _run(lambda: model.predict(X(), batch_size=3, stack_outputs=True, verbose=0))
    return [type(a).__name__, len(a), type(a[0]).__name__, len(a[0])] + list(a[0]), b, log


@case(rtol=1e-5)
def save_load_resumes_optimizer(paddle):
    data = _dataset(paddle, 16, 7)
    model = _model(paddle, lr=0.02)
    _run(lambda: model.fit(data, batch_size=4, epochs=1, verbose=0, shuffle=False))
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "ck", "step")
        model.save(path)
        files = sorted(os.listdir(os.path.join(d, "ck")))
        fresh = _model(paddle, lr=0.02, seed=9)
        fresh.load(path + ".pdparams")
        x, y = data[0]
        return files, fresh.train_batch([x[None]], [y[None]]), model.train_batch([x[None]], [y[None]])


@case(rtol=1e-5)
def load_reset_optimizer_and_mismatch(paddle):
    model = _model(paddle)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m")
        model.save(path)
        other = paddle.Model(paddle.nn.Sequential(paddle.nn.Linear(6, 12), paddle.nn.Tanh(), paddle.nn.Linear(12, 4)))
        try:
            other.load(path)
            err = None
        except ValueError as e:
            err = type(e).__name__
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            other2 = paddle.Model(paddle.nn.Sequential(paddle.nn.Linear(6, 12), paddle.nn.Tanh(),
                                                       paddle.nn.Linear(12, 3, bias_attr=False)))
            other2.load(path, skip_mismatch=True)
            skipped = sum("Skip loading" in str(x.message) for x in w)
        model.load(path, reset_optimizer=True)
        return err, skipped, other2.network[0].weight


@case
def load_missing_file(paddle):
    return _model(paddle).load("/nonexistent/dir/ck")


@case
def model_save_inference_without_inputs(paddle):
    return _model(paddle).save("/tmp/never_written", training=False)


@case
def prepare_bad_loss(paddle):
    return paddle.Model(paddle.nn.Linear(2, 2)).prepare(loss=3)


@case
def prepare_bad_metric(paddle):
    return paddle.Model(paddle.nn.Linear(2, 2)).prepare(metrics=[3])


@case
def prepare_bad_amp_level(paddle):
    return paddle.Model(paddle.nn.Linear(2, 2)).prepare(amp_configs="O3")


@case
def prepare_amp_unknown_key(paddle):
    return paddle.Model(paddle.nn.Linear(2, 2)).prepare(amp_configs={"level": "O1", "nope": 1})


@case
def prepare_amp_pure_fp16_key(paddle):
    return paddle.Model(paddle.nn.Linear(2, 2)).prepare(amp_configs={"level": "O1", "use_pure_fp16": True})


@case
def fit_needs_data(paddle):
    return _model(paddle).fit(None)


@case
def train_batch_needs_prepare(paddle):
    return paddle.Model(paddle.nn.Linear(2, 2)).train_batch([np.ones([1, 2], "float32")])


# ---------------------------------------------------------------- callbacks


@case(rtol=1e-5)
def custom_callback_sees_hooks_in_order(paddle):
    calls = []

    class Rec(paddle.callbacks.Callback):
        def on_train_begin(self, logs=None):
            calls.append(("train_begin", sorted(self.params)))

        def on_epoch_begin(self, epoch, logs=None):
            calls.append(("epoch_begin", epoch))

        def on_train_batch_end(self, step, logs=None):
            calls.append(("batch_end", step, logs["batch_size"], round(logs["loss"][0], 5)))

        def on_epoch_end(self, epoch, logs=None):
            calls.append(("epoch_end", epoch, sorted(logs)))

        def on_eval_begin(self, logs=None):
            calls.append(("eval_begin", logs))

        def on_eval_end(self, logs=None):
            calls.append(("eval_end", sorted(logs)))

        def on_train_end(self, logs=None):
            calls.append(("train_end",))

    model = _model(paddle)
    _run(lambda: model.fit(_dataset(paddle, 10, 1), _dataset(paddle, 4, 2), batch_size=4, epochs=2, eval_freq=2,
                           verbose=0, shuffle=False, callbacks=Rec()))
    return [str(c) for c in calls]


@case(rtol=1e-5)
def early_stopping_stops_and_saves_best(paddle):
    model = _model(paddle, lr=0.5, opt="sgd")
    with tempfile.TemporaryDirectory() as d:
        es = paddle.callbacks.EarlyStopping(monitor="acc_top1", mode="max", patience=1, verbose=1, min_delta=0.2,
                                            save_best_model=True)
        _, log = _run(lambda: model.fit(_dataset(paddle, 12, 1), _dataset(paddle, 8, 2), batch_size=4, epochs=6,
                                        verbose=0, shuffle=False, save_dir=d, save_freq=10, callbacks=[es]))
        files = sorted(os.listdir(d))
        log = log.replace(d, "<DIR>")
    return log, files, es.stopped_epoch, es.wait_epoch, float(es.best_value)


@case
def early_stopping_unknown_mode_warns(paddle):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        es = paddle.callbacks.EarlyStopping(mode="bigger")
    return [str(x.message) for x in w], es.min_delta


@case(rtol=1e-5)
def model_checkpoint_every_epoch(paddle):
    model = _model(paddle)
    with tempfile.TemporaryDirectory() as d:
        _, log = _run(lambda: model.fit(_dataset(paddle, 8, 1), batch_size=4, epochs=3, verbose=0, save_dir=d,
                                        save_freq=2, shuffle=False))
        return sorted(os.listdir(d)), log.replace(d, "<DIR>")


@case(rtol=1e-5)
def lr_scheduler_by_step_and_by_epoch(paddle):
    out = []
    for cb in (None, paddle.callbacks.LRScheduler(by_step=False, by_epoch=True)):
        model = paddle.Model(paddle.nn.Linear(6, 3))
        sched = paddle.optimizer.lr.StepDecay(0.1, step_size=2, gamma=0.5)
        model.prepare(paddle.optimizer.SGD(learning_rate=sched, parameters=model.parameters()),
                      paddle.nn.CrossEntropyLoss())
        _run(lambda: model.fit(_dataset(paddle, 12, 1), batch_size=4, epochs=2, verbose=0, callbacks=cb))
        out.append((sched.last_epoch, sched.get_lr()))
    return out


@case
def lr_scheduler_exclusive_options(paddle):
    return paddle.callbacks.LRScheduler(by_step=True, by_epoch=True)


@case(rtol=1e-5)
def reduce_lr_on_plateau(paddle):
    model = _model(paddle, lr=0.001, opt="sgd")
    cb = paddle.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, verbose=1, min_delta=10.0)
    _, log = _run(lambda: model.fit(_dataset(paddle, 8, 1), _dataset(paddle, 4, 2), batch_size=4, epochs=3,
                                    verbose=0, callbacks=[cb], shuffle=False))
    return log, model._optimizer.get_lr(), cb.wait, cb.epoch


@case
def reduce_lr_on_plateau_bad_factor(paddle):
    return paddle.callbacks.ReduceLROnPlateau(factor=1.0)


@case
def callbacks_namespace(paddle):
    return sorted(paddle.callbacks.__all__)


@case(rtol=1e-5)
def num_iters_stops_early(paddle):
    model = _model(paddle)
    _, log = _run(lambda: model.fit(_dataset(paddle, 16, 1), batch_size=4, epochs=5, num_iters=3, verbose=2,
                                    log_freq=1, shuffle=False))
    return log


@case(rtol=1e-5)
def accumulate_grad_batches(paddle):
    model = _model(paddle, opt="sgd", lr=0.1)
    _run(lambda: model.fit(_dataset(paddle, 12, 1), batch_size=4, epochs=1, verbose=0, shuffle=False,
                           accumulate_grad_batches=2))
    return [p.numpy() for p in model.parameters()]


# ---------------------------------------------------------------- summary


def _convnet(paddle):
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = paddle.nn.Conv2D(2, 4, 3, padding=1)
            self.bn = paddle.nn.BatchNorm2D(4)
            self.pool = paddle.nn.AdaptiveAvgPool2D(2)
            self.fc = paddle.nn.Linear(16, 5)
            self.frozen = paddle.nn.Linear(5, 5)
            self.frozen.weight.stop_gradient = True

        def forward(self, x):
            x = self.pool(paddle.nn.functional.relu(self.bn(self.conv(x))))
            return self.frozen(self.fc(paddle.flatten(x, 1)))

    return Net()


@case
def summary_table_and_counts(paddle):
    with paddle.utils.unique_name.guard():
        net = _convnet(paddle)
        return _run(lambda: paddle.summary(net, (None, 2, 8, 8))), net.training


@case
def summary_multi_input_and_dtypes(paddle):
    class Two(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.a = paddle.nn.Linear(4, 3)
            self.emb = paddle.nn.Embedding(10, 3)

        def forward(self, x, ids):
            return self.a(x) + self.emb(ids).sum(1), self.emb(ids)

    with paddle.utils.unique_name.guard():
        net = Two()
        return _run(lambda: paddle.summary(net, [(2, 4), (2, 5)], dtypes=["float32", "int64"]))


@case
def summary_from_input_list(paddle):
    class L(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.a = paddle.nn.Linear(4, 2)

        def forward(self, xs):
            return self.a(xs[0]) * xs[1]

    with paddle.utils.unique_name.guard():
        net = L()
        return _run(lambda: paddle.summary(net, input=[paddle.ones([3, 4]), paddle.ones([3, 2])]))


@case
def model_summary_from_inferred_inputs(paddle):
    with paddle.utils.unique_name.guard():
        model = _model(paddle)
        model.train_batch([np.ones([5, 6], "float32")], [np.zeros([5, 1], "int64")])
        return _run(lambda: model.summary())


@case
def summary_errors(paddle):
    out = []
    for kw in ({}, {"input_size": (None, None, 3)}, {"input_size": (2, 0)}):
        try:
            paddle.summary(paddle.nn.Linear(3, 3), **kw)
            out.append(None)
        except ValueError:
            out.append("ValueError")
    return out
