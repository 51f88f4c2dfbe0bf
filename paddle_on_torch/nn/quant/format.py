"""paddle.nn.quant.format: the quantize / dequantize layers a converted (deployable) quantized model holds,
and ConvertibleQuantedLayer, the base of layers that convert their quanters into them."""
import abc

import torch

from ..._normalize import wrap
from ...framework.param_attr import ParamAttr
from ...tensor.creation import to_tensor
from ...utils import unique_name
from ..initializer import Constant
from ..layer.layers import Layer


def _per_axis(scale, x, axis):
    if axis >= 0 and scale.dim() > 0:
        shape = [1] * x.dim()
        shape[axis] = scale.numel()
        return scale.reshape(shape)
    return scale


def _inverse(s):
    # phi::funcs::inverse: 1 / (s + 1e-6) for a scale at or below 1e-30
    return torch.where(s <= 1e-30, 1.0 / (s + 1e-6), 1.0 / s)


def round_half_away(v):
    """std::round / paddle.round: ties go away from zero (torch.round sends them to even)."""
    return _round_half_away_(v.clone())


def _round_half_away_(v):
    """round_half_away that reuses `v` as scratch: fresh big allocations are what costs here (3x faster)."""
    r = torch.round(v)
    sign = torch.sign(v)
    # where torch.round went to even toward zero at a tie, (v - r) * sign(v) is exactly 0.5: step one away
    return r.add_(v.sub_(r).mul_(sign).eq_(0.5).mul_(sign))


def _quantize_linear(x, scale, axis, qmin, qmax):
    """Paddle's quantize_linear kernel (round_type 0): clip(round_half_even(qmax / s * x), qmin, qmax)."""
    s = _per_axis(scale, x, axis)
    return torch.clamp(torch.round(qmax * _inverse(s) * x), qmin, qmax)


def _dequantize_linear(x, scale, axis, qmax):
    return x * _per_axis(scale, x, axis) / qmax


def fake_fp8_quant(input, scale, axis=-1, type="e4m3"):
    """Scale into the fp8 range, clip and round through float8 (channel-wise or tensor-wise)."""
    x, s = input._t, scale._t
    if axis >= 0:
        s = _per_axis(s, x, axis)
    limit, dt = {"e4m3": (448.0, torch.float8_e4m3fn), "e5m2": (57344.0, torch.float8_e5m2)}.get(type, (None, None))
    if dt is None:
        raise NotImplementedError("only support e4m3 or e5m2 now")
    v = (x.float() * limit / s).clip(-limit, limit)
    return wrap(v.to(dt).to(x.dtype))


def fake_fp8_dequant(input, scale, axis=-1, type="e4m3"):
    x, s = input._t, scale._t
    if axis >= 0:
        s = _per_axis(s, x, axis)
    limit = {"e4m3": 448.0, "e5m2": 57344.0}.get(type)
    if limit is None:
        raise NotImplementedError("only support e4m3 or e5m2 now")
    return wrap((x.float() / limit * s).to(x.dtype))


class LinearQuanterDequanter(Layer):
    def __init__(self, quanter, dequanter):
        super().__init__()
        self._quanter = quanter
        self._dequanter = dequanter

    def forward(self, input):
        out = input
        if self._quanter is not None:
            out = self._quanter(out)
        if self._dequanter is not None:
            out = self._dequanter(out)
        return out

    @staticmethod
    def from_quanter(quanter):
        assert quanter is not None
        return LinearQuanterDequanter(LinearQuanter.from_quanter(quanter), LinearDequanter.from_quanter(quanter))


