"""paddle.sparse.nn layers: Conv2D/3D, SubmConv2D/3D, MaxPool3D, BatchNorm, SyncBatchNorm."""
import math
import warnings

from ... import _normalize
from ...nn import functional as DF
from ...nn.initializer import Normal
from ...nn.layer.layers import Layer
from ...nn.layer.norm import BatchNorm1D as _DenseBN1D
from ...nn.layer.norm import SyncBatchNorm as _DenseSyncBN
from ...nn.layer.norm import _BatchNormBase
from ...tensor import sparse_layout as U
from . import conv_functional as F
from .conv import _ints, _paddings

__all__ = ["Conv2D", "Conv3D", "SubmConv2D", "SubmConv3D", "MaxPool3D", "BatchNorm", "SyncBatchNorm"]


class _ConvNd(Layer):
    _n = 3

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 subm=False, key=None, padding_mode="zeros", weight_attr=None, bias_attr=None, data_format=None,
                 backend=None):
        super().__init__()
        n = self._n
        fmt = "NDHWC" if n == 3 else "NHWC"
        data_format = data_format or fmt
        if weight_attr is False:
            raise AssertionError("weight_attr should not be False in Conv.")
        if padding_mode != "zeros":
            raise AssertionError("Currently, only support padding_mode='zeros'")
        if groups != 1:
            raise AssertionError("Currently, only support groups=1")
        if backend not in (None, "igemm"):
            raise AssertionError(f"The value of 'backend' in Conv{n}D should be None or 'igemm'.")
        if data_format != fmt:
            raise ValueError(f"data_format must be one of {{'{fmt}'}}, but got data_format='{data_format}'")
        self._in_channels, self._out_channels, self._groups = in_channels, out_channels, groups
        self._data_format, self._subm, self._key, self._backend = data_format, subm, key, backend
        self._param_attr, self._bias_attr = weight_attr, bias_attr
        self._stride = _ints(stride, n, "stride")
        self._dilation = _ints(dilation, n, "dilation")
        self._kernel_size = _ints(kernel_size, n, "kernel_size")
        self._padding, self._padding_mode = padding, padding_mode
        self._updated_padding = _paddings(padding, n, f"paddle.sparse.nn.{type(self).__name__}")
        # He-normal over the receptive field, as Paddle's sparse conv layers
        std = (2.0 / (math.prod(self._kernel_size) * in_channels)) ** 0.5
        self.weight = self.create_parameter(shape=[*self._kernel_size, in_channels, out_channels],
                                            attr=weight_attr, default_initializer=Normal(0.0, std))
        self.bias = self.create_parameter(attr=bias_attr, shape=[out_channels], is_bias=True)

    def forward(self, x):
        from .conv import sparse_conv

        return sparse_conv(x, self.weight, self.bias, self._stride, self._updated_padding, self._dilation,
                           self._groups, self._subm, self._key, self._data_format, self._n,
                           type(self).__name__)

    def extra_repr(self):
        s = f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}"
        if self._stride != [1] * self._n:
            s += f", stride={self._stride}"
        if self._padding != 0:
            s += f", padding={self._padding}"
        if self._dilation != [1] * self._n:
            s += f", dilation={self._dilation}"
        return s + f", data_format={self._data_format}"


class Conv3D(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 padding_mode="zeros", weight_attr=None, bias_attr=None, data_format="NDHWC"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, False, None,
                         padding_mode, weight_attr, bias_attr, data_format)


class Conv2D(_ConvNd):
    _n = 2

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 padding_mode="zeros", weight_attr=None, bias_attr=None, data_format="NHWC"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, False, None,
                         padding_mode, weight_attr, bias_attr, data_format)


class SubmConv3D(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 padding_mode="zeros", key=None, weight_attr=None, bias_attr=None, data_format="NDHWC",
                 backend=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, True, key,
                         padding_mode, weight_attr, bias_attr, data_format, backend)


class SubmConv2D(_ConvNd):
    _n = 2

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 padding_mode="zeros", key=None, weight_attr=None, bias_attr=None, data_format="NHWC",
                 backend=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, True, key,
                         padding_mode, weight_attr, bias_attr, data_format, backend)


class MaxPool3D(Layer):
    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                 data_format="NDHWC", name=None):
        super().__init__()
        self.ksize, self.stride, self.padding, self.return_mask = kernel_size, stride, padding, return_mask
        self.ceil_mode, self.data_format, self.name = ceil_mode, data_format, name

    def forward(self, x):
        return F.max_pool3d(x, kernel_size=self.ksize, stride=self.stride, padding=self.padding,
                            ceil_mode=self.ceil_mode, data_format=self.data_format, name=self.name)

    def extra_repr(self):
        return f"kernel_size={self.ksize}, stride={self.stride}, padding={self.padding}"


def _bn_values(layer, x, data_format):
    """Dense batch norm over the stored values [nnz, C]: the channels are the COO tensor's dense dim."""
    t = x._t
    if not U.is_coo(t):
        raise ValueError("sparse BatchNorm expects a SparseCooTensor input")
    if t.requires_grad and not t.is_coalesced():
        t = t.coalesce()
    out = DF.batch_norm(_normalize.wrap(U.raw_values(t)), layer._mean, layer._variance, weight=layer.weight,
                        bias=layer.bias, training=layer.training, momentum=layer._momentum, epsilon=layer._epsilon,
                        data_format="NC", use_global_stats=layer._use_global_stats)
    # Paddle's sparse batch_norm never flags its result coalesced
    return _normalize.wrap(U.coo(t._indices(), out._t, t.shape, coalesced=False))


class BatchNorm(_DenseBN1D):
    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None, bias_attr=None,
                 data_format="NDHWC", use_global_stats=None, name=None):
        super().__init__(num_features, momentum=momentum, epsilon=epsilon, weight_attr=weight_attr,
                         bias_attr=bias_attr, data_format=data_format, use_global_stats=use_global_stats, name=name)

    def forward(self, input):
        if self._data_format not in ("NDHWC", "NHWC"):
            raise ValueError('sparse BatchNorm only support layout of "NDHWC" and "NHWC"')
        if self.training:
            warnings.warn("When training, we now always track global mean and variance.")
        return _bn_values(self, input, self._data_format)


class SyncBatchNorm(_DenseSyncBN):
    """One process: the statistics are the local batch's (as Paddle's on one card)."""

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None, bias_attr=None,
                 data_format="NCHW", name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format, name=name)

    def forward(self, x):
        return _bn_values(self, x, self._data_format)

    @classmethod
    def convert_sync_batchnorm(cls, layer):
        """Sparse BatchNorm -> sparse SyncBatchNorm, any other batch norm -> paddle.nn.SyncBatchNorm (Paddle's rule),
        sharing the parameters and statistics."""
        out = layer
        if isinstance(layer, _BatchNormBase):
            for attr in (layer._weight_attr, layer._bias_attr):
                if attr is not None and not isinstance(attr, bool) and getattr(attr, "name", None) is not None:
                    attr.name = attr.name + "_sync"
            target = SyncBatchNorm if isinstance(layer, BatchNorm) else _DenseSyncBN
            out = target(layer._num_features, layer._momentum, layer._epsilon, layer._weight_attr,
                         layer._bias_attr, layer._data_format, layer._name)
            if layer._weight_attr is not False and layer._bias_attr is not False:
                out.weight, out.bias = layer.weight, layer.bias
            out._mean, out._variance = layer._mean, layer._variance
        for name, sub in layer.named_children():
            out.add_sublayer(name, cls.convert_sync_batchnorm(sub))
        return out
