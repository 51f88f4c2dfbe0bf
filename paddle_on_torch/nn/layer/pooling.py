"""paddle.nn pooling layers over nn.functional's pooling."""
from .. import functional as F
from .layers import Layer

__all__ = ["AdaptiveAvgPool1D", "AdaptiveAvgPool2D", "AdaptiveAvgPool3D", "AdaptiveMaxPool1D", "AdaptiveMaxPool1d",
           "AdaptiveMaxPool2D", "AdaptiveMaxPool2d", "AdaptiveMaxPool3D", "AdaptiveMaxPool3d", "AvgPool1D",
           "AvgPool2D", "AvgPool3D", "FractionalMaxPool2D", "FractionalMaxPool3D", "LPPool1D", "LPPool1d", "LPPool2D", "LPPool2d", "MaxPool1D", "MaxPool2D",
           "MaxPool3D", "MaxUnPool1D", "MaxUnPool2D", "MaxUnPool3D", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d",
           "AdaptiveAvgPool3d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d"]


class _Pool(Layer):
    def extra_repr(self):
        return f"kernel_size={self.ksize}, stride={self.stride}, padding={self.padding}"


class MaxPool1D(_Pool):
    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, name=None):
        super().__init__()
        self.kernel_size = self.ksize = kernel_size
        self.stride, self.padding, self.return_mask, self.ceil_mode, self.name = (stride, padding, return_mask,
                                                                                   ceil_mode, name)

    def forward(self, input):  # (Paddle's 1-D pooling layers name it `input`)
        return F.max_pool1d(input, self.kernel_size, self.stride, self.padding, self.return_mask, self.ceil_mode)


class _MaxPoolNd(_Pool):
    _fn = None

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, data_format=None,
                 name=None):
        super().__init__()
        self.ksize, self.stride, self.padding, self.return_mask = kernel_size, stride, padding, return_mask
        self.ceil_mode, self.name = ceil_mode, name
        self.data_format = data_format or self._default_format

    def forward(self, x):
        return type(self)._fn(x, kernel_size=self.ksize, stride=self.stride, padding=self.padding,
                              return_mask=self.return_mask, ceil_mode=self.ceil_mode, data_format=self.data_format)


class MaxPool2D(_MaxPoolNd):
    _fn, _default_format = staticmethod(F.max_pool2d), "NCHW"


class MaxPool3D(_MaxPoolNd):
    _fn, _default_format = staticmethod(F.max_pool3d), "NCDHW"


class AvgPool1D(_Pool):
    def __init__(self, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False, name=None):
        super().__init__()
        self.kernel_size = self.ksize = kernel_size
        self.stride, self.padding, self.exclusive, self.ceil_mode, self.name = (stride, padding, exclusive,
                                                                                 ceil_mode, name)

    def forward(self, x):
        return F.avg_pool1d(x, self.kernel_size, self.stride, self.padding, self.exclusive, self.ceil_mode)


class _AvgPoolNd(_Pool):
    _fn = None

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True, divisor_override=None,
                 data_format=None, name=None):
        super().__init__()
        self.ksize, self.stride, self.padding, self.ceil_mode = kernel_size, stride, padding, ceil_mode
        self.exclusive, self.divisor, self.name = exclusive, divisor_override, name
        self.data_format = data_format or self._default_format

    def forward(self, x):
        return type(self)._fn(x, kernel_size=self.ksize, stride=self.stride, padding=self.padding,
                              ceil_mode=self.ceil_mode, exclusive=self.exclusive, divisor_override=self.divisor,
                              data_format=self.data_format)


class AvgPool2D(_AvgPoolNd):
    _fn, _default_format = staticmethod(F.avg_pool2d), "NCHW"


class AvgPool3D(_AvgPoolNd):
    _fn, _default_format = staticmethod(F.avg_pool3d), "NCDHW"


class _LPPool(Layer):
    _fn = None

    def __init__(self, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False, data_format=None,
                 name=None):
        super().__init__()
        self.norm_type, self.kernel_size, self.ksize = float(norm_type), kernel_size, kernel_size
        if stride is None and self._default_format == "NCHW":
            stride = kernel_size
        self.stride, self.padding, self.ceil_mode, self.name = stride, padding, ceil_mode, name
        self.data_format = data_format or self._default_format

    def forward(self, x):
        return type(self)._fn(x, self.norm_type, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                              self.data_format)

    def extra_repr(self):
        return f"norm_type={self.norm_type}, kernel_size={self.ksize}, stride={self.stride}, padding={self.padding}"


class LPPool1D(_LPPool):
    _fn, _default_format = staticmethod(F.lp_pool1d), "NCL"


class LPPool2D(_LPPool):
    _fn, _default_format = staticmethod(F.lp_pool2d), "NCHW"