class _LinearQDQBase(Layer):
    """The state LinearQuanter and LinearDequanter share: scales and zero points as non-trainable parameters,
    the integer range from bit_length (an int, or (4, 3) / (5, 2) for float8 e4m3 / e5m2)."""

    def __init__(self, scales, zero_point=None, quant_axis=None, bit_length=8, group_size=128):
        super().__init__()
        scales = to_tensor(scales, dtype="float32")
        self._scales = self._param(scales, "quant_dequant.scale", 1.0)
        self.in_accum = to_tensor(0.0, dtype="float32")
        self.in_state = to_tensor(0.0, dtype="float32")
        zero_point = to_tensor(zero_point, dtype="float32")  # None raises TypeError here, as in Paddle
        self._zero_point = self._param(zero_point, "quant_dequant.zero_point", 0.0)
        self._quant_axis = -1 if quant_axis is None else quant_axis
        self._bit_length = bit_length
        self._group_size = group_size
        if isinstance(bit_length, tuple):
            if tuple(bit_length) == (4, 3):
                self._qmin, self._qmax = -448, 448
            elif tuple(bit_length) == (5, 2):
                self._qmin, self._qmax = -57344, 57344
            else:
                raise NotImplementedError(
                    "Currently, only float8_e4m3 and float8_e5m2 formats are supported. Please set quant_bits to "
                    "(4,3) or (5,2) for the corresponding format.")
            self._bit_length = bit_length[0] + bit_length[1] + 1
        else:
            self._qmax = (1 << (bit_length - 1)) - 1
            self._qmin = -self._qmax - 1

    def _param(self, value, prefix, init):
        attr = ParamAttr(name=unique_name.generate(prefix), initializer=Constant(init), trainable=False)
        p = self.create_parameter(shape=value.shape, attr=attr, dtype="float32")
        p.set_value(value)
        return p

    @classmethod
    def from_quanter(cls, quanter):
        return cls(quanter.scales(), zero_point=quanter.zero_points(), quant_axis=quanter.quant_axis(),
                   bit_length=quanter.bit_length())


class LinearQuanter(_LinearQDQBase):
    """Quantize to integer values (kept in the input's dtype); the result carries no gradient."""

    def forward(self, input):
        if self._qmax in (448, 57344):
            return fake_fp8_quant(input, self._scales, self._quant_axis, "e4m3" if self._qmax == 448 else "e5m2")
        x, s, zp = input._t.detach(), self._scales._t.detach(), self._zero_point._t.detach()
        if s.dim() > 1:  # group-wise scales [groups, channels]
            xf = x.float()
            if bool(zp.sum() != 0):
                q = round_half_away(xf / s) + zp
            else:
                q = round_half_away(xf / torch.repeat_interleave(s, self._group_size, 0) * self._qmax) \
                    + torch.repeat_interleave(zp, self._group_size, 0)
            return wrap(torch.clamp(q, self._qmin, self._qmax).to(x.dtype))
        return wrap(_quantize_linear(x.float(), s, self._quant_axis, self._qmin, self._qmax).to(x.dtype))


class LinearDequanter(_LinearQDQBase):
    """Dequantize integer values: x * scale / qmax (per tensor or along quant_axis)."""

    def forward(self, input):
        if self._qmax in (448, 57344):
            return fake_fp8_dequant(input, self._scales, self._quant_axis, "e4m3" if self._qmax == 448 else "e5m2")
        x, s, zp = input._t.detach(), self._scales._t.detach(), self._zero_point._t.detach()
        if s.dim() > 1:
            xf = x.float()
            if bool(zp.sum() != 0):
                out = (xf - zp) * s
            else:
                out = (xf - torch.repeat_interleave(zp, self._group_size, 0)) / self._qmax \
                    * torch.repeat_interleave(s, self._group_size, 0)
            return wrap(out.to(x.dtype))
        return wrap(_dequantize_linear(x.float(), s, self._quant_axis, self._qmax).to(x.dtype))


class ConvertibleQuantedLayer(Layer, metaclass=abc.ABCMeta):
    """Base of quanted layers that `Quantization.convert` turns into deployable form: each weight quanter
    becomes a dequanter (the weight itself is stored quantized), each activation quanter a
    LinearQuanterDequanter."""

    def __init__(self):
        super().__init__()
        self.converted = False

    @abc.abstractmethod
    def weights_to_quanters(self):
        """[(weight name, quanter name), ...]"""

    @abc.abstractmethod
    def activation_quanters(self):
        """[activation quanter name, ...]"""

    def _convert_quanter_to_qdq(self, quanter_name):
        if not hasattr(self, quanter_name):
            return None
        quanter = getattr(self, quanter_name)
        if quanter is None:
            return None
        quanter = LinearQuanterDequanter.from_quanter(quanter)
        setattr(self, quanter_name, quanter)
        self._sub_layers[quanter_name] = quanter
        return quanter

    def _quant_weights(self, weight_name, quanter):
        weight = getattr(self, weight_name)
        weight.set_value(quanter(weight))

    def _convert(self, remain_weight=False):
        assert not self.converted, "The model should be converted only once."
        for weight_name, quanter_name in self.weights_to_quanters():
            qdq = self._convert_quanter_to_qdq(quanter_name)
            if qdq is not None and remain_weight is False:
                self._quant_weights(weight_name, qdq._quanter)
                qdq._quanter = None
                qdq._sub_layers["_quanter"] = None
        for quanter_name in self.activation_quanters():
            self._convert_quanter_to_qdq(quanter_name)
        self.converted = True
