"""paddle.flops: multiply-accumulate counts per leaf layer, from forward hooks."""
import warnings

import numpy as np

__all__ = ["flops"]

_BUFFERS = ("total_ops", "total_params", "input_shape", "output_shape")


def _numel(t):
    return int(np.prod(t.shape))


def count_convNd(m, x, y):
    x = x[0]
    kernel_ops = np.prod(m.weight.shape[2:])
    bias_ops = 1 if m.bias is not None else 0
    m.total_ops += abs(int(_numel(y) * (x.shape[1] / m._groups * kernel_ops + bias_ops)))


def count_leaky_relu(m, x, y):
    m.total_ops += _numel(x[0])


def count_bn(m, x, y):
    m.total_ops += abs(2 * _numel(x[0]))


def count_linear(m, x, y):
    m.total_ops += abs(int(m.weight.shape[0] * _numel(y)))


def count_avgpool(m, x, y):
    m.total_ops += _numel(y)


def count_adap_avgpool(m, x, y):
    kernel = np.array(x[0].shape[2:]) // np.array(y.shape[2:])
    m.total_ops += abs(int((np.prod(kernel) + 1) * _numel(y)))


def count_zero_ops(m, x, y):
    m.total_ops += 0


def count_parameters(m, x, y):
    m.total_params[0] = abs(sum(_numel(p) for p in m.parameters()))


def count_io_info(m, x, y):
    from .. import to_tensor

    m.register_buffer("input_shape", to_tensor(x[0].shape))
    out = y[0] if isinstance(y, (list, tuple)) else y
    m.register_buffer("output_shape", to_tensor(out.shape))


def _register_hooks():
    from .. import nn

    return {nn.Conv1D: count_convNd, nn.Conv2D: count_convNd, nn.Conv3D: count_convNd,
            nn.Conv1DTranspose: count_convNd, nn.Conv2DTranspose: count_convNd, nn.Conv3DTranspose: count_convNd,
            nn.BatchNorm2D: count_bn, nn.BatchNorm: count_bn, nn.ReLU: count_zero_ops, nn.ReLU6: count_zero_ops,
            nn.LeakyReLU: count_leaky_relu, nn.Linear: count_linear, nn.Dropout: count_zero_ops,
            nn.AvgPool1D: count_avgpool, nn.AvgPool2D: count_avgpool, nn.AvgPool3D: count_avgpool,
            nn.AdaptiveAvgPool1D: count_adap_avgpool, nn.AdaptiveAvgPool2D: count_adap_avgpool,
            nn.AdaptiveAvgPool3D: count_adap_avgpool}


def _class_str(cls):
    """str(cls) as Paddle prints it (our layers live in paddle_on_torch.*, Paddle's in paddle.*)."""
    s = str(cls)
    return s.replace("'paddle_on_torch.", "'paddle.", 1)


class Table:
    def __init__(self, heads):
        self.heads = heads
        self.widths = [len(h) for h in heads]
        self.rows = []

    def add_row(self, row):
        self.widths = [max(w, len(str(v))) for w, v in zip(self.widths, row)]
        self.rows.append(row)

    def _shelf(self):
        return "".join("+" + "-" * (w + 2) for w in self.widths) + "+"

    def _row(self, row):
        return "".join("|" + str(v).center(w + 2) for v, w in zip(row, self.widths)) + "|"

    def print_table(self):
        print(self._shelf())
        print(self._row(self.heads))
        print(self._shelf())
        for row in self.rows:
            print(self._row(row))
        print(self._shelf())


def flops(net, input_size, custom_ops=None, print_detail=False):
    """FLOPs of one forward of `net` on a random input of `input_size`; prints a total (and a per-layer
    table with print_detail=True).  Returns an int."""
    from .. import randn
    from ..nn import Layer

    if not isinstance(net, Layer):
        warnings.warn("Your model must be an instance of paddle.nn.Layer or paddle.static.Program.")
        return -1
    return dynamic_flops(net, randn(input_size), custom_ops=custom_ops, print_detail=print_detail)


def dynamic_flops(model, inputs, custom_ops=None, print_detail=False):
    from .. import zeros
    from ..framework.grad_mode import no_grad

    custom_ops = custom_ops or {}
    known = _register_hooks()
    handles, seen = [], set()

    def add_hooks(m):
        if len(list(m.children())) > 0:
            return
        m.register_buffer("total_ops", zeros([1], dtype="int64"))
        m.register_buffer("total_params", zeros([1], dtype="int64"))
        t = type(m)
        fn = None
        if t in custom_ops:
            fn = custom_ops[t]
            if t not in seen:
                print(f"Customize Function has been applied to {_class_str(t)}")
        elif t in known:
            fn = known[t]
            if t not in seen:
                print(f"{_class_str(t)}'s flops has been counted")
        elif t not in seen:
            print(f"Cannot find suitable count function for {_class_str(t)}. Treat it as zero FLOPs.")
        if fn is not None:
            handles.append(m.register_forward_post_hook(fn))
        handles.append(m.register_forward_post_hook(count_parameters))
        handles.append(m.register_forward_post_hook(count_io_info))
        seen.add(t)

    training = model.training
    model.eval()
    model.apply(add_hooks)
    try:
        with no_grad():
            model(inputs)
    finally:
        if training:
            model.train()
        for h in handles:
            h.remove()
    total_ops = total_params = 0
    table = Table(["Layer Name", "Input Shape", "Output Shape", "Params", "Flops"])
    for _, m in model.named_sublayers():  # not the model itself, as in Paddle
        if len(list(m.children())) > 0:
            continue
        if set(_BUFFERS).issubset(m._buffers):
            ops, params = int(m.total_ops.numpy()[0]), int(m.total_params.numpy()[0])
            total_ops += ops
            total_params += params
            table.add_row([m.full_name(), m.input_shape.numpy().tolist(), m.output_shape.numpy().tolist(), params,
                           ops])
        for name in _BUFFERS:  # also from layers the forward did not reach (Paddle leaves those behind)
            m._buffers.pop(name, None)
    for name in _BUFFERS:
        model._buffers.pop(name, None)
    if print_detail:
        table.print_table()
    print(f"Total Flops: {total_ops}     Total Params: {total_params}")
    return total_ops
