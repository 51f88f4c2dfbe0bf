"""paddle.nn normalisation layers.  BatchNorm's running statistics are the non-trainable parameters
`_mean` / `_variance` (as in Paddle), updated with Paddle's momentum convention."""
import warnings

import torch

from ..._normalize import wrap
from ..._core.dtype import get_default_dtype
from ...framework.param_attr import ParamAttr
from .. import functional as F
from ..initializer import Constant, Normal
from .layers import Layer, parameter_pair

__all__ = ["BatchNorm", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D", "GroupNorm", "InstanceNorm1D",
           "InstanceNorm2D", "InstanceNorm3D", "LayerNorm", "LocalResponseNorm", "SpectralNorm", "SyncBatchNorm"]


def _stat(layer, shape, value, name, dtype):
    p = layer.create_parameter(shape=shape, dtype=dtype,
                               attr=ParamAttr(name=name, initializer=Constant(value), trainable=False))
    p.stop_gradient = True
    return p


class _BatchNormBase(Layer):
    _dims = None
    _default_format = "NCHW"

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None, bias_attr=None,
                 data_format=None, use_global_stats=None, name=None):
        super().__init__()
        self._num_features, self._weight_attr, self._bias_attr = num_features, weight_attr, bias_attr
        self._use_global_stats = use_global_stats
        # Paddle: parameters and statistics in the default dtype, float32 when that is float16
        default = get_default_dtype()
        self._dtype = "float32" if default == "float16" else default
        shape = [num_features]
        self.weight = None if weight_attr is False else self.create_parameter(
            attr=weight_attr, shape=shape, dtype=self._dtype, default_initializer=Constant(1.0))
        self.bias = None if bias_attr is False else self.create_parameter(attr=bias_attr, shape=shape,
                                                                          dtype=self._dtype, is_bias=True)
        self._mean = _stat(self, shape, 0.0, None if name is None else name + "_mean", self._dtype)
        self._variance = _stat(self, shape, 1.0, None if name is None else name + "_variance", self._dtype)
        self._data_format = data_format or self._default_format
        self._in_place, self._momentum, self._epsilon, self._name = False, momentum, epsilon, name

    def _check_input_dim(self, x):
        pass

    def _check_data_format(self):
        pass

    def forward(self, input):
        self._check_data_format()
        self._check_input_dim(input)
        if self.training:
            warnings.warn("When training, we now always track global mean and variance.")
        return F.batch_norm(input, self._mean, self._variance, weight=self.weight, bias=self.bias,
                            training=self.training, momentum=self._momentum, epsilon=self._epsilon,
                            data_format=self._data_format, use_global_stats=self._use_global_stats)

    def extra_repr(self):
        s = f"num_features={self._num_features}, momentum={self._momentum}, epsilon={self._epsilon}"
        if self._data_format != "NCHW":
            s += f", data_format={self._data_format}"
        if self._name is not None:
            s += f", name={self._name}"
        return s


class BatchNorm1D(_BatchNormBase):
    _default_format = "NCL"

    def _check_data_format(self):
        if self._data_format not in ("NC", "NCL", "NLC"):
            raise ValueError("expected NC , NCL, NLC or None for data_format input")

    def _check_input_dim(self, x):
        if x.ndim not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {x.ndim}D input)")


class BatchNorm2D(_BatchNormBase):
    def _check_data_format(self):
        if self._data_format not in ("NCHW", "NHWC"):
            raise ValueError("expected NCHW or NHWC for data_format input")

    def _check_input_dim(self, x):
        if x.ndim != 4:
            raise ValueError(f"expected 4D input (got {x.ndim}D input)")


class BatchNorm3D(_BatchNormBase):
    _default_format = "NCDHW"

    def _check_data_format(self):
        if self._data_format not in ("NCDHW", "NDHWC"):
            raise ValueError("expected NCDHW, NDHWC or None for data_format input")

    def _check_input_dim(self, x):
        if x.ndim != 5:
            raise ValueError(f"expected 5D input (got {x.ndim}D input)")


