"""paddle.nn conv layers: Paddle weight layouts ([out, in/groups, *k]; transposed [in, out/groups, *k]),
Paddle's default initializer (Normal(0, sqrt(2 / (k * in_channels))) for conv, XavierUniform for transposed)."""
import math

from ..._core import dtype as _dtypes
from .. import functional as F
from ..functional import _layout as L
from ..initializer import Normal
from .layers import Layer

__all__ = ["Conv1D", "Conv1DTranspose", "Conv1d", "Conv2D", "Conv2DTranspose", "Conv2d", "Conv3D",
           "Conv3DTranspose", "Conv3d"]


class _ConvNd(Layer):
    _dims = 2
    _transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, transposed, dims, stride=1, padding=0,
                 padding_mode="zeros", output_padding=0, dilation=1, groups=1, weight_attr=None, bias_attr=None,
                 data_format="NCHW", device=None, dtype=None):
        super().__init__()
        if weight_attr is False:
            raise AssertionError("weight_attr should not be False in Conv.")
        if dtype is not None:
            self._dtype = _dtypes.dtype_name(_dtypes.to_torch_dtype(dtype)) if not isinstance(dtype, str) else dtype
        self._param_attr, self._bias_attr = weight_attr, bias_attr
        self._groups, self._in_channels, self._out_channels = groups, in_channels, out_channels
        self._data_format = data_format
        modes = {"zeros", "reflect", "replicate", "circular"}
        if padding_mode not in modes:
            raise ValueError(f"padding_mode must be one of {modes}, but got padding_mode='{padding_mode}'")
        if padding_mode != "zeros" and not isinstance(padding, int):
            raise TypeError("when padding_mode in ['reflect', 'replicate', 'circular'], type of padding must be int")
        formats = {"NHWC", "NCHW", "NDHWC", "NCDHW", "NLC", "NCL"}
        if data_format not in formats:
            raise ValueError(f"data_format must be one of {formats}, but got data_format='{data_format}'")
        self._stride = L.ntuple(stride, dims, "stride")
        self._dilation = L.ntuple(dilation, dims, "dilation")
        self._kernel_size = L.ntuple(kernel_size, dims, "kernel_size")
        self._padding, self._padding_mode, self.output_padding = padding, padding_mode, output_padding
        if transposed:
            shape = [in_channels, out_channels // groups] + self._kernel_size
            init = None
        else:
            if in_channels % groups != 0:
                raise ValueError("in_channels must be divisible by groups.")
            if padding_mode != "zeros":
                self._reversed_padding_repeated_twice = [padding] * (2 * dims)
            shape = [out_channels, in_channels // groups] + self._kernel_size
            init = Normal(0.0, (2.0 / max(math.prod(self._kernel_size) * in_channels, 1)) ** 0.5)  # (0 channels: empty)
        # (Paddle passes the layer's dtype and device to both parameters: float32 / the default place when None)
        self.weight = self.create_parameter(shape=shape, attr=weight_attr, dtype=dtype, default_initializer=init,
                                            device=device)
        self.bias = self.create_parameter(attr=bias_attr, shape=[out_channels], is_bias=True, dtype=dtype,
                                          device=device)

    def extra_repr(self):
        s = f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}"
        if self._stride != [1] * len(self._stride):
            s += f", stride={self._stride}"
        if self._padding != 0:
            s += f", padding={self._padding}"
        if self._padding_mode != "zeros":
            s += f", padding_mode={self._padding_mode}"
        if self.output_padding != 0:
            s += f", output_padding={self.output_padding}"
        if self._dilation != [1] * len(self._dilation):
            s += f", dilation={self._dilation}"
        if self._groups != 1:
            s += f", groups={self._groups}"
        return s + f", data_format={self._data_format}"


def _conv_cls(name, dims, fn, default_format):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, *,
                 bias=True, padding_mode="zeros", device=None, dtype=None, weight_attr=None, bias_attr=None,
                 data_format=default_format):
        _ConvNd.__init__(self, in_channels, out_channels, kernel_size, False, dims, stride=stride, padding=padding,
                         padding_mode=padding_mode, dilation=dilation, groups=groups, weight_attr=weight_attr,
                         bias_attr=False if bias is False else bias_attr, data_format=data_format, device=device,
                         dtype=dtype)

    def forward(self, x):
        padding = self._padding
        if self._padding_mode != "zeros":
            x = F.pad(x, self._reversed_padding_repeated_twice, mode=self._padding_mode,
                      data_format=self._data_format)
            padding = 0
        return fn(x, self.weight, bias=self.bias, stride=self._stride, padding=padding, dilation=self._dilation,
                  groups=self._groups, data_format=self._data_format)

    return type(name, (_ConvNd,), {"__init__": __init__, "forward": forward, "__module__": __name__})


def _conv_t_cls(name, dims, fn, default_format):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, *rest,
                 weight_attr=None, bias_attr=None, data_format=default_format, **kw):
        # Conv2DTranspose takes (dilation, groups) after output_padding; Conv1D/3DTranspose (groups, dilation)
        order = ("dilation", "groups") if dims == 2 else ("groups", "dilation")
        vals = {"dilation": 1, "groups": 1}
        vals.update(zip(order, rest[:2]))
        vals.update({k: kw.pop(k) for k in list(kw) if k in vals})
        if kw:  # (the keywords Paddle's signature has besides these are named above)
            raise TypeError(f"{name}.__init__() got an unexpected keyword argument '{next(iter(kw))}'")
        rest = rest[2:]
        if rest:
            weight_attr = rest[0]
        if len(rest) > 1:
            bias_attr = rest[1]
        if len(rest) > 2:
            data_format = rest[2]
        _ConvNd.__init__(self, in_channels, out_channels, kernel_size, True, dims, stride=stride, padding=padding,
                         output_padding=output_padding, dilation=vals["dilation"], groups=vals["groups"],
                         weight_attr=weight_attr, bias_attr=bias_attr, data_format=data_format)

    def forward(self, x, output_size=None):
        return fn(x, self.weight, bias=self.bias, output_size=output_size, output_padding=self.output_padding,
                  padding=self._padding, stride=self._stride, dilation=self._dilation, groups=self._groups,
                  data_format=self._data_format)

    return type(name, (_ConvNd,), {"__init__": __init__, "forward": forward, "__module__": __name__})


Conv1D = Conv1d = _conv_cls("Conv1D", 1, F.conv1d, "NCL")
Conv2D = Conv2d = _conv_cls("Conv2D", 2, F.conv2d, "NCHW")
Conv3D = Conv3d = _conv_cls("Conv3D", 3, F.conv3d, "NCDHW")
Conv1DTranspose = _conv_t_cls("Conv1DTranspose", 1, F.conv1d_transpose, "NCL")
Conv2DTranspose = _conv_t_cls("Conv2DTranspose", 2, F.conv2d_transpose, "NCHW")
Conv3DTranspose = _conv_t_cls("Conv3DTranspose", 3, F.conv3d_transpose, "NCDHW")
