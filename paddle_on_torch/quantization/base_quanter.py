"""BaseQuanter: the abstract layer every quanter (fake quantize) and observer extends."""
import abc

from ..nn.layer.layers import Layer


class BaseQuanter(Layer, metaclass=abc.ABCMeta):
    def __init__(self):
        super().__init__()

    @abc.abstractmethod
    def forward(self, input):
        pass

    @abc.abstractmethod
    def scales(self):
        """The quantization scales (None when the quanter holds none)."""

    @abc.abstractmethod
    def zero_points(self):
        """The zero points (None when the quanter holds none)."""

    @abc.abstractmethod
    def quant_axis(self):
        """The quantization axis; -1 (or None) is per-tensor."""

    @abc.abstractmethod
    def bit_length(self):
        """The bit length of the quantized integers."""
