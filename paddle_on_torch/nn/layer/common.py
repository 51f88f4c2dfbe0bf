"""paddle.nn common layers: Linear ([in, out] weight), Bilinear, Identity, Flatten/Unflatten, dropouts,
Embedding, padding layers, upsampling, Fold/Unfold, CosineSimilarity."""
import torch

from ..._normalize import is_tensor
from ..._core import dtype as _dtypes
from ...tensor import manipulation as _manip
from .. import functional as F
from .layers import Layer, parameter_pair

__all__ = ["AlphaDropout", "Bilinear", "CircularPad1D", "CircularPad1d", "CircularPad2D", "CircularPad2d",
           "CircularPad3D", "CircularPad3d", "ConstantPad1D", "ConstantPad1d", "ConstantPad2D", "ConstantPad2d",
           "ConstantPad3D", "ConstantPad3d", "CosineSimilarity", "Dropout", "Dropout2D", "Dropout3D", "Embedding",
           "FeatureAlphaDropout", "Flatten", "Fold", "Identity", "Linear", "Pad1D", "Pad2D", "Pad3D",
           "ReflectionPad1D", "ReflectionPad1d", "ReflectionPad2D", "ReflectionPad2d", "ReflectionPad3D",
           "ReflectionPad3d", "ReplicationPad1D", "ReplicationPad1d", "ReplicationPad2D", "ReplicationPad2d",
           "ReplicationPad3D", "ReplicationPad3d", "Unflatten", "Unfold", "Upsample", "UpsamplingBilinear2D",
           "UpsamplingNearest2D", "ZeroPad1D", "ZeroPad2D", "ZeroPad3D", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d",
           "UpsamplingBilinear2d", "UpsamplingNearest2d"]


def _name_suffix(name):
    return f", name={name}" if name else ""


class Identity(Layer):
    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Layer):
    def __init__(self, in_features, out_features, weight_attr=None, bias_attr=None, name=None):
        super().__init__()
        self._in_features, self._out_features = in_features, out_features
        self._weight_attr, self._bias_attr, self.name = weight_attr, bias_attr, name
        self.weight = self.create_parameter(shape=[in_features, out_features], attr=weight_attr, is_bias=False)
        self.bias = self.create_parameter(shape=[out_features], attr=bias_attr, is_bias=True)

    def forward(self, input):
        weight, bias = parameter_pair(self, "weight", "bias")
        return F.linear(input, weight, bias)

    def extra_repr(self):
        return (f"in_features={self.weight.shape[0]}, out_features={self.weight.shape[1]}, dtype={self._dtype}"
                + _name_suffix(self.name))


class Bilinear(Layer):
    def __init__(self, in1_features, in2_features, out_features, weight_attr=None, bias_attr=None, name=None):
        super().__init__()
        self._in1_features, self._in2_features, self._out_features = in1_features, in2_features, out_features
        self._weight_attr, self._bias_attr, self._name = weight_attr, bias_attr, name
        self.weight = self.create_parameter(shape=[out_features, in1_features, in2_features], attr=weight_attr)
        self.bias = self.create_parameter(shape=[1, out_features], attr=bias_attr, is_bias=True)

    def forward(self, x1, x2):
        return F.bilinear(x1, x2, self.weight, self.bias)

    def extra_repr(self):
        return (f"in1_features={self._in1_features}, in2_features={self._in2_features}, "
                f"out_features={self._out_features}, dtype={self._dtype}" + _name_suffix(self._name))


class Flatten(Layer):
    def __init__(self, start_axis=1, stop_axis=-1):
        super().__init__()
        self.start_axis, self.stop_axis = start_axis, stop_axis

    def forward(self, input):
        return _manip.flatten(input, start_axis=self.start_axis, stop_axis=self.stop_axis)


class Unflatten(Layer):
    def __init__(self, axis, shape, name=None):
        super().__init__()
        self.axis, self.shape, self.name = axis, shape, name

    def forward(self, input):
        return _manip.unflatten(input, axis=self.axis, shape=self.shape)

    def extra_repr(self):
        return f"axis={self.axis}, shape={self.shape}" + _name_suffix(self.name)


# ---------------------------------------------------------------- dropout
class Dropout(Layer):
    def __init__(self, p=0.5, inplace=False, axis=None, mode="upscale_in_train", name=None):
        super().__init__()
        if isinstance(p, bool) or not isinstance(p, (int, float)):
            raise TypeError("p argument should be a number")
        if p < 0 or p > 1:
            raise ValueError("p argument should between 0 and 1")
        self.p, self.axis, self.mode, self.name, self.inplace = p, axis, mode, name, inplace

    def forward(self, input):
        return F.dropout(input, p=self.p, axis=self.axis, training=self.training, mode=self.mode)

    def extra_repr(self):
        return f"p={self.p}, axis={self.axis}, mode={self.mode}" + _name_suffix(self.name) + \
            f", inplace={self.inplace}"