class SyncBatchNorm(_BatchNormBase):
    """Single-process: BatchNorm over the local batch."""

    def extra_repr(self):
        s = f"num_features={self._num_features}, momentum={self._momentum}, epsilon={self._epsilon}"
        if self._data_format != "NCHW":
            s += f", data_format={self._data_format}"
        if self._name is not None:
            s += f", name={self._name}"
        return s

    @classmethod
    def convert_sync_batchnorm(cls, layer):
        out = layer
        if isinstance(layer, _BatchNormBase) and not isinstance(layer, SyncBatchNorm):
            out = SyncBatchNorm(layer._num_features, layer._momentum, layer._epsilon, layer._weight_attr,
                                layer._bias_attr, layer._data_format, layer._name)
            for n in ("weight", "bias", "_mean", "_variance"):
                src = getattr(layer, n)
                if src is not None:
                    setattr(out, n, src)
        for name, sub in list(layer._sub_layers.items()):
            if sub is not None:
                out.add_sublayer(name, cls.convert_sync_batchnorm(sub))
        return out


class BatchNorm(Layer):
    """Paddle's older BatchNorm (num_channels, act, is_test, param_attr, data_layout, ...)."""

    def __init__(self, num_channels, act=None, is_test=False, momentum=0.9, epsilon=1e-05, param_attr=None,
                 bias_attr=None, dtype="float32", data_layout="NCHW", in_place=False, moving_mean_name=None,
                 moving_variance_name=None, do_model_average_for_mean_and_var=True, use_global_stats=False,
                 trainable_statistics=False):
        super().__init__()
        self._param_attr, self._bias_attr, self._act = param_attr, bias_attr, act
        self._dtype = dtype if isinstance(dtype, str) else str(dtype).replace("paddle.", "")
        shape = [num_channels]
        self.weight = self.create_parameter(attr=param_attr, shape=shape, dtype=self._dtype,
                                            default_initializer=Constant(1.0))
        self.bias = self.create_parameter(attr=bias_attr, shape=shape, dtype=self._dtype, is_bias=True)
        self._mean = _stat(self, shape, 0.0, moving_mean_name, self._dtype)
        self._variance = _stat(self, shape, 1.0, moving_variance_name, self._dtype)
        self._in_place, self._data_layout, self._momentum, self._epsilon = in_place, data_layout, momentum, epsilon
        self._is_test, self._use_global_stats = is_test, use_global_stats
        self._trainable_statistics = trainable_statistics

    def forward(self, input):
        fmt = {2: "NC", 3: "NCL", 4: "NCHW", 5: "NCDHW"}.get(input.ndim, "NCHW")
        if self._data_layout == "NHWC":
            fmt = {3: "NLC", 4: "NHWC", 5: "NDHWC"}.get(input.ndim, "NHWC")
        training = self.training and not self._is_test
        out = F.batch_norm(input, self._mean, self._variance, weight=self.weight, bias=self.bias,
                           training=training, momentum=self._momentum, epsilon=self._epsilon, data_format=fmt,
                           use_global_stats=self._use_global_stats or (not training and not
                                                                      self._trainable_statistics))
        if self._act:  # Paddle runs the legacy activation op of that name, with its OpProto's attributes
            from ... import _legacy_C_ops

            out = getattr(_legacy_C_ops, self._act)(out)
        return out


class _InstanceNormBase(Layer):
    _default_format = "NCHW"

    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None, bias_attr=None,
                 data_format=None, name=None):
        super().__init__()
        if (weight_attr is False) != (bias_attr is False):
            raise ValueError("weight_attr and bias_attr must be set to False at the same time in InstanceNorm")
        self._epsilon, self._weight_attr, self._bias_attr = epsilon, weight_attr, bias_attr
        self._num_features, self._data_format = num_features, data_format or self._default_format
        self._momentum, self._name = momentum, name
        if weight_attr is not False:
            self.scale = self.create_parameter(attr=weight_attr, shape=[num_features],
                                               default_initializer=Constant(1.0))
            self.bias = self.create_parameter(attr=bias_attr, shape=[num_features], is_bias=True)
        else:
            self.scale = self.bias = None

    def forward(self, input):
        return F.instance_norm(input, weight=self.scale, bias=self.bias, eps=self._epsilon,
                               data_format=self._data_format)

    def extra_repr(self):
        return f"num_features={self._num_features}, epsilon={self._epsilon}"


class InstanceNorm1D(_InstanceNormBase):
    _default_format = "NCL"


class InstanceNorm2D(_InstanceNormBase):
    pass


class InstanceNorm3D(_InstanceNormBase):
    _default_format = "NCDHW"


