"""A Layer loaded by paddle.jit.load (a TranslatedLayer): what `train()` / `eval()` change in a program saved in
train or in eval mode (dropout, batch norm), and which input shapes a loaded program takes beside its InputSpec's
(another rank, another height and width), with Paddle's errors where its ops refuse them (issue 25).
"""
import os
import tempfile

from tests.cases import case, data, fill_parameters


def _net(paddle, mode):
    nn, F = paddle.nn, paddle.nn.functional

    class DropBN(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(8, 6)
            self.bn = nn.BatchNorm1D(6)
            self.drop = nn.Dropout(0.5, mode=mode)
            self.out = nn.Linear(6, 3)

        def forward(self, x):
            return self.out(self.drop(F.relu(self.bn(self.fc(x)))))

    net = fill_parameters(DropBN(), seed=3)
    net.bn._mean.set_value(data([6], seed=4, scale=0.1))
    net.bn._variance.set_value(abs(data([6], seed=5)) + 0.5)
    return net


def _modes(paddle, mode, save_in_train):
    """Outputs of the loaded Layer: its flag after loading, then eval / train / eval again at batch 1, 3, 7, the
    batch-norm statistics after a train-mode forward, and the parameters' gradients."""
    net = _net(paddle, mode)
    net.train() if save_in_train else net.eval()
    spec = [paddle.static.InputSpec([None, 8], "float32", "x")]
    with tempfile.TemporaryDirectory() as d:
        paddle.jit.save(net, os.path.join(d, "m"), input_spec=spec)
        loaded = paddle.jit.load(os.path.join(d, "m"))
        results = [loaded.training]
        xs = [paddle.to_tensor(data([n, 8], seed=n)) for n in (1, 3, 7)]
        results.append([loaded(x) for x in xs])
        loaded.train()
        results.append(loaded.training)
        results.append([loaded(x) for x in xs])
        results.append(sorted([k, v] for k, v in loaded.state_dict().items()))
        loss = loaded(xs[2]).sum()
        loss.backward()
        results.append([p.grad for p in loaded.parameters()])
        loaded.eval()
        results.append([loaded.training, loaded(xs[1])])
    return results


@case
def loaded_upscale_dropout_saved_in_train_mode(paddle):
    return _modes(paddle, "upscale_in_train", True)


@case
def loaded_upscale_dropout_saved_in_eval_mode(paddle):
    return _modes(paddle, "upscale_in_train", False)


@case
def loaded_downscale_dropout_saved_in_train_mode(paddle):
    return _modes(paddle, "downscale_in_infer", True)


@case
def loaded_downscale_dropout_saved_in_eval_mode(paddle):
    return _modes(paddle, "downscale_in_infer", False)


def _feed(paddle, layer, spec, shapes):
    """The loaded Layer's output for an input of each shape, or Paddle's error."""
    layer.eval()
    with tempfile.TemporaryDirectory() as d:
        paddle.jit.save(layer, os.path.join(d, "m"), input_spec=[paddle.static.InputSpec(spec, "float32", "x")])
        loaded = paddle.jit.load(os.path.join(d, "m"))
        results = []
        for shape in shapes:
            try:
                results.append(loaded(paddle.to_tensor(data(shape, seed=len(shape)))))
            except Exception as e:  # noqa: BLE001 - the error is the answer
                results.append(e)
    return results


@case
def loaded_linear_takes_other_ranks(paddle):
    return _feed(paddle, fill_parameters(paddle.nn.Linear(8, 4), seed=1), [None, 8],
                 [[2, 8], [2, 3, 8], [8], [4, 2, 3, 8], [2, 5]])


@case
def loaded_linear_with_fixed_batch_takes_other_batches(paddle):
    return _feed(paddle, fill_parameters(paddle.nn.Linear(8, 4), seed=1), [2, 8], [[3, 8], [2, 3, 8]])


def _convs(paddle):
    nn, F = paddle.nn, paddle.nn.functional

    class ConvPool(nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2D(3, 4, 3, padding=1)
            self.fc = nn.Linear(4, 2)

        def forward(self, x):
            return self.fc(F.adaptive_avg_pool2d(self.conv(x), 1).flatten(1))

    class ConvFlatten(nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2D(3, 4, 3, padding=1, stride=2)
            self.fc = nn.Linear(4 * 16 * 16, 2)

        def forward(self, x):
            return self.fc(self.conv(x).flatten(1))

    return ConvPool, ConvFlatten


@case
def loaded_cnn_takes_other_heights_and_widths(paddle):
    ConvPool, _ = _convs(paddle)
    return _feed(paddle, fill_parameters(ConvPool(), seed=2), [None, 3, 32, 32],
                 [[2, 3, 32, 32], [2, 3, 48, 40], [2, 3, 32], [3, 32, 32], [2, 4, 32, 32]])


@case
def loaded_cnn_flattening_a_fixed_size(paddle):
    _, ConvFlatten = _convs(paddle)
    return _feed(paddle, fill_parameters(ConvFlatten(), seed=2), [None, 3, 32, 32], [[2, 3, 32, 32], [2, 3, 48, 48]])