class _AdaptiveAvg(Layer):
    _fn = None

    def __init__(self, output_size, data_format=None, name=None):
        super().__init__()
        self._output_size = self.output_size = output_size
        self._data_format, self._name = data_format, name

    def forward(self, x):
        if self._data_format is None:
            return type(self)._fn(x, self._output_size)
        return type(self)._fn(x, self._output_size, self._data_format)

    def extra_repr(self):
        return f"output_size={self._output_size}"


class AdaptiveAvgPool1D(_AdaptiveAvg):
    _fn = staticmethod(F.adaptive_avg_pool1d)

    def __init__(self, output_size, name=None):
        super().__init__(output_size, None, name)

    def forward(self, input):  # (Paddle's 1-D pooling layers name it `input`)
        return F.adaptive_avg_pool1d(input, self._output_size)


class AdaptiveAvgPool2D(_AdaptiveAvg):
    _fn = staticmethod(F.adaptive_avg_pool2d)

    def __init__(self, output_size, data_format="NCHW", name=None):
        super().__init__(output_size, data_format, name)


class AdaptiveAvgPool3D(_AdaptiveAvg):
    _fn = staticmethod(F.adaptive_avg_pool3d)

    def __init__(self, output_size, data_format="NCDHW", name=None):
        super().__init__(output_size, data_format, name)


class _AdaptiveMax(Layer):
    _fn = None

    def __init__(self, output_size, return_mask=False, name=None):
        super().__init__()
        self._output_size = self.output_size = output_size
        self._return_mask = self.return_mask = return_mask
        self._name = name

    def forward(self, x):
        return type(self)._fn(x, self._output_size, self._return_mask)

    @property
    def return_indices(self):
        return self._return_mask

    def extra_repr(self):
        return f"output_size={self._output_size}, return_mask={self._return_mask}"


class AdaptiveMaxPool1D(_AdaptiveMax):
    _fn = staticmethod(F.adaptive_max_pool1d)

    def forward(self, input):  # (Paddle's 1-D pooling layers name it `input`)
        return F.adaptive_max_pool1d(input, self._output_size, self._return_mask)


class AdaptiveMaxPool2D(_AdaptiveMax):
    _fn = staticmethod(F.adaptive_max_pool2d)


class AdaptiveMaxPool3D(_AdaptiveMax):
    _fn = staticmethod(F.adaptive_max_pool3d)


class _MaxUnPool(Layer):
    _fn = None

    def __init__(self, kernel_size, stride=None, padding=0, data_format=None, output_size=None, name=None):
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.data_format = data_format or self._default_format
        self.output_size, self.name = output_size, name

    def forward(self, x, indices, output_size=None):
        """`output_size` (Paddle 3.3's): this call's output size, else the one given at construction."""
        return type(self)._fn(x, indices, self.ksize, stride=self.stride, padding=self.padding,
                              data_format=self.data_format,
                              output_size=self.output_size if output_size is None else output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class MaxUnPool1D(_MaxUnPool):
    _fn, _default_format = staticmethod(F.max_unpool1d), "NCL"


class MaxUnPool2D(_MaxUnPool):
    _fn, _default_format = staticmethod(F.max_unpool2d), "NCHW"


class MaxUnPool3D(_MaxUnPool):
    _fn, _default_format = staticmethod(F.max_unpool3d), "NCDHW"


AdaptiveMaxPool1d, AdaptiveMaxPool2d, AdaptiveMaxPool3d = AdaptiveMaxPool1D, AdaptiveMaxPool2D, AdaptiveMaxPool3D
AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d = AdaptiveAvgPool1D, AdaptiveAvgPool2D, AdaptiveAvgPool3D
MaxUnpool1d, MaxUnpool2d, MaxUnpool3d = MaxUnPool1D, MaxUnPool2D, MaxUnPool3D
LPPool1d, LPPool2d = LPPool1D, LPPool2D


class _FractionalMaxPool(Layer):
    _fn = None

    def __init__(self, output_size, kernel_size=None, random_u=None, return_mask=False, name=None):
        super().__init__()
        self._output_size, self._kernel_size, self._random_u = output_size, kernel_size, random_u
        self._return_mask, self._name = return_mask, name

    def forward(self, x):
        return type(self)._fn(x, output_size=self._output_size, kernel_size=self._kernel_size,
                              random_u=self._random_u, return_mask=self._return_mask)

    def extra_repr(self):
        return f"output_size={self._output_size}, return_mask={self._return_mask}"


class FractionalMaxPool2D(_FractionalMaxPool):
    _fn = staticmethod(F.fractional_max_pool2d)


class FractionalMaxPool3D(_FractionalMaxPool):
    _fn = staticmethod(F.fractional_max_pool3d)