class GroupNorm(Layer):
    def __init__(self, num_groups, num_channels, epsilon=1e-05, *, affine=True, device=None, dtype=None,
                 weight_attr=None, bias_attr=None, data_format="NCHW", name=None):
        super().__init__()
        self._weight_attr, self._bias_attr, self._epsilon = weight_attr, bias_attr, epsilon
        self._num_channels, self._num_groups, self._data_format = num_channels, num_groups, data_format
        if data_format not in ("NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
            raise ValueError(f"unsupported data layout: {data_format}")
        dt = dtype
        make = affine is not False
        self.weight = self.create_parameter(attr=weight_attr, shape=[num_channels], dtype=dt,
                                            default_initializer=Constant(1.0)) \
            if make and weight_attr is not False else None
        self.bias = self.create_parameter(attr=bias_attr, shape=[num_channels], dtype=dt, is_bias=True) \
            if make and bias_attr is not False else None

    def forward(self, input):
        return F.group_norm(input, self._num_groups, self._epsilon, self.weight, self.bias, self._data_format)

    def extra_repr(self):
        return f"num_groups={self._num_groups}, num_channels={self._num_channels}, epsilon={self._epsilon}"


class LayerNorm(Layer):
    def __init__(self, normalized_shape, epsilon=1e-05, *, elementwise_affine=True, bias=True, device=None,
                 dtype=None, weight_attr=None, bias_attr=None, name=None):
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = [normalized_shape]
        self._normalized_shape = list(normalized_shape)
        self._epsilon, self._weight_attr, self._bias_attr = epsilon, weight_attr, bias_attr
        shape = [int(__import__("math").prod(self._normalized_shape))]
        self.weight = self.create_parameter(attr=weight_attr, shape=shape, dtype=dtype,
                                            default_initializer=Constant(1.0)) \
            if elementwise_affine and weight_attr is not False else None
        self.bias = self.create_parameter(attr=bias_attr, shape=shape, dtype=dtype, is_bias=True) \
            if elementwise_affine and bias and bias_attr is not False else None

    def forward(self, input):
        weight, bias = parameter_pair(self, "weight", "bias")
        return F.layer_norm(input, self._normalized_shape, weight=weight, bias=bias, epsilon=self._epsilon)

    def extra_repr(self):
        return f"normalized_shape={self._normalized_shape}, epsilon={self._epsilon}"


class LocalResponseNorm(Layer):
    def __init__(self, size, alpha=0.0001, beta=0.75, k=1.0, data_format="NCHW", name=None):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k
        self.data_format, self.name = data_format, name

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k, self.data_format)

    def extra_repr(self):
        s = f"size={self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
        if self.data_format != "NCHW":
            s += f", data_format={self.data_format}"
        if self.name is not None:
            s += f", name={self.name}"
        return s


class SpectralNorm(Layer):
    """forward(weight) -> weight / sigma, sigma from `power_iters` power-iteration steps on u, v."""

    def __init__(self, weight_shape, dim=0, power_iters=1, eps=1e-12, dtype="float32"):
        super().__init__()
        self._power_iters, self._eps, self._dim = power_iters, eps, dim
        self._dtype = dtype if isinstance(dtype, str) else str(dtype).replace("paddle.", "")
        self._weight_shape = [int(s) for s in weight_shape]
        if any(s <= 0 for s in self._weight_shape):
            raise AssertionError("Any dimension of `weight_shape` cannot be equal to 0.")
        if dim >= len(self._weight_shape):
            raise AssertionError(f"The input `dim` should be less than the length of `weight_shape`, but received "
                                 f"dim={dim}")
        h = self._weight_shape[dim]
        w = int(__import__("math").prod(self._weight_shape)) // h
        self.weight_u = self.create_parameter(attr=ParamAttr(), shape=[h], dtype=self._dtype,
                                              default_initializer=Normal(0.0, 1.0))
        self.weight_u.stop_gradient = True
        self.weight_v = self.create_parameter(attr=ParamAttr(), shape=[w], dtype=self._dtype,
                                              default_initializer=Normal(0.0, 1.0))
        self.weight_v.stop_gradient = True

    def forward(self, x):
        wt = x._t
        mat = wt.movedim(self._dim, 0).reshape(wt.shape[self._dim], -1)
        u, v = self.weight_u._t.detach(), self.weight_v._t.detach()
        with torch.no_grad():
            for _ in range(self._power_iters):
                v = mat.t().mv(u)
                v = v / (v.norm() + self._eps)
                u = mat.mv(v)
                u = u / (u.norm() + self._eps)
        sigma = torch.dot(u, mat.mv(v))
        return wrap(wt / sigma)
