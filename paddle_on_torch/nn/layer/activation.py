"""paddle.nn activation layers: each calls its nn.functional op; reprs as Paddle's."""
from ...framework.param_attr import ParamAttr
from .. import functional as F
from ..initializer import Constant
from .layers import Layer

__all__ = ["CELU", "ELU", "GELU", "GLU", "Hardshrink", "Hardsigmoid", "Hardswish", "Hardtanh", "LeakyReLU",
           "LogSigmoid", "LogSoftmax", "Maxout", "Mish", "PReLU", "RReLU", "ReLU", "ReLU6", "SELU", "SiLU",
           "Sigmoid", "Silu", "Softmax", "Softmax2D", "Softplus", "Softshrink", "Softsign", "Swish", "Tanh",
           "Tanhshrink", "ThresholdedReLU"]


def _name_only(self):
    return f"name={self._name}" if self._name else ""


def _suffix(self):
    return f", name={self._name}" if self._name else ""


def _simple(cls_name, fn):
    """A layer with no arguments but `name` that applies `fn`."""

    def __init__(self, name=None):
        Layer.__init__(self)
        self._name = name

    def forward(self, x):
        return fn(x)

    return type(cls_name, (Layer,), {"__init__": __init__, "forward": forward, "extra_repr": _name_only,
                                     "__module__": __name__})


ReLU = _simple("ReLU", F.relu)
ReLU6 = _simple("ReLU6", F.relu6)
Sigmoid = _simple("Sigmoid", F.sigmoid)
Hardsigmoid = _simple("Hardsigmoid", F.hardsigmoid)
Hardswish = _simple("Hardswish", F.hardswish)
Tanh = _simple("Tanh", F.tanh)
Tanhshrink = _simple("Tanhshrink", F.tanhshrink)
Softsign = _simple("Softsign", F.softsign)
Swish = _simple("Swish", F.swish)
Mish = _simple("Mish", F.mish)
LogSigmoid = _simple("LogSigmoid", F.log_sigmoid)


class Softmax2D(Layer):
    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        if x.ndim not in (3, 4):
            raise AssertionError(f"Softmax2D requires a 3D or 4D tensor as input. Received: {x.ndim}D.")
        return F.softmax(x, axis=-3)

    extra_repr = _name_only


class _Param(Layer):
    """A layer whose forward is fn(x, **kwargs) with the given attributes; repr lists them."""
    _fn = None
    _args = ()
    _attrs = ()  # where each of _args is kept: "_" + its name

    def forward(self, x):
        attrs = self._attrs
        if len(attrs) == 1:  # (most: GELU's approximate, LeakyReLU's slope, ...; no list to build)
            return type(self)._fn(x, getattr(self, attrs[0]))
        return type(self)._fn(x, *[getattr(self, a) for a in attrs])

    def extra_repr(self):
        return ", ".join(f"{a}={getattr(self, '_' + a)}" for a in self._args) + _suffix(self)


_REQUIRED = object()  # a constructor argument without a default (Maxout's groups)


def _param_layer(cls_name, fn, args, defaults):
    """A _Param layer whose constructor takes `args` (with `defaults`) and `name`, as a real signature: an unknown
    keyword is Python's TypeError, and Paddle 3.3's recorded aliases (GLU(dim=), Hardshrink(lambd=)) reach it
    through nn/layer/_aliases.py, which reads the signature."""
    params = ", ".join(a if d is _REQUIRED else f"{a}={d!r}" for a, d in zip(args, defaults))
    body = "".join(f"    self._{a} = {a}\n" for a in args)
    ns = {"Layer": Layer}
    exec(f"def __init__(self, {params}, name=None):\n    Layer.__init__(self)\n{body}    self._name = name\n", ns)
    init = ns["__init__"]
    init.__qualname__, init.__module__ = f"{cls_name}.__init__", __name__  # (Python's errors name the class)
    return type(cls_name, (_Param,), {"__init__": init, "_fn": staticmethod(fn), "_args": tuple(args),
                                      "_attrs": tuple("_" + a for a in args), "__module__": __name__})


CELU = _param_layer("CELU", F.celu, ["alpha"], [1.0])
ELU = _param_layer("ELU", F.elu, ["alpha"], [1.0])
GLU = _param_layer("GLU", F.glu, ["axis"], [-1])
GELU = _param_layer("GELU", F.gelu, ["approximate"], [False])
Hardshrink = _param_layer("Hardshrink", F.hardshrink, ["threshold"], [0.5])
Softshrink = _param_layer("Softshrink", F.softshrink, ["threshold"], [0.5])
Hardtanh = _param_layer("Hardtanh", F.hardtanh, ["min", "max"], [-1.0, 1.0])
LeakyReLU = _param_layer("LeakyReLU", F.leaky_relu, ["negative_slope"], [0.01])
Softplus = _param_layer("Softplus", F.softplus, ["beta", "threshold"], [1, 20])
ThresholdedReLU = _param_layer("ThresholdedReLU", F.thresholded_relu, ["threshold", "value"], [1.0, 0.0])
Softmax = _param_layer("Softmax", F.softmax, ["axis"], [-1])
LogSoftmax = _param_layer("LogSoftmax", F.log_softmax, ["axis"], [-1])
Maxout = _param_layer("Maxout", F.maxout, ["groups", "axis"], [_REQUIRED, 1])


class SELU(Layer):
    def __init__(self, scale=1.0507009873554804934193349852946, alpha=1.6732632423543772848170429916717,
                 name=None):
        super().__init__()
        self._scale, self._alpha, self._name = scale, alpha, name

    def forward(self, x):
        return F.selu(x, self._scale, self._alpha)

    def extra_repr(self):
        return f"scale={self._scale:.16f}, alpha={self._alpha:.16f}" + _suffix(self)


class Silu(Layer):
    def __init__(self, inplace=False, name=None):
        super().__init__()
        self._inplace, self._name = inplace, name

    def forward(self, x):
        return F.silu(x, self._inplace)

    def extra_repr(self):
        return f"inplace={self._inplace}" + (f", name={self._name}" if self._name else "")


SiLU = Silu


class PReLU(Layer):
    def __init__(self, num_parameters=1, init=0.25, weight_attr=None, data_format="NCHW", name=None):
        super().__init__()
        self._num_parameters, self._init, self._weight_attr = num_parameters, init, weight_attr
        self._data_format, self._name = data_format, name
        self._weight = self.create_parameter(attr=self._weight_attr, shape=[num_parameters], dtype=self._dtype,
                                            is_bias=False, default_initializer=Constant(init))

    def forward(self, x):
        return F.prelu(x, self._weight, data_format=self._data_format)

    def extra_repr(self):
        return (f"num_parameters={self._num_parameters}, data_format={self._data_format}, init={self._init}, "
                f"dtype={self._dtype}" + _suffix(self))


class RReLU(Layer):
    def __init__(self, lower=1.0 / 8.0, upper=1.0 / 3.0, name=None):
        super().__init__()
        self._lower, self._upper, self._name = lower, upper, name

    def forward(self, x):
        return F.rrelu(x, lower=self._lower, upper=self._upper, training=self.training)

    def extra_repr(self):
        return (f"lower={self._lower}, upper={self._upper}, training={self.training}, dtype={self._dtype}"
                + _suffix(self))


del ParamAttr
