"""paddle.jit.save -> paddle.jit.load -> paddle.inference round trips: what comes back (structure, dtypes,
shapes, values, stop_gradient), which inputs a loaded program takes, the errors it gives, the file names.

The `.pt2` file paddle_on_torch writes beside Paddle's two files (the torch.export program) is left out of
the file lists compared here.
"""
import os
import tempfile

import numpy as np

from tests.cases import case, data, fill_parameters


def _files(d):
    return [f for f in sorted(os.listdir(d)) if not f.endswith((".pt2", ".pt2.manifest"))]


def _layers(paddle):
    nn = paddle.nn

    class Heads(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(6, 3)

        def forward(self, x):
            h = self.fc(x)
            return {"logits": h, "aux": [h.mean(), (h * 2).astype("float64")], "argmax": h.argmax(axis=-1)}

    class TwoInputs(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(6, 2)

        def forward(self, x, mask):
            return self.fc(x) * mask

    return Heads, TwoInputs


@case
def dict_and_nested_outputs_come_back_flat(paddle):
    Heads, _ = _layers(paddle)
    net = fill_parameters(Heads(), seed=2)
    net.eval()
    x = data([4, 6], seed=3)
    with tempfile.TemporaryDirectory() as d:
        paddle.jit.save(net, os.path.join(d, "model"), input_spec=[paddle.static.InputSpec([-1, 6], "float32", "x")])
        loaded = paddle.jit.load(os.path.join(d, "model"))
        out = loaded(paddle.to_tensor(x))
        return [type(out).__name__, len(out), out, _files(d)]


@case
def dynamic_batch_takes_other_sizes(paddle):
    Heads, _ = _layers(paddle)
    net = fill_parameters(Heads(), seed=2)
    net.eval()
    with tempfile.TemporaryDirectory() as d:
        paddle.jit.save(net, os.path.join(d, "model"), input_spec=[paddle.static.InputSpec([-1, 6], "float32", "x")])
        loaded = paddle.jit.load(os.path.join(d, "model"))
        return [loaded(paddle.to_tensor(data([n, 6], seed=n)))[0] for n in (1, 2, 7)]


@case
def function_saved_after_keyword_call(paddle):
    @paddle.jit.to_static
    def scaled_sum(a, b, scale=2.0):
        return a * scale + b

    a, b = paddle.to_tensor(data([2, 3], seed=1)), paddle.to_tensor(data([2, 3], seed=2))
    first = scaled_sum(a, b=b)
    with tempfile.TemporaryDirectory() as d:
        paddle.jit.save(scaled_sum, os.path.join(d, "f"))
        files = _files(d)
        loaded = paddle.jit.load(os.path.join(d, "f"))
        positional = loaded(a, b)
        try:
            loaded(a=a, b=b)
            keyword = "accepted"
        except Exception as e:  # noqa: BLE001 - the error type is the answer
            keyword = type(e).__name__
        other_shape = loaded(paddle.ones([4, 3]), paddle.ones([4, 3]))
    return [first, positional, keyword, other_shape, files]


@case
def loaded_layer_input_errors(paddle):
    _, TwoInputs = _layers(paddle)
    net = fill_parameters(TwoInputs(), seed=4)
    net.eval()
    x, m = paddle.to_tensor(data([3, 6], seed=1)), paddle.ones([3, 2])
    with tempfile.TemporaryDirectory() as d:
        paddle.jit.save(net, os.path.join(d, "model"), input_spec=[
            paddle.static.InputSpec([None, 6], "float32", "x"), paddle.static.InputSpec([None, 2], "float32", "m")])
        loaded = paddle.jit.load(os.path.join(d, "model"))
        results = [loaded(x, m)]
        for args in ([x], [x, m, m], [x.astype("float64"), m], [x.reshape([3, 6, 1]), m]):
            try:
                loaded(*args)
                results.append("accepted")
            except Exception as e:  # noqa: BLE001 - the error type is the answer
                results.append(type(e).__name__)
        results.append(list(loaded.state_dict()))
    return results


@case
def sequential_round_trip_and_predictor(paddle):
    nn = paddle.nn
    seq = fill_parameters(nn.Sequential(nn.Linear(6, 4), nn.ReLU(), nn.Linear(4, 2)), seed=5)
    seq.eval()
    x = data([3, 6], seed=6)
    with tempfile.TemporaryDirectory() as d:
        prefix = os.path.join(d, "seq")
        paddle.jit.save(seq, prefix, input_spec=[paddle.static.InputSpec([None, 6], "float32")])
        loaded = paddle.jit.load(prefix)
        config = paddle.inference.Config(prefix + ".json", prefix + ".pdiparams")
        config.disable_gpu()
        predictor = paddle.inference.create_predictor(config)
        names = [predictor.get_input_names(), predictor.get_output_names()]
        handle = predictor.get_input_handle(names[0][0])
        handle.reshape(list(x.shape))
        handle.copy_from_cpu(x)
        predictor.run()
        predicted = predictor.get_output_handle(names[1][0]).copy_to_cpu()
        return [seq(paddle.to_tensor(x)), loaded(paddle.to_tensor(x)), names, predicted, _files(d)]


@case
def program_without_weights(paddle):
    class Scale(paddle.nn.Layer):
        def forward(self, x):
            return x * 3 + 1

    with tempfile.TemporaryDirectory() as d:
        paddle.jit.save(Scale(), os.path.join(d, "scale"), input_spec=[paddle.static.InputSpec([None, 2], "float32")])
        loaded = paddle.jit.load(os.path.join(d, "scale"))
        return [_files(d), loaded(paddle.to_tensor(np.arange(4, dtype="float32").reshape(2, 2)))]