class Dropout2D(Layer):
    def __init__(self, p=0.5, data_format="NCHW", name=None):
        super().__init__()
        self.p, self.data_format, self.name = p, data_format, name

    def forward(self, input):
        return F.dropout2d(input, p=self.p, training=self.training, data_format=self.data_format)

    def extra_repr(self):
        return f"p={self.p}, data_format={self.data_format}" + _name_suffix(self.name)


class Dropout3D(Layer):
    def __init__(self, p=0.5, data_format="NCDHW", name=None):
        super().__init__()
        self.p, self.data_format, self.name = p, data_format, name

    def forward(self, input):
        return F.dropout3d(input, p=self.p, training=self.training, data_format=self.data_format)

    def extra_repr(self):
        return f"p={self.p}, data_format={self.data_format}" + _name_suffix(self.name)


class AlphaDropout(Layer):
    def __init__(self, p=0.5, name=None):
        super().__init__()
        self.p, self.name = p, name

    def forward(self, input):
        return F.alpha_dropout(input, p=self.p, training=self.training)

    def extra_repr(self):
        return f"p={self.p}" + _name_suffix(self.name)


class FeatureAlphaDropout(AlphaDropout):
    def forward(self, input):
        return F.feature_alpha_dropout(input, p=self.p, training=self.training)


# ---------------------------------------------------------------- embedding
class Embedding(Layer):
    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0, *,
                 scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, device=None, dtype=None,
                 weight_attr=None, name=None):
        super().__init__()
        self._num_embeddings, self._embedding_dim, self._sparse = num_embeddings, embedding_dim, sparse
        self._is_distributed, self._max_norm, self._norm_type = False, max_norm, norm_type
        self._padding_idx, self._scale_grad_by_freq = padding_idx, scale_grad_by_freq
        if num_embeddings <= 0:
            raise ValueError("num_embeddings must be gather than 0")
        if embedding_dim <= 0:
            raise ValueError("embedding_dim must be gather than 0")
        pi = -1 if padding_idx is None else (padding_idx if padding_idx >= 0 else num_embeddings + padding_idx)
        if pi >= num_embeddings or pi < -num_embeddings:
            raise ValueError(f"padding_idx must be within [-{num_embeddings}, {num_embeddings})")
        if dtype is not None:
            self._dtype = dtype if isinstance(dtype, str) else _dtypes.dtype_name(_dtypes.to_torch_dtype(dtype))
        self._size = [num_embeddings, embedding_dim]
        self._weight_attr, self._name = weight_attr, name
        if _weight is not None:
            if list(_weight.shape) != self._size:
                raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = _weight
            self.weight.stop_gradient = _freeze
        else:
            self.weight = self.create_parameter(attr=weight_attr, shape=self._size, is_bias=False)
            if weight_attr is None:
                self.weight.stop_gradient = _freeze
        if pi != -1:
            with torch.no_grad():
                self.weight._t[pi] = 0.0

    @property
    def padding_idx(self):
        return self._padding_idx

    @padding_idx.setter
    def padding_idx(self, value):
        self._padding_idx = value

    def forward(self, x):
        return F.embedding(x, weight=self.weight, padding_idx=self._padding_idx, max_norm=self._max_norm,
                           norm_type=self._norm_type, sparse=self._sparse,
                           scale_grad_by_freq=self._scale_grad_by_freq)

    def extra_repr(self):
        s = f"{self._num_embeddings}, {self._embedding_dim}"
        if self._padding_idx is not None:
            s += f", padding_idx={self._padding_idx}"
        s += f", sparse={self._sparse}, scale_grad_by_freq={self._scale_grad_by_freq}"
        if self._name is not None:
            s += f", name={self._name}"
        return s


# ---------------------------------------------------------------- padding
class _PadnD(Layer):
    _n_dim = 1
    _default_format = "NCL"

    def __init__(self, padding, mode="constant", value=0.0, data_format=None, name=None):
        super().__init__()
        self.padding = padding if is_tensor(padding) or isinstance(padding, (list, tuple)) \
            else [padding] * (2 * self._n_dim)
        self._mode, self.value = mode, value
        self._data_format, self._name = data_format or self._default_format, name

    def forward(self, x):
        return F.pad(x, pad=self.padding, mode=self._mode, value=self.value, data_format=self._data_format)

    def extra_repr(self):
        return (f"padding={self.padding}, mode={self._mode}, value={self.value}, data_format={self._data_format}"
                + _name_suffix(self._name))


def _pad_family(n, fmt):
    base = type(f"Pad{n}D", (_PadnD,), {"_n_dim": n, "_default_format": fmt, "__module__": __name__})

    def fixed(mode, cls_name):
        def __init__(self, padding, data_format=fmt, name=None):
            base.__init__(self, padding, mode, 0.0, data_format, name)

        return type(cls_name, (base,), {"__init__": __init__, "__module__": __name__})

    def __cinit__(self, padding, value, data_format=fmt, name=None):
        base.__init__(self, padding, "constant", value, data_format, name)

    constant = type(f"ConstantPad{n}D", (base,), {"__init__": __cinit__, "__module__": __name__})
    return (base, constant, fixed("replicate", f"ReplicationPad{n}D"), fixed("reflect", f"ReflectionPad{n}D"),
            fixed("constant", f"ZeroPad{n}D"), fixed("circular", f"CircularPad{n}D"))


