"""paddle.sparse.nn: activation layers; convolution, pooling and batch norm layers live in layer.py."""
from ... import _report
from . import functional
from .layer import BatchNorm, Conv2D, Conv3D, MaxPool3D, SubmConv2D, SubmConv3D, SyncBatchNorm  # noqa: F401

__all__ = ["ReLU", "ReLU6", "LeakyReLU", "Softmax", "BatchNorm", "SyncBatchNorm", "Conv2D", "Conv3D", "SubmConv2D",
           "SubmConv3D", "MaxPool3D"]

_PADDLE_NAMES = ("ReLU", "ReLU6", "LeakyReLU", "Softmax", "BatchNorm", "SyncBatchNorm", "Conv2D", "Conv3D",
                 "SubmConv2D", "SubmConv3D", "MaxPool3D")


def _layer_base():
    from ...nn import Layer

    return Layer


def _make(name, fn, params, doc):
    Layer = _layer_base()

    def __init__(self, *args, name=None, **kwargs):
        Layer.__init__(self)
        vals = dict(zip(params, args))
        vals.update(kwargs)
        self._args = {k: vals.get(k, d) for k, d in params.items()}

    def forward(self, x):
        return fn(x, **self._args)

    def extra_repr(self):
        return ", ".join(f"{k}={v}" for k, v in self._args.items())

    cls = type(name, (Layer,), {"__init__": __init__, "forward": forward, "extra_repr": extra_repr,
                                "__doc__": doc, "__module__": __name__})
    return cls


ReLU = _make("ReLU", functional.relu, {}, "Sparse ReLU: max(x, 0) on the stored values.")
ReLU6 = _make("ReLU6", functional.relu6, {}, "Sparse ReLU6: min(max(x, 0), 6) on the stored values.")
LeakyReLU = _make("LeakyReLU", functional.leaky_relu, {"negative_slope": 0.01},
                  "Sparse LeakyReLU on the stored values.")
Softmax = _make("Softmax", functional.softmax, {"axis": -1}, "Sparse softmax along the last axis.")


def __getattr__(name):
    if name in _PADDLE_NAMES:
        raise _report.unsupported(f"paddle.sparse.nn.{name}")
    raise AttributeError(f"module 'paddle.sparse.nn' has no attribute '{name}'")