Pad1D, ConstantPad1D, ReplicationPad1D, ReflectionPad1D, ZeroPad1D, CircularPad1D = _pad_family(1, "NCL")
Pad2D, ConstantPad2D, ReplicationPad2D, ReflectionPad2D, ZeroPad2D, CircularPad2D = _pad_family(2, "NCHW")
Pad3D, ConstantPad3D, ReplicationPad3D, ReflectionPad3D, ZeroPad3D, CircularPad3D = _pad_family(3, "NCDHW")
ConstantPad1d, ConstantPad2d, ConstantPad3d = ConstantPad1D, ConstantPad2D, ConstantPad3D
ReplicationPad1d, ReplicationPad2d, ReplicationPad3d = ReplicationPad1D, ReplicationPad2D, ReplicationPad3D
ReflectionPad1d, ReflectionPad2d, ReflectionPad3d = ReflectionPad1D, ReflectionPad2D, ReflectionPad3D
CircularPad1d, CircularPad2d, CircularPad3d = CircularPad1D, CircularPad2D, CircularPad3D
ZeroPad1d, ZeroPad2d, ZeroPad3d = ZeroPad1D, ZeroPad2D, ZeroPad3D


# ---------------------------------------------------------------- upsampling
class Upsample(Layer):
    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=False, align_mode=0,
                 data_format=None, recompute_scale_factor=None, name=None):
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode.lower()
        self.align_corners, self.align_mode, self.data_format = align_corners, align_mode, data_format
        self.recompute_scale_factor, self.name = recompute_scale_factor, name

    def forward(self, x):
        return F.interpolate(x, size=self.size, scale_factor=self.scale_factor, mode=self.mode,
                             align_corners=self.align_corners, align_mode=self.align_mode,
                             data_format=self.data_format)

    def extra_repr(self):
        main = f"scale_factor={self.scale_factor}" if self.scale_factor is not None else f"size={self.size}"
        return (f"{main}, mode={self.mode}, align_corners={self.align_corners}, align_mode={self.align_mode}, "
                f"data_format={self.data_format}" + _name_suffix(self.name))


class UpsamplingNearest2D(Layer):
    _mode, _align = "nearest", False

    def __init__(self, size=None, scale_factor=None, data_format="NCHW", name=None):
        super().__init__()
        self.size, self.scale_factor, self.data_format, self.name = size, scale_factor, data_format, name

    def forward(self, x):
        return F.interpolate(x, size=self.size, scale_factor=self.scale_factor, mode=self._mode,
                             align_corners=self._align, align_mode=0, data_format=self.data_format)

    def extra_repr(self):
        main = f"scale_factor={self.scale_factor}" if self.scale_factor is not None else f"size={self.size}"
        return f"{main}, data_format={self.data_format}" + _name_suffix(self.name)


class UpsamplingBilinear2D(UpsamplingNearest2D):
    _mode, _align = "bilinear", True


# ---------------------------------------------------------------- fold / unfold / similarity
class Unfold(Layer):
    def __init__(self, kernel_sizes, dilations=1, paddings=0, strides=1, name=None):
        super().__init__()
        self.kernel_sizes, self.dilations, self.paddings, self.strides, self.name = (kernel_sizes, dilations,
                                                                                    paddings, strides, name)

    def forward(self, input):
        return F.unfold(input, kernel_sizes=self.kernel_sizes, strides=self.strides, paddings=self.paddings,
                        dilations=self.dilations)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_sizes}, dilation={self.dilations}, padding={self.paddings}, "
                f"stride={self.strides}" + _name_suffix(self.name))


class Fold(Layer):
    def __init__(self, output_sizes, kernel_sizes, dilations=1, paddings=0, strides=1, name=None):
        super().__init__()
        self.output_sizes, self.kernel_sizes, self.dilations = output_sizes, kernel_sizes, dilations
        self.paddings, self.strides, self.name = paddings, strides, name

    def forward(self, input):
        return F.fold(input, self.output_sizes, self.kernel_sizes, strides=self.strides, paddings=self.paddings,
                      dilations=self.dilations)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_sizes}, dilation={self.dilations}, padding={self.paddings}, "
                f"stride={self.strides}" + _name_suffix(self.name))


class CosineSimilarity(Layer):
    def __init__(self, axis=1, eps=1e-8):
        super().__init__()
        self._axis, self._eps = axis, eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, axis=self._axis, eps=self._eps)

    def extra_repr(self):
        return f"axis={self._axis}, eps={self._eps}"


UpsamplingBilinear2d, UpsamplingNearest2d = UpsamplingBilinear2D, UpsamplingNearest2D  # (Paddle 3.3's torch names)
